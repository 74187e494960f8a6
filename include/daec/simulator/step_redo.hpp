// A step that ends in something not finite (the time, a state, or a condition's switching value at
// the step's end or on its interpolant) is a failed step, as one whose right-hand side failed: a
// switching value that is not a number compares false, so taken as it is it would be an event at
// no time, and its state a projection input and an output row. The methods' libraries check their
// own right-hand sides but not the conditions, which the run evaluates after the step (events.hpp),
// so the run redoes the step itself: the method starts again where the step began, with steps at
// most half as long, a limit that doubles after each good step until the integration has passed
// where the failed step ended; after kMaxRedoneSteps failures before that the run fails, naming
// the time and the quantity (docs/simulator.md, "When a run fails").
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <daec/simulator/integrator.hpp>

namespace daec::simulator {

// Failed steps before the run fails (as the methods' own limit on failed attempts at one step),
// counted until the integration passes where they ended.
constexpr int kMaxRedoneSteps = 10;

class StepRedo {
 public:
  /// Keeps the start of the next step, the last good point (t, x).
  void before_step(double t, const std::vector<double>& x) {
    t_ = t;
    x_ = x;
  }

  /// The step from the kept start, which reached `reached`, produced something not finite at
  /// t_bad (`why`): restarts the integrator at the start with steps at most half as long as the
  /// failed one, and returns that start in (t, x); the kMaxRedoneSteps-th failure ends the run.
  void redo(Integrator& integrator, double t_bad, double reached, const std::string& why, double& t,
            std::vector<double>& x) {
    const double failed = (t_bad > t_ ? t_bad : reached) - t_;
    ++failures_;
    if (failures_ >= kMaxRedoneSteps || !(failed > 0.0))
      integrator.fail(t_, why + " (" + std::to_string(failures_) +
                              " failed steps, each redone at most half as long)");
    limit_ = 0.5 * (limit_ > 0.0 ? std::min(limit_, failed) : failed);
    failed_end_ = failures_ == 1 ? reached : std::max(failed_end_, reached);
    integrator.limit_step(limit_);
    integrator.restart(t_, x_);
    t = t_;
    x = x_;
  }

  /// After a good step to `reached`: the limit doubles (a step controller's growth after a
  /// success), and once past where the failed steps ended, the steps are free again. The
  /// failures are counted until then, so that a NaN at every step size beyond some t, which
  /// lets the steps up to it succeed, still ends the run.
  void passed(Integrator& integrator, double reached) {
    if (failures_ == 0) return;
    if (reached <= failed_end_) {
      limit_ *= 2.0;
      integrator.limit_step(limit_);
      return;
    }
    integrator.limit_step(0.0);
    failures_ = 0;
    limit_ = failed_end_ = 0.0;
  }

 private:
  double t_ = 0.0;
  std::vector<double> x_;
  int failures_ = 0;         // since the integration last passed failed_end_
  double limit_ = 0.0;       // the step limit while redoing (0: none)
  double failed_end_ = 0.0;  // the latest end of a failed step
};

}  // namespace daec::simulator
