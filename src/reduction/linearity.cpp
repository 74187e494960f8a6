// Linear / nonlinear classification of algebraic unknowns and the preprocessing step.
#include "reduction/linearity.h"

#include "model/conditions.h"
#include "reduction/expression_matrix.h"
#include "reduction/symbolic.h"
#include "support/watchdog.h"

namespace daec {

// Marks the algebraic unknowns (by index) that `e` is not affine in. An unknown in a condition
// counts as nonlinear (i = if v > 0 then v/R1 else v/R2 is piecewise linear in v): A Z = b is
// solved with b = -g(Z = 0), which would evaluate the condition at v = 0, and the simulator must
// be able to watch every condition as a function of the states and t.
static void mark_nonlinear(const GiNaC::ex& e, const std::vector<Unknown>& algebraic,
                           const SymbolColumns& columns, std::vector<bool>& nonlinear) {
  SymbolSet in_conditions = condition_symbols(e);
  for (int i : columns.columns_in(e)) {
    if (in_conditions.count(algebraic[i].symbol)) nonlinear[i] = true;
    GiNaC::ex first = derivative(e, algebraic[i].symbol);
    for (int j : columns.columns_in(first)) {
      if (j < i) continue;
      if (!is_identically_zero(derivative(first, algebraic[j].symbol))) {
        nonlinear[i] = true;
        nonlinear[j] = true;
      }
    }
  }
}

static std::vector<bool> nonlinear_flags(const SemiExplicitSystem& system) {
  SymbolColumns columns(system.algebraic);
  std::vector<bool> nonlinear(system.algebraic.size(), false);
  // The stage names each equation: what GiNaC throws from one is reported there.
  for (const StateEquation& f : system.differential) {
    enter_stage(f.location, "classifying the algebraic variables");
    mark_nonlinear(f.rhs, system.algebraic, columns, nonlinear);
  }
  for (const Constraint& g : system.constraints) {
    enter_stage(g.location, "classifying the algebraic variables");
    mark_nonlinear(g.residual, system.algebraic, columns, nonlinear);
  }
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
