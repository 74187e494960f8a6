// Forward sensitivities dX/dp (--sensitivities p1,p2|all; docs/simulator.md, "Sensitivities"):
// the parameters chosen, the CSV columns d(x)/d(p), and the Radau5 problem that integrates the
// states together with one column S_j = dX/dp_j per parameter,
//     X' = F(X, t, p),   S_j' = (dF/dX) S_j + dF/dp_j,
// and moves S_j onto the linearized hidden constraints, H S_j + dh/dp_j = 0, whenever X is
// projected onto h = 0: the derivative of the projected solution.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <daec/integrators/dense_lu.hpp>
#include <daec/model_error.hpp>
#include <daec/runtime/system.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/options.hpp>
#include <daec/simulator/parameter_shift.hpp>
#include <daec/simulator/radau.hpp>
#include <daec/simulator/settings.hpp>

namespace daec::simulator {

/// The parameters of --sensitivities as indices into p, in the order given ("all": every
/// parameter); empty without the option. A usage error for an unknown or repeated name.
inline std::vector<int> sensitivity_parameters(const System& model, const Options& options) {
  std::vector<int> chosen;
  if (options.sensitivities.empty()) return chosen;
  std::vector<std::string> names;
  for (int i = 0; i < model.num_parameters; ++i) names.push_back(model.parameter_names[i]);
  if (options.sensitivities == "all") {
    for (int i = 0; i < model.num_parameters; ++i) chosen.push_back(i);
    if (chosen.empty()) usage_error("--sensitivities all: the model has no parameters");
    return chosen;
  }
  size_t start = 0;
  for (;;) {
    const size_t comma = options.sensitivities.find(',', start);
    const std::string name = options.sensitivities.substr(start, comma - start);
    const auto found = std::find(names.begin(), names.end(), name);
    if (found == names.end())
      usage_error("--sensitivities: no parameter '" + name + "'; the parameters are " +
                  (names.empty() ? std::string("none") : text::join(names)));
    const int index = static_cast<int>(found - names.begin());
    if (std::find(chosen.begin(), chosen.end(), index) != chosen.end())
      usage_error("--sensitivities: the parameter '" + name + "' is named twice");
    chosen.push_back(index);
    if (comma == std::string::npos) return chosen;
    start = comma + 1;
  }
}

/// A usage error where the run cannot integrate the sensitivities it was asked for.
inline void check_sensitivities(const System& model, const Options& options,
                                const std::string& method, const std::vector<int>& parameters) {
  if (parameters.empty()) return;
  if (options.linear_solver == LinearSolver::klu)
    usage_error(
        "--sensitivities: the sensitivities are integrated with the dense linear "
        "solver; --linear-solver klu does not apply");
  if (method != "radau5")
    usage_error("--sensitivities: the method " + method +
                " does not integrate sensitivities; --method radau5 does");
  if (!model.has_parameter_jacobians)
    usage_error(
        "--sensitivities: the model has no parameter Jacobians (every model daec "
        "generates has them: docs/generated-code.md, \"Parameter Jacobians\")");
  if (!model.has_dense_jacobians)
    usage_error(
        "--sensitivities: the model is too large for dense Jacobians, which the "
        "sensitivities are integrated with");
}

/// The CSV columns of the sensitivities: d(v)/d(p) for each parameter chosen, and in it each
/// declared variable (states and algebraic unknowns) and each output, in the order of the
/// columns before them.
inline std::vector<std::string> sensitivity_columns(const System& model,
                                                    const std::vector<int>& parameters) {
  std::vector<std::string> columns;
  for (int p : parameters) {
    const std::string of = std::string(")/d(") + model.parameter_names[p] + ")";
    for (int i = 0; i < model.num_variables; ++i)
      columns.push_back(std::string("d(") + model.variable_names[i] + of);
    for (int i = 0; i < model.num_outputs; ++i)
      columns.push_back(std::string("d(") + model.output_names[i] + of);
  }
  return columns;
}

// The step of the central differences of the algebraic unknowns and outputs along (S_j, e_j),
// relative to the size of what is varied: their error, rounding over the step plus the step
// squared, is then about 1e-10 of their scale.
constexpr double kColumnDifferenceStep = 1e-5;

/// Z and the outputs at (t, x) with the model as it is; false where they cannot be evaluated.
inline bool algebraic_and_outputs(const System& model, double t, const std::vector<double>& x,
                                  std::vector<double>& values) {
  const size_t m = static_cast<size_t>(model.num_algebraic);
  std::vector<double> xdot = buffer(model.num_states), z = buffer(model.num_algebraic),
                      y = buffer(model.num_outputs);
  if (model.num_states + model.num_algebraic > 0 &&
      model.rhs(t, x.data(), xdot.data(), z.data()) != 0)
    return false;
  model.outputs(t, x.data(), y.data());
  values.assign(z.begin(), z.begin() + static_cast<std::ptrdiff_t>(m));
  values.insert(values.end(), y.begin(), y.begin() + model.num_outputs);
  return true;
}

/// The values of the sensitivity columns at (t, x) from S (num_states values per parameter, in
/// the order of `parameters`): the states' d(x)/d(p) as S has them; the algebraic unknowns' and
/// the outputs' by central differences of Z(X, p, t) and y(X, p, t) along (S_j, e_j) -- the
/// chain rule through the algebraic solve and the outputs' formulas, dependent parameters
/// following their bindings (parameter_shift.hpp). NaN where they cannot be evaluated.
inline void append_sensitivities(System& model, const std::vector<int>& parameters, double t,
                                 const std::vector<double>& x, const std::vector<double>& s,
                                 std::vector<double>& row) {
  const size_t n = static_cast<size_t>(model.num_states),
               m = static_cast<size_t>(model.num_algebraic);
  const size_t extra = m + static_cast<size_t>(model.num_outputs);
  for (size_t j = 0; j < parameters.size(); ++j) {
    const double* sj = n > 0 && s.size() >= (j + 1) * n ? s.data() + j * n : nullptr;
    std::vector<double> derivative(extra, std::numeric_limits<double>::quiet_NaN());
    if (extra > 0 && (sj != nullptr || n == 0)) {
      const int parameter = parameters[j];
      double size = 0.0, scale = 1.0;
      for (size_t i = 0; i < n; ++i) {
        size = std::max(size, std::fabs(sj[i]));
        scale = std::max(scale, std::fabs(x[i]));
      }
      double delta = kColumnDifferenceStep * std::max(1.0, std::fabs(model.p[parameter]));
      if (size * delta > kColumnDifferenceStep * scale)
        delta = kColumnDifferenceStep * scale / size;
      std::vector<double> ends[2];
      bool ok = true;
      for (int side = 0; side < 2 && ok; ++side) {
        const double step = side == 0 ? delta : -delta;
        std::vector<double> moved = x;
        for (size_t i = 0; i < n; ++i) moved[i] += step * sj[i];
        ParameterShift shift(model, parameter, model.p[parameter] + step);
        ok = algebraic_and_outputs(model, t, moved, ends[side]);
      }
      if (ok)
        for (size_t k = 0; k < extra; ++k)
          derivative[k] = (ends[0][k] - ends[1][k]) / (2.0 * delta);
    }
    for (int i = 0; i < model.num_variables; ++i) {
      const int location = model.variable_location[i];
      row.push_back(location >= 0 ? (sj != nullptr ? sj[location] : 0.0)
                                  : derivative[static_cast<size_t>(-1 - location)]);
    }
    for (int i = 0; i < model.num_outputs; ++i)
      row.push_back(derivative[m + static_cast<size_t>(i)]);
  }
}

// A sensitivity meets the linearized constraints where H S + dh/dp is below this fraction of
// its terms (the differences of the start leave about 1e-10).
constexpr double kLinearizedResidual = 1e-8;

// The step of the central differences of the consistent start in a parameter, relative to the
// parameter's size: the start is solved to rounding (Newton's last step is quadratic), so the
// difference's error is about 1e-10 of the start's scale.
constexpr double kStartDifferenceStep = 1e-6;

/// dX0/dp_j at the consistent start x0 for each parameter of `parameters`: central differences
/// of the whole start in p_j -- the model's start values at p_j +- delta (the numbers --set and
/// --fix gave kept), made consistent as the run's was (fixed starts, initial equations, the
/// constraints, the nearest point) -- so that a start that depends on a parameter (start = x0,
/// an initial equation q = 3 p, a binding k = 1/tau) moves with it. Stops the run where a
/// moved start cannot be made consistent.
inline std::vector<double> start_sensitivities(const System& model,
                                               const std::vector<int>& parameters,
                                               const RequestedStart& start, double t0,
                                               const std::vector<double>& x0) {
  const size_t n = static_cast<size_t>(model.num_states);
  std::vector<double> s(n * parameters.size(), 0.0);
  for (size_t j = 0; j < parameters.size(); ++j) {
    const int parameter = parameters[j];
    const double delta = kStartDifferenceStep * std::max(1.0, std::fabs(model.p[parameter]));
    std::vector<double> ends[2];
    for (int side = 0; side < 2; ++side) {
      const std::unique_ptr<System> moved = model.copy();
      moved->set_parameter(model.parameter_names[parameter],
                           model.p[parameter] + (side == 0 ? delta : -delta));
      RequestedStart asked = restarted(*moved, start);
      ends[side] = asked.x;
      if (moved->consistent_initialization(t0, ends[side].data(), asked.z.data()) != 0)
        run_error("cannot start the sensitivities at t = " + text::format_number(t0) +
                  ": the start cannot be made consistent with " + model.parameter_names[parameter] +
                  " = " + text::format_number(model.p[parameter] + (side == 0 ? delta : -delta)));
    }
    for (size_t i = 0; i < n; ++i) s[j * n + i] = (ends[0][i] - ends[1][i]) / (2.0 * delta);
  }
  (void)x0;
  return s;
}

/// Y = (X, S_1, ..., S_k) as a Radau5 problem. Its Jacobian for the Newton iteration is the
/// block diagonal of dF/dX: the S equations are linear in S, and the term d(dF/dX S)/dX that it
/// leaves out only slows the iteration's convergence on S, not what it converges to.
class SensitivityProblem : public ModelProblemBase {
 public:
  static constexpr bool kSensitivities = true;

  /// `start`: dX0/dp at the consistent start (start_sensitivities; empty: zero, only what the
  /// constraints tie to the parameters).
  SensitivityProblem(const System& model, std::vector<int> parameters,
                     std::vector<double> start = {})
      : ModelProblemBase(model),
        n(model.num_states),
        k(static_cast<int>(parameters.size())),
        parameters_(std::move(parameters)),
        start_(std::move(start)) {}
  int size() const { return n * (1 + k); }

  int rhs(double t, const double* y, double* f) {
    if (model_->rhs(t, y, f, nullptr) != 0 || text::first_not_finite(f, n) >= 0)
      return fail("rhs", t, text::rhs_failure(*model_, t, y));
    if (!jacobians(t, y)) return 1;
    for (int j = 0; j < k; ++j) {
      const double* s = y + n * (1 + j);
      double* fs = f + n * (1 + j);
      for (int row = 0; row < n; ++row) {
        double sum = 0.0;
        for (int column = 0; column < n; ++column)
          sum += J_[static_cast<size_t>(row) * n + column] * s[column];
        fs[row] = sum;
      }
      add_parameter_column(parameters_[static_cast<size_t>(j)], fs);
    }
    if (text::first_not_finite(f, size()) >= 0)
      return fail("rhs", t, "a sensitivity's derivative is not finite");
    return 0;
  }

  // Column-major, as Radau5 takes it.
  int jacobian(double t, const double* y, double* Jc) {
    J_.resize(static_cast<size_t>(n) * n);
    if (model_->rhs_jacobian(t, y, J_.data()) != 0)
      return fail("jacobian", t, text::dense_jacobian_failure(*model_, t, y, J_.data()));
    const size_t size = static_cast<size_t>(this->size());
    std::fill(Jc, Jc + size * size, 0.0);
    for (int block = 0; block <= k; ++block)
      for (int row = 0; row < n; ++row)
        for (int column = 0; column < n; ++column)
          Jc[static_cast<size_t>(block * n + row) + size * (block * n + column)] =
              J_[static_cast<size_t>(row) * n + column];
    return 0;
  }

  /// X onto h = 0 (Model::project), then each S_j onto H S_j + dh/dp_j = 0, the least change
  /// in the weights of Model::project (projection_weight), so that S_j is the derivative of X so
  /// projected.
  int project(double t, double* y) {
    if (model_->num_invariants == 0) return 0;
    std::vector<double> x(y, y + n);
    if (model_->project(t, x.data()) != 0 || text::first_not_finite(x.data(), n) >= 0)
      return fail("projection", t, text::projection_failure(*model_, t, y, x.data()));
    std::copy(x.begin(), x.end(), y);
    return project_sensitivities(t, y, nullptr) ? 0 : 1;
  }

  /// (X, S) at a consistent start X: each S_j the start's derivative (the constructor's), moved
  /// onto the linearized constraints with the fixed starts held (the differences' rounding).
  std::vector<double> start_values(double t, const std::vector<double>& x) {
    std::vector<double> y(static_cast<size_t>(size()), 0.0);
    std::copy(x.begin(), x.end(), y.begin());
    if (start_.size() == static_cast<size_t>(n) * static_cast<size_t>(k))
      std::copy(start_.begin(), start_.end(), y.begin() + n);
    if (model_->num_invariants > 0 && !project_sensitivities(t, y.data(), model_->fixed))
      run_error("cannot start the sensitivities at t = " + text::format_number(t) + ": " +
                failure_message());
    return y;
  }

 private:
  bool jacobians(double t, const double* y) {
    J_.resize(static_cast<size_t>(n) * n);
    if (model_->rhs_jacobian(t, y, J_.data()) != 0) {
      fail("rhs", t, text::rhs_failure(*model_, t, y));
      return false;
    }
    fp_.resize(static_cast<size_t>(std::max(model_->rhs_parameter_jacobian_nnz, 1)));
    if (model_->rhs_parameter_jacobian_values(t, y, fp_.data()) != 0) {
      fail("rhs", t, text::rhs_failure(*model_, t, y));
      return false;
    }
    return true;
  }

  void add_parameter_column(int parameter, double* column) const {
    const int* colptr = model_->rhs_parameter_jacobian_colptr;
    for (int e = colptr[parameter]; e < colptr[parameter + 1]; ++e)
      column[model_->rhs_parameter_jacobian_rowval[e]] += fp_[static_cast<size_t>(e)];
  }

  /// S_j -= W H_f^T (H_f W H_f^T)^-1 (H S_j + dh/dp_j) with H = dh/dX at X = y, H_f its columns
  /// of the fixed states left out where `fixed` is given (so that they keep their S), and W =
  /// diag(w_i^2) for the weights w of Model::project (projection_weight; 1 without them), so that
  /// S_j is the derivative of X so projected. Where H_f W H_f^T is singular (a start that the
  /// fixed starts determine with conditions to spare), S_j is kept where it already meets the
  /// linearized constraints. False (the failure recorded) where it cannot be moved onto them.
  bool project_sensitivities(double t, double* y, const bool* fixed) {
    const int m = model_->num_invariants;
    std::vector<double> H(static_cast<size_t>(m) * n),
        hp(static_cast<size_t>(std::max(model_->invariants_parameter_jacobian_nnz, 1)));
    model_->invariants_jacobian(t, y, H.data());
    model_->invariants_parameter_jacobian_values(t, y, hp.data());
    std::vector<double> Hf = H;
    if (fixed != nullptr)
      for (int row = 0; row < m; ++row)
        for (int column = 0; column < n; ++column)
          if (fixed[column]) Hf[static_cast<size_t>(row) * n + column] = 0.0;
    std::vector<double> w2(static_cast<size_t>(n), 1.0);
    if (model_->projection_weight != nullptr)
      for (int column = 0; column < n; ++column)
        w2[static_cast<size_t>(column)] =
            model_->projection_weight[column] * model_->projection_weight[column];
    std::vector<double> gram(static_cast<size_t>(m) * m, 0.0);
    for (int a = 0; a < m; ++a)
      for (int b = 0; b < m; ++b)
        for (int column = 0; column < n; ++column)
          gram[static_cast<size_t>(a) + static_cast<size_t>(m) * b] +=
              Hf[static_cast<size_t>(a) * n + column] * w2[static_cast<size_t>(column)] *
              Hf[static_cast<size_t>(b) * n + column];
    integrators::DenseLu<double> lu;
    const bool singular = lu.factor(gram, m) != 0;
    const int* colptr = model_->invariants_parameter_jacobian_colptr;
    const int* rowval = model_->invariants_parameter_jacobian_rowval;
    std::vector<double> r(static_cast<size_t>(m));
    for (int j = 0; j < k; ++j) {
      double* s = y + n * (1 + j);
      double size = 0.0, largest = 0.0;
      for (int row = 0; row < m; ++row) {
        double sum = 0.0;
        for (int column = 0; column < n; ++column) {
          const double term = H[static_cast<size_t>(row) * n + column] * s[column];
          sum += term;
          size = std::max(size, std::fabs(term));
        }
        r[static_cast<size_t>(row)] = sum;
      }
      const int parameter = parameters_[static_cast<size_t>(j)];
      for (int e = colptr[parameter]; e < colptr[parameter + 1]; ++e) {
        r[static_cast<size_t>(rowval[e])] += hp[static_cast<size_t>(e)];
        size = std::max(size, std::fabs(hp[static_cast<size_t>(e)]));
      }
      for (double value : r) largest = std::max(largest, std::fabs(value));
      if (singular) {
        if (largest <= kLinearizedResidual * std::max(size, 1.0)) continue;
        fail("projection", t,
             "the hidden constraints are dependent at this state (H H^T is singular), so the "
             "sensitivities cannot be moved onto them");
        return false;
      }
      lu.solve(r.data());
      for (int column = 0; column < n; ++column)
        for (int row = 0; row < m; ++row)
          s[column] -= w2[static_cast<size_t>(column)] * Hf[static_cast<size_t>(row) * n + column] *
                       r[static_cast<size_t>(row)];
    }
    return true;
  }

  const int n, k;
  std::vector<int> parameters_;
  std::vector<double> start_;
  std::vector<double> J_, fp_;
};

}  // namespace daec::simulator
