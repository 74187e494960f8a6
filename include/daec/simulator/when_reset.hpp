// The resets of when clauses (docs/language.md, "When clauses and reinit"; docs/simulator.md,
// "Resets"). At an event, the clauses whose condition was false under the modes before it and is
// true under the modes after it fire. Every value of every firing clause is computed from the
// state just before the instant (the near end of the located bracket, where the conditions had
// not changed yet) under the modes before it, the targets are set in the state at the instant,
// and the state is made consistent again keeping exactly those values and, where the
// constraints allow, every continuous state (the model's differential variables): the dummies
// and promoted unknowns are recomputed, the invariants hold, the initial equations and fixed
// starts (which hold at T0 only) are not imposed. The method then restarts from it.
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <daec/runtime/system.hpp>
#include <daec/simulator/integrator.hpp>
#include <daec/simulator/output.hpp>

namespace daec::simulator {

/// The when clauses that fire at (t, x): false under the modes of `before`, true under those of
/// `after`.
inline std::vector<int> fired_clauses(const System& before, const System& after, double t,
                                      const std::vector<double>& x) {
  const int count = after.num_when_clauses;
  std::vector<int> fired;
  if (count == 0) return fired;
  std::vector<double> was = buffer(count), is = buffer(count);
  before.when_conditions(t, x.data(), was.data());
  after.when_conditions(t, x.data(), is.data());
  for (int k = 0; k < count; ++k)
    if (!(was[static_cast<size_t>(k)] > 0.0) && is[static_cast<size_t>(k)] > 0.0)
      fired.push_back(k);
  return fired;
}

/// The names of `clauses`, quoted and joined with "and".
inline std::string clause_names(const System& model, const std::vector<int>& clauses) {
  std::string names;
  for (size_t i = 0; i < clauses.size(); ++i)
    names += (i == 0 ? "" : " and ") + text::quoted(model.when_names[clauses[i]]);
  return names;
}

/// What the `fired` clauses set at t: the state at the instant `x_at` (past the crossing, where
/// the conditions that fired are true: the states nothing resets carry it, so that a clause does
/// not fire again as soon as the run restarts) with each reinit's target set to its value at
/// `x_before` (the near end of the bracket) under the modes of `before`, and which values were
/// set (`held`, X then Z). Stops the run through `integrator` where a value is not finite.
struct ResetValues {
  std::vector<double> x, z;
  std::vector<char> held;  // num_states + num_algebraic
};
inline ResetValues reset_values(const System& before, const System& model, double t,
                                const std::vector<double>& x_before,
                                const std::vector<double>& x_at, const std::vector<int>& fired,
                                const Integrator& integrator) {
  const int n = model.num_states, m = model.num_algebraic;
  ResetValues values{x_at, buffer(m),
                     std::vector<char>(static_cast<size_t>(n + m > 0 ? n + m : 1))};
  std::vector<double> xdot = buffer(n);
  if (m > 0) (void)before.rhs(t, x_before.data(), xdot.data(), values.z.data());
  std::unique_ptr<bool[]> held(new bool[values.held.size()]());
  for (int clause : fired) {
    if (before.reinit(clause, t, x_before.data(), values.x.data(), values.z.data(), held.get()) !=
        0)
      integrator.fail(t, "the values of " + text::quoted(model.when_names[clause]) +
                             " are not finite (or cannot be computed) at the instant");
  }
  for (size_t i = 0; i < values.held.size(); ++i) values.held[i] = held[i];
  return values;
}

/// `values.x` made consistent with `model`'s modes keeping what a reset set (values.held) and the
/// continuous states where the constraints allow (the model's consistent_reinitialization).
/// Stops the run through `integrator` where no consistent state keeps them; `cause` names the
/// clauses or the switch.
inline std::vector<double> reinitialized(const System& model, double t, const ResetValues& values,
                                         const std::string& cause, const Integrator& integrator) {
  std::vector<double> x = values.x;
  std::unique_ptr<bool[]> held(new bool[values.held.size()]);
  for (size_t i = 0; i < values.held.size(); ++i) held[i] = values.held[i] != 0;
  const int status = model.consistent_reinitialization(t, x.data(), values.z.data(), held.get());
  if (status != 0)
    integrator.fail(t, "no consistent state follows " + cause +
                           (status == 3 ? " (what it must keep contradicts the constraints)"
                                        : " (the re-initialization does not converge)"));
  return x;
}

/// The state after the `fired` clauses at t (reset_values, then reinitialized), from one state
/// `x_before` for both the values and the states carried: the sensitivities' differences of the
/// reset (sensitivity_jump.hpp).
inline std::vector<double> reset_state(const System& before, const System& model, double t,
                                       const std::vector<double>& x_before,
                                       const std::vector<int>& fired,
                                       const Integrator& integrator) {
  return reinitialized(model, t,
                       reset_values(before, model, t, x_before, x_before, fired, integrator),
                       clause_names(model, fired), integrator);
}

/// The continuous states (System::state_continuous) that nothing held but that moved from
/// `before` to `after` by more than rtol |before| + atol: the constraints forced them.
inline std::vector<int> moved_continuous_states(const System& model,
                                                const std::vector<double>& before,
                                                const std::vector<double>& after,
                                                const std::vector<char>& held, double rtol,
                                                double atol) {
  std::vector<int> moved;
  for (int i = 0; i < model.num_states; ++i) {
    const size_t k = static_cast<size_t>(i);
    if ((k < held.size() && held[k]) ||
        (model.state_continuous != nullptr && !model.state_continuous[i]))
      continue;
    if (!(std::fabs(after[k] - before[k]) <= rtol * std::fabs(before[k]) + atol))
      moved.push_back(i);
  }
  return moved;
}

}  // namespace daec::simulator
