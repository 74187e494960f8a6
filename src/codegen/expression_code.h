// Turns GiNaC expressions into C++ statements: common subexpressions computed once into
// temporaries, integer powers as products, square roots and reciprocals where they apply, and
// full-precision literals. Names and order are deterministic: the same input gives the same text.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <ginac/ginac.h>

#include "codegen/canonical_form.h"
#include "model/power_content.h"

namespace daec {

/// How each symbol reads in the generated code, e.g. "x[3]", "p[0]", "t"; a relation
/// (model/conditions.h) listed here reads as the code of its mode (see emit_condition).
using SymbolCode = std::map<GiNaC::ex, std::string, GiNaC::ex_is_less>;

/// A relation whose code is kSettledMode followed by its mode's code reads as the mode alone:
/// where its live value cannot be computed (it compares algebraic unknowns not yet solved for),
/// the caller has settled the mode to 0 or 1 (codegen/condition_code.h).
inline constexpr char kSettledMode[] = "settled:";

/// Compiles the expressions of one generated function. Add every expression first (so that
/// subexpressions shared between outputs are found), then ask for the code.
class ExpressionCompiler {
 public:
  /// `temporary_prefix` names the temporaries (`w0`, `w1`, ...).
  explicit ExpressionCompiler(SymbolCode symbols, std::string temporary_prefix = "w");

  /// Registers `e`; returns a handle for code_for().
  size_t add(const GiNaC::ex& e);

  /// Declarations of the temporaries (`const double w0 = ...;`), in dependency order.
  std::vector<std::string> statements();
  /// The C++ expression for the handle returned by add(); valid after statements().
  const std::string& code_for(size_t handle) const { return root_code_.at(handle); }
  /// Arithmetic operations and function calls in the emitted code.
  size_t operation_count() const { return operations_; }

 private:
  void count_uses(const GiNaC::ex& e);
  std::string emit(const GiNaC::ex& e);           ///< with its sign
  std::string emit_positive(const GiNaC::ex& e);  ///< its positive orientation (CanonicalForms)
  std::string emit_uncached(const GiNaC::ex& e);
  std::string emit_sum(const GiNaC::ex& e);
  std::string emit_product(const GiNaC::ex& e);
  std::string emit_power(const GiNaC::ex& base, const GiNaC::ex& exponent);
  std::string emit_integer_power(const std::string& base, long exponent);
  std::string emit_scaled_power(const GiNaC::ex& sum, const ContentInPower& scaled, long m);
  std::string emit_function(const GiNaC::ex& e);
  std::string emit_condition(const GiNaC::ex& e);
  std::string bind(const std::string& code);  ///< a temporary holding `code` (if not trivial)
  /// The operands of a sum or product in a fixed order: GiNaC's own order follows hash values
  /// that change from run to run, and the generated code must not.
  std::vector<GiNaC::ex> ordered_operands(const GiNaC::ex& e);
  const std::string& sort_key(const GiNaC::ex& e);  ///< the canonical key (equality, not order)

  SymbolCode symbols_;
  std::string prefix_;
  std::vector<GiNaC::ex> roots_;
  std::vector<std::string> root_code_;
  CanonicalForms forms_;
  std::unordered_map<std::string, int> uses_;             ///< by canonical key
  std::unordered_map<std::string, std::string> emitted_;  ///< canonical key -> code
  std::unordered_map<std::string, std::string> bound_;    ///< code -> temporary holding it
  std::vector<std::string> statements_;
  size_t operations_ = 0;
};

/// `value` as a C++ double literal that reads back exactly (17 significant digits).
std::string double_literal(double value);

}  // namespace daec
