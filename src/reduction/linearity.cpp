// Linear / nonlinear classification of algebraic unknowns and the preprocessing step.
#include "reduction/linearity.h"

#include <set>

#include "model/conditions.h"
#include "reduction/symbolic.h"

namespace daec {

// Marks the algebraic unknowns (by index) that `e` is not affine in. An unknown in a condition
// counts as nonlinear (i = if v > 0 then v/R1 else v/R2 is piecewise linear in v): A Z = b is
// solved with b = -g(Z = 0), which would evaluate the condition at v = 0, and the simulator must
// be able to watch every condition as a function of the states and t.
static void mark_nonlinear(const GiNaC::ex& e, const std::vector<GiNaC::ex>& algebraic,
                           std::vector<bool>& nonlinear) {
  SymbolSet present = symbols_in(e);
  SymbolSet in_conditions = condition_symbols(e);
  for (size_t i = 0; i < algebraic.size(); ++i) {
    if (!present.count(algebraic[i])) continue;
    if (in_conditions.count(algebraic[i])) nonlinear[i] = true;
    GiNaC::ex first = derivative(e, algebraic[i]);
    SymbolSet in_first = symbols_in(first);
    for (size_t j = i; j < algebraic.size(); ++j) {
      if (!in_first.count(algebraic[j])) continue;
      if (!is_identically_zero(derivative(first, algebraic[j]))) {
        nonlinear[i] = true;
        nonlinear[j] = true;
      }
    }
  }
}

static std::vector<bool> nonlinear_flags(const SemiExplicitSystem& system) {
  std::vector<GiNaC::ex> algebraic;
  for (const Unknown& u : system.algebraic) algebraic.push_back(u.symbol);
  std::vector<bool> nonlinear(algebraic.size(), false);
  for (const StateEquation& f : system.differential) mark_nonlinear(f.rhs, algebraic, nonlinear);
  for (const Constraint& g : system.constraints) mark_nonlinear(g.residual, algebraic, nonlinear);
  return nonlinear;
}

std::vector<std::string> nonlinear_unknowns(const SemiExplicitSystem& system) {
  std::vector<bool> nonlinear = nonlinear_flags(system);
  std::vector<std::string> names;
  for (size_t i = 0; i < nonlinear.size(); ++i) {
    if (nonlinear[i]) names.push_back(system.algebraic[i].name);
  }
  return names;
}

std::vector<std::string> promote_nonlinear(SemiExplicitSystem& system) {
  std::vector<bool> nonlinear = nonlinear_flags(system);
  std::vector<Unknown> linear, derivatives;
  std::vector<std::string> promoted;
  for (size_t i = 0; i < system.algebraic.size(); ++i) {
    Unknown& unknown = system.algebraic[i];
    if (!nonlinear[i]) {
      linear.push_back(unknown);
      continue;
    }
    GiNaC::realsymbol rate = system.context.fresh_symbol(unknown.name + "_dot");
    derivatives.push_back(
        Unknown{rate.get_name(), rate, UnknownOrigin::Nonlinear, unknown.name, 0, false, ""});
    system.differential.push_back(
        StateEquation{system.states.size(),
                      rate,
                      derivative_name(unknown.name, 1) + " = " + rate.get_name(),
                      {}});
    system.states.push_back(unknown);
    promoted.push_back(unknown.name);
  }
  linear.insert(linear.end(), derivatives.begin(), derivatives.end());
  system.algebraic = std::move(linear);
  return promoted;
}

}  // namespace daec
