// The collocation solve of the Radau5 integrator (radau5.hpp): the stage increments of one step
// and the simplified Newton iteration on the stage equations, with its convergence-rate
// monitoring (docs/integrators.md, "How the Radau code is organised").
//
// The stage equations Z = h (A x I) F(Z) for the increments Z_k = Y_k - y at t + c_k h are solved
// in the variables W = (T^-1 x I) Z, in which the iteration matrix splits into a real system
// (gamma/h M - J) and a complex one ((alpha + i beta)/h M - J). The contraction rate theta of the
// iteration, measured from the norms of successive corrections, predicts whether it converges in
// the iterations left; a divergent or too slow iteration ends the attempt early.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "daec/integrators/radau5_coefficients.hpp"
#include "daec/integrators/radau5_types.hpp"

namespace daec {
namespace integrators {
namespace detail {

// Corrections within this factor of the rounding of f propagated through the real iteration
// matrix are rounding (the stage transformation multiplies f's rounding by up to about ten).
constexpr double kRoundingFloorFactor = 10.0;
// A contraction rate at or above this is taken as divergence.
constexpr double kDivergentRate = 0.99;
// Safety factor of the step reduction when the iteration is predicted to converge too slowly.
constexpr double kSlowStepSafety = 0.8;
// The predicted final error (relative to the tolerance) enters that reduction at least this,
constexpr double kSlowPredictionMin = 1e-4;
// and at most this: no prediction shrinks the step below 0.8 * 20^(-1/4), about 0.38 of it.
constexpr double kSlowPredictionMax = 20.0;
// The reduction's exponent is -1/(this + the iterations left): the error estimate's order 4.
constexpr double kSlowStepExponentBase = 4.0;
// The error factor carried into the next step's first iteration is damped to (factor)^this.
constexpr double kErrorFactorDamping = 0.8;
// Upper bound of the default Newton tolerance min(0.03, sqrt(rtol)).
constexpr double kNewtonToleranceMax = 0.03;
// Lower bound of the default Newton tolerance, times 1/rtol: ten rounding units.
constexpr double kNewtonToleranceFloor = 10.0 * kUround;

/// The Newton tolerance for the (possibly transformed) rtol: the option if positive, else
/// RADAU5's default max(10 uround / rtol, min(0.03, sqrt(rtol))).
inline double newton_tolerance(double option, double rtol) {
  return option > 0.0 ? option
                      : std::max(kNewtonToleranceFloor / rtol,
                                 std::min(kNewtonToleranceMax, std::sqrt(rtol)));
}

/// The unknowns of one step's stage equations, each of size n.
struct Radau5Stages {
  std::vector<double> z1, z2, z3;  // Z_k = Y_k - y, the stage increments
  std::vector<double> w1, w2, w3;  // W = T^-1 Z, the variables Newton updates
  // f at the stages Y_k, then (solved in place) the corrections of W.
  std::vector<double> f1, f2, f3;

  void resize(size_t n) {
    for (auto* v : {&z1, &z2, &z3, &w1, &w2, &w3, &f1, &f2, &f3}) v->assign(n, 0.0);
  }
  /// Z = W = 0: the start of a first step (y itself at every stage).
  void zero() {
    for (auto* v : {&z1, &z2, &z3, &w1, &w2, &w3}) std::fill(v->begin(), v->end(), 0.0);
  }
};

enum class NewtonOutcome { converged, diverged, slow, f_failed };

struct NewtonResult {
  NewtonOutcome outcome = NewtonOutcome::diverged;
  int iterations = 0;        ///< converged: the iterations taken (the step control's safety)
  double step_factor = 0.5;  ///< slow: the factor to shorten the step by
};

/// The simplified Newton iteration on the stage equations. Keeps, across steps, the last
/// contraction rate (which decides whether J is reused) and the error factor theta/(1 - theta)
/// (which judges the first iteration of the next step).
class Radau5Newton {
 public:
  /// n components, at most `max_iterations` per solve, `tolerance` on the estimated error
  /// of the stage values (weighted RMS norm), `start_rate` the rate assumed before measuring.
  void configure(int n, int max_iterations, double tolerance, double start_rate) {
    n_ = n;
    max_iterations_ = max_iterations;
    tolerance_ = tolerance;
    start_rate_ = start_rate;
    work_.assign(static_cast<size_t>(n), 0.0);
  }
  /// Forgets the history, as at the start of an integration.
  void reset() {
    error_factor_ = 1.0;
    contraction_rate_ = start_rate_;
  }
  double contraction_rate() const { return contraction_rate_; }
  double tolerance() const { return tolerance_; }
  /// The norm below which corrections are rounding (Radau5::rounding_floor, for the current
  /// iteration matrix): there the iteration has converged as far as it can, whatever its rate.
  void set_rounding_floor(double floor) { rounding_floor_ = floor; }

  /// Solves the stage equations of the step (t, y) -> t + h from the starting values in
  /// `stages`, with the LU of the iteration matrices in `solver` (for this h). `rhs(t, y, f)`
  /// evaluates f (false: failed); `mass` holds M's diagonal, `scale` the error weights.
  template <class Rhs, class Solver>
  NewtonResult solve(double t, const std::vector<double>& y, double h,
                     const std::vector<double>& mass, const std::vector<double>& scale, Rhs&& rhs,
                     Solver& solver, Radau5Statistics& stats, Radau5Stages& s) {
    const auto& c = Radau5Coefficients::get();
    NewtonResult result;
    error_factor_ = std::pow(std::max(error_factor_, kUround), kErrorFactorDamping);
    contraction_rate_ = std::fabs(start_rate_);
    double previous_norm = 0.0, previous_ratio = 0.0;
    for (int iteration = 0;;) {
      if (iteration >= max_iterations_) return result;  // diverged
      if (!stage_rhs(c, t, y, h, rhs, s)) {
        result.outcome = NewtonOutcome::f_failed;
        return result;
      }
      solve_corrections(c, h, mass, solver, s);
      ++stats.linear_solves;
      ++stats.newton_iterations;
      ++iteration;
      const double norm = correction_norm(scale, s);
      if (!std::isfinite(norm)) return result;  // diverged
      // Corrections at the rounding of f (an algebraic unknown of 1e-7 with terms of order one
      // and an absolute tolerance of 1e-12) shrink no further: the iteration has converged as
      // far as it can, and the rate they measure (the floor against itself) says nothing.
      const bool at_floor = iteration > 1 && norm <= rounding_floor_;
      if (iteration > 1 && iteration < max_iterations_) {
        const double ratio = norm / previous_norm;
        contraction_rate_ = iteration == 2 ? ratio : std::sqrt(ratio * previous_ratio);
        previous_ratio = ratio;
        if (!at_floor && !(contraction_rate_ < kDivergentRate)) return result;  // diverged
        const double rate = std::min(contraction_rate_, kDivergentRate);
        error_factor_ = rate / (1.0 - rate);
        if (!at_floor && predicted_too_slow(norm, iteration, result)) return result;
      }
      previous_norm = std::max(norm, kUround);
      apply_corrections(c, s);
      if (at_floor || error_factor_ * norm <= std::max(tolerance_, rounding_floor_)) {
        result.outcome = NewtonOutcome::converged;
        result.iterations = iteration;
        return result;
      }
    }
  }

 private:
  /// f at the three stages y + Z_k into f1, f2, f3.
  template <class Rhs>
  bool stage_rhs(const Radau5Coefficients& c, double t, const std::vector<double>& y, double h,
                 Rhs& rhs, Radau5Stages& s) {
    const double times[3] = {t + c.c1 * h, t + c.c2 * h, t + h};
    const std::vector<double>* z[3] = {&s.z1, &s.z2, &s.z3};
    std::vector<double>* f[3] = {&s.f1, &s.f2, &s.f3};
    for (int k = 0; k < 3; ++k) {
      for (size_t i = 0; i < y.size(); ++i) work_[i] = y[i] + (*z[k])[i];
      if (!rhs(times[k], work_.data(), f[k]->data())) return false;
    }
    return true;
  }

  /// The right-hand sides of the transformed linear systems, solved in place: the corrections
  /// of W in f1 (real system) and f2 + i f3 (complex system).
  template <class Solver>
  static void solve_corrections(const Radau5Coefficients& c, double h,
                                const std::vector<double>& mass, Solver& solver, Radau5Stages& s) {
    const double real_h = c.u1 / h, alpha_h = c.alpha / h, beta_h = c.beta / h;
    for (size_t i = 0; i < mass.size(); ++i) {
      const double a1 = s.f1[i], a2 = s.f2[i], a3 = s.f3[i], m = mass[i];
      s.f1[i] = c.ti11 * a1 + c.ti12 * a2 + c.ti13 * a3 - m * real_h * s.w1[i];
      s.f2[i] =
          c.ti21 * a1 + c.ti22 * a2 + c.ti23 * a3 - m * (alpha_h * s.w2[i] - beta_h * s.w3[i]);
      s.f3[i] =
          c.ti31 * a1 + c.ti32 * a2 + c.ti33 * a3 - m * (beta_h * s.w2[i] + alpha_h * s.w3[i]);
    }
    solver.solve_real(s.f1.data());
    solver.solve_complex(s.f2.data(), s.f3.data());
  }

  /// The weighted RMS norm of the corrections over the three stages (RADAU5's DYNO).
  double correction_norm(const std::vector<double>& scale, const Radau5Stages& s) const {
    double sum = 0.0;
    for (size_t i = 0; i < scale.size(); ++i) {
      const double w = scale[i];
      sum += (s.f1[i] / w) * (s.f1[i] / w) + (s.f2[i] / w) * (s.f2[i] / w) +
             (s.f3[i] / w) * (s.f3[i] / w);
    }
    return std::sqrt(sum / (3.0 * n_));
  }

  /// True (with the step factor in `result`) if, at the current rate, the error would still
  /// exceed the tolerance after the iterations left: a shorter step is cheaper than trying.
  bool predicted_too_slow(double norm, int iteration, NewtonResult& result) const {
    const int left = max_iterations_ - 1 - iteration;
    const double predicted = error_factor_ * norm * std::pow(contraction_rate_, left) /
                             std::max(tolerance_, rounding_floor_);
    if (!(predicted >= 1.0)) return false;
    const double bounded = clamp(predicted, kSlowPredictionMin, kSlowPredictionMax);
    result.outcome = NewtonOutcome::slow;
    result.step_factor = kSlowStepSafety * std::pow(bounded, -1.0 / (kSlowStepExponentBase + left));
    return true;
  }

  /// W += the corrections, and Z = T W.
  static void apply_corrections(const Radau5Coefficients& c, Radau5Stages& s) {
    for (size_t i = 0; i < s.z1.size(); ++i) {
      s.w1[i] += s.f1[i];
      s.w2[i] += s.f2[i];
      s.w3[i] += s.f3[i];
      s.z1[i] = c.t11 * s.w1[i] + c.t12 * s.w2[i] + c.t13 * s.w3[i];
      s.z2[i] = c.t21 * s.w1[i] + c.t22 * s.w2[i] + c.t23 * s.w3[i];
      s.z3[i] = c.t31 * s.w1[i] + s.w2[i];
    }
  }

  int n_ = 0, max_iterations_ = 7;
  double tolerance_ = 0.0;   // RADAU5's FNEWT
  double start_rate_ = 0.0;  // Radau5Options::jacobian_reuse_theta
  // The last measured contraction rate (RADAU5's THETA) and theta/(1 - theta), the factor from
  // a correction's norm to the error left (RADAU5's FACCON).
  double contraction_rate_ = 0.0, error_factor_ = 1.0;
  double rounding_floor_ = 0.0;
  std::vector<double> work_;  // a stage's state y + Z_k
};

}  // namespace detail
}  // namespace integrators
}  // namespace daec
