// handwritten.h — the reference a C++ engineer would write by hand for the two benchmark models:
// the final index-1 system A(X) Z = b(X) of docs/method.md §7, assembled as a dense
// matrix and solved by a dense LU factorisation with partial pivoting, then X' = F(X, Z).
// The state and unknown layouts match daec's (see the top of the generated files), so the two
// can be compared entry by entry. All workspace is allocated in the constructors: rhs,
// rhs_jacobian and invariants allocate nothing.
#pragma once

#include <vector>

namespace handwritten {

// Dense row-major n x n LU factorisation with partial pivoting (Doolittle, in place), the
// textbook algorithm: no blocking, no sparsity.
class DenseLU {
 public:
  explicit DenseLU(int n);
  int size() const { return n_; }
  double* matrix() { return a_.data(); }  // fill A here (row-major), then factor()
  int factor();                           // 0 ok, 1 if a pivot is zero or not finite
  void solve(double* b) const;            // b <- A^-1 b, using the factors

 private:
  int n_;
  std::vector<double> a_;
  std::vector<int> piv_;
};

// Seed 12.2, the coupled pendulums. X = [x1 y1 x2 y2 u1 v1 u2 v2],
// Z = [lambda1 lambda2 lambda3 u1_dot v1_dot u2_dot v2_dot].
class CoupledPendulums {
 public:
  static constexpr int num_states = 8, num_algebraic = 7, num_invariants = 6;
  double a = 1, l1 = 1, l2 = 1, l3 = 2, m1 = 1, m2 = 1, g = 9.81;

  CoupledPendulums();
  int rhs(double t, const double* x, double* xdot, double* z) const;
  int rhs_jacobian(double t, const double* x, double* J) const;  // analytic, dense row-major
  void invariants(double t, const double* x, double* h) const;

 private:
  void assemble(const double* x) const;  // A into lu_.matrix(), b into b_
  mutable DenseLU lu_;
  mutable std::vector<double> b_, dr_;
};

// The N-link planar pendulum chain of models/pendulum_chain.dae (-D N=...). X = [x_1 .. x_N,
// y_1 .. y_N, u_1 .. u_N, v_1 .. v_N] (its arrays in declaration order), Z = [l_1 .. l_N,
// u1_dot v1_dot .. uN_dot vN_dot]. The rows of A are the rods'
// second derivatives (halved, as in the seed) and then the equations of motion of each mass.
class PendulumChain {
 public:
  PendulumChain(int links, double m = 1, double L = 1, double g = 9.81);
  int num_states() const { return 4 * n_; }
  int num_algebraic() const { return 3 * n_; }
  int num_invariants() const { return 2 * n_; }
  int rhs(double t, const double* x, double* xdot, double* z) const;
  int rhs_jacobian(double t, const double* x, double* J) const;  // analytic, dense row-major
  void invariants(double t, const double* x, double* h) const;

 private:
  void assemble(const double* x) const;
  // Where x_k, y_k, u_k, v_k of link k + 1 are in the state.
  int X(int k) const { return k; }
  int Y(int k) const { return n_ + k; }
  int U(int k) const { return 2 * n_ + k; }
  int V(int k) const { return 3 * n_ + k; }
  int n_;
  double m_, L_, g_;
  mutable DenseLU lu_;
  mutable std::vector<double> b_, dr_;
};

}  // namespace handwritten
