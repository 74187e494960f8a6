// The jump of the forward sensitivities at a switch of a condition (docs/simulator.md,
// "Sensitivities"). A relation switches where its switching function g(t, X, p) crosses 0, so
// the instant tau moves with the parameters,
//     dtau/dp_j = -(g_X S_j + g_p_j) / (g_t + g_X F-),
// and the sensitivities go on from S_j+ = S_j- + (F- - F+) dtau/dp_j, with F- and F+ the
// right-hand sides of the old and the new branch at the switch. g's derivatives are central
// differences of the model's switching functions (Model::conditions), along the solution and
// along each (S_j, e_j).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/runtime/system.hpp>
#include <daec/simulator/events.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/integrator.hpp>

namespace daec::simulator {

// The step of the central differences of g, relative to the size of what is varied: the
// difference's error (rounding over the step plus the step squared) is then about 1e-12.
constexpr double kJumpDifferenceStep = 1e-6;
// |dg/dt| along the solution below this fraction of g's scale: the solution grazes the switch,
// whose instant then does not depend smoothly on the parameters.
constexpr double kGrazingRate = 1e-12;

class SensitivityJump {
 public:
  SensitivityJump(System& model, std::vector<int> parameters)
      : model_(model),
        n(model.num_states),
        count(model.num_conditions),
        parameters_(std::move(parameters)) {}

  /// Before the modes change at `event`: S- (the old branch's), F-, and for each condition the
  /// rate of g along the solution and along each sensitivity.
  void before(const Event& event, Integrator& integrator) {
    integrator.sensitivities(event.t, s_before_);
    f_before_ = rhs(event.t, event.x);
    const double t = event.t;
    const double dt = kJumpDifferenceStep * std::max(1.0, std::fabs(t)) /
                      std::max(1.0, largest(f_before_) / std::max(1.0, largest(event.x)));
    rate_ = difference(shifted(t, dt, event.x, f_before_, nullptr, 0.0),
                       shifted(t, -dt, event.x, f_before_, nullptr, 0.0), dt);
    along_.assign(parameters_.size(), {});
    for (size_t j = 0; j < parameters_.size(); ++j) {
      const double* s = s_before_.data() + j * static_cast<size_t>(n);
      const double scale = std::max(1.0, largest(event.x));
      double delta = kJumpDifferenceStep * std::max(1.0, std::fabs(model_.p[parameters_[j]]));
      const double size = largest(std::vector<double>(s, s + n));
      if (size * delta > kJumpDifferenceStep * scale) delta = kJumpDifferenceStep * scale / size;
      along_[j] = difference(shifted(t, 0.0, event.x, {}, s, delta, parameters_[j]),
                             shifted(t, 0.0, event.x, {}, s, -delta, parameters_[j]), delta);
    }
  }

  /// After the modes changed (from `modes_before`): S+ from the first condition that switched.
  std::vector<double> after(const Event& event, const std::vector<double>& modes_before) {
    int switched = -1;
    for (int c = 0; c < count && switched < 0; ++c)
      if (model_.modes()[c] != modes_before[static_cast<size_t>(c)]) switched = c;
    std::vector<double> s = s_before_;
    if (switched < 0) return s;  // a when clause alone: no branch of F changed
    const size_t c = static_cast<size_t>(switched);
    const std::vector<double> f_after = rhs(event.t, event.x);
    if (!(std::fabs(rate_[c]) > kGrazingRate * std::max(1.0, largest(event.x))))
      run_error("cannot carry the sensitivities across the switch of " +
                text::quoted(model_.condition_names[c]) +
                " at t = " + text::format_number(event.t) +
                ": the solution grazes it (its switching function does not change along the "
                "solution), so the instant of the switch does not move smoothly with the "
                "parameters");
    for (size_t j = 0; j < parameters_.size(); ++j) {
      const double moves = -along_[j][c] / rate_[c];  // dtau/dp_j
      for (int i = 0; i < n; ++i)
        s[j * static_cast<size_t>(n) + static_cast<size_t>(i)] +=
            (f_before_[static_cast<size_t>(i)] - f_after[static_cast<size_t>(i)]) * moves;
    }
    return s;
  }

 private:
  static double largest(const std::vector<double>& v) {
    double m = 0.0;
    for (double value : v) m = std::max(m, std::fabs(value));
    return m;
  }

  std::vector<double> rhs(double t, const std::vector<double>& x) const {
    std::vector<double> f(static_cast<size_t>(std::max(n, 1)));
    if (model_.rhs(t, x.data(), f.data(), nullptr) != 0)
      run_error("cannot carry the sensitivities across a switch at t = " + text::format_number(t) +
                ": " + text::rhs_failure(model_, t, x.data()));
    return f;
  }

  /// g at (t + dt, x + dt f) or (t, x + delta s) with p[parameter] moved by delta.
  std::vector<double> shifted(double t, double dt, const std::vector<double>& x,
                              const std::vector<double>& f, const double* s, double delta,
                              int parameter = -1) const {
    std::vector<double> moved = x;
    for (int i = 0; i < n; ++i) {
      const size_t k = static_cast<size_t>(i);
      moved[k] += s != nullptr ? delta * s[i] : dt * f[k];
    }
    const double kept = parameter >= 0 ? model_.p[parameter] : 0.0;
    if (parameter >= 0) model_.p[parameter] = kept + delta;
    std::vector<double> g(static_cast<size_t>(std::max(count, 1)));
    model_.conditions(t + dt, moved.data(), g.data());
    if (parameter >= 0) model_.p[parameter] = kept;
    return g;
  }

  static std::vector<double> difference(const std::vector<double>& plus,
                                        const std::vector<double>& minus, double step) {
    std::vector<double> d(plus.size());
    for (size_t i = 0; i < plus.size(); ++i) d[i] = (plus[i] - minus[i]) / (2.0 * step);
    return d;
  }

  System& model_;
  const int n, count;
  std::vector<int> parameters_;
  std::vector<double> s_before_, f_before_, rate_;
  std::vector<std::vector<double>> along_;  // per parameter: g_X S_j + g_p_j, per condition
};

}  // namespace daec::simulator
