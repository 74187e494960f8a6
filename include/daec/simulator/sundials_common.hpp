// What the SUNDIALS-based methods (bdf, ida) share: the context, vectors and the dense or KLU
// matrix and linear solver of one run, freed in reverse order, and the handler that keeps
// SUNDIALS' error messages for the simulator's own report.
#pragma once

#include <cstdio>
#include <string>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <daec/simulator/failure.hpp>
#include <daec/simulator/options.hpp>

namespace daec::simulator {

/// Keeps a SUNDIALS solver's error messages for our own report; warnings are passed on at once.
/// `user_data` is a std::string* receiving "function: message".
inline void keep_error_message(int code, const char*, const char* function, char* message,
                               void* user_data) {
  if (code > 0) {  // CV_WARNING, IDA_WARNING
    std::fprintf(stderr, "sim: warning: %s: %s\n", function, message);
    return;
  }
  *static_cast<std::string*>(user_data) = std::string(function) + ": " + message;
}

/// The SUNDIALS objects every method needs: a context, the state vector (size `size`) and an
/// iteration matrix with its linear solver, dense or KLU (CSC with room for `nnz` entries).
class SundialsObjects {
 public:
  SundialsObjects(int size, LinearSolver solver, int nnz) {
    try {
      if (SUNContext_Create(nullptr, &context) != 0) run_error("cannot create a SUNDIALS context");
      y = N_VNew_Serial(size, context);
      if (solver == LinearSolver::klu) {
        matrix = SUNSparseMatrix(size, size, nnz, CSC_MAT, context);
      } else {
        matrix = SUNDenseMatrix(size, size, context);
      }
      if (y == nullptr || matrix == nullptr) run_error("out of memory");
      linear_solver = solver == LinearSolver::klu ? SUNLinSol_KLU(y, matrix, context)
                                                  : SUNLinSol_Dense(y, matrix, context);
      if (linear_solver == nullptr) run_error("cannot create the linear solver");
    } catch (...) {
      release();
      throw;
    }
  }
  SundialsObjects(const SundialsObjects&) = delete;
  SundialsObjects& operator=(const SundialsObjects&) = delete;
  ~SundialsObjects() { release(); }

  SUNContext context = nullptr;
  N_Vector y = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver linear_solver = nullptr;

 private:
  void release() {
    if (linear_solver != nullptr) SUNLinSolFree(linear_solver);
    if (matrix != nullptr) SUNMatDestroy(matrix);
    if (y != nullptr) N_VDestroy(y);
    if (context != nullptr) SUNContext_Free(&context);
    linear_solver = nullptr;
    matrix = nullptr;
    y = nullptr;
  }
};

}  // namespace daec::simulator
