// The method `ida`: SUNDIALS IDA (variable-order BDF for implicit DAEs) on the index-1 residual
// r(t, Y, Y') = [X' - F(X, Z, t); A(X, t) Z - b(X, t)] with Y = (X, Z): the algebraic equations
// stay equations instead of being solved inside every right-hand side, so the iteration matrix
// dr/dY + c_j dr/dY' stays as sparse as the model (KLU for large models). The algebraic unknowns
// are left out of the error test (IDASetSuppressAlg), as their accuracy follows from the states'.
// IDA has no projection: the state drifts from the hidden constraints within the tolerances, and
// the output rows are projected onto them. What it shares with bdf is in sundials_integrator.hpp.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <ida/ida.h>

#include <daec/adapters/sundials.hpp>
#include <daec/model_error.hpp>
#include <daec/runtime/system.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/integrator.hpp>
#include <daec/simulator/options.hpp>
#include <daec/simulator/sundials_common.hpp>
#include <daec/simulator/sundials_integrator.hpp>

namespace daec::simulator {

/// An IDA return flag in words, with IDA's name for it, for the message of a failed run.
inline std::string ida_flag_meaning(int flag) {
  static const FlagMeaning kMeanings[] = {
      {IDA_TOO_MUCH_WORK, "too many steps"},
      {IDA_TOO_MUCH_ACC, "the tolerances cannot be met"},
      {IDA_ERR_FAIL, "the error test failed repeatedly or |h| = hmin"},
      {IDA_CONV_FAIL, "the Newton iteration failed repeatedly or |h| = hmin"},
      {IDA_LSETUP_FAIL, "the Jacobian or its factorization failed"},
      {IDA_LSOLVE_FAIL, "the linear solve failed"},
      {IDA_RES_FAIL, "the residual failed"},
      {IDA_REP_RES_ERR, "the residual failed repeatedly"},
      {IDA_FIRST_RES_FAIL, "the residual failed at the start"},
      {IDA_NO_RECOVERY, "the residual or linear solver failed, no recovery"},
      {IDA_MEM_FAIL, "out of memory"},
      {IDA_ILL_INPUT, "invalid input to IDA"},
  };
  return describe_flag(flag, kMeanings, IDAGetReturnFlagName, "IDA");
}

inline const SundialsPackage kIda = {"IDA",
                                     ida_flag_meaning,
                                     IDAFree,
                                     IDAGetDky,
                                     IDASetMaxStep,
                                     "IDASetMaxStep",
#if SUNDIALS_VERSION_MAJOR < 7
                                     IDASetErrHandlerFn,
                                     "IDASetErrHandlerFn"
#endif
};

/// One IDA run on Y = (X, Z).
class Ida final : public SundialsIntegrator {
 public:
  Ida(const System& model, const Options& options, const std::vector<double>& x0,
      LinearSolver solver)
      : SundialsIntegrator(kIda, model, options, model.num_states + model.num_algebraic, solver,
                           model.has_sparse_residual_jacobian ? model.residual_jacobian_nnz : 0),
        yp_(add_vector()),
        id_(add_vector()) {
    set_up(options, x0, solver);
  }

 private:
  int advance(double t_end, double& reached) override {
    return IDASolve(memory(), t_end, &reached, y(), yp_, IDA_ONE_STEP);
  }

  // IDA's step ends drift from the invariants within the tolerances, like its interpolant:
  // the row at a step end (T, an event) is projected as the interpolated rows are.
  void step_end_row(double t, const std::vector<double>& x, std::vector<double>& row) override {
    row = x;
    project_if_possible(t, row);
  }

  void reinitialize(double t, const std::vector<double>& x) override {
    initial_values(t, x);
    check(IDAReInit(memory(), t, y(), yp_), "IDAReInit");
    check(IDASetStopTime(memory(), t_end_), "IDASetStopTime");
  }

  Statistics counts() const override {
    Statistics counts;
    IDAGetNumSteps(memory(), &counts.steps);
    IDAGetNumResEvals(memory(), &counts.rhs_evaluations);
    IDAGetNumJacEvals(memory(), &counts.jacobian_evaluations);
    return counts;
  }

  /// Y = (X, Z) and Y' = (X', 0) at T0 from the consistent X: rhs gives X' and Z exactly. A
  /// failure of the model there ends the run.
  void initial_values(double t0, const std::vector<double>& x0) {
    double* y = N_VGetArrayPointer(this->y());
    double* yp = N_VGetArrayPointer(yp_);
    std::fill(yp, yp + size_, 0.0);
    std::copy(x0.begin(), x0.begin() + n_, y);
    try {
      checked_rhs(*data_.model, t0, y, yp, y + n_);
    } catch (const model_error& error) {
      run_error(error.what());
    }
  }

  void set_up(const Options& options, const std::vector<double>& x0, LinearSolver solver) {
    initial_values(options.t_start, x0);
    sundials::ida_variable_types(*data_.model, id_);
    attach(IDACreate(context()), "IDACreate");
    check(IDAInit(memory(), sundials::ida_residual<System>, options.t_start, y(), yp_), "IDAInit");
    check(IDASetUserData(memory(), &data_), "IDASetUserData");
    // Held to a fraction of the tolerances, as CVODE is (docs/integrators.md, "The tolerances
    // bdf and ida are held to"): the algebraic unknowns follow the states through A(X, t), whose
    // condition multiplies the states' error.
    const HeldTolerances held = held_tolerances(options.rtol, options.atol, kIdaToleranceFraction);
    check(IDASStolerances(memory(), held.rtol, held.atol), "IDASStolerances");
    check(IDASetId(memory(), id_), "IDASetId");
    check(IDASetSuppressAlg(memory(), SUNTRUE), "IDASetSuppressAlg");
    check(IDASetLinearSolver(memory(), linear_solver(), matrix()), "IDASetLinearSolver");
    if (data_.model->has_sparse_residual_jacobian && solver == LinearSolver::klu)
      check(IDASetJacFn(memory(), sundials::ida_sparse_jacobian<System>), "IDASetJacFn");
    if (data_.model->has_dense_jacobians && solver == LinearSolver::dense)
      check(IDASetJacFn(memory(), sundials::ida_dense_jacobian<System>), "IDASetJacFn");
    check(IDASetStopTime(memory(), options.t_end), "IDASetStopTime");
    check(IDASetMaxNumSteps(memory(), kMaxSteps), "IDASetMaxNumSteps");
  }

  // IDA's limit of internal steps per call of IDASolve (500 by default).
  static constexpr long kMaxSteps = 100000;

  N_Vector yp_, id_;  // Y' and the variable types (1 differential, 0 algebraic), owned by the base
};

}  // namespace daec::simulator
