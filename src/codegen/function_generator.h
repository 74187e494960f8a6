// The common ground of the generators of the Model's function bodies (model_functions.h): the
// reduced system with its derivative blocks, the code of its symbols, and the helpers that turn
// lists of assignments into statements and bodies. Internal to codegen: each family of functions
// (codegen/*_functions.cpp) builds on it.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <ginac/ginac.h>

#include "codegen/expression_code.h"
#include "codegen/function_parts.h"
#include "codegen/jacobian_structure.h"
#include "codegen/linear_solve.h"
#include "reduction/expression_matrix.h"
#include "reduction/reduce.h"

namespace daec::function_code {

/// The parameters the generated functions pass to their parts.
inline const CodeParameter kP{"const double*", "p"}, kT{"double", "t"}, kX{"const double*", "x"};

inline CodeParameter in(const char* name) {
  return {"const double*", name};
}
inline CodeParameter out(const char* name) {
  return {"double*", name};
}

/// What every generator reads: the system, the LU plan of A (nullopt without algebraic unknowns),
/// where long bodies go, and the derivative blocks.
struct Generator {
  const ReducedSystem& system;
  const std::optional<LinearSolvePlan>& plan;
  FunctionParts& parts;
  std::vector<int> position;  ///< Z index -> position in the block triangular form
  size_t n, m, k;
  size_t max_expression_size = 0;  ///< of a derivative; 0: no limit
  /// The derivative blocks every Jacobian is made of (dg/dZ is system.A): computed once.
  ExpressionMatrix dF_dX, dF_dZ, dg_dX, dh_dX;

  Generator(const ReducedSystem& s, const std::optional<LinearSolvePlan>& p, FunctionParts& f);

  /// t, p[k] and x[i]; Z as `z[c]` (by_position false) or as `r[position]` (true); the
  /// relations as their modes (condition_code.h).
  SymbolCode symbols(bool z_by_position) const;

  SystemPatterns patterns() const {
    return {dF_dX.pattern(), dF_dZ.pattern(), dg_dX.pattern(), system.A.pattern(), dh_dX.pattern()};
  }
};

// `target = prefix (value)`, with a comment; the value 0 is not compiled.
struct Assignment {
  std::string target;
  GiNaC::ex value;
  std::string comment = "";
  std::string prefix = "";  ///< e.g. "xdot[3] - "
};

// The statements that compute every assignment, their expressions compiled together (common
// subexpressions once); each assignment comes right after the last temporary it needs, so that
// the temporaries of a long function are mostly used where they are made (function_parts.h).
std::vector<std::string> assignment_statements(const SymbolCode& symbols,
                                               const std::vector<Assignment>& list,
                                               size_t* operations = nullptr);

// The body with `(void)name;` for each parameter it does not use: a model without algebraic
// unknowns or invariants must not make the generated code warn about unused parameters.
std::string body(const std::string& code, std::initializer_list<const char*> parameters);

// The locals and the call that compute Z (by position, into r) at the top of a function.
// `pivot` is zeroed when the function hands it on (factor_A leaves it unset when no block needs
// row exchanges, and compilers warn about passing it on so).
std::string solve_prologue(const Generator& gen, const std::string& on_failure,
                           bool zero_pivot = false);

// The entries of `matrix` column by column, each with its row (mapped through `row_of` if it
// is not empty) and value times `sign`, rows increasing within a column.
struct ColumnEntries {
  std::vector<int> start{0}, row;
  std::vector<GiNaC::ex> value;
};

ColumnEntries by_columns(const ExpressionMatrix& matrix, const std::vector<int>& row_of = {},
                         int sign = 1);

/// The position of each constraint (row of A) in A's block triangular order.
std::vector<int> constraint_positions(const Generator& gen);

/// `array[i] = values[i]` for each value.
std::vector<Assignment> array_assignments(const char* array, const std::vector<GiNaC::ex>& values);

}  // namespace daec::function_code
