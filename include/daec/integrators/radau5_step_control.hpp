// The step control of the Radau5 integrator (radau5.hpp): the starting step, the embedded error
// estimate, the step size it asks for (RADAU5's formula with Gustafsson's predictive
// controller), the step limits (maximum step, stop time), and what an accepted or rejected step
// does to the next step size (docs/integrators.md, "How the Radau code is organised").
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "daec/integrators/radau5_coefficients.hpp"
#include "daec/integrators/radau5_collocation.hpp"
#include "daec/integrators/radau5_types.hpp"

namespace daec {
namespace integrators {
namespace detail {

// The error norm's floor: keeps the step-size proposal finite after an exact step.
constexpr double kMinErrorNorm = 1e-10;
// The error norm of a step whose estimate is not finite or could not be projected: rejected,
// and the step shrinks by the largest factor allowed.
constexpr double kFailedErrorNorm = 1e10;
// The error estimate is O(h^4): the step size scales with err^(-1/4).
constexpr double kErrorExponent = 0.25;
// The floor of the accepted error Gustafsson's controller remembers.
constexpr double kMinAcceptedError = 1e-2;
// A step rejected before any step was accepted is redone this much shorter.
constexpr double kFirstRejectionFactor = 0.1;
// A step whose end t + this * h reaches the stop time is stretched or cut to end exactly there
// (no sliver of a step is left before it).
constexpr double kStopTimeStretch = 1.0001;
// A step h with this * |h| <= |t| * uround no longer advances t reliably: too small.
constexpr double kMinStepFraction = 0.1;
// The starting-step heuristic (docs/integrators.md, "Options"), with d0 = |y|, d1 = |f|,
// d2 = |f'| in the weights of the error norm:
// below this, d0 or d1 counts as zero;
constexpr double kStartScaleMin = 1e-5;
// the probe step then, and the least starting step when f does not change;
constexpr double kStartProbeStep = 1e-6;
// otherwise the probe step is this * d0 / d1;
constexpr double kStartProbeFraction = 0.01;
// the starting step is at most this many probe steps;
constexpr double kStartProbeGrowth = 100.0;
// below this, max(d1, d2) counts as zero: f does not change;
constexpr double kStartFlat = 1e-15;
// and the starting step is then this fraction of the probe step (at least kStartProbeStep);
constexpr double kStartFlatFraction = 1e-3;
// otherwise it is (this / max(d1, d2))^(1/4): an error estimate of about this size.
constexpr double kStartTarget = 0.01;

/// What an accepted step means for the next one's matrices.
struct NextStep {
  bool new_factorization = false;  ///< h changed: the LU must be redone
  bool new_jacobian = false;       ///< Newton converged too slowly to reuse J
};

/// The step size, its history, and the decisions on it. Names follow RADAU5's where noted so
/// that the code can be read beside the Fortran.
class Radau5StepControl {
 public:
  explicit Radau5StepControl(const Radau5Options& options) : options_(options) {}

  void resize(size_t n) {
    for (auto* v : {&weighted_stages_, &estimate_, &work_, &f_work_}) v->assign(n, 0.0);
  }
  /// Starts afresh with step h: no step accepted yet, none rejected.
  void start(double h) {
    h_ = h;
    first_step_ = true;
    rejected_ = false;
    has_accepted_step_ = false;
  }

  double h() const { return h_; }
  bool first_step() const { return first_step_; }
  bool cut_short() const { return cut_short_; }
  /// Where the step from t ends: t + h, or exactly at the limit it was cut short to.
  double step_end(double t) const { return cut_short_ ? step_end_ : t + h_; }

  /// Applies the limits to the step from t: max_step, the fixed step, and `limit` (the stop
  /// or output time). True if h changed (the LU must be redone).
  bool fit_to_limits(double t, double limit) {
    double h = options_.fixed_step > 0.0 ? options_.fixed_step : std::min(h_, options_.max_step);
    cut_short_ = false;
    if (t + h * kStopTimeStretch >= limit) {
      h_unclipped_ = h;
      h = limit - t;
      step_end_ = limit;
      cut_short_ = true;
    }
    const bool changed = h != h_;
    h_ = h;
    return changed;
  }

  /// Below min_step, or too short to advance t in floating point (the remainder up to a limit
  /// may be short).
  bool too_small(double t) const {
    if (cut_short_ && h_ > 0.0) return false;
    if (h_ < options_.min_step) return true;
    return !(kMinStepFraction * std::fabs(h_) > std::fabs(t) * kUround) || !(h_ > 0.0);
  }

  /// Shortens the step by `factor` and marks it as retried (a slow or failed Newton iteration).
  void shorten(double factor) {
    h_ *= factor;
    rejected_ = true;
  }

  /// The step failed the error test; h_new is proposed_step()'s answer.
  void reject(double h_new) {
    rejected_ = true;
    h_ = first_step_ ? kFirstRejectionFactor * h_ : h_new;
  }

  /// The step size the error norm err asks for after `iterations` Newton iterations: RADAU5's
  /// formula, and after an accepted step also Gustafsson's predictive controller.
  double proposed_step(double err, int iterations) const {
    if (options_.fixed_step > 0.0) return options_.fixed_step;
    const int max_iterations = options_.max_newton_iterations;
    const double safety = options_.safety;
    const double min_quotient = 1.0 / options_.max_step_ratio;  // RADAU5's FACR
    const double max_quotient = 1.0 / options_.min_step_ratio;  // RADAU5's FACL
    // Fewer Newton iterations, more trust: the safety factor grows towards `safety`.
    const double fac =
        std::min(safety, safety * (1 + 2 * max_iterations) / (iterations + 2 * max_iterations));
    double quotient = clamp(std::pow(err, kErrorExponent) / fac, min_quotient, max_quotient);
    if (err < 1.0 && options_.predictive_controller && has_accepted_step_) {
      double gustafsson =
          (accepted_h_ / h_) * std::pow(err * err / accepted_error_, kErrorExponent) / safety;
      quotient = std::max(quotient, clamp(gustafsson, min_quotient, max_quotient));
    }
    return h_ / quotient;
  }

  /// The step of error norm err was accepted; h_new is proposed_step()'s answer and `rate` the
  /// Newton contraction rate. Chooses the next h (kept, with J and the LU, when the change
  /// would be small and J is reused).
  NextStep accept(double err, double h_new, double rate) {
    if (options_.predictive_controller) {
      accepted_h_ = h_;
      accepted_error_ = std::max(kMinAcceptedError, err);
      has_accepted_step_ = true;
    }
    first_step_ = false;
    // A step cut short to end at a stop or output time says little about the next one.
    if (cut_short_) h_new = std::max(h_new, h_unclipped_);
    h_new = std::min(h_new, options_.max_step);
    if (rejected_) h_new = std::min(h_new, h_);
    rejected_ = false;
    NextStep next;
    const bool reuse_jacobian = rate <= options_.jacobian_reuse_theta;
    const double ratio = h_new / h_;
    if (reuse_jacobian && ratio >= options_.keep_step_low && ratio <= options_.keep_step_high)
      return next;  // same h, same J, same LU
    next.new_factorization = h_new != h_;
    h_ = h_new;
    next.new_jacobian = !reuse_jacobian;
    return next;
  }

  /// RADAU5's error estimate (ESTRAD) of the step t -> t + h in the weighted RMS norm; 1 is
  /// the tolerance. f0 = f(t, y); `solver` holds the LU for h. After a rejection or on the first
  /// step, an estimate of 1 or more is refined once with f at y + estimate, which damps its
  /// stiff components (`rhs` failing there keeps the first). `project_error(estimate)` projects
  /// the estimate onto the invariants (false: failed).
  template <class Rhs, class ProjectError, class Solver>
  double estimate_error(double t, const std::vector<double>& y, const std::vector<double>& f0,
                        const std::vector<double>& mass, const std::vector<double>& scale,
                        const Radau5Stages& s, Rhs&& rhs, ProjectError&& project_error,
                        Solver& solver, Radau5Statistics& stats) {
    const auto& c = Radau5Coefficients::get();
    const double e1 = c.dd1 / h_, e2 = c.dd2 / h_, e3 = c.dd3 / h_;
    std::vector<double>& mz = weighted_stages_;  // M (e1 Z1 + e2 Z2 + e3 Z3) / h
    for (size_t i = 0; i < y.size(); ++i) {
      mz[i] = mass[i] * (e1 * s.z1[i] + e2 * s.z2[i] + e3 * s.z3[i]);
      estimate_[i] = mz[i] + f0[i];
    }
    solver.solve_real(estimate_.data());
    ++stats.linear_solves;
    double err = error_norm(scale, mass, project_error);
    if (err >= 1.0 && (first_step_ || rejected_)) {
      for (size_t i = 0; i < y.size(); ++i) work_[i] = y[i] + estimate_[i];
      if (rhs(t, work_.data(), f_work_.data())) {
        for (size_t i = 0; i < y.size(); ++i) estimate_[i] = f_work_[i] + mz[i];
        solver.solve_real(estimate_.data());
        ++stats.linear_solves;
        err = error_norm(scale, mass, project_error);
      }
    }
    return err;
  }

 private:
  /// max(||estimate / scale||_rms, kMinErrorNorm), after the estimate's projection, over the
  /// components Radau5Options::algebraic_error selects.
  template <class ProjectError>
  double error_norm(const std::vector<double>& scale, const std::vector<double>& mass,
                    ProjectError& project_error) {
    if (!project_error(estimate_)) return kFailedErrorNorm;
    double sum = 0.0;
    int counted = 0;
    for (size_t i = 0; i < scale.size(); ++i) {
      if (!options_.algebraic_error && mass[i] == 0.0) continue;
      sum += (estimate_[i] / scale[i]) * (estimate_[i] / scale[i]);
      ++counted;
    }
    const double err = counted == 0 ? 0.0 : std::sqrt(sum / counted);
    if (!std::isfinite(err)) return kFailedErrorNorm;
    return std::max(err, kMinErrorNorm);
  }

  const Radau5Options& options_;
  double h_ = 0.0;            // the step size (RADAU5's H)
  bool first_step_ = true;    // no step accepted since the start (RADAU5's FIRST)
  bool rejected_ = false;     // the last attempt of this step failed (RADAU5's REJECT)
  bool cut_short_ = false;    // this step ends at a limit (RADAU5's LAST)
  double step_end_ = 0.0;     // that limit
  double h_unclipped_ = 0.0;  // the step it replaced
  // Gustafsson's controller: the last accepted step and its error norm (RADAU5's HACC, ERRACC).
  bool has_accepted_step_ = false;
  double accepted_h_ = 0.0, accepted_error_ = 0.0;
  std::vector<double> weighted_stages_, estimate_, work_, f_work_;
};

/// The classical starting-step heuristic (docs/integrators.md, "Options") on the differential
/// components, for an error estimate of order 3: h = min(100 h0, (0.01 / max(d1, d2))^(1/4)),
/// with d0 = |y|, d1 = |f(t, y)|, d2 = |f(t + h0, y + h0 f) - f|/h0 in the scale's weights,
/// at most `max_step` and the probe h0 at most `room` (the time left before the stop time).
/// `rhs` failing at the probe leaves d2 = 0; `work` and `f_work` are scratch of size n.
template <class Rhs>
double initial_step(double t, const std::vector<double>& y, const std::vector<double>& f0,
                    const std::vector<double>& mass, const std::vector<double>& scale,
                    double max_step, double room, Rhs&& rhs, std::vector<double>& work,
                    std::vector<double>& f_work) {
  double d0 = 0.0, d1 = 0.0;
  for (size_t i = 0; i < y.size(); ++i) {
    if (mass[i] == 0.0) continue;
    d0 = std::max(d0, std::fabs(y[i]) / scale[i]);
    d1 = std::max(d1, std::fabs(f0[i]) / scale[i]);
  }
  double h0 = (d0 < kStartScaleMin || d1 < kStartScaleMin) ? kStartProbeStep
                                                           : kStartProbeFraction * d0 / d1;
  h0 = std::min(h0, max_step);
  h0 = std::min(h0, room);  // f only up to the stop time
  for (size_t i = 0; i < y.size(); ++i) work[i] = y[i] + h0 * mass[i] * f0[i];
  double d2 = 0.0;
  if (rhs(t + h0, work.data(), f_work.data())) {
    for (size_t i = 0; i < y.size(); ++i) {
      if (mass[i] == 0.0) continue;
      double difference = f_work[i] - f0[i];
      d2 = std::max(d2, std::fabs(difference) / scale[i] / h0);
    }
  }
  const double largest = std::max(d1, d2);
  const double h1 = largest <= kStartFlat ? std::max(kStartProbeStep, h0 * kStartFlatFraction)
                                          : std::pow(kStartTarget / largest, kErrorExponent);
  return std::min(kStartProbeGrowth * h0, h1);
}

}  // namespace detail
}  // namespace integrators
}  // namespace daec
