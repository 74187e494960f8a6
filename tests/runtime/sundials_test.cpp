// daec/adapters/sundials.hpp, through its public name of the product's spec (section 8),
// <daec/sundials.hpp>: CVODE and IDA driven by the ready callbacks, with dense and KLU linear
// solvers, on the hand-written circle model (exact solution x = r cos(w t), y = r sin(w t)).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <cvode/cvode.h>
#include <ida/ida.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <daec/sundials.hpp>

#include "circle_model.h"

namespace {

using circle::Model;

/// The SUNDIALS objects of one test, freed at the end.
struct Sundials {
  SUNContext context = nullptr;
  N_Vector y = nullptr, yp = nullptr, id = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver solver = nullptr;
  void* memory = nullptr;
  bool ida = false;

  Sundials(int size, bool sparse, int nnz) {
    SUNContext_Create(nullptr, &context);
    y = N_VNew_Serial(size, context);
    yp = N_VNew_Serial(size, context);
    id = N_VNew_Serial(size, context);
    matrix = sparse ? SUNSparseMatrix(size, size, nnz, CSC_MAT, context)
                    : SUNDenseMatrix(size, size, context);
    solver = sparse ? SUNLinSol_KLU(y, matrix, context) : SUNLinSol_Dense(y, matrix, context);
  }
  ~Sundials() {
    if (memory != nullptr) ida ? IDAFree(&memory) : CVodeFree(&memory);
    SUNLinSolFree(solver);
    SUNMatDestroy(matrix);
    N_VDestroy(id);
    N_VDestroy(yp);
    N_VDestroy(y);
    SUNContext_Free(&context);
  }
};

double cvode_error(bool sparse) {
  Model model;
  daec::sundials::UserData<Model> data(model);
  Sundials s(2, sparse, Model::rhs_jacobian_nnz);
  model.initial_state(N_VGetArrayPointer(s.y));
  s.memory = CVodeCreate(CV_BDF, s.context);
  EXPECT_EQ(CVodeInit(s.memory, daec::sundials::cvode_rhs<Model>, 0.0, s.y), CV_SUCCESS);
  CVodeSetUserData(s.memory, &data);
  CVodeSStolerances(s.memory, 1e-10, 1e-12);
  CVodeSetLinearSolver(s.memory, s.solver, s.matrix);
  CVodeSetJacFn(s.memory, sparse ? daec::sundials::cvode_sparse_jacobian<Model>
                                 : daec::sundials::cvode_dense_jacobian<Model>);
  CVodeSetProjFn(s.memory, daec::sundials::cvode_projection<Model>);
  CVodeSetProjErrEst(s.memory, SUNFALSE);  // as SUNDIALS' own cvParticle_dns example
  double t = 0;
  EXPECT_EQ(CVode(s.memory, 3.0, s.y, &t, CV_NORMAL), CV_SUCCESS);
  long projections = 0, jacobians = 0;
  CVodeGetNumProjEvals(s.memory, &projections);
  CVodeGetNumJacEvals(s.memory, &jacobians);
  EXPECT_GT(projections, 0);
  EXPECT_GT(jacobians, 0);
  const double* x = N_VGetArrayPointer(s.y);
  return std::hypot(x[0] - 1.5 * std::cos(6.0), x[1] - 1.5 * std::sin(6.0));
}

TEST(Sundials, CvodeWithDenseAndSparseJacobians) {
  EXPECT_LT(cvode_error(false), 1e-7);
  EXPECT_LT(cvode_error(true), 1e-7);
}

double ida_error(bool sparse) {
  Model model;
  daec::sundials::UserData<Model> data(model);
  Sundials s(3, sparse, Model::residual_jacobian_nnz);
  s.ida = true;
  double* y = N_VGetArrayPointer(s.y);
  double* yp = N_VGetArrayPointer(s.yp);
  model.initial_state(y);
  yp[2] = 0;
  EXPECT_EQ(model.rhs(0.0, y, yp, y + 2), 0);
  daec::sundials::ida_variable_types<Model>(s.id);
  EXPECT_EQ(N_VGetArrayPointer(s.id)[2], 0.0);
  s.memory = IDACreate(s.context);
  EXPECT_EQ(IDAInit(s.memory, daec::sundials::ida_residual<Model>, 0.0, s.y, s.yp), IDA_SUCCESS);
  IDASetUserData(s.memory, &data);
  IDASStolerances(s.memory, 1e-10, 1e-12);
  IDASetId(s.memory, s.id);
  IDASetLinearSolver(s.memory, s.solver, s.matrix);
  IDASetJacFn(s.memory, sparse ? daec::sundials::ida_sparse_jacobian<Model>
                               : daec::sundials::ida_dense_jacobian<Model>);
  double t = 0;
  EXPECT_EQ(IDASolve(s.memory, 3.0, &t, s.y, s.yp, IDA_NORMAL), IDA_SUCCESS);
  EXPECT_NEAR(y[2], y[0] * y[0] + y[1] * y[1], 1e-10);  // z solves its equation
  return std::hypot(y[0] - 1.5 * std::cos(6.0), y[1] - 1.5 * std::sin(6.0));
}

TEST(Sundials, IdaWithDenseAndSparseIterationMatrices) {
  EXPECT_LT(ida_error(false), 1e-6);
  EXPECT_LT(ida_error(true), 1e-6);
}

TEST(Sundials, ModelFailuresAreRecoverableAndNamed) {
  Model model;
  daec::sundials::UserData<Model> data(model);
  SUNContext context;
  SUNContext_Create(nullptr, &context);
  N_Vector y = N_VNew_Serial(2, context), ydot = N_VNew_Serial(2, context);
  N_VGetArrayPointer(y)[0] = std::nan("");
  N_VGetArrayPointer(y)[1] = 0.0;
  EXPECT_EQ(daec::sundials::cvode_rhs<Model>(0.5, y, ydot, &data), 1);
  EXPECT_EQ(data.failure, "rhs: the state 'x' is not finite");
  EXPECT_EQ(data.failure_time, 0.5);
  N_VGetArrayPointer(y)[0] = 0.0;  // the centre: the projection cannot move it onto the circle
  N_Vector correction = N_VNew_Serial(2, context);
  EXPECT_EQ(daec::sundials::cvode_projection<Model>(0.75, y, correction, 0.0, nullptr, &data), 1);
  EXPECT_EQ(data.failure,
            "projection: no convergence, the largest residual is circle = -2.25 (the constraints "
            "may have no solution near this state)");
  N_VDestroy(correction);
  N_VDestroy(ydot);
  N_VDestroy(y);
  SUNContext_Free(&context);
}

TEST(Sundials, ProjectedErrorHasNoNormalComponent) {
  Model model;
  daec::sundials::UserData<Model> data(model);
  const double x[2] = {0.9, 1.2};  // on the circle r = 1.5
  double error[2] = {0.3, 0.4};    // along the normal (x, y) / r
  daec::sundials::project_error(data, 0.0, x, error);
  EXPECT_NEAR(error[0], 0.0, 1e-15);
  EXPECT_NEAR(error[1], 0.0, 1e-15);
  double tangent[2] = {-1.2, 0.9};
  daec::sundials::project_error(data, 0.0, x, tangent);
  EXPECT_DOUBLE_EQ(tangent[0], -1.2);
  EXPECT_DOUBLE_EQ(tangent[1], 0.9);
}

}  // namespace
