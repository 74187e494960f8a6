// The hidden constraints during a run: consistent initialization at T0 (naming the constraints
// left violated when it fails) and the largest invariant residual, measured after every step.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/output.hpp>

namespace daec::simulator {

// Invariants with a larger residual are named when consistent initialization fails.
constexpr double kViolationThreshold = 1e-10;

/// max |h_i(t, x)|; fails if an invariant is not finite.
template <typename Model>
double largest_residual(const Model& model, double t, const double* x) {
  std::vector<double> h = buffer(Model::num_invariants);
  model.invariants(t, x, h.data());
  double largest = 0.0;
  for (int i = 0; i < Model::num_invariants; ++i) {
    double value = h[static_cast<size_t>(i)];
    if (!std::isfinite(value))
      run_error("the invariant " + text::quoted(Model::invariant_names[i]) + " is " +
                text::format_number(value) + " at t = " + text::format_number(t) +
                text::domain_hint("the constraint"));
    largest = std::max(largest, std::fabs(value));
  }
  return largest;
}

/// "rod = 0.25, rod' = 1.5": the invariants left violated (all of them if none stands out).
template <typename Model>
std::string violated_invariants(const Model& model, double t, const double* x) {
  std::vector<double> h = buffer(Model::num_invariants);
  model.invariants(t, x, h.data());
  std::vector<std::string> violated, all;
  for (int i = 0; i < Model::num_invariants; ++i) {
    double value = h[static_cast<size_t>(i)];
    std::string item = std::string(Model::invariant_names[i]) + " = " + text::format_number(value);
    all.push_back(item);
    if (!(std::fabs(value) <= kViolationThreshold)) violated.push_back(item);
  }
  return text::join(violated.empty() ? all : violated);
}

/// Makes x consistent at t0 (keeping fixed starts) and checks that rhs can be evaluated there.
template <typename Model>
void initialize(const Model& model, double t0, std::vector<double>& x) {
  std::string at = "at t = " + text::format_number(t0);
  if (model.consistent_initialization(t0, x.data()) != 0) {
    if (Model::num_invariants > 0)
      run_error("consistent initialization failed " + at + ": " +
                violated_invariants(model, t0, x.data()));
    run_error("consistent initialization failed " + at);
  }
  std::vector<double> xdot = buffer(Model::num_states), z = buffer(Model::num_algebraic);
  if (model.rhs(t0, x.data(), xdot.data(), z.data()) != 0)
    run_error("the right-hand side cannot be evaluated at the start " + at + ": " +
              text::rhs_failure(model, t0, x.data()));
}

}  // namespace daec::simulator
