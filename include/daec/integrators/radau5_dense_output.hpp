// The dense output of the Radau5 integrator (radau5.hpp): the collocation polynomial of the last
// accepted step (RADAU5's CONTR5), its value anywhere in that step, and its extrapolation to the
// stages of the next step, where the Newton iteration starts (docs/integrators.md, "How the Radau
// code is organised").
//
// The polynomial of degree 3 through y_old and the three stage values is kept in Newton's
// divided-difference form about the end of the step t_end (s = (t - t_end)/h, nodes s = c_k - 1):
//   P(s) = y + s (d1 + (s - (c2 - 1)) (d2 + (s - (c1 - 1)) d3)),
// where y = P(0) is the state at t_end; d1, d2, d3 are RADAU5's CONT(N+1..4N).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "daec/integrators/radau5_coefficients.hpp"
#include "daec/integrators/radau5_collocation.hpp"

namespace daec {
namespace integrators {
namespace detail {

// A time this far outside the last step (relative to max(|t_end|, h)) still counts as inside it:
// rounding in t_old + h.
constexpr double kInterpolationSlack = 1e-13;

class Radau5DenseOutput {
 public:
  void resize(size_t n) {
    for (auto* d : {&d1_, &d2_, &d3_}) d->assign(n, 0.0);
  }
  /// Forgets the polynomial, as at a (re)start: until a step is accepted the dense output is
  /// the constant state.
  void clear() {
    for (auto* d : {&d1_, &d2_, &d3_}) std::fill(d->begin(), d->end(), 0.0);
    step_ = 0.0;
  }
  /// The length of the step the polynomial belongs to (RADAU5's HOLD); 0 before the first one.
  double step() const { return step_; }

  /// The polynomial of the accepted step of length h with the stage increments Z of `stages`.
  void fit(const Radau5Stages& stages, double h) {
    const auto& c = Radau5Coefficients::get();
    for (size_t i = 0; i < d1_.size(); ++i) {
      const double z1 = stages.z1[i], z2 = stages.z2[i], z3 = stages.z3[i];
      d1_[i] = (z2 - z3) / c.c2m1;
      const double slope = (z1 - z2) / c.c1mc2;
      const double curvature = (slope - z1 / c.c1) / c.c2;
      d2_[i] = (slope - d1_[i]) / c.c1m1;
      d3_[i] = d2_[i] - curvature;
    }
    step_ = h;
  }

  /// P(t) for t in [t_end - step(), t_end] into out (size n), where y_end is the state at
  /// t_end; false (out untouched) if t is outside the step.
  bool evaluate(double t_end, const std::vector<double>& y_end, double t, double* out) const {
    const double slack = kInterpolationSlack * std::max(std::fabs(t_end), std::fabs(step_));
    if (t > t_end + slack || t < t_end - step_ - slack) return false;
    if (step_ == 0.0) {
      std::copy(y_end.begin(), y_end.end(), out);
      return true;
    }
    const auto& c = Radau5Coefficients::get();
    const double s = (t - t_end) / step_;
    for (size_t i = 0; i < y_end.size(); ++i)
      out[i] = y_end[i] + s * (d1_[i] + (s - c.c2m1) * (d2_[i] + (s - c.c1m1) * d3_[i]));
    return true;
  }

  /// Newton's starting values for the next step of length h: the polynomial extrapolated to its
  /// stages (Z_k = P(t_end + c_k h) - y) and W = T^-1 Z; zero if there is no polynomial yet.
  void start_stages(double h, Radau5Stages& stages) const {
    if (step_ == 0.0) {
      stages.zero();
      return;
    }
    const auto& c = Radau5Coefficients::get();
    const double s3 = h / step_, s1 = c.c1 * s3, s2 = c.c2 * s3;
    for (size_t i = 0; i < d1_.size(); ++i) {
      const double d1 = d1_[i], d2 = d2_[i], d3 = d3_[i];
      const double z1 = s1 * (d1 + (s1 - c.c2m1) * (d2 + (s1 - c.c1m1) * d3));
      const double z2 = s2 * (d1 + (s2 - c.c2m1) * (d2 + (s2 - c.c1m1) * d3));
      const double z3 = s3 * (d1 + (s3 - c.c2m1) * (d2 + (s3 - c.c1m1) * d3));
      stages.z1[i] = z1;
      stages.z2[i] = z2;
      stages.z3[i] = z3;
      stages.w1[i] = c.ti11 * z1 + c.ti12 * z2 + c.ti13 * z3;
      stages.w2[i] = c.ti21 * z1 + c.ti22 * z2 + c.ti23 * z3;
      stages.w3[i] = c.ti31 * z1 + c.ti32 * z2 + c.ti33 * z3;
    }
  }

 private:
  std::vector<double> d1_, d2_, d3_;  // the divided differences (RADAU5's CONT)
  double step_ = 0.0;
};

}  // namespace detail
}  // namespace integrators
}  // namespace daec
