// Forward sensitivities dX/dp (--sensitivities p1,p2|all; docs/simulator.md, "Sensitivities"):
// the parameters chosen, the CSV columns d(x)/d(p), and the Radau5 problem that integrates the
// states together with one column S_j = dX/dp_j per parameter,
//     X' = F(X, t, p),   S_j' = (dF/dX) S_j + dF/dp_j,
// and moves S_j onto the linearized hidden constraints, H S_j + dh/dp_j = 0, whenever X is
// projected onto h = 0: the derivative of the projected solution.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <daec/integrators/dense_lu.hpp>
#include <daec/model_error.hpp>
#include <daec/runtime/system.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/options.hpp>
#include <daec/simulator/radau.hpp>

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

/// The CSV columns of the sensitivities: d(x)/d(p) for each parameter chosen, and in it each
/// declared variable that is a state, in the order of the columns before them.
inline std::vector<std::string> sensitivity_columns(const System& model,
                                                    const std::vector<int>& parameters) {
  std::vector<std::string> columns;
  for (int p : parameters)
    for (int i = 0; i < model.num_variables; ++i)
      if (model.variable_location[i] >= 0)
        columns.push_back(std::string("d(") + model.variable_names[i] + ")/d(" +
                          model.parameter_names[p] + ")");
  return columns;
}

/// The values of those columns from S (num_states values per parameter, in the same order).
inline void append_sensitivities(const System& model, const std::vector<double>& s,
                                 std::vector<double>& row) {
  const size_t n = static_cast<size_t>(model.num_states);
  for (size_t column = 0; n > 0 && column + n <= s.size(); column += n)
    for (int i = 0; i < model.num_variables; ++i)
      if (const int location = model.variable_location[i]; location >= 0)
        row.push_back(s[column + static_cast<size_t>(location)]);
}

/// Y = (X, S_1, ..., S_k) as a Radau5 problem. Its Jacobian for the Newton iteration is the
/// block diagonal of dF/dX: the S equations are linear in S, and the term d(dF/dX S)/dX that it
/// leaves out only slows the iteration's convergence on S, not what it converges to.
class SensitivityProblem : public ModelProblemBase {
 public:
  static constexpr bool kSensitivities = true;

  SensitivityProblem(const System& model, std::vector<int> parameters)
      : ModelProblemBase(model),
        n(model.num_states),
        k(static_cast<int>(parameters.size())),
        parameters_(std::move(parameters)) {}
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

  /// (X, S) at a consistent start X: each S_j the least one on the linearized constraints that
  /// leaves the fixed starts where they are (they do not move with p).
  std::vector<double> start_values(double t, const std::vector<double>& x) {
    std::vector<double> y(static_cast<size_t>(size()), 0.0);
    std::copy(x.begin(), x.end(), y.begin());
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

  /// S_j -= W H^T (H W H^T)^-1 (H S_j + dh/dp_j) with H = dh/dX at X = y, its columns of the
  /// fixed states left out where `fixed` is given, and W = diag(w_i^2) for the weights w of
  /// Model::project (projection_weight; 1 without them); false (the failure recorded) if
  /// H W H^T is singular.
  bool project_sensitivities(double t, double* y, const bool* fixed) {
    const int m = model_->num_invariants;
    std::vector<double> H(static_cast<size_t>(m) * n),
        hp(static_cast<size_t>(std::max(model_->invariants_parameter_jacobian_nnz, 1)));
    model_->invariants_jacobian(t, y, H.data());
    model_->invariants_parameter_jacobian_values(t, y, hp.data());
    if (fixed != nullptr)
      for (int row = 0; row < m; ++row)
        for (int column = 0; column < n; ++column)
          if (fixed[column]) H[static_cast<size_t>(row) * n + column] = 0.0;
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
              H[static_cast<size_t>(a) * n + column] * w2[static_cast<size_t>(column)] *
              H[static_cast<size_t>(b) * n + column];
    integrators::DenseLu<double> lu;
    if (lu.factor(gram, m) != 0) {
      fail("projection", t,
           "the hidden constraints are dependent at this state (H H^T is singular), so the "
           "sensitivities cannot be moved onto them");
      return false;
    }
    const int* colptr = model_->invariants_parameter_jacobian_colptr;
    const int* rowval = model_->invariants_parameter_jacobian_rowval;
    std::vector<double> r(static_cast<size_t>(m));
    for (int j = 0; j < k; ++j) {
      double* s = y + n * (1 + j);
      for (int row = 0; row < m; ++row) {
        double sum = 0.0;
        for (int column = 0; column < n; ++column)
          sum += H[static_cast<size_t>(row) * n + column] * s[column];
        r[static_cast<size_t>(row)] = sum;
      }
      const int parameter = parameters_[static_cast<size_t>(j)];
      for (int e = colptr[parameter]; e < colptr[parameter + 1]; ++e)
        r[static_cast<size_t>(rowval[e])] += hp[static_cast<size_t>(e)];
      lu.solve(r.data());
      for (int column = 0; column < n; ++column)
        for (int row = 0; row < m; ++row)
          s[column] -= w2[static_cast<size_t>(column)] * H[static_cast<size_t>(row) * n + column] *
                       r[static_cast<size_t>(row)];
    }
    return true;
  }

  const int n, k;
  std::vector<int> parameters_;
  std::vector<double> J_, fp_;
};

}  // namespace daec::simulator
