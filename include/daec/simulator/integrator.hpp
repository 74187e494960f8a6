// What the simulator asks of an integration method: one internal step at a time towards T (never
// past it), the solution anywhere within the last step, and the counts for the statistics line.
// Each method (bdf, radau5, ida, ...) implements it in a file of its own.
#pragma once

#include <string>
#include <vector>

namespace daec::simulator {

/// The counts every method reports; a method that has no such count leaves it 0.
struct Statistics {
  long steps = 0;
  long rhs_evaluations = 0;  // right-hand side or residual evaluations
  long jacobian_evaluations = 0;
  long projections = 0;
};

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
  /// Ends the run: integration failed at t for `why`, with the model's last failure in notes.
  [[noreturn]] virtual void fail(double t, const std::string& why) const = 0;
  virtual Statistics statistics() const = 0;
};

}  // namespace daec::simulator
