// Ready callbacks for a user's own SUNDIALS program (docs/adapters.md), generic over any Model daec
// generates: CVODE on the reduced ODE X' = F(X, t) (right-hand side, dense and sparse Jacobian,
// projection onto the hidden constraints) and IDA on the index-1 residual
// F(t, (X, Z), (X', Z')) = 0 (residual, dense and sparse iteration matrix). The simulator uses
// exactly these.
//
//   daec::sundials::UserData<pendulum::Model> data(model);
//   CVodeInit(cvode, daec::sundials::cvode_rhs<pendulum::Model>, t0, y);
//   CVodeSetUserData(cvode, &data);
//   CVodeSetJacFn(cvode, daec::sundials::cvode_dense_jacobian<pendulum::Model>);
//   CVodeSetProjFn(cvode, daec::sundials::cvode_projection<pendulum::Model>);
//
// A failure of the model inside a callback is recoverable for SUNDIALS (return value 1: it
// retries with a smaller step); UserData keeps its time and cause, in the model's names, for the
// message if the integration fails in the end (UserData::failure).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_types.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <daec/model_error.hpp>
#include <daec/traits.hpp>

namespace daec::sundials {

/// What the callbacks need (pass its address as SUNDIALS' user_data): the model, scratch
/// buffers, and the model's last failure in a callback.
template <typename Model>
struct UserData {
  explicit UserData(const Model& model_)
      : model(&model_), n(model_.num_states), m(model_.num_algebraic), k(model_.num_invariants) {}

  const Model* model;
  int n, m, k;
  // The model's last failure, "rhs: the algebraic unknown 'z' is not finite (...)", and its time
  // ("" if none).
  std::string failure;
  double failure_time = 0.0;

  /// Records a failure of the model at t; returns SUNDIALS' "recoverable" 1.
  int fail(double t, const char* callback, const std::string& what) {
    failure = std::string(callback) + ": " + what;
    failure_time = t;
    return 1;
  }

  // Scratch, sized once (never 0, for models without algebraic unknowns or invariants).
  std::vector<double> x = sized(n), xdot = sized(n), z = sized(m);
  std::vector<double> values;  // dense Jacobians or CSC values, sized on first use
  std::vector<double> dr_dx, dr_dxdot, dr_dz;
  std::vector<double> h = sized(k), h_jacobian, gram;

  static std::vector<double> sized(long count) {
    return std::vector<double>(static_cast<size_t>(std::max(count, 1L)), 0.0);
  }
};

template <typename Model>
UserData<Model>& data_of(void* user_data) {
  return *static_cast<UserData<Model>*>(user_data);
}

// ----- CVODE: X' = F(X, t) ---------------------------------------------------------------------

template <typename Model>
int cvode_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* user_data) {
  UserData<Model>& data = data_of<Model>(user_data);
  const double* x = N_VGetArrayPointer(y);
  double* xdot = N_VGetArrayPointer(ydot);
  if (data.model->rhs(t, x, xdot, nullptr) != 0 ||
      text::first_not_finite(xdot, data.model->num_states) >= 0)
    return data.fail(t, "rhs", text::rhs_failure(*data.model, t, x));
  return 0;
}

/// d(X')/dX into a SUNDenseMatrix (n x n).
template <typename Model>
int cvode_dense_jacobian(sunrealtype t, N_Vector y, N_Vector, SUNMatrix jacobian, void* user_data,
                         N_Vector, N_Vector, N_Vector) {
  UserData<Model>& data = data_of<Model>(user_data);
  const int n = data.model->num_states;
  const double* x = N_VGetArrayPointer(y);
  data.values.resize(static_cast<size_t>(n) * n);
  double* J = data.values.data();
  if (data.model->rhs_jacobian(t, x, J) != 0 || text::first_not_finite(J, n * n) >= 0)
    return data.fail(t, "jacobian", text::dense_jacobian_failure(*data.model, t, x, J));
  for (int column = 0; column < n; ++column) {  // row-major into SUNDIALS' column-major
    double* target = SUNDenseMatrix_Column(jacobian, column);
    for (int row = 0; row < n; ++row) target[row] = J[static_cast<size_t>(row) * n + column];
  }
  return 0;
}

/// Copies a generated CSC pattern into a SUNSparseMatrix(CSC_MAT) with room for `nnz` entries.
inline void copy_pattern(SUNMatrix matrix, int columns, const int* colptr, const int* rowval,
                         int nnz) {
  sunindextype* pointers = SUNSparseMatrix_IndexPointers(matrix);
  sunindextype* rows = SUNSparseMatrix_IndexValues(matrix);
  for (int column = 0; column <= columns; ++column) pointers[column] = colptr[column];
  for (int entry = 0; entry < nnz; ++entry) rows[entry] = rowval[entry];
}

/// The name of the (row, column) entry of a CSC pattern whose value is the first that is not
/// finite, as "row", "column" with `row_name(i)` and `column_name(j)`; false if all are finite.
template <typename RowName, typename ColumnName>
bool first_bad_entry(const int* colptr, int columns, const double* values, RowName row_name,
                     ColumnName column_name, const int* rowval, std::string& row,
                     std::string& column, double& value) {
  for (int j = 0; j < columns; ++j)
    for (int e = colptr[j]; e < colptr[j + 1]; ++e)
      if (!std::isfinite(values[e])) {
        row = row_name(rowval[e]);
        column = column_name(j);
        value = values[e];
        return true;
      }
  return false;
}

/// d(X')/dX into a SUNSparseMatrix(CSC_MAT) of size n x n with room for rhs_jacobian_nnz entries
/// (docs/generated-code.md).
template <typename Model>
int cvode_sparse_jacobian(sunrealtype t, N_Vector y, N_Vector, SUNMatrix jacobian, void* user_data,
                          N_Vector, N_Vector, N_Vector) {
  UserData<Model>& data = data_of<Model>(user_data);
  const int n = data.model->num_states, nnz = data.model->rhs_jacobian_nnz;
  const double* x = N_VGetArrayPointer(y);
  copy_pattern(jacobian, n, data.model->rhs_jacobian_colptr, data.model->rhs_jacobian_rowval, nnz);
  double* values = SUNSparseMatrix_Data(jacobian);
  int status = data.model->rhs_jacobian_values(t, x, values);
  std::string row, column;
  double value = 0.0;
  auto state = [&](int i) { return std::string(data.model->state_names[i]); };
  auto derivative = [&](int i) { return std::string(data.model->state_names[i]) + "'"; };
  bool bad = first_bad_entry(data.model->rhs_jacobian_colptr, n, values, derivative, state,
                             data.model->rhs_jacobian_rowval, row, column, value);
  if (status != 0 || bad)
    return data.fail(t, "jacobian", text::jacobian_failure(*data.model, t, x, row, column, value));
  return 0;
}

/// Solves the dense k x k system a w = b in place (b becomes w), partial pivoting; false if
/// singular.
inline bool solve_dense(std::vector<double>& a, double* b, int k) {
  auto at = [&](int row, int column) -> double& {
    return a[static_cast<size_t>(row) * k + column];
  };
  for (int c = 0; c < k; ++c) {
    int pivot = c;
    for (int row = c + 1; row < k; ++row)
      if (std::fabs(at(row, c)) > std::fabs(at(pivot, c))) pivot = row;
    if (!(std::fabs(at(pivot, c)) > 0.0)) return false;
    for (int column = 0; column < k; ++column) std::swap(at(c, column), at(pivot, column));
    std::swap(b[c], b[pivot]);
    for (int row = c + 1; row < k; ++row) {
      double factor = at(row, c) / at(c, c);
      for (int column = c; column < k; ++column) at(row, column) -= factor * at(c, column);
      b[row] -= factor * b[c];
    }
  }
  for (int row = k - 1; row >= 0; --row) {
    for (int column = row + 1; column < k; ++column) b[row] -= at(row, column) * b[column];
    b[row] /= at(row, row);
  }
  return true;
}

// project_error for a model with the dense Jacobians.
template <typename Model>
void project_error_dense(UserData<Model>& data, double t, const double* x, double* error) {
  const int n = data.model->num_states, k = data.model->num_invariants;
  std::vector<double>& H = data.h_jacobian;
  H.resize(static_cast<size_t>(k) * n);
  data.gram.resize(static_cast<size_t>(k) * k);
  data.model->invariants_jacobian(t, x, H.data());
  for (int i = 0; i < k; ++i) {
    double& product = data.h[static_cast<size_t>(i)];
    product = 0.0;
    for (int j = 0; j < n; ++j) product += H[static_cast<size_t>(i) * n + j] * error[j];
    for (int l = 0; l < k; ++l) {
      double sum = 0.0;
      for (int j = 0; j < n; ++j)
        sum += H[static_cast<size_t>(i) * n + j] * H[static_cast<size_t>(l) * n + j];
      data.gram[static_cast<size_t>(i) * k + l] = sum;
    }
  }
  if (!solve_dense(data.gram, data.h.data(), k)) return;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < k; ++i)
      error[j] -= H[static_cast<size_t>(i) * n + j] * data.h[static_cast<size_t>(i)];
}

/// Removes from `error` its component normal to the constraint manifold at x:
/// e -= H^T (H H^T)^{-1} H e, the orthogonal projection CVODE asks of a projection function.
/// Dependent constraints (a singular H H^T) leave the error as it is, and so does a large model
/// without the dense Jacobians (traits::dense_jacobians_v): its dense Gram matrix would cost
/// O(k^3) per step, more than the step itself.
template <typename Model>
void project_error(UserData<Model>& data, double t, const double* x, double* error) {
  if constexpr (traits::dense_jacobians_v<Model>) {
    if (traits::dense_jacobians(*data.model)) project_error_dense(data, t, x, error);
  }
}

/// CVodeSetProjFn: corr = project(ycur) - ycur, and CVODE's error estimate projected too when
/// CVODE passes it (CVodeSetProjErrEst, on by default in CVODE; SUNDIALS' own examples and daec's
/// simulator turn it off: on smooth invariants it can cost many times the steps).
template <typename Model>
int cvode_projection(sunrealtype t, N_Vector ycur, N_Vector corr, sunrealtype, N_Vector err,
                     void* user_data) {
  UserData<Model>& data = data_of<Model>(user_data);
  const int n = data.model->num_states;
  const double* y = N_VGetArrayPointer(ycur);
  std::copy(y, y + n, data.x.begin());
  if (data.model->project(t, data.x.data()) != 0 || text::first_not_finite(data.x.data(), n) >= 0)
    return data.fail(t, "projection", text::projection_failure(*data.model, t, y, data.x.data()));
  double* correction = N_VGetArrayPointer(corr);
  for (int i = 0; i < n; ++i) correction[i] = data.x[static_cast<size_t>(i)] - y[i];
  if (err != nullptr) project_error(data, t, data.x.data(), N_VGetArrayPointer(err));
  return 0;
}

// ----- IDA: F(t, Y, Y') = 0 with Y = (X, Z) ----------------------------------------------------

/// IDASetId's vector: 1 for the states X (differential), 0 for Z (algebraic), for the model's
/// type (a generated Model).
template <typename Model>
void ida_variable_types(N_Vector id) {
  double* types = N_VGetArrayPointer(id);
  for (int i = 0; i < Model::num_states + Model::num_algebraic; ++i)
    types[i] = i < Model::num_states ? 1.0 : 0.0;
}

/// The same for an instance: a generated Model or the runtime's System.
template <typename Model>
void ida_variable_types(const Model& model, N_Vector id) {
  double* types = N_VGetArrayPointer(id);
  for (int i = 0; i < model.num_states + model.num_algebraic; ++i)
    types[i] = i < model.num_states ? 1.0 : 0.0;
}

/// The residual r = [X' - F(X, Z, t); A(X, t) Z - b(X, t)] of the index-1 system.
template <typename Model>
int ida_residual(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void* user_data) {
  UserData<Model>& data = data_of<Model>(user_data);
  const int n = data.model->num_states, size = data.model->num_states + data.model->num_algebraic;
  const double* y = N_VGetArrayPointer(yy);
  double* r = N_VGetArrayPointer(rr);
  data.model->residual(t, y, N_VGetArrayPointer(yp), y + n, r);
  const int bad = text::first_not_finite(r, size);
  if (bad < 0) return 0;
  std::string why = text::rhs_failure(*data.model, t, y);
  if (why.empty()) {
    std::string name = bad < n ? std::string(data.model->state_names[bad]) + "'"
                               : std::string(data.model->algebraic_equation[bad - n]);
    why = "the residual of " + text::quoted(name) + " is not finite" + text::domain_hint("it");
  }
  return data.fail(t, "residual", why);
}

/// The name of unknown i of Y = (X, Z).
template <typename Model>
std::string unknown_name(const Model& model, int i) {
  return i < model.num_states ? model.state_names[i] : model.algebraic_names[i - model.num_states];
}

/// The name of residual row i: the state's derivative, or the algebraic equation.
template <typename Model>
std::string residual_name(const Model& model, int i) {
  return i < model.num_states ? std::string(model.state_names[i]) + "'"
                              : std::string(model.algebraic_equation[i - model.num_states]);
}

/// dF/dY + c_j dF/dY' into a SUNDenseMatrix ((n + m) x (n + m)), from the dense
/// residual_jacobian.
template <typename Model>
int ida_dense_jacobian(sunrealtype t, sunrealtype c_j, N_Vector yy, N_Vector yp, N_Vector,
                       SUNMatrix jacobian, void* user_data, N_Vector, N_Vector, N_Vector) {
  UserData<Model>& data = data_of<Model>(user_data);
  const int n = data.model->num_states, m = data.model->num_algebraic, size = n + m;
  const double* y = N_VGetArrayPointer(yy);
  data.dr_dx.resize(static_cast<size_t>(size) * n);
  data.dr_dxdot.resize(static_cast<size_t>(size) * n);
  data.dr_dz.resize(static_cast<size_t>(size) * std::max(m, 1));
  data.model->residual_jacobian(t, y, N_VGetArrayPointer(yp), y + n, data.dr_dx.data(),
                                data.dr_dxdot.data(), data.dr_dz.data());
  for (int column = 0; column < size; ++column) {
    double* target = SUNDenseMatrix_Column(jacobian, column);
    for (int row = 0; row < size; ++row) {
      double value = column < n ? data.dr_dx[static_cast<size_t>(row) * n + column] +
                                      c_j * data.dr_dxdot[static_cast<size_t>(row) * n + column]
                                : data.dr_dz[static_cast<size_t>(row) * m + (column - n)];
      if (!std::isfinite(value))
        return data.fail(t, "jacobian",
                         text::jacobian_failure(*data.model, t, y, residual_name(*data.model, row),
                                                unknown_name(*data.model, column), value));
      target[row] = value;
    }
  }
  return 0;
}

/// dF/dY + c_j dF/dY' into a SUNSparseMatrix(CSC_MAT) with room for residual_jacobian_nnz
/// entries, from the generated residual_jacobian_values (docs/generated-code.md).
template <typename Model>
int ida_sparse_jacobian(sunrealtype t, sunrealtype c_j, N_Vector yy, N_Vector yp, N_Vector,
                        SUNMatrix jacobian, void* user_data, N_Vector, N_Vector, N_Vector) {
  UserData<Model>& data = data_of<Model>(user_data);
  const int n = data.model->num_states, size = data.model->num_states + data.model->num_algebraic;
  const double* y = N_VGetArrayPointer(yy);
  copy_pattern(jacobian, size, data.model->residual_jacobian_colptr,
               data.model->residual_jacobian_rowval, data.model->residual_jacobian_nnz);
  double* values = SUNSparseMatrix_Data(jacobian);
  data.model->residual_jacobian_values(t, y, N_VGetArrayPointer(yp), y + n, c_j, values);
  std::string row, column;
  double value = 0.0;
  if (first_bad_entry(
          data.model->residual_jacobian_colptr, size, values,
          [&](int i) { return residual_name(*data.model, i); },
          [&](int i) { return unknown_name(*data.model, i); }, data.model->residual_jacobian_rowval,
          row, column, value))
    return data.fail(t, "jacobian", text::jacobian_failure(*data.model, t, y, row, column, value));
  return 0;
}

}  // namespace daec::sundials
