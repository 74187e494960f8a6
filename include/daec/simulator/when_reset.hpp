// The resets of when clauses (docs/language.md, "When clauses and reinit"; docs/simulator.md,
// "Resets"). At an event, the clauses whose condition was false under the modes before it and is
// true under the modes after it fire. Every value of every firing clause is computed from the
// state just before the instant (the near end of the located bracket, where the conditions had
// not changed yet) under the modes before it, the targets are set, and the state is made
// consistent again keeping exactly those values: the invariants hold, the initial equations and
// fixed starts (which hold at T0 only) are not imposed. The method then restarts from it.
#pragma once

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

/// The state after the `fired` clauses at t: their reinits applied to `x_before` (values from it
/// with the modes of `before`), made consistent with `model`'s modes keeping those values. Stops
/// the run through `integrator` where a value is not finite or no consistent state keeps them.
inline std::vector<double> reset_state(const System& before, const System& model, double t,
                                       const std::vector<double>& x_before,
                                       const std::vector<int>& fired,
                                       const Integrator& integrator) {
  const int n = model.num_states, m = model.num_algebraic;
  std::vector<double> x = x_before, xdot = buffer(n), z = buffer(m);
  if (m > 0) (void)before.rhs(t, x_before.data(), xdot.data(), z.data());
  std::unique_ptr<bool[]> held(new bool[static_cast<size_t>(n + m > 0 ? n + m : 1)]());
  for (int clause : fired) {
    if (before.reinit(clause, t, x_before.data(), x.data(), z.data(), held.get()) != 0)
      integrator.fail(t, "the values of " + text::quoted(model.when_names[clause]) +
                             " are not finite (or cannot be computed) at the instant");
  }
  const int status = model.consistent_reinitialization(t, x.data(), z.data(), held.get());
  if (status != 0)
    integrator.fail(t, "no consistent state keeps the values set by " + clause_names(model, fired) +
                           (status == 3 ? " (they contradict the constraints)"
                                        : " (the re-initialization does not converge)"));
  return x;
}

}  // namespace daec::simulator
