// The method `ida`: SUNDIALS IDA (variable-order BDF for implicit DAEs) on the index-1 residual
// r(t, Y, Y') = [X' - F(X, Z, t); A(X, t) Z - b(X, t)] with Y = (X, Z): the algebraic equations
// stay equations instead of being solved inside every right-hand side, so the iteration matrix
// dr/dY + c_j dr/dY' stays as sparse as the model (KLU for large models). The algebraic unknowns
// are left out of the error test (IDASetSuppressAlg), as their accuracy follows from the states'.
// IDA has no projection: the state drifts from the hidden constraints within the tolerances, and
// the output rows are projected onto them.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <ida/ida.h>

#include <daec/model_error.hpp>
#include <daec/runtime/system.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/integrator.hpp>
#include <daec/simulator/options.hpp>
#include <daec/simulator/sundials_common.hpp>
#include <daec/sundials.hpp>
#include <daec/traits.hpp>

namespace daec::simulator {

/// The meaning and name of an IDA return flag, for the message of a failed run.
inline std::string ida_flag_meaning(int flag) {
  struct Meaning {
    int flag;
    const char* text;
  };
  static const Meaning kMeanings[] = {
      {IDA_TOO_MUCH_WORK, "too many steps (IDA_TOO_MUCH_WORK)"},
      {IDA_TOO_MUCH_ACC, "the tolerances cannot be met (IDA_TOO_MUCH_ACC)"},
      {IDA_ERR_FAIL, "the error test failed repeatedly or |h| = hmin (IDA_ERR_FAIL)"},
      {IDA_CONV_FAIL, "the Newton iteration failed repeatedly or |h| = hmin (IDA_CONV_FAIL)"},
      {IDA_LSETUP_FAIL, "the Jacobian or its factorization failed (IDA_LSETUP_FAIL)"},
      {IDA_LSOLVE_FAIL, "the linear solve failed (IDA_LSOLVE_FAIL)"},
      {IDA_RES_FAIL, "the residual failed (IDA_RES_FAIL)"},
      {IDA_REP_RES_ERR, "the residual failed repeatedly (IDA_REP_RES_ERR)"},
      {IDA_FIRST_RES_FAIL, "the residual failed at the start (IDA_FIRST_RES_FAIL)"},
      {IDA_NO_RECOVERY, "the residual or linear solver failed, no recovery (IDA_NO_RECOVERY)"},
      {IDA_MEM_FAIL, "out of memory (IDA_MEM_FAIL)"},
      {IDA_ILL_INPUT, "invalid input to IDA (IDA_ILL_INPUT)"},
  };
  for (const Meaning& meaning : kMeanings)
    if (meaning.flag == flag) return meaning.text;
  return "IDA flag " + std::to_string(flag);
}

class Ida final : public Integrator {
 public:
  Ida(const System& model, const Options& options, const std::vector<double>& x0,
      LinearSolver solver)
      : n(model.num_states),
        m(model.num_algebraic),
        size(n + m),
        data_(model),
        sundials_(size, solver, sparse_entries(model)) {
    try {
      set_up(options, x0, solver);
    } catch (...) {
      release();
      throw;
    }
  }
  Ida(const Ida&) = delete;
  Ida& operator=(const Ida&) = delete;
  ~Ida() override {
    release();
    if (yp_ != nullptr) N_VDestroy(yp_);
    if (id_ != nullptr) N_VDestroy(id_);
  }

  double step(double, std::vector<double>& x) override {
    double reached = 0.0;
    int flag = IDASolve(memory_, t_end_, &reached, sundials_.y, yp_, IDA_ONE_STEP);
    if (flag < 0) fail(reached, ida_flag_meaning(flag));
    if (reached > data_.failure_time) data_.failure.clear();
    const double* y = N_VGetArrayPointer(sundials_.y);
    std::copy(y, y + n, x.begin());
    return reached;
  }

  void restart(double t, const std::vector<double>& x) override {
    earlier_ += counts();
    try {
      initial_values(t, x);
    } catch (const model_error& error) {
      run_error(error.what());
    }
    check(IDAReInit(memory_, t, sundials_.y, yp_));
    check(IDASetStopTime(memory_, t_end_));
  }

  [[noreturn]] void fail(double t, const std::string& why) const override {
    std::vector<std::string> notes;
    if (!data_.failure.empty())
      notes.push_back("at t = " + text::format_number(data_.failure_time) + ", " + data_.failure);
    if (!last_error_.empty()) notes.push_back("IDA " + last_error_);
    run_error("integration failed at t = " + text::format_number(t) + ": " + why, notes);
  }

  void interpolate(double t, std::vector<double>& x) override {
    std::vector<double> y(static_cast<size_t>(size));
    N_Vector out = N_VMake_Serial(size, y.data(), sundials_.context);
    int flag = IDAGetDky(memory_, t, 0, out);
    N_VDestroy(out);
    if (flag != IDA_SUCCESS)
      run_error("cannot interpolate the solution at t = " + text::format_number(t));
    std::copy(y.begin(), y.begin() + n, x.begin());
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
  // Since the last (re)initialization: IDAReInit starts the counts again.
  Statistics counts() const {
    Statistics counts;
    IDAGetNumSteps(memory_, &counts.steps);
    IDAGetNumResEvals(memory_, &counts.rhs_evaluations);
    IDAGetNumJacEvals(memory_, &counts.jacobian_evaluations);
    return counts;
  }

  static int sparse_entries(const System& model) {
    return model.has_sparse_residual_jacobian ? model.residual_jacobian_nnz : 0;
  }

  /// Y = (X, Z) and Y' = (X', 0) at T0 from the consistent X: rhs gives X' and Z exactly.
  void initial_values(double t0, const std::vector<double>& x0) {
    double* y = N_VGetArrayPointer(sundials_.y);
    double* yp = N_VGetArrayPointer(yp_);
    std::fill(yp, yp + size, 0.0);
    std::copy(x0.begin(), x0.begin() + n, y);
    checked_rhs(*data_.model, t0, y, yp, y + n);
  }

  void set_up(const Options& options, const std::vector<double>& x0, LinearSolver solver) {
    t_end_ = options.t_end;
    yp_ = N_VNew_Serial(size, sundials_.context);
    id_ = N_VNew_Serial(size, sundials_.context);
    if (yp_ == nullptr || id_ == nullptr) run_error("out of memory");
    try {
      initial_values(options.t_start, x0);
    } catch (const model_error& error) {
      run_error(error.what());
    }
    sundials::ida_variable_types(*data_.model, id_);
    memory_ = IDACreate(sundials_.context);
    if (memory_ == nullptr) run_error("cannot create the IDA solver");
    check(IDASetErrHandlerFn(memory_, keep_error_message, &last_error_));
    check(IDAInit(memory_, sundials::ida_residual<System>, options.t_start, sundials_.y, yp_));
    check(IDASetUserData(memory_, &data_));
    check(IDASStolerances(memory_, options.rtol, options.atol));
    check(IDASetId(memory_, id_));
    check(IDASetSuppressAlg(memory_, SUNTRUE));
    check(IDASetLinearSolver(memory_, sundials_.linear_solver, sundials_.matrix));
    if (data_.model->has_sparse_residual_jacobian && solver == LinearSolver::klu)
      check(IDASetJacFn(memory_, sundials::ida_sparse_jacobian<System>));
    if (data_.model->has_dense_jacobians && solver == LinearSolver::dense)
      check(IDASetJacFn(memory_, sundials::ida_dense_jacobian<System>));
    check(IDASetStopTime(memory_, options.t_end));
    check(IDASetMaxNumSteps(memory_, 100000));
  }

  void release() {
    if (memory_ != nullptr) IDAFree(&memory_);
  }

  void check(int flag) {
    if (flag != IDA_SUCCESS) run_error("cannot set up IDA: " + ida_flag_meaning(flag));
  }

  const int n, m, size;
  sundials::UserData<System> data_;
  std::string last_error_;
  SundialsObjects sundials_;
  N_Vector yp_ = nullptr, id_ = nullptr;
  void* memory_ = nullptr;
  double t_end_ = 0.0;
  Statistics earlier_;  // before the last restart
};

}  // namespace daec::simulator
