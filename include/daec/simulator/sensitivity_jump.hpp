// The jump of the forward sensitivities at a switch of a condition (docs/simulator.md,
// "Sensitivities"). A relation switches where its switching function g(t, X, p) crosses 0, so
// the instant tau moves with the parameters,
//     dtau/dp_j = -(g_X S_j + g_p_j) / (g_t + g_X F-),
// and the sensitivities go on from S_j+ = S_j- + (F- - F+) dtau/dp_j, with F- and F+ the
// right-hand sides of the old and the new branch at the switch. Where when clauses fire, the
// state is reset, X+ = R(X-, p), and
//     S_j+ = R_X (S_j- + F- dtau/dp_j) + R_p_j - F+ dtau/dp_j.
// g's derivatives, and R's, are central differences of the model's switching functions
// (Model::conditions) and of the reset (when_reset.hpp), along the solution and along each
// (S_j, e_j).
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/runtime/system.hpp>
#include <daec/simulator/events.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/integrator.hpp>
#include <daec/simulator/parameter_shift.hpp>
#include <daec/simulator/when_reset.hpp>

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
    if (model_.num_when_clauses > 0) old_ = model_.copy();  // the modes before, for the resets
    x_before_ = event.x_before.empty() ? event.x : event.x_before;
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

  /// After Events::apply: S+ from the first condition that switched (Event::switched).
  std::vector<double> after(const Event& event, const Integrator& integrator) {
    const int switched = event.switched;
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
    const std::vector<int>& fired = event.fired;
    for (size_t j = 0; j < parameters_.size(); ++j) {
      const double moves = -along_[j][c] / rate_[c];  // dtau/dp_j
      double* sj = s.data() + j * static_cast<size_t>(n);
      if (!fired.empty()) {
        reset_sensitivity(event.t, fired, j, moves, sj, integrator);
      } else {  // no reset: R is the identity
        for (int i = 0; i < n; ++i) sj[i] += f_before_[static_cast<size_t>(i)] * moves;
      }
      for (int i = 0; i < n; ++i) sj[i] -= f_after[static_cast<size_t>(i)] * moves;
    }
    return s;
  }

 private:
  /// sj = R_X (sj + F- moves) + R_p_j: the reset along that direction, by central differences.
  void reset_sensitivity(double t, const std::vector<int>& fired, size_t j, double moves,
                         double* sj, const Integrator& integrator) {
    std::vector<double> direction(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
      direction[static_cast<size_t>(i)] = sj[i] + f_before_[static_cast<size_t>(i)] * moves;
    const int parameter = parameters_[j];
    double delta = kJumpDifferenceStep * std::max(1.0, std::fabs(model_.p[parameter]));
    const double size = largest(direction), scale = std::max(1.0, largest(x_before_));
    if (size * delta > kJumpDifferenceStep * scale) delta = kJumpDifferenceStep * scale / size;
    std::vector<double> ends[2];
    for (int side = 0; side < 2; ++side) {
      const double step = side == 0 ? delta : -delta;
      std::vector<double> x = x_before_;
      for (int i = 0; i < n; ++i)
        x[static_cast<size_t>(i)] += step * direction[static_cast<size_t>(i)];
      const double moved = model_.p[parameter] + step;
      ParameterShift shift(model_, parameter, moved), shift_old(*old_, parameter, moved);
      ends[side] = reset_state(*old_, model_, t, x, fired, integrator);
      if (model_.num_invariants > 0) (void)model_.project(t, ends[side].data());
    }
    for (int i = 0; i < n; ++i) {
      const size_t k = static_cast<size_t>(i);
      sj[i] = (ends[0][k] - ends[1][k]) / (2.0 * delta);
    }
  }

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
    std::vector<double> g(static_cast<size_t>(std::max(count, 1)));
    if (parameter >= 0) {
      ParameterShift shift(model_, parameter, model_.p[parameter] + delta);
      model_.conditions(t + dt, moved.data(), g.data());
    } else {
      model_.conditions(t + dt, moved.data(), g.data());
    }
    return g;
  }

  static std::vector<double> difference(const std::vector<double>& plus,
                                        const std::vector<double>& minus, double step) {
    std::vector<double> d(plus.size());
    for (size_t i = 0; i < plus.size(); ++i) d[i] = (plus[i] - minus[i]) / (2.0 * step);
    return d;
  }

  System& model_;
  std::unique_ptr<System> old_;   // a copy with the modes before the switch (when clauses)
  std::vector<double> x_before_;  // the bracket's near end, where the resets take their values
  const int n, count;
  std::vector<int> parameters_;
  std::vector<double> s_before_, f_before_, rate_;
  std::vector<std::vector<double>> along_;  // per parameter: g_X S_j + g_p_j, per condition
};

}  // namespace daec::simulator
