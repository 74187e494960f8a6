// A hand-written Model with every member daec generates (docs/generated-code.md), for testing the
// runtime headers without generating code: a point moving round a circle of radius r at angular
// speed w,
//   x' = -w y z / r^2,  y' = w x z / r^2,  z = x^2 + y^2 (the algebraic unknown, from A z = b),
// with the invariant x^2 + y^2 - r^2 = 0, exact solution x = r cos(w t), y = r sin(w t) from
// (r, 0). A state that is not finite, or w = NaN, makes rhs fail as generated code does.
// circle::Model has every member; circle::SparseModel lacks the dense Jacobians, as a large
// generated model does (has_dense_jacobians = false), so that the runtime's sparse-only paths
// are compiled and run.
#pragma once

#include <cmath>
#include <cstring>

namespace circle {

struct SparseModel {
  static constexpr const char* model_name = "circle";
  static constexpr bool has_dense_jacobians = false;
  static constexpr int num_states = 2, num_algebraic = 1, num_invariants = 1;
  static constexpr int num_parameters = 2, num_outputs = 1, num_variables = 3;
  static constexpr const char* const state_names[] = {"x", "y"};
  static constexpr const char* const algebraic_names[] = {"z"};
  static constexpr const char* const invariant_names[] = {"circle"};
  static constexpr const char* const parameter_names[] = {"w", "r"};
  static constexpr const char* const output_names[] = {"angle"};
  static constexpr const char* const variable_names[] = {"x", "y", "z"};
  static constexpr const char* const variable_descriptions[] = {"abscissa [m]", "ordinate [m]",
                                                                "squared radius [m2]"};
  static constexpr const char* const output_descriptions[] = {"polar angle [rad]"};
  static constexpr int variable_location[] = {0, 1, -1};
  static constexpr int algebraic_block[] = {0};
  static constexpr const char* const algebraic_equation[] = {"radius2"};
  static constexpr int num_initial_equations = 0;
  static constexpr const char* const initial_equation_names[] = {nullptr};

  double p[num_parameters] = {2.0, 1.5};  // w, r

  int set_parameter(const char* name, double value) {
    for (int i = 0; i < num_parameters; ++i)
      if (name != nullptr && std::strcmp(name, parameter_names[i]) == 0) return p[i] = value, 0;
    return -1;
  }
  void initial_state(double* x) const { x[0] = p[1], x[1] = 0.0; }
  void initial_algebraic(double* z) const { z[0] = 0.0; }
  void state_nominal(double* s) const { s[0] = s[1] = 0.0; }
  bool fixed[num_states + num_algebraic] = {false, false, false};
  bool start_given[num_states] = {true, true};

  enum RhsFailure {
    rhs_ok = 0,
    rhs_singular = 1,
    rhs_algebraic_not_finite = 2,
    rhs_derivative_not_finite = 3,
    rhs_state_not_finite = 4,
    rhs_modes_cycle = 5
  };

  int rhs(double, const double* x, double* xdot, double* z) const {
    const double w = p[0], r2 = p[1] * p[1], zz = x[0] * x[0] + x[1] * x[1];
    if (z != nullptr) z[0] = zz;
    if (!std::isfinite(zz)) return 2;
    xdot[0] = -w * x[1] * zz / r2;
    xdot[1] = w * x[0] * zz / r2;
    return std::isfinite(xdot[0]) && std::isfinite(xdot[1]) ? 0 : 2;
  }
  int rhs_failure(double t, const double* x, int* index) const {
    for (int i = 0; i < num_states; ++i)
      if (!std::isfinite(x[i])) return *index = i, rhs_state_not_finite;
    double xdot[2], z[1];
    if (rhs(t, x, xdot, z) == 0) return rhs_ok;
    if (!std::isfinite(z[0])) return *index = 0, rhs_algebraic_not_finite;
    *index = std::isfinite(xdot[0]) ? 1 : 0;
    return rhs_derivative_not_finite;
  }
  // d(xdot)/dx with z = x^2 + y^2 substituted, row-major.
  int fill_rhs_jacobian(double t, const double* x, double* J) const {
    double xdot[2];
    if (rhs(t, x, xdot, nullptr) != 0) return 2;
    const double w = p[0], r2 = p[1] * p[1], zz = x[0] * x[0] + x[1] * x[1];
    J[0] = -w * x[1] * 2 * x[0] / r2, J[1] = -w * (zz + 2 * x[1] * x[1]) / r2;
    J[2] = w * (zz + 2 * x[0] * x[0]) / r2, J[3] = w * x[0] * 2 * x[1] / r2;
    return 0;
  }
  static constexpr int rhs_jacobian_nnz = 4;
  static constexpr int rhs_jacobian_colptr[] = {0, 2, 4};
  static constexpr int rhs_jacobian_rowval[] = {0, 1, 0, 1};
  int rhs_jacobian_values(double t, const double* x, double* values) const {
    double J[4] = {};
    int status = fill_rhs_jacobian(t, x, J);
    values[0] = J[0], values[1] = J[2], values[2] = J[1], values[3] = J[3];
    return status;
  }

  // r = [x' - F(x, z); A z - b] = [x'_0 + w y z / r^2; x'_1 - w x z / r^2; z - (x^2 + y^2)].
  void residual(double, const double* x, const double* xdot, const double* z, double* r) const {
    const double w = p[0], r2 = p[1] * p[1];
    r[0] = xdot[0] + w * x[1] * z[0] / r2;
    r[1] = xdot[1] - w * x[0] * z[0] / r2;
    r[2] = z[0] - (x[0] * x[0] + x[1] * x[1]);
  }
  void fill_residual_jacobian(double, const double* x, const double*, const double* z,
                              double* dr_dx, double* dr_dxdot, double* dr_dz) const {
    const double w = p[0], r2 = p[1] * p[1];
    const double dx[6] = {0, w * z[0] / r2, -w * z[0] / r2, 0, -2 * x[0], -2 * x[1]};
    const double dxdot[6] = {1, 0, 0, 1, 0, 0};
    const double dz[3] = {w * x[1] / r2, -w * x[0] / r2, 1};
    for (int i = 0; i < 6; ++i) dr_dx[i] = dx[i], dr_dxdot[i] = dxdot[i];
    for (int i = 0; i < 3; ++i) dr_dz[i] = dz[i];
  }
  // dr/d(x, y, z) + alpha dr/d(x', y') in CSC, columns x, y, z.
  static constexpr int residual_jacobian_nnz = 9;
  static constexpr int residual_jacobian_colptr[] = {0, 3, 6, 9};
  static constexpr int residual_jacobian_rowval[] = {0, 1, 2, 0, 1, 2, 0, 1, 2};
  void residual_jacobian_values(double t, const double* x, const double* xdot, const double* z,
                                double alpha, double* values) const {
    double dx[6], dxdot[6], dz[3];
    fill_residual_jacobian(t, x, xdot, z, dx, dxdot, dz);
    for (int column = 0; column < 2; ++column)
      for (int row = 0; row < 3; ++row)
        values[3 * column + row] = dx[2 * row + column] + alpha * dxdot[2 * row + column];
    for (int row = 0; row < 3; ++row) values[6 + row] = dz[row];
  }

  void invariants(double, const double* x, double* h) const {
    h[0] = x[0] * x[0] + x[1] * x[1] - p[1] * p[1];
  }
  void fill_invariants_jacobian(double, const double* x, double* H) const {
    H[0] = 2 * x[0], H[1] = 2 * x[1];
  }
  static constexpr int invariants_jacobian_nnz = 2;
  static constexpr int invariants_jacobian_colptr[] = {0, 1, 2};
  static constexpr int invariants_jacobian_rowval[] = {0, 0};
  void invariants_jacobian_values(double t, const double* x, double* values) const {
    fill_invariants_jacobian(t, x, values);
  }
  // Onto the circle along the radius; fails at the centre or for a state that is not finite.
  int project(double, double* x) const {
    const double norm = std::hypot(x[0], x[1]);
    if (!(norm > 0) || !std::isfinite(norm)) return 1;
    x[0] *= p[1] / norm, x[1] *= p[1] / norm;
    return 0;
  }
  void initial_equations(double, const double*, const double*, const double*, double*) const {}
  // Fixed starts are not supported here: the runtime's tests fix none.
  int consistent_initialization(double t, double* x) const { return project(t, x); }
  int consistent_initialization(double t, double* x, const double*) const { return project(t, x); }
  void outputs(double, const double* x, double* y) const { y[0] = std::atan2(x[1], x[0]); }
};

struct Model : SparseModel {
  static constexpr bool has_dense_jacobians = true;
  int rhs_jacobian(double t, const double* x, double* J) const {
    return fill_rhs_jacobian(t, x, J);
  }
  void residual_jacobian(double t, const double* x, const double* xdot, const double* z,
                         double* dr_dx, double* dr_dxdot, double* dr_dz) const {
    fill_residual_jacobian(t, x, xdot, z, dr_dx, dr_dxdot, dr_dz);
  }
  void invariants_jacobian(double t, const double* x, double* H) const {
    fill_invariants_jacobian(t, x, H);
  }
};

}  // namespace circle
