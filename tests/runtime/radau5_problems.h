// Test problems for the Radau5 integrator with exact or published solutions, shared by
// tests/runtime/radau5_test.cpp and bench/integrators/: each is a Problem as radau5.hpp defines it.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "daec/integrators/jacobian_matrix.hpp"

namespace daec {
namespace integrators {
namespace problems {

constexpr double kPi = 3.14159265358979323846;

// ----- Problems
// -----------------------------------------------------------------------------------

/// y' = 1 + y^2, y(0) = 0: y = tan(t) (nonlinear, not stiff).
struct Riccati {
  int size() const { return 1; }
  int rhs(double, const double* y, double* f) {
    f[0] = 1.0 + y[0] * y[0];
    return 0;
  }
  int jacobian(double, const double* y, double* J) {
    J[0] = 2.0 * y[0];
    return 0;
  }
  static std::vector<double> exact(double t) { return {std::tan(t)}; }
};

/// Prothero and Robinson: y' = lambda (y - g(t)) + g'(t), g = sin, y(0) = 0: y = sin(t).
struct ProtheroRobinson {
  double lambda = -1e6;
  int size() const { return 1; }
  int rhs(double t, const double* y, double* f) {
    f[0] = lambda * (y[0] - std::sin(t)) + std::cos(t);
    return 0;
  }
  int jacobian(double, const double*, double* J) {
    J[0] = lambda;
    return 0;
  }
  static std::vector<double> exact(double t) { return {std::sin(t)}; }
};

/// Rheinboldt's model_q1 (DAEPAK), index 1: u1' = u2, 0 = u1 - t^2 + 2 u2, from t = 1.
struct RheinboldtQ1 {
  int size() const { return 2; }
  bool is_algebraic(int i) const { return i == 1; }
  int rhs(double t, const double* y, double* f) {
    f[0] = y[1];
    f[1] = y[0] - t * t + 2.0 * y[1];
    return 0;
  }
  int jacobian(double, const double*, double* J) {  // column-major
    J[0] = 0.0;
    J[1] = 1.0;
    J[2] = 1.0;
    J[3] = 2.0;
    return 0;
  }
  static std::vector<double> exact(double t) {
    const double e = std::exp((1.0 - t) / 2.0);
    return {6.0 * e + t * t - 4.0 * t + 8.0, -3.0 * e + 2.0 * t - 4.0};
  }
};

/// The simple pendulum (test-problems.md) in index-1 form with mass matrix: states x, y, u, v,
/// and the algebraic lambda from the twice differentiated rod constraint
/// 0 = u^2 + v^2 - lambda (x^2 + y^2) - y. No Jacobian: finite differences.
struct PendulumIndex1 {
  int size() const { return 5; }
  bool is_algebraic(int i) const { return i == 4; }
  int rhs(double, const double* s, double* f) {
    const double x = s[0], y = s[1], u = s[2], v = s[3], lambda = s[4];
    f[0] = u;
    f[1] = v;
    f[2] = -x * lambda;
    f[3] = -y * lambda - 1.0;
    f[4] = u * u + v * v - lambda * (x * x + y * y) - y;
    return 0;
  }
};

/// An off diode behind an inductor, the stiff pair of a rectifier cell: the current x through
/// L x' = V sin(w t) - z with the diode voltage z = K x (1 Mohm off) as an algebraic unknown.
/// As an ODE (`as_ode`): x' = (V sin(w t) - K x)/L, the same solution. z is a million times x:
/// its error is x's error times K.
struct StiffDiodeCell {
  static constexpr double V = 10.0, w = 2.0 * kPi * 50.0, L = 1e-3, K = 1e6;
  bool as_ode = false;
  int size() const { return as_ode ? 1 : 2; }
  bool is_algebraic(int i) const { return i == 1; }
  int rhs(double t, const double* y, double* f) {
    const double z = as_ode ? K * y[0] : y[1];
    f[0] = (V * std::sin(w * t) - z) / L;
    if (!as_ode) f[1] = K * y[0] - y[1];
    return 0;
  }
  int jacobian(double, const double*, double* J) {  // column-major
    if (as_ode) {
      J[0] = -K / L;
      return 0;
    }
    J[0] = 0.0;
    J[1] = K;
    J[2] = -1.0 / L;
    J[3] = -1.0;
    return 0;
  }
  /// x from x(0) = x0: the forced response plus the transient with rate k = K/L.
  static double exact(double t, double x0) {
    const double k = K / L, a = V / L, d = k * k + w * w;
    return a * (k * std::sin(w * t) - w * std::cos(w * t)) / d +
           (x0 + a * w / d) * std::exp(-k * t);
  }
};

/// Van der Pol in Hairer's singular-perturbation form, epsilon = 1e-6 (very stiff), t in [0, 2].
struct VanDerPol {
  double epsilon = 1e-6;
  int size() const { return 2; }
  int rhs(double, const double* y, double* f) {
    f[0] = y[1];
    f[1] = ((1.0 - y[0] * y[0]) * y[1] - y[0]) / epsilon;
    return 0;
  }
  int jacobian(double, const double* y, double* J) {
    J[0] = 0.0;
    J[1] = (-2.0 * y[0] * y[1] - 1.0) / epsilon;
    J[2] = 1.0;
    J[3] = (1.0 - y[0] * y[0]) / epsilon;
    return 0;
  }
};

/// Van der Pol without a Jacobian: the integrator differentiates f numerically.
struct VanDerPolNoJacobian {
  VanDerPol vdp;
  int size() const { return 2; }
  int rhs(double t, const double* y, double* f) { return vdp.rhs(t, y, f); }
};

/// A tridiagonal CSC pattern of size n (the Jacobian of a 1-D stencil).
SparsityPattern tridiagonal_pattern(int n) {
  SparsityPattern pattern;
  pattern.n = n;
  pattern.colptr.push_back(0);
  for (int j = 0; j < n; ++j) {
    for (int i = std::max(0, j - 1); i <= std::min(n - 1, j + 1); ++i) pattern.rowval.push_back(i);
    pattern.colptr.push_back(static_cast<int>(pattern.rowval.size()));
  }
  return pattern;
}

/// The heat equation u_t = u_xx on (0, 1), u = 0 at both ends, by the method of lines on n
/// interior points. From u_i(0) = sin(pi x_i) the semi-discrete system's exact solution is
/// u_i(t) = exp(-mu t) sin(pi x_i), mu = 4/dx^2 sin^2(pi dx / 2) (separation of variables).
struct Heat {
  int n;
  double dx;
  explicit Heat(int points) : n(points), dx(1.0 / (points + 1)) {}
  int size() const { return n; }
  int rhs(double, const double* u, double* f) {
    for (int i = 0; i < n; ++i) {
      const double left = i > 0 ? u[i - 1] : 0.0, right = i < n - 1 ? u[i + 1] : 0.0;
      f[i] = (left - 2.0 * u[i] + right) / (dx * dx);
    }
    return 0;
  }
  SparsityPattern jacobian_pattern() const { return tridiagonal_pattern(n); }
  int jacobian_values(double, const double*, double* values) {
    int k = 0;
    for (int j = 0; j < n; ++j)
      for (int i = std::max(0, j - 1); i <= std::min(n - 1, j + 1); ++i)
        values[k++] = (i == j ? -2.0 : 1.0) / (dx * dx);
    return 0;
  }
  std::vector<double> exact(double t) const {
    const double mu = 4.0 / (dx * dx) * std::pow(std::sin(kPi * dx / 2.0), 2);
    std::vector<double> u(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
      u[static_cast<size_t>(i)] = std::exp(-mu * t) * std::sin(kPi * (i + 1) * dx);
    return u;
  }
};

/// Hairer and Wanner's 1-D Brusselator (Solving ODEs II, IV.1), N grid points, components
/// interleaved (u1, v1, u2, v2, ...) so that the Jacobian is banded: nonlinear and stiff.
struct Brusselator {
  int points;
  double alpha = 1.0 / 50.0;
  explicit Brusselator(int n) : points(n) {}
  int size() const { return 2 * points; }
  int rhs(double, const double* y, double* f) {
    const double c = alpha * (points + 1) * (points + 1);
    for (int i = 0; i < points; ++i) {
      const double u = y[2 * i], v = y[2 * i + 1];
      const double ul = i > 0 ? y[2 * i - 2] : 1.0, ur = i < points - 1 ? y[2 * i + 2] : 1.0;
      const double vl = i > 0 ? y[2 * i - 1] : 3.0, vr = i < points - 1 ? y[2 * i + 3] : 3.0;
      f[2 * i] = 1.0 + u * u * v - 4.0 * u + c * (ul - 2.0 * u + ur);
      f[2 * i + 1] = 3.0 * u - u * u * v + c * (vl - 2.0 * v + vr);
    }
    return 0;
  }
  /// Column j (a u or v of point i) touches rows of points i-1..i+1 of the same kind, and the
  /// other component of point i.
  SparsityPattern jacobian_pattern() const {
    SparsityPattern pattern;
    pattern.n = size();
    pattern.colptr.push_back(0);
    for (int j = 0; j < size(); ++j) {
      for (int row : rows_of_column(j)) pattern.rowval.push_back(row);
      pattern.colptr.push_back(static_cast<int>(pattern.rowval.size()));
    }
    return pattern;
  }
  int jacobian_values(double, const double* y, double* values) {
    const double c = alpha * (points + 1) * (points + 1);
    int k = 0;
    for (int j = 0; j < size(); ++j) {
      const int point = j / 2;
      const double u = y[2 * point], v = y[2 * point + 1];
      const bool is_u = j % 2 == 0;
      for (int row : rows_of_column(j)) {
        double value = 0.0;
        if (row / 2 != point) {
          value = c;  // a neighbour's diffusion
        } else if (row == j) {
          value = is_u ? 2.0 * u * v - 4.0 - 2.0 * c : -u * u - 2.0 * c;
        } else {  // the other component of the same point
          value = is_u ? 3.0 - 2.0 * u * v : u * u;
        }
        values[k++] = value;
      }
    }
    return 0;
  }
  std::vector<int> rows_of_column(int j) const {
    const int point = j / 2;
    std::vector<int> rows;
    if (point > 0) rows.push_back(j - 2);
    rows.push_back(j % 2 == 0 ? j : j - 1);
    rows.push_back(j % 2 == 0 ? j + 1 : j);
    if (point < points - 1) rows.push_back(j + 2);
    return rows;
  }
  std::vector<double> start() const {
    std::vector<double> y(static_cast<size_t>(size()));
    for (int i = 0; i < points; ++i) {
      const double x = (i + 1.0) / (points + 1);
      y[static_cast<size_t>(2 * i)] = 1.0 + std::sin(2.0 * kPi * x);
      y[static_cast<size_t>(2 * i + 1)] = 3.0;
    }
    return y;
  }
};

}  // namespace problems
}  // namespace integrators
}  // namespace daec
