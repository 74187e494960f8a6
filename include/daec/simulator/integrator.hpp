// What the simulator asks of an integration method: one internal step at a time towards T (never
// past it), the solution anywhere within the last step, and the counts for the statistics line.
// Each method (bdf, radau5, ida, ...) implements it in a file of its own.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace daec::simulator {

/// The counts every method reports; a method that has no such count leaves it 0.
struct Statistics {
  long steps = 0;
  long rhs_evaluations = 0;  // right-hand side or residual evaluations
  long jacobian_evaluations = 0;
  long projections = 0;
  long events = 0;  // changes of the model's conditions (events.hpp), counted by the run
  // Entries of the LU factors of the iteration matrix, the most of the run: the counted work of
  // each solve, which depends on the ordering the linear solver chose (n^2 for a dense solver).
  long factor_nonzeros = 0;
};

/// The counts of two stretches of one run (a method restarted after an event counts afresh).
inline Statistics& operator+=(Statistics& total, const Statistics& more) {
  total.steps += more.steps;
  total.rhs_evaluations += more.rhs_evaluations;
  total.jacobian_evaluations += more.jacobian_evaluations;
  total.projections += more.projections;
  total.events += more.events;
  total.factor_nonzeros = std::max(total.factor_nonzeros, more.factor_nonzeros);
  return total;
}

class Integrator {
 public:
  virtual ~Integrator() = default;

  /// One internal step; returns the time reached, the state (X) in x. `t_output` is the next
  /// output time: a method may end its step exactly there (radau5 does) or step past it and
  /// interpolate (bdf, ida); none ever steps past T. Fails (run_error) naming the time reached
  /// when the method cannot go on.
  virtual double step(double t_output, std::vector<double>& x) = 0;
  /// The state at t within the last step, projected onto the invariants where the projection
  /// succeeds (the method's interpolant alone is accurate only along the constraint manifold).
  virtual void interpolate(double t, std::vector<double>& x) = 0;
  /// The state of an output row at t, the end of the last step, from the state x step() gave:
  /// x itself where the method keeps its step ends on the constraint manifold (radau5, bdf);
  /// a method that lets them drift (ida) projects it, as it does the rows it interpolates.
  virtual void step_end_row(double t, const std::vector<double>& x, std::vector<double>& row) {
    (void)t;
    row = x;
  }
  /// Starts afresh at (t, x), consistent with the constraints, after an event changed the
  /// model's branch: the next step is taken like a first one; the statistics go on.
  virtual void restart(double t, const std::vector<double>& x) = 0;
  /// Steps at most h_max long from now on, the first after a restart too; 0: no limit. The run
  /// redoes a step whose end is not finite this way (step_redo.hpp).
  virtual void limit_step(double h_max) = 0;
  /// Ends the run: integration failed at t for `why`, with the model's last failure in notes.
  [[noreturn]] virtual void fail(double t, const std::string& why) const = 0;
  /// Whether a failure of the model (rhs, Jacobian, projection) that the integration did not get
  /// past is recorded: then fail()'s note names it, and it, not the method, stopped the run.
  virtual bool model_failed() const = 0;
  /// dX/dp at t, the end of the last step or within it (--sensitivities: a column of
  /// num_states values per parameter); empty where the method integrates none.
  virtual void sensitivities(double t, std::vector<double>& s) {
    (void)t;
    s.clear();
  }
  /// The sensitivities the next restart() starts from (after a switch: sensitivity_jump.hpp).
  virtual void carry_sensitivities(const std::vector<double>& s) { (void)s; }
  virtual Statistics statistics() const = 0;
};

}  // namespace daec::simulator
