// handwritten.cpp — see handwritten.h.
#include "handwritten.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace handwritten {

DenseLU::DenseLU(int n) : n_(n), a_(static_cast<size_t>(n) * n), piv_(n) {}

int DenseLU::factor() {
  const int n = n_;
  double* a = a_.data();
  for (int k = 0; k < n; ++k) {
    int p = k;  // partial pivoting: the largest magnitude in column k, rows k..n-1
    double largest = std::fabs(a[k * n + k]);
    for (int i = k + 1; i < n; ++i) {
      const double v = std::fabs(a[i * n + k]);
      if (v > largest) {
        largest = v;
        p = i;
      }
    }
    if (!(largest > 0.0) || !std::isfinite(largest)) return 1;
    piv_[k] = p;
    if (p != k) {
      for (int j = 0; j < n; ++j) std::swap(a[k * n + j], a[p * n + j]);
    }
    const double inv = 1.0 / a[k * n + k];
    for (int i = k + 1; i < n; ++i) {
      const double l = a[i * n + k] * inv;
      a[i * n + k] = l;
      for (int j = k + 1; j < n; ++j) a[i * n + j] -= l * a[k * n + j];
    }
  }
  return 0;
}

void DenseLU::solve(double* b) const {
  const int n = n_;
  const double* a = a_.data();
  for (int k = 0; k < n; ++k) {  // b <- P b: the row interchanges, in order
    if (piv_[k] != k) std::swap(b[k], b[piv_[k]]);
  }
  for (int i = 1; i < n; ++i) {  // forward: L y = P b (unit lower triangular)
    double s = b[i];
    for (int j = 0; j < i; ++j) s -= a[i * n + j] * b[j];
    b[i] = s;
  }
  for (int i = n - 1; i >= 0; --i) {  // backward: U z = y
    double s = b[i];
    for (int j = i + 1; j < n; ++j) s -= a[i * n + j] * b[j];
    b[i] = s / a[i * n + i];
  }
}

namespace {
bool all_finite(const double* v, int n) {
  for (int i = 0; i < n; ++i) {
    if (!std::isfinite(v[i])) return false;
  }
  return true;
}
}  // namespace

// ---------------------------------------------------------------------------------------------
// Coupled pendulums (docs/method.md, second example):
//   (x1+a) u1d + y1 v1d                 = -(u1^2 + v1^2)       (Constraint 1)''/2
//   (x2-a) u2d + y2 v2d                 = -(u2^2 + v2^2)       (Constraint 2)''/2
//   dx (u1d - u2d) + dy (v1d - v2d)     = -(du^2 + dv^2)       (Constraint 3)''/2
//   (x1+a) lambda1 + dx lambda3 + m1 u1d = 0                   (Constraint 4)
//   y1 lambda1 + dy lambda3 + m1 v1d     = -m1 g               (Constraint 5)
//   (x2-a) lambda2 - dx lambda3 + m2 u2d = 0                   (Constraint 6)
//   y2 lambda2 - dy lambda3 + m2 v2d     = -m2 g               (Constraint 7)
// with dx = x1 - x2, dy = y1 - y2, du = u1 - u2, dv = v1 - v2.

CoupledPendulums::CoupledPendulums()
    : lu_(num_algebraic), b_(num_algebraic), dr_(num_states * num_algebraic) {}

void CoupledPendulums::assemble(const double* x) const {
  const double x1 = x[0], y1 = x[1], x2 = x[2], y2 = x[3];
  const double u1 = x[4], v1 = x[5], u2 = x[6], v2 = x[7];
  const double dx = x1 - x2, dy = y1 - y2, du = u1 - u2, dv = v1 - v2;
  const int n = num_algebraic;
  double* A = lu_.matrix();
  std::fill(A, A + n * n, 0.0);
  double* b = b_.data();
  A[0 * n + 3] = x1 + a;  A[0 * n + 4] = y1;
  b[0] = -(u1 * u1 + v1 * v1);
  A[1 * n + 5] = x2 - a;  A[1 * n + 6] = y2;
  b[1] = -(u2 * u2 + v2 * v2);
  A[2 * n + 3] = dx;  A[2 * n + 4] = dy;  A[2 * n + 5] = -dx;  A[2 * n + 6] = -dy;
  b[2] = -(du * du + dv * dv);
  A[3 * n + 0] = x1 + a;  A[3 * n + 2] = dx;  A[3 * n + 3] = m1;
  b[3] = 0.0;
  A[4 * n + 0] = y1;  A[4 * n + 2] = dy;  A[4 * n + 4] = m1;
  b[4] = -m1 * g;
  A[5 * n + 1] = x2 - a;  A[5 * n + 2] = -dx;  A[5 * n + 5] = m2;
  b[5] = 0.0;
  A[6 * n + 1] = y2;  A[6 * n + 2] = -dy;  A[6 * n + 6] = m2;
  b[6] = -m2 * g;
}

int CoupledPendulums::rhs(double, const double* x, double* xdot, double* z) const {
  assemble(x);
  if (lu_.factor() != 0) return 1;
  double* Z = b_.data();
  lu_.solve(Z);
  for (int i = 0; i < 4; ++i) xdot[i] = x[4 + i];  // positions' = velocities
  for (int i = 0; i < 4; ++i) xdot[4 + i] = Z[3 + i];  // velocities' = u1_dot .. v2_dot
  if (z != nullptr) std::copy(Z, Z + num_algebraic, z);
  return all_finite(xdot, num_states) ? 0 : 2;
}

// d xdot/dx: velocity rows are dZ/dx = -A^-1 d(A Z - b)/dx, one solve per state.
int CoupledPendulums::rhs_jacobian(double, const double* x, double* J) const {
  assemble(x);
  if (lu_.factor() != 0) return 1;
  double* Z = b_.data();
  lu_.solve(Z);
  const double x1 = x[0], y1 = x[1], x2 = x[2], y2 = x[3];
  const double u1 = x[4], v1 = x[5], u2 = x[6], v2 = x[7];
  const double du = u1 - u2, dv = v1 - v2;
  const double l1v = Z[0], l2v = Z[1], l3v = Z[2], u1d = Z[3], v1d = Z[4], u2d = Z[5], v2d = Z[6];
  (void)x1; (void)y1; (void)x2; (void)y2;
  const int n = num_algebraic;
  double* D = dr_.data();  // D[j * n + r] = d R_r / d x_j, R = A Z - b
  std::fill(D, D + num_states * n, 0.0);
  // row 0: (x1+a) u1d + y1 v1d + u1^2 + v1^2
  D[0 * n + 0] = u1d;  D[1 * n + 0] = v1d;  D[4 * n + 0] = 2 * u1;  D[5 * n + 0] = 2 * v1;
  // row 1: (x2-a) u2d + y2 v2d + u2^2 + v2^2
  D[2 * n + 1] = u2d;  D[3 * n + 1] = v2d;  D[6 * n + 1] = 2 * u2;  D[7 * n + 1] = 2 * v2;
  // row 2: dx (u1d - u2d) + dy (v1d - v2d) + du^2 + dv^2
  D[0 * n + 2] = u1d - u2d;  D[2 * n + 2] = -(u1d - u2d);
  D[1 * n + 2] = v1d - v2d;  D[3 * n + 2] = -(v1d - v2d);
  D[4 * n + 2] = 2 * du;  D[6 * n + 2] = -2 * du;  D[5 * n + 2] = 2 * dv;  D[7 * n + 2] = -2 * dv;
  // rows 3..6: the equations of motion
  D[0 * n + 3] = l1v + l3v;  D[2 * n + 3] = -l3v;
  D[1 * n + 4] = l1v + l3v;  D[3 * n + 4] = -l3v;
  D[2 * n + 5] = l2v + l3v;  D[0 * n + 5] = -l3v;
  D[3 * n + 6] = l2v + l3v;  D[1 * n + 6] = -l3v;
  const int ns = num_states;
  std::fill(J, J + ns * ns, 0.0);
  for (int i = 0; i < 4; ++i) J[i * ns + 4 + i] = 1.0;
  for (int j = 0; j < ns; ++j) {
    double* w = D + j * n;
    lu_.solve(w);
    for (int i = 0; i < 4; ++i) J[(4 + i) * ns + j] = -w[3 + i];
  }
  return all_finite(J, ns * ns) ? 0 : 2;
}

void CoupledPendulums::invariants(double, const double* x, double* h) const {
  const double x1 = x[0], y1 = x[1], x2 = x[2], y2 = x[3];
  const double u1 = x[4], v1 = x[5], u2 = x[6], v2 = x[7];
  const double dx = x1 - x2, dy = y1 - y2;
  h[0] = (x1 + a) * (x1 + a) + y1 * y1 - l1 * l1;
  h[1] = (x2 - a) * (x2 - a) + y2 * y2 - l2 * l2;
  h[2] = dx * dx + dy * dy - l3 * l3;
  h[3] = 2 * ((x1 + a) * u1 + y1 * v1);
  h[4] = 2 * ((x2 - a) * u2 + y2 * v2);
  h[5] = 2 * (dx * (u1 - u2) + dy * (v1 - v2));
}

// ---------------------------------------------------------------------------------------------
// Pendulum chain, i = 1..N, with (x_0, y_0) = (0, 0), u_0 = v_0 = u0_dot = v0_dot = 0 and
// dx_i = x_i - x_{i-1} (likewise dy, du, dv):
//   rod_i''/2:  dx_i (ui_dot - u{i-1}_dot) + dy_i (vi_dot - v{i-1}_dot) = -(du_i^2 + dv_i^2)
//   mass i, x:  m ui_dot + lambda_i dx_i - lambda_{i+1} dx_{i+1} = 0        (no i+1 term at N)
//   mass i, y:  m vi_dot + lambda_i dy_i - lambda_{i+1} dy_{i+1} = -m g
// The state holds the arrays of models/pendulum_chain.dae one after the other: x_k at X(k), y_k
// at Y(k), u_k at U(k), v_k at V(k) (k = 0..N-1 for link k + 1).

PendulumChain::PendulumChain(int links, double m, double L, double g)
    : n_(links), m_(m), L_(L), g_(g), lu_(3 * links), b_(3 * links),
      dr_(static_cast<size_t>(4 * links) * (3 * links)) {}

void PendulumChain::assemble(const double* x) const {
  const int N = n_, n = 3 * N;
  double* A = lu_.matrix();
  std::fill(A, A + static_cast<size_t>(n) * n, 0.0);
  double* b = b_.data();
  for (int k = 0; k < N; ++k) {  // link k + 1
    const double xp = k ? x[X(k - 1)] : 0.0, yp = k ? x[Y(k - 1)] : 0.0,
                 up = k ? x[U(k - 1)] : 0.0, vp = k ? x[V(k - 1)] : 0.0;
    const double dx = x[X(k)] - xp, dy = x[Y(k)] - yp, du = x[U(k)] - up, dv = x[V(k)] - vp;
    const int ud = N + 2 * k, vd = ud + 1;  // columns of u_dot, v_dot of mass k + 1
    double* rod = A + static_cast<size_t>(k) * n;
    rod[ud] = dx;
    rod[vd] = dy;
    if (k > 0) {
      rod[ud - 2] = -dx;
      rod[vd - 2] = -dy;
    }
    b[k] = -(du * du + dv * dv);
    double* mx = A + static_cast<size_t>(ud) * n;  // equations of motion of mass k + 1
    double* my = A + static_cast<size_t>(vd) * n;
    mx[ud] = m_;
    my[vd] = m_;
    mx[k] = dx;
    my[k] = dy;
    if (k + 1 < N) {
      mx[k + 1] = -(x[X(k + 1)] - x[X(k)]);
      my[k + 1] = -(x[Y(k + 1)] - x[Y(k)]);
    }
    b[ud] = 0.0;
    b[vd] = -m_ * g_;
  }
}

int PendulumChain::rhs(double, const double* x, double* xdot, double* z) const {
  assemble(x);
  if (lu_.factor() != 0) return 1;
  double* Z = b_.data();
  lu_.solve(Z);
  const int N = n_;
  for (int k = 0; k < N; ++k) {
    xdot[X(k)] = x[U(k)];
    xdot[Y(k)] = x[V(k)];
    xdot[U(k)] = Z[N + 2 * k];
    xdot[V(k)] = Z[N + 2 * k + 1];
  }
  if (z != nullptr) {
    for (int i = 0; i < 3 * N; ++i) z[i] = Z[i];
  }
  return all_finite(xdot, 4 * N) ? 0 : 2;
}

int PendulumChain::rhs_jacobian(double, const double* x, double* J) const {
  assemble(x);
  if (lu_.factor() != 0) return 1;
  double* Z = b_.data();
  lu_.solve(Z);
  const int N = n_, n = 3 * N, ns = 4 * N;
  double* D = dr_.data();  // D[j * n + r] = d R_r / d x_j, R = A Z - b
  std::fill(D, D + static_cast<size_t>(ns) * n, 0.0);
  for (int k = 0; k < N; ++k) {
    const double up = k ? x[U(k - 1)] : 0.0, vp = k ? x[V(k - 1)] : 0.0;
    const double du = x[U(k)] - up, dv = x[V(k)] - vp;
    const int ud = N + 2 * k, vd = ud + 1;
    const double a1 = Z[ud] - (k ? Z[ud - 2] : 0.0), a2 = Z[vd] - (k ? Z[vd - 2] : 0.0);
    // rod row k: dx a1 + dy a2 + du^2 + dv^2
    D[X(k) * n + k] = a1;
    D[Y(k) * n + k] = a2;
    D[U(k) * n + k] = 2 * du;
    D[V(k) * n + k] = 2 * dv;
    if (k > 0) {
      D[X(k - 1) * n + k] = -a1;
      D[Y(k - 1) * n + k] = -a2;
      D[U(k - 1) * n + k] = -2 * du;
      D[V(k - 1) * n + k] = -2 * dv;
    }
    // motion rows: m ud + lambda_k dx_k - lambda_{k+1} dx_{k+1}
    const double lk = Z[k], lk1 = k + 1 < N ? Z[k + 1] : 0.0;
    D[X(k) * n + ud] = lk + lk1;
    D[Y(k) * n + vd] = lk + lk1;
    if (k > 0) {
      D[X(k - 1) * n + ud] = -lk;
      D[Y(k - 1) * n + vd] = -lk;
    }
    if (k + 1 < N) {
      D[X(k + 1) * n + ud] = -lk1;
      D[Y(k + 1) * n + vd] = -lk1;
    }
  }
  std::fill(J, J + static_cast<size_t>(ns) * ns, 0.0);
  for (int k = 0; k < N; ++k) {
    J[X(k) * ns + U(k)] = 1.0;
    J[Y(k) * ns + V(k)] = 1.0;
  }
  for (int j = 0; j < ns; ++j) {
    double* w = D + static_cast<size_t>(j) * n;
    lu_.solve(w);
    for (int k = 0; k < N; ++k) {
      J[U(k) * ns + j] = -w[N + 2 * k];
      J[V(k) * ns + j] = -w[N + 2 * k + 1];
    }
  }
  return all_finite(J, ns * ns) ? 0 : 2;
}

void PendulumChain::invariants(double, const double* x, double* h) const {
  const int N = n_;
  for (int k = 0; k < N; ++k) {
    const double xp = k ? x[X(k - 1)] : 0.0, yp = k ? x[Y(k - 1)] : 0.0,
                 up = k ? x[U(k - 1)] : 0.0, vp = k ? x[V(k - 1)] : 0.0;
    const double dx = x[X(k)] - xp, dy = x[Y(k)] - yp;
    h[k] = dx * dx + dy * dy - L_ * L_;
    h[N + k] = 2 * (dx * (x[U(k)] - up) + dy * (x[V(k)] - vp));
  }
}

}  // namespace handwritten
