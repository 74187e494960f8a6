// The hidden constraints during a run: consistent initialization at T0 (naming the constraints
// left violated when it fails) and the largest invariant residuals, measured after every step.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/output.hpp>

namespace daec::simulator {

// Invariants with a larger residual are named when consistent initialization fails.
constexpr double kViolationThreshold = 1e-10;

/// The largest invariant residuals seen: as they are, and each relative to the size of its terms.
struct InvariantResiduals {
  double absolute = 0.0;  // max |h_i|
  double relative = 0.0;  // max |h_i| / size_i (see largest_residuals)
  void add(const InvariantResiduals& more) {
    absolute = std::max(absolute, more.absolute);
    relative = std::max(relative, more.relative);
  }
};

/// The invariants' residuals at (t, x); fails if an invariant is not finite. A residual alone
/// cannot be judged: a hidden constraint differentiated ten times through gains of 1e3 has
/// terms of 1e30. So each |h_i| is also divided by the size of its terms, the norm of its
/// gradient times the scale of the states it involves:
///   size_i = (sum_j |dh_i/dx_j|) max_j max(|x_j|, s_j)   (j over the states h_i involves,
/// s_j the state's nominal value, 0 where the model gives none), at least the first-order size
/// sum_j |dh_i/dx_j| |x_j| of its terms, and not 0 where some of them are (a velocity constraint
/// x u + y v at rest); h_i is taken as it is where the size is 0 (h_i depends on t alone).
template <typename Model>
InvariantResiduals largest_residuals(const Model& model, double t, const double* x) {
  constexpr int k = Model::num_invariants, n = Model::num_states;
  InvariantResiduals result;
  if constexpr (k > 0) {
    std::vector<double> h = buffer(k), gradient = buffer(k), scale = buffer(k), nominal = buffer(n),
                        values = buffer(Model::invariants_jacobian_nnz);
    model.invariants(t, x, h.data());
    model.invariants_jacobian_values(t, x, values.data());
    model.state_nominal(nominal.data());
    for (int j = 0; j < n; ++j) {
      const double weight = std::max(std::fabs(x[j]), nominal[static_cast<size_t>(j)]);
      for (int e = Model::invariants_jacobian_colptr[j];
           e < Model::invariants_jacobian_colptr[j + 1]; ++e) {
        const auto row = static_cast<size_t>(Model::invariants_jacobian_rowval[e]);
        gradient[row] += std::fabs(values[static_cast<size_t>(e)]);
        scale[row] = std::max(scale[row], weight);
      }
    }
    for (int i = 0; i < k; ++i) {
      const double value = h[static_cast<size_t>(i)];
      if (!std::isfinite(value))
        run_error("the invariant " + text::quoted(Model::invariant_names[i]) + " is " +
                  text::format_number(value) + " at t = " + text::format_number(t) +
                  text::domain_hint("the constraint"));
      const double size = gradient[static_cast<size_t>(i)] * scale[static_cast<size_t>(i)];
      result.absolute = std::max(result.absolute, std::fabs(value));
      const double relative =
          size > 0.0 && std::isfinite(size) ? std::fabs(value) / size : std::fabs(value);
      result.relative = std::max(result.relative, relative);
    }
  } else {
    (void)model, (void)t, (void)x;
  }
  return result;
}

/// "rod = 0.25, rod' = 1.5": the invariants left violated (all of them if none stands out,
/// unless `only_violated`: then "").
template <typename Model>
std::string violated_invariants(const Model& model, double t, const double* x,
                                bool only_violated = false) {
  std::vector<double> h = buffer(Model::num_invariants);
  model.invariants(t, x, h.data());
  std::vector<std::string> violated, all;
  for (int i = 0; i < Model::num_invariants; ++i) {
    double value = h[static_cast<size_t>(i)];
    std::string item = std::string(Model::invariant_names[i]) + " = " + text::format_number(value);
    all.push_back(item);
    if (!(std::fabs(value) <= kViolationThreshold)) violated.push_back(item);
  }
  if (violated.empty() && only_violated) return "";
  return text::join(violated.empty() ? all : violated);
}

/// Prints every start that consistent initialization changed by more than the tolerance: each
/// state whose value in `used` differs from `given` (the start asked for).
template <typename Model>
void report_moved_starts(const std::vector<double>& given, const std::vector<double>& used,
                         double t0, double rtol, double atol) {
  std::vector<std::string> lines;
  for (int i = 0; i < Model::num_states; ++i) {
    double before = given[static_cast<size_t>(i)], after = used[static_cast<size_t>(i)];
    if (std::fabs(after - before) <= rtol * std::fabs(before) + atol) continue;
    lines.push_back(std::string(Model::state_names[i]) + ": " + text::format_number(before) +
                    " -> " + text::format_number(after));
  }
  if (lines.empty()) return;
  std::fprintf(stderr,
               "sim: consistent initialization at t = %s changed %zu start%s (given -> used; "
               "--fix keeps a start, --quiet hides this):\n",
               text::format_number(t0).c_str(), lines.size(), lines.size() == 1 ? "" : "s");
  for (const std::string& line : lines) std::fprintf(stderr, "sim:   %s\n", line.c_str());
}

/// "eq4 = 0.5, fixed lambda = 3 (start 2)": the start conditions left violated (initial
/// equations, fixed algebraic unknowns), "" if rhs cannot be evaluated or none is.
template <typename Model>
std::string violated_start_conditions(const Model& model, double t, const double* x,
                                      const double* z_start) {
  std::vector<double> xdot = buffer(Model::num_states), z = buffer(Model::num_algebraic),
                      r = buffer(Model::num_initial_equations);
  if (model.rhs(t, x, xdot.data(), z.data()) != 0) return "";
  model.initial_equations(t, x, xdot.data(), z.data(), r.data());
  std::vector<std::string> violated;
  for (int i = 0; i < Model::num_initial_equations; ++i) {
    double value = r[static_cast<size_t>(i)];
    if (!(std::fabs(value) <= kViolationThreshold))
      violated.push_back(std::string(Model::initial_equation_names[i]) + " = " +
                         text::format_number(value));
  }
  for (int j = 0; j < Model::num_algebraic; ++j) {
    double value = z[static_cast<size_t>(j)];
    if (!model.fixed[Model::num_states + j] || std::fabs(value - z_start[j]) <= kViolationThreshold)
      continue;
    violated.push_back("fixed " + std::string(Model::algebraic_names[j]) + " = " +
                       text::format_number(value) + " (start " + text::format_number(z_start[j]) +
                       ")");
  }
  return violated.empty() ? "" : text::join(violated);
}

/// The fixed starts and the initial equations, for the message of a start that cannot be had.
template <typename Model>
std::string start_conditions(const Model& model) {
  std::vector<std::string> fixed, equations;
  for (int i = 0; i < Model::num_states + Model::num_algebraic; ++i) {
    if (!model.fixed[i]) continue;
    fixed.push_back(i < Model::num_states ? Model::state_names[i]
                                          : Model::algebraic_names[i - Model::num_states]);
  }
  for (int i = 0; i < Model::num_initial_equations; ++i)
    equations.push_back(Model::initial_equation_names[i]);
  std::string text = "fixed starts: " + (fixed.empty() ? "none" : text::join(fixed));
  if (!equations.empty()) text += "; initial equations: " + text::join(equations);
  return text;
}

/// Stops a run whose start has more conditions (invariants, fixed starts, initial equations)
/// than states: such a start exists only by coincidence (daec checks the model's own, --fix
/// adds more).
template <typename Model>
void check_start_freedom(const Model& model) {
  int conditions = Model::num_invariants + Model::num_initial_equations;
  for (int i = 0; i < Model::num_states + Model::num_algebraic; ++i) conditions += model.fixed[i];
  if (conditions <= Model::num_states) return;
  run_error("the start is over-determined: " + std::to_string(Model::num_invariants) +
                " constraints, the fixed starts and the initial equations make " +
                std::to_string(conditions) + " conditions on " + std::to_string(Model::num_states) +
                " states",
            {start_conditions(model) + " (--set gives a guess instead of --fix)"});
}

/// Makes x consistent at t0 (keeping fixed starts, satisfying the initial equations) and checks
/// that rhs can be evaluated there. `z_start`: the values of the fixed algebraic unknowns.
template <typename Model>
void initialize(const Model& model, double t0, std::vector<double>& x,
                const std::vector<double>& z_start) {
  std::string at = "at t = " + text::format_number(t0);
  check_start_freedom(model);
  const int status = model.consistent_initialization(t0, x.data(), z_start.data());
  if (status == 2) {  // a residual is not finite, or rhs fails (then say why)
    std::vector<double> xdot = buffer(Model::num_states), z = buffer(Model::num_algebraic);
    if (text::first_not_finite(x.data(), Model::num_states) < 0 &&
        model.rhs(t0, x.data(), xdot.data(), z.data()) != 0)
      run_error("consistent initialization failed " + at +
                    ": the right-hand side cannot be evaluated there: " +
                    text::rhs_failure(model, t0, x.data()),
                {start_conditions(model)});
  }
  if (status != 0) {
    std::vector<std::string> violated;
    std::string c = violated_start_conditions(model, t0, x.data(), z_start.data());
    std::string h =
        Model::num_invariants == 0 ? "" : violated_invariants(model, t0, x.data(), !c.empty());
    if (!h.empty()) violated.push_back(h);
    if (!c.empty()) violated.push_back(c);
    std::string left = violated.empty() ? "" : ": " + text::join(violated);
    if (status == 3)
      run_error("consistent initialization failed " + at +
                    ": the fixed starts and initial equations contradict each other or the "
                    "model's constraints, or leave them no freedom" +
                    left,
                {start_conditions(model) + " (--set gives a guess instead of --fix)"});
    run_error("consistent initialization failed " + at + left, {start_conditions(model)});
  }
  std::vector<double> xdot = buffer(Model::num_states), z = buffer(Model::num_algebraic);
  if (model.rhs(t0, x.data(), xdot.data(), z.data()) != 0)
    run_error("the right-hand side cannot be evaluated at the start " + at + ": " +
              text::rhs_failure(model, t0, x.data()));
}

}  // namespace daec::simulator
