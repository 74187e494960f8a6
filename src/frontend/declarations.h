// The declarations of a model: one entry per declared name (parameter, variable or output), with
// what the flattening stage learns about it (its shape, the symbols of its elements, and for a
// parameter fixed at compile time its values). Reports reserved and duplicate names.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <ginac/ginac.h>

#include "frontend/ast.h"
#include "support/diagnostics.h"

namespace daec {

enum class DeclKind { Parameter, Variable, Output };

struct Declaration {
  DeclKind kind = DeclKind::Parameter;
  size_t index = 0;  ///< into the ModelSyntax list of its kind
  SourceLocation location;
  /// A parameter that a size, a loop range, an index or a label's index uses (directly or through
  /// other parameters): it is fixed when the model is compiled, its uses become its value.
  bool structural = false;

  // Filled by the flattening stage when the declaration is expanded into the model.
  bool expanded = false;            ///< false: not yet, or rejected (its error was reported)
  std::vector<long> shape;          ///< empty for a scalar
  std::vector<GiNaC::ex> elements;  ///< the symbols of its elements, row-major (one for a scalar)
  std::vector<size_t> slots;        ///< each element's index in the model's list of its kind
  std::vector<GiNaC::ex> values;    ///< a structural parameter: the exact value of each element

  bool is_array() const { return !shape.empty(); }
};

/// Names a model may not declare: keywords, `t`, `pi` and the built-in function names.
bool is_reserved_name(const std::string& name);

/// Why `name` is reserved ("it is a keyword", ...), for diagnostics; "" if it is not.
std::string reserved_because(const std::string& name);

class Declarations {
 public:
  /// Enters every declaration of `syntax`, reporting reserved names and redeclarations, and
  /// marks the structural parameters.
  Declarations(const ModelSyntax& syntax, DiagnosticEngine& diags);

  const Declaration* lookup(const std::string& name) const;
  Declaration* lookup(const std::string& name);
  /// The declaration for item `index` of `kind` if it was entered (not rejected), else nullptr.
  Declaration* registered(const std::string& name, DeclKind kind, size_t index);
  /// Every declared name, for suggestions.
  std::vector<std::string> names() const;

 private:
  void declare(const NameToken& name, DeclKind kind, size_t index);
  void mark_structural(const ModelSyntax& syntax);

  DiagnosticEngine& diags_;
  std::map<std::string, Declaration> table_;
};

/// The names an expression refers to (names and indexed names), as written.
void collect_names(const Expr& expr, std::vector<std::string>& names);

/// "x[3]", "A[1,2]": the name of an element.
std::string element_name(const std::string& array, const std::vector<long>& index);

}  // namespace daec
