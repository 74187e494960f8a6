// The semi-explicit stage.
#include "reduction/semi_explicit.h"

#include <map>

#include "reduction/symbolic.h"
#include "units/unit_text.h"

namespace daec {

namespace {

using SymbolIndex = std::map<GiNaC::ex, size_t, GiNaC::ex_is_less>;

bool has_any(const GiNaC::ex& e, const SymbolIndex& symbols) {
  for (const GiNaC::ex& s : symbols_in(e)) {
    if (symbols.count(s)) return true;
  }
  return false;
}

// If `equation` reads x' = expr (or expr = x') with no derivative in expr, the unknown x and expr.
std::optional<std::pair<size_t, GiNaC::ex>> explicit_form(const SystemEquation& equation,
                                                          const SymbolIndex& derivatives) {
  for (int side = 0; side < 2; ++side) {
    const GiNaC::ex& lhs = side == 0 ? equation.lhs : equation.rhs;
    const GiNaC::ex& rhs = side == 0 ? equation.rhs : equation.lhs;
    auto it = derivatives.find(lhs);
    if (it != derivatives.end() && !has_any(rhs, derivatives)) return std::pair(it->second, rhs);
  }
  return std::nullopt;
}

}  // namespace

SemiExplicitSystem to_semi_explicit(const FirstOrderSystem& system) {
  SemiExplicitSystem result{system.context, {}, {}, {}, {}};
  SymbolIndex derivative_owner;  // x' -> index of x in result.states
  std::vector<GiNaC::ex> state_derivative;
  for (size_t i = 0; i < system.unknowns.size(); ++i) {
    if (system.derivative[i]) {
      derivative_owner[*system.derivative[i]] = result.states.size();
      state_derivative.push_back(*system.derivative[i]);
      result.states.push_back(system.unknowns[i]);
    } else {
      result.algebraic.push_back(system.unknowns[i]);
    }
  }
  std::vector<std::optional<StateEquation>> defined(result.states.size());
  std::vector<const SystemEquation*> implicit;
  for (const SystemEquation& equation : system.equations) {
    auto form = explicit_form(equation, derivative_owner);
    if (form && !defined[form->first]) {
      defined[form->first] =
          StateEquation{form->first, form->second, equation.label, equation.location};
    } else {
      implicit.push_back(&equation);
    }
  }
  // Derivatives left without an explicit equation become dummy variables; those with one are
  // replaced by their right-hand side wherever else they occur.
  GiNaC::exmap replacement;
  for (size_t state = 0; state < result.states.size(); ++state) {
    if (!defined[state]) {
      const Unknown& x = result.states[state];
      GiNaC::realsymbol dummy = result.context.fresh_symbol(x.name + "_dot");
      result.algebraic.push_back(Unknown{dummy.get_name(), dummy, UnknownOrigin::Dummy, x.name, 0,
                                         false, "", 0, per_second(x.unit)});
      defined[state] =
          StateEquation{state, dummy, derivative_name(x.name, 1) + " = " + dummy.get_name(), {}};
    }
    replacement[state_derivative[state]] = defined[state]->rhs;
  }
  for (auto& equation : defined) result.differential.push_back(*equation);
  for (const SystemEquation* equation : implicit) {
    result.constraints.push_back(Constraint{equation->label, equation->label, 0, equation->location,
                                            substitute_symbols(equation->residual(), replacement)});
  }
  return result;
}

}  // namespace daec
