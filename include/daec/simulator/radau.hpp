// The methods `radau5` and `radau5-dae`: daec's Radau IIA integrator (order 5, stiffly accurate,
// include/daec/integrators/radau5.hpp) on a generated model, in one of two formulations:
//   radau5      the reduced ODE X' = F(X, t), with Z solved inside every right-hand side; the
//               Jacobian is the generated d(X')/dX (dense, or CSC with KLU);
//   radau5-dae  the index-1 DAE  X' = F(X, Z, t), 0 = b(X, t) - A(X, t) Z  in Y = (X, Z) with the
//               mass matrix diag(I, 0); its Jacobian is the generated residual iteration matrix,
//               as sparse as the model itself (KLU for large models).
// Both move the state back onto the hidden constraints after every step (Model::project) and end
// a step exactly at every output time, so that no row is interpolated.
#pragma once

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <daec/integrators/klu_lu.hpp>
#include <daec/integrators/radau5.hpp>
#include <daec/model_error.hpp>
#include <daec/runtime/system.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/integrator.hpp>
#include <daec/simulator/options.hpp>

namespace daec::simulator {

/// What both formulations share: the model and its last failure, in words, with the callback
/// and the time ("rhs", 0.75, "the algebraic unknown 'z' is not finite (...)").
class ModelProblemBase {
 public:
  explicit ModelProblemBase(const System& model) : model_(&model) {}
  std::string failure_message() const { return failure_; }
  /// "at t = 0.75, rhs: the algebraic unknown ..." for the last failure; "" if none.
  std::string failure_note() const {
    if (failure_.empty()) return "";
    return "at t = " + text::format_number(failure_time_) + ", " + callback_ + ": " + failure_;
  }
  /// Forgets a failure the integration has got past (a shorter step went round it).
  void forget_failures_before(double t) {
    if (t > failure_time_) failure_.clear();
  }

 protected:
  int fail(const char* callback, double t, const std::string& why) {
    callback_ = callback;
    failure_time_ = t;
    failure_ = why;
    return 1;
  }
  const System* model_;

 private:
  std::string failure_, callback_;
  double failure_time_ = 0.0;
};

/// The reduced ODE X' = F(X, t) as a Radau5 problem.
class OdeProblem : public ModelProblemBase {
 public:
  static constexpr bool kSensitivities = false;
  explicit OdeProblem(const System& model) : ModelProblemBase(model), n(model.num_states) {}
  int size() const { return n; }

  int rhs(double t, const double* x, double* xdot) {
    if (model_->rhs(t, x, xdot, nullptr) == 0 && text::first_not_finite(xdot, n) < 0) return 0;
    return fail("rhs", t, text::rhs_failure(*model_, t, x));
  }
  // The generated Jacobian is row-major, Radau5's column-major.
  int jacobian(double t, const double* x, double* J) {
    if (!model_->has_dense_jacobians)
      return fail("jacobian", t, "this model has no dense Jacobian");
    row_major_.resize(static_cast<size_t>(n) * n);
    if (model_->rhs_jacobian(t, x, row_major_.data()) != 0)
      return fail("jacobian", t, text::dense_jacobian_failure(*model_, t, x, row_major_.data()));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) J[i + static_cast<size_t>(n) * j] = row_major_[i * n + j];
    return 0;
  }
  integrators::SparsityPattern jacobian_pattern() const {
    integrators::SparsityPattern pattern;
    if (model_->has_sparse_rhs_jacobian) {
      pattern.n = n;
      pattern.colptr.assign(model_->rhs_jacobian_colptr, model_->rhs_jacobian_colptr + n + 1);
      pattern.rowval.assign(model_->rhs_jacobian_rowval,
                            model_->rhs_jacobian_rowval + model_->rhs_jacobian_nnz);
    }
    return pattern;
  }
  int jacobian_values(double t, const double* x, double* values) {
    if (!model_->has_sparse_rhs_jacobian)
      return fail("jacobian", t, "this model has no sparse Jacobian");
    if (model_->rhs_jacobian_values(t, x, values) == 0) return 0;
    return fail("jacobian", t, text::jacobian_failure(*model_, t, x, "", "", 0.0));
  }
  /// Y at a consistent start: X itself.
  std::vector<double> start_values(double, const std::vector<double>& x) const { return x; }
  int project(double t, double* x) {
    if (model_->num_invariants == 0) return 0;
    projected_.assign(x, x + n);
    if (model_->project(t, projected_.data()) != 0 ||
        text::first_not_finite(projected_.data(), n) >= 0)
      return fail("projection", t, text::projection_failure(*model_, t, x, projected_.data()));
    std::copy(projected_.begin(), projected_.end(), x);
    return 0;
  }

 private:
  const int n;
  std::vector<double> row_major_, projected_;
};

/// The index-1 DAE in Y = (X, Z) as a Radau5 problem: M Y' = f(t, Y) with M = diag(I, 0) and
/// f = -r(t, Y, Y' = 0) for the generated residual r = [X' - F(X, Z, t); A Z - b].
class DaeProblem : public ModelProblemBase {
 public:
  static constexpr bool kSensitivities = false;
  explicit DaeProblem(const System& model)
      : ModelProblemBase(model),
        n(model.num_states),
        m(model.num_algebraic),
        size_(model.num_states + model.num_algebraic) {}
  int size() const { return size_; }
  bool is_algebraic(int i) const { return i >= n; }

  int rhs(double t, const double* y, double* f) {
    zero_.assign(static_cast<size_t>(std::max(n, 1)), 0.0);
    model_->residual(t, y, zero_.data(), y + n, f);
    for (int i = 0; i < size_; ++i) f[i] = -f[i];
    if (text::first_not_finite(f, size_) < 0) return 0;
    std::string why = text::rhs_failure(*model_, t, y);
    return fail("residual", t,
                why.empty() ? "the residual is not finite" + text::domain_hint("the model") : why);
  }
  int jacobian(double t, const double* y, double* J) {
    if (!model_->has_dense_jacobians)
      return fail("jacobian", t, "this model has no dense Jacobian");
    zero_.assign(static_cast<size_t>(std::max(n, 1)), 0.0);
    dr_dx_.resize(static_cast<size_t>(size_) * n);
    dr_dxdot_.resize(static_cast<size_t>(size_) * n);
    dr_dz_.resize(static_cast<size_t>(size_) * std::max(m, 1));
    model_->residual_jacobian(t, y, zero_.data(), y + n, dr_dx_.data(), dr_dxdot_.data(),
                              dr_dz_.data());
    for (int row = 0; row < size_; ++row)
      for (int column = 0; column < size_; ++column)
        J[row + static_cast<size_t>(size_) * column] =
            -(column < n ? dr_dx_[static_cast<size_t>(row) * n + column]
                         : dr_dz_[static_cast<size_t>(row) * m + (column - n)]);
    return 0;
  }
  integrators::SparsityPattern jacobian_pattern() const {
    integrators::SparsityPattern pattern;
    if (model_->has_sparse_residual_jacobian) {
      pattern.n = size_;
      pattern.colptr.assign(model_->residual_jacobian_colptr,
                            model_->residual_jacobian_colptr + size_ + 1);
      pattern.rowval.assign(model_->residual_jacobian_rowval,
                            model_->residual_jacobian_rowval + model_->residual_jacobian_nnz);
    }
    return pattern;
  }
  // df/dY = -(dr/dY) = -(the iteration matrix at alpha = 0).
  int jacobian_values(double t, const double* y, double* values) {
    if (!model_->has_sparse_residual_jacobian)
      return fail("jacobian", t, "this model has no sparse Jacobian");
    zero_.assign(static_cast<size_t>(std::max(n, 1)), 0.0);
    model_->residual_jacobian_values(t, y, zero_.data(), y + n, 0.0, values);
    for (int e = 0; e < model_->residual_jacobian_nnz; ++e) values[e] = -values[e];
    return 0;
  }
  /// Y at a consistent start: (X, Z) with Z from A(X, t) Z = b(X, t).
  std::vector<double> start_values(double t, const std::vector<double>& x) const {
    std::vector<double> y(static_cast<size_t>(size_));
    std::copy(x.begin(), x.begin() + n, y.begin());
    std::vector<double> xdot(static_cast<size_t>(std::max(n, 1)));
    try {
      checked_rhs(*model_, t, y.data(), xdot.data(), y.data() + n);
    } catch (const model_error& error) {
      run_error(error.what());
    }
    return y;
  }
  /// X onto the hidden constraints, then Z solved again from A(X, t) Z = b(X, t).
  int project(double t, double* y) {
    projected_.assign(y, y + n);
    if (model_->num_invariants > 0 && (model_->project(t, projected_.data()) != 0 ||
                                       text::first_not_finite(projected_.data(), n) >= 0))
      return fail("projection", t, text::projection_failure(*model_, t, y, projected_.data()));
    xdot_.resize(static_cast<size_t>(std::max(n, 1)));
    z_.resize(static_cast<size_t>(std::max(m, 1)));
    if (model_->rhs(t, projected_.data(), xdot_.data(), z_.data()) != 0)
      return fail("rhs", t, text::rhs_failure(*model_, t, projected_.data()));
    std::copy(projected_.begin(), projected_.end(), y);
    std::copy(z_.begin(), z_.begin() + m, y + n);
    return 0;
  }

 private:
  const int n, m, size_;
  std::vector<double> zero_, dr_dx_, dr_dxdot_, dr_dz_, projected_, xdot_, z_;
};

// The absolute tolerance the error estimate is held to is at most this fraction of rtol. A loose
// atol (rtol = atol = 1e-4) lets components far smaller than 1 lose every digit: Robertson's y2
// (at most 3.6e-5) went negative and the reaction ran away to y1 = -4.5e7 by t = 1e11, where the
// answer is 2.1e-8. Held to rtol/100 the same run ends within 0.1 of the tolerance, in fewer
// steps (104 against 344); the answer's error is still judged against the atol asked for.
constexpr double kAbsoluteToleranceFraction = 1e-2;

// The step budget of a run (Radau5Options::max_steps): so high that in practice only a run
// that makes no progress meets it.
constexpr long kMaxRadauSteps = 10'000'000;

/// A Radau5 run on `Problem` (OdeProblem or DaeProblem) with the linear solver `Solver`.
template <typename Problem, typename Solver>
class RadauMethod final : public Integrator {
 public:
  RadauMethod(const System& model, const Options& options, const std::vector<double>& x0)
      : RadauMethod(model, options, x0, Problem(model)) {}
  RadauMethod(const System& model, const Options& options, const std::vector<double>& x0,
              Problem problem)
      : n(model.num_states),
        model_(model),
        problem_(std::move(problem)),
        radau_(problem_, radau_options(options)) {
    radau_.set_stop_time(options.t_end);
    std::vector<double> y = start_values(options.t_start, x0);
    integrators::Radau5Result result = radau_.initialize(options.t_start, y.data());
    if (!result.ok()) stop(result);
    tail_.assign(y.begin() + n, y.end());
    t_tail_ = options.t_start;
  }

  void restart(double t, const std::vector<double>& x) override {
    std::vector<double> y = start_values(t, x);
    // A step redone from where it began (step_redo.hpp) keeps the sensitivities reached there;
    // after a switch they go on from what carry_sensitivities gave, on the new constraints.
    if (Problem::kSensitivities && !carried_.empty()) {
      std::copy(carried_.begin(), carried_.end(), y.begin() + n);
      carried_.clear();
      if (problem_.project(t, y.data()) != 0)
        run_error("cannot carry the sensitivities across the switch at t = " +
                  text::format_number(t) + ": " + problem_.failure_message());
    } else if (Problem::kSensitivities && t == t_tail_) {
      std::copy(tail_.begin(), tail_.end(), y.begin() + n);
    }
    integrators::Radau5Result result = radau_.restart(t, y.data());
    if (!result.ok()) stop(result);
    tail_.assign(y.begin() + n, y.end());
    t_tail_ = t;
  }

  void limit_step(double h_max) override {
    radau_.set_max_step(h_max > 0.0 ? h_max : std::numeric_limits<double>::infinity());
  }

  double step(double t_target, std::vector<double>& x) override {
    radau_.set_stop_time(t_target);  // a step ends exactly at every output time
    integrators::Radau5Result result = radau_.step();
    if (!result.ok()) stop(result);
    problem_.forget_failures_before(result.t);
    std::copy(radau_.y().begin(), radau_.y().begin() + n, x.begin());
    tail_.assign(radau_.y().begin() + n, radau_.y().end());
    t_tail_ = result.t;
    return result.t;
  }

  /// Ends the run: the time reached and the kind of failure; the note says what failed in the
  /// model (the last failure the integration did not get past), or else Radau5's own account.
  [[noreturn]] void fail(double t, const std::string& why) const override {
    std::vector<std::string> notes;
    if (!problem_.failure_note().empty()) {
      notes.push_back(problem_.failure_note());
    } else if (!radau_.message().empty()) {  // else it only says the model's failure again
      notes.push_back("Radau5: " + radau_.message());
    }
    run_error("integration failed at t = " + text::format_number(t) + ": " + why, notes);
  }

  bool model_failed() const override { return !problem_.failure_note().empty(); }

  // Never needed while steps end at the output times; kept exact for an output time inside the
  // last step all the same: the collocation polynomial, projected.
  void interpolate(double t, std::vector<double>& x) override {
    const std::vector<double> y = interpolated(t);
    std::copy(y.begin(), y.begin() + n, x.begin());
  }

  void carry_sensitivities(const std::vector<double>& s) override { carried_ = s; }

  /// dX/dp at the last step's end t, else on the collocation polynomial, projected, as X is.
  void sensitivities(double t, std::vector<double>& s) override {
    if constexpr (Problem::kSensitivities) {
      if (t == t_tail_) {
        s = tail_;
        return;
      }
      const std::vector<double> y = interpolated(t);
      s.assign(y.begin() + n, y.end());
    } else {
      (void)t;
      s.clear();
    }
  }

  Statistics statistics() const override {
    const integrators::Radau5Statistics& s = radau_.statistics();
    Statistics counts;
    counts.steps = s.steps;
    counts.rhs_evaluations = s.rhs_evaluations;
    counts.jacobian_evaluations = s.jacobian_evaluations;
    counts.projections = model_.num_invariants > 0 ? s.projections : 0;
    counts.factor_nonzeros = s.factor_nonzeros;
    return counts;
  }

 private:
  [[noreturn]] void stop(const integrators::Radau5Result& result) const {
    using integrators::Radau5Status;
    switch (result.status) {
      case Radau5Status::step_size_too_small:
        fail(result.t, "the step size vanished");
      case Radau5Status::too_many_steps:
        fail(result.t, "too many steps");
      case Radau5Status::convergence_failure:
        fail(result.t, "the Newton iteration failed repeatedly");
      case Radau5Status::singular_matrix:
        fail(result.t, "the iteration matrix is singular");
      case Radau5Status::problem_failed:
        fail(result.t, "the model failed repeatedly");
      default:
        run_error("integration failed at t = " + text::format_number(result.t) + ": " +
                  radau_.message());
    }
  }

  /// Y at t on the last step's collocation polynomial, projected where the projection succeeds.
  std::vector<double> interpolated(double t) {
    std::vector<double> y(static_cast<size_t>(problem_.size()));
    if (!radau_.interpolate(t, y.data()))
      run_error("cannot interpolate the solution at t = " + text::format_number(t));
    if (problem_.project(t, y.data()) != 0) radau_.interpolate(t, y.data());
    return y;
  }

  std::vector<double> start_values(double t, const std::vector<double>& x) {
    return problem_.start_values(t, std::vector<double>(x.begin(), x.begin() + n));
  }

  static integrators::Radau5Options radau_options(const Options& options) {
    integrators::Radau5Options radau;
    radau.rtol = options.rtol;
    radau.atol = std::min(options.atol, kAbsoluteToleranceFraction * options.rtol);
    radau.max_steps = kMaxRadauSteps;
    // DaeProblem::project solves Z again from X after every step, so Z's error is X's carried
    // through A(X, t) Z = b(X, t); held to the tolerance on its own it made radau5-dae take up
    // to 33 times radau5's steps on a diode array, and lose the step at rtol 1e-10
    // (docs/integrators.md, "Error control of an index-1 DAE").
    radau.algebraic_error = false;
    return radau;
  }

  const int n;
  const System& model_;
  Problem problem_;
  integrators::Radau5<Problem, Solver> radau_;
  std::vector<double> tail_;  // Y beyond X at t_tail_, the last step's end (or the start)
  double t_tail_ = 0.0;
  std::vector<double> carried_;  // the sensitivities the next restart starts from
};

/// The Radau method `name` ("radau5" or "radau5-dae") on `model` with `solver`.
inline std::unique_ptr<Integrator> make_radau(const std::string& name, const System& model,
                                              const Options& options, const std::vector<double>& x0,
                                              LinearSolver solver) {
  using Dense = integrators::DenseLinearSolver;
  using Klu = integrators::KluLinearSolver;
  if (name == "radau5-dae") {
    if (model.has_sparse_residual_jacobian && solver == LinearSolver::klu)
      return std::make_unique<RadauMethod<DaeProblem, Klu>>(model, options, x0);
    return std::make_unique<RadauMethod<DaeProblem, Dense>>(model, options, x0);
  }
  if (model.has_sparse_rhs_jacobian && solver == LinearSolver::klu)
    return std::make_unique<RadauMethod<OdeProblem, Klu>>(model, options, x0);
  return std::make_unique<RadauMethod<OdeProblem, Dense>>(model, options, x0);
}

}  // namespace daec::simulator
