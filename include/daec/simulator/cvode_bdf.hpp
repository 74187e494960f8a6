// The method `bdf`: SUNDIALS CVODE (variable-order BDF, Newton iteration with the generated
// Jacobian, a dense or KLU linear solver) on the reduced ODE X' = F(X, t), projecting the state
// onto the hidden constraints after every step (CVodeSetProjFn).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <cvode/cvode.h>

#include <daec/model_error.hpp>
#include <daec/runtime/system.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/integrator.hpp>
#include <daec/simulator/options.hpp>
#include <daec/simulator/sundials_common.hpp>
#include <daec/sundials.hpp>
#include <daec/traits.hpp>

namespace daec::simulator {

/// The meaning and name of a CVODE return flag, for the message of a failed run.
inline std::string cvode_flag_meaning(int flag) {
  struct Meaning {
    int flag;
    const char* text;
  };
  static const Meaning kMeanings[] = {
      {CV_TOO_MUCH_WORK, "too many steps (CV_TOO_MUCH_WORK)"},
      {CV_TOO_MUCH_ACC, "the tolerances cannot be met (CV_TOO_MUCH_ACC)"},
      {CV_ERR_FAILURE, "the error test failed repeatedly or |h| = hmin (CV_ERR_FAILURE)"},
      {CV_CONV_FAILURE, "the Newton iteration failed repeatedly or |h| = hmin (CV_CONV_FAILURE)"},
      {CV_LSETUP_FAIL, "the Jacobian or its factorization failed (CV_LSETUP_FAIL)"},
      {CV_LSOLVE_FAIL, "the linear solve failed (CV_LSOLVE_FAIL)"},
      {CV_RHSFUNC_FAIL, "the right-hand side failed (CV_RHSFUNC_FAIL)"},
      {CV_FIRST_RHSFUNC_ERR, "the right-hand side failed at the start (CV_FIRST_RHSFUNC_ERR)"},
      {CV_REPTD_RHSFUNC_ERR, "the right-hand side failed repeatedly (CV_REPTD_RHSFUNC_ERR)"},
      {CV_UNREC_RHSFUNC_ERR, "the right-hand side failed (CV_UNREC_RHSFUNC_ERR)"},
      {CV_PROJFUNC_FAIL, "the projection onto the invariants failed (CV_PROJFUNC_FAIL)"},
      {CV_REPTD_PROJFUNC_ERR,
       "the projection onto the invariants failed repeatedly (CV_REPTD_PROJFUNC_ERR)"},
      {CV_MEM_FAIL, "out of memory (CV_MEM_FAIL)"},
      {CV_ILL_INPUT, "invalid input to CVODE (CV_ILL_INPUT)"},
      {CV_TOO_CLOSE, "T0 and T are too close (CV_TOO_CLOSE)"},
  };
  for (const Meaning& meaning : kMeanings)
    if (meaning.flag == flag) return meaning.text;
  return "CVODE flag " + std::to_string(flag);
}

/// One CVODE run; frees CVODE's memory before the vectors and solvers it uses.
class CvodeBdf final : public Integrator {
 public:
  CvodeBdf(const System& model, const Options& options, const std::vector<double>& x0,
           LinearSolver solver)
      : n(model.num_states), data_(model), sundials_(n, solver, sparse_entries(model)) {
    try {
      set_up(options, x0, solver);
    } catch (...) {
      release();  // the destructor does not run after a throwing constructor
      throw;
    }
  }
  CvodeBdf(const CvodeBdf&) = delete;
  CvodeBdf& operator=(const CvodeBdf&) = delete;
  ~CvodeBdf() override { release(); }

  double step(double, std::vector<double>& x) override {
    double reached = 0.0;
    int flag = CVode(memory_, t_end_, sundials_.y, &reached, CV_ONE_STEP);
    if (flag < 0) fail(reached, cvode_flag_meaning(flag));
    // A failure CVODE recovered from (by a shorter step) is forgotten once t is past it.
    if (reached > data_.failure_time) data_.failure.clear();
    const double* y = N_VGetArrayPointer(sundials_.y);
    std::copy(y, y + n, x.begin());
    return reached;
  }

  void restart(double t, const std::vector<double>& x) override {
    earlier_ += counts();
    std::copy(x.begin(), x.begin() + n, N_VGetArrayPointer(sundials_.y));
    check(CVodeReInit(memory_, t, sundials_.y));
    check(CVodeSetStopTime(memory_, t_end_));
  }

  [[noreturn]] void fail(double t, const std::string& why) const override {
    std::vector<std::string> notes;
    if (!data_.failure.empty())
      notes.push_back("at t = " + text::format_number(data_.failure_time) + ", " + data_.failure);
    if (!last_error_.empty()) notes.push_back("CVODE " + last_error_);
    run_error("integration failed at t = " + text::format_number(t) + ": " + why, notes);
  }

  /// CVODE's interpolating polynomial, projected. The projection matters: only the step ends are
  /// projected onto the constraint manifold, and between them the polynomial can be far off it --
  /// for a model without free initial data (the index-k chain) the steps grow long and only their
  /// ends are right. If the projection fails, the polynomial's value stays.
  void interpolate(double t, std::vector<double>& x) override {
    N_Vector out = N_VMake_Serial(n, x.data(), sundials_.context);
    int flag = CVodeGetDky(memory_, t, 0, out);
    N_VDestroy(out);
    if (flag != CV_SUCCESS)
      run_error("cannot interpolate the solution at t = " + text::format_number(t));
    if (data_.model->num_invariants == 0) return;
    std::vector<double> projected = x;
    if (data_.model->project(t, projected.data()) == 0 &&
        text::first_not_finite(projected.data(), n) < 0)
      x = projected;
  }

  Statistics statistics() const override {
    Statistics total = earlier_;
    return total += counts();
  }

 private:
  // Since the last (re)initialization: CVodeReInit starts the counts again.
  Statistics counts() const {
    Statistics counts;
    CVodeGetNumSteps(memory_, &counts.steps);
    CVodeGetNumRhsEvals(memory_, &counts.rhs_evaluations);
    CVodeGetNumJacEvals(memory_, &counts.jacobian_evaluations);
    if (data_.model->num_invariants > 0) CVodeGetNumProjEvals(memory_, &counts.projections);
    return counts;
  }

  static int sparse_entries(const System& model) {
    return model.has_sparse_rhs_jacobian ? model.rhs_jacobian_nnz : 0;
  }

  void set_up(const Options& options, const std::vector<double>& x0, LinearSolver solver) {
    t_end_ = options.t_end;
    std::copy(x0.begin(), x0.begin() + n, N_VGetArrayPointer(sundials_.y));
    memory_ = CVodeCreate(CV_BDF, sundials_.context);
    if (memory_ == nullptr) run_error("cannot create the CVODE solver");
    check(CVodeSetErrHandlerFn(memory_, keep_error_message, &last_error_));
    check(CVodeInit(memory_, sundials::cvode_rhs<System>, options.t_start, sundials_.y));
    check(CVodeSetUserData(memory_, &data_));
    check(CVodeSStolerances(memory_, options.rtol, options.atol));
    check(CVodeSetLinearSolver(memory_, sundials_.linear_solver, sundials_.matrix));
    if (data_.model->has_sparse_rhs_jacobian && solver == LinearSolver::klu)
      check(CVodeSetJacFn(memory_, sundials::cvode_sparse_jacobian<System>));
    if (data_.model->has_dense_jacobians && solver == LinearSolver::dense)
      check(CVodeSetJacFn(memory_, sundials::cvode_dense_jacobian<System>));
    if (data_.model->num_invariants > 0) {
      check(CVodeSetProjFn(memory_, sundials::cvode_projection<System>));
      // The error estimate is left as it is: projected, it cost 80 times the steps on a particle
      // on a circle and gave 6 times the error on a transistor circuit .
      check(CVodeSetProjErrEst(memory_, SUNFALSE));
    }
    check(CVodeSetStopTime(memory_, options.t_end));
    // CVODE's warning "t + h = t" once, not 10 times: when steps stop advancing t for good, the
    // simulator stops with its own error, naming the model's failure.
    check(CVodeSetMaxHnilWarns(memory_, 1));
  }

  void release() {
    if (memory_ != nullptr) CVodeFree(&memory_);
  }

  void check(int flag) {
    if (flag != CV_SUCCESS) run_error("cannot set up CVODE: " + cvode_flag_meaning(flag));
  }

  const int n;
  sundials::UserData<System> data_;
  std::string last_error_;
  SundialsObjects sundials_;
  void* memory_ = nullptr;
  double t_end_ = 0.0;
  Statistics earlier_;  // before the last restart
};

}  // namespace daec::simulator
