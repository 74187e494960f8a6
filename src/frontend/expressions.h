// Lowering expressions: one syntax tree of an expression, with the loop variables bound to
// numbers, becomes a GiNaC expression of the model's symbols. Checks names (undeclared, reserved,
// forward references), types (numbers against conditions), derivatives, arities, indices (in
// range, constant whole numbers) and constants (division by zero, values no double holds). The
// flattening stage lowers the same tree once per element it stands for; an error is reported
// once per place in the source, not once per element.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <ginac/ginac.h>

#include "frontend/ast.h"
#include "frontend/declarations.h"
#include "model/model.h"
#include "support/diagnostics.h"

namespace daec {

/// What an expression being lowered is for; it decides what it may refer to.
enum class Role {
  ParameterValue,   ///< constants and parameters declared earlier
  StartValue,       ///< constants and parameters
  OutputValue,      ///< variables, first derivatives, earlier outputs, parameters, t
  Equation,         ///< anything
  InitialEquation,  ///< anything: holds at the start time only
  Constant,         ///< a size, a range, an index: a whole number fixed at compile time
};

/// A loop variable in scope and its value in the current iteration.
struct Binding {
  std::string name;
  long value;
};

struct Context {
  Role role;
  std::string owner;  ///< the parameter, variable, output or equation being lowered
  /// Parameters declared at this index or later are forward references (parameter values, and the
  /// sizes of parameters).
  size_t parameter_limit = SIZE_MAX;
  std::string what;               ///< Role::Constant: what needs the constant ("the size of 'x'")
  std::vector<Binding> bindings;  ///< the loop variables in scope, innermost last
};

/// The bound on the work of flattening: array elements declared plus iterations of loops, array
/// comprehensions, sums and products. A model past it is an error, not an allocation.
class ElementBudget {
 public:
  explicit ElementBudget(size_t limit) : limit_(limit) {}
  /// Takes `count` units; false (and exhausted from then on) if that goes past the limit.
  bool take(size_t count);
  bool exhausted() const { return exhausted_; }
  size_t limit() const { return limit_; }

 private:
  size_t used_ = 0;
  size_t limit_;
  bool exhausted_ = false;
};

/// The default of ElementBudget: a million, hundreds of times the largest models daec reduces in
/// reasonable time (the 1000-link chain has 5,000 variables and 1,000 iterations), yet a bound on
/// the time (about 10 s of flattening at most) and memory (a few hundred MB) a few bytes of model
/// text can ask for.
constexpr size_t kDefaultMaxElements = 1'000'000;

class ExpressionLowering {
 public:
  ExpressionLowering(Model& model, Declarations& declarations, const ModelSyntax& syntax,
                     DiagnosticEngine& diags, ElementBudget& budget)
      : model_(model),
        declarations_(declarations),
        syntax_(syntax),
        diags_(diags),
        budget_(budget) {}

  /// `expr` as a number (a condition there is an error).
  std::optional<GiNaC::ex> number(const Expr& expr, Context& context);
  /// `expr` as a condition (a number there is an error).
  std::optional<GiNaC::ex> condition(const Expr& expr, Context& context);
  /// `expr` as a constant whole number, within +-10^15 (Role::Constant; context.what names it).
  std::optional<long> integer(const Expr& expr, Context& context);
  /// The elements of a declaration's value (start, parameter or output value), row-major: an
  /// expression fills every element, an array literal or comprehension gives them one by one.
  std::optional<std::vector<GiNaC::ex>> array_value(const Expr& expr,
                                                    const std::vector<long>& shape,
                                                    const std::string& array, Context& context);
  /// Checks a loop variable about to be bound in `context`; false after reporting.
  bool check_loop_variable(const NameToken& variable, const Context& context);
  /// The range first:last of a loop over `variable`, after taking its iterations from the budget.
  std::optional<std::pair<long, long>> range(const NameToken& variable, const Expr& first,
                                             const Expr& last, Context& context,
                                             const SourceLocation& where);

  /// Makes the derivatives of the variable `symbol` (model.variables[slot]) available.
  void register_variable(const GiNaC::ex& symbol, size_t slot) { variable_slot_[symbol] = slot; }

  /// A derivative in an output or an initial equation: it has a value only if the equations use
  /// that order (checked once the equations are known, check_derivative_uses).
  struct DerivativeUse {
    GiNaC::ex symbol;
    SourceLocation location;
    std::string where;  ///< "output 'omega'", "initial equation 'eq7'"
  };
  const std::vector<DerivativeUse>& derivative_uses() const { return derivative_uses_; }

  /// Reports an error, once per place in the source (a loop would repeat it for every element).
  /// Returns false if it was reported before.
  bool error(const SourceLocation& loc, const std::string& message);
  /// " (at i = 3, j = 1)" for the bindings in `context`, "" outside loops.
  static std::string at_bindings(const Context& context);
  /// "the value of parameter 'a'", "equation 'rod[2]'", ...
  static std::string role_noun(const Context& context);

 private:
  struct Value {
    GiNaC::ex value;
    bool condition = false;  ///< a relation, and, or, not (else a number)
  };

  std::optional<Value> lower(const Expr& expr, Context& context);
  std::optional<Value> lower_name(const Expr& expr, Context& context);
  std::optional<Value> lower_index(const Expr& expr, Context& context);
  std::optional<Value> lower_element(const Expr& expr, const Declaration& decl, size_t element,
                                     const std::string& name, Context& context);
  std::optional<size_t> element_of(const Expr& expr, const Declaration& decl, Context& context);
  std::optional<Value> lower_derivative(const Expr& expr, Context& context);
  std::optional<Value> lower_call(const Expr& expr, Context& context);
  // interp(v, XS, YS): frontend/interp_call.cpp.
  std::optional<Value> lower_interp(const Expr& expr, Context& context);
  std::optional<std::vector<GiNaC::ex>> table_argument(const Expr& call, size_t argument,
                                                       Context& context);
  bool check_breakpoints(const Expr& call, const std::vector<GiNaC::ex>& xs);
  std::optional<Value> lower_power(const Expr& expr, Context& context);
  std::optional<Value> lower_nary(const Expr& expr, Context& context);
  std::optional<Value> lower_if(const Expr& expr, Context& context);
  std::optional<Value> lower_logical(const Expr& expr, Context& context);
  std::optional<Value> lower_reduction(const Expr& expr, Context& context);
  bool fill_value(const Expr& expr, const std::vector<long>& shape, size_t dimension,
                  const std::string& array, Context& context, std::vector<GiNaC::ex>& out);
  /// Runs `build`, reporting at `loc` what goes wrong (`function`: the built-in being applied).
  template <typename Build>
  std::optional<Value> checked(const SourceLocation& loc, Build build,
                               const std::string& function = {});
  std::optional<std::vector<GiNaC::ex>> numbers(const Expr& expr, Context& context);

  const long* loop_variable(const std::string& name, const Context& context) const;
  void report_undeclared(const Expr& expr);
  void report_forward_reference(const Expr& expr, const Declaration& referenced,
                                const Context& context);
  std::optional<Value> lower_output(const Expr& expr, const Declaration& decl, size_t element,
                                    const Context& context);
  std::vector<std::string> referenced_names(DeclKind kind, size_t index) const;
  void report_order_or_cycle(const Expr& expr, const Declaration& referenced,
                             const std::string& owner);

  Model& model_;
  Declarations& declarations_;
  const ModelSyntax& syntax_;
  DiagnosticEngine& diags_;
  ElementBudget& budget_;
  std::set<size_t> reported_;                ///< source offsets of the errors reported
  std::set<std::string> in_reported_cycle_;  ///< parameters of the cycles reported so far
  std::map<GiNaC::ex, size_t, GiNaC::ex_is_less> variable_slot_;  ///< symbol -> model index
  std::vector<DerivativeUse> derivative_uses_;
};

}  // namespace daec
