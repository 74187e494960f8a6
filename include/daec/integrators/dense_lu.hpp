// Dense LU factorization with partial pivoting (real and complex, column-major), and the dense
// linear-algebra policy of the Radau5 integrator built on it: it factors the two iteration
// matrices E1 = gamma*M - J (real) and E2 = (alpha + i*beta)*M - J (complex) of Radau IIA's
// simplified Newton iteration, where M is a diagonal mass matrix and J = df/dy.
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "daec/integrators/jacobian_matrix.hpp"

namespace daec {
namespace integrators {

namespace detail {
inline double pivot_size(double x) {
  return std::fabs(x);
}
// |re| + |im|, as LAPACK's zgetrf chooses complex pivots: no square root per candidate.
inline double pivot_size(const std::complex<double>& x) {
  return std::fabs(x.real()) + std::fabs(x.imag());
}

// target -= a * b. Written out for complex numbers: std::complex's operator* checks for
// infinities and NaN (C99 Annex G) and is several times slower in the LU's inner loops.
inline void subtract_product(double& target, double a, double b) {
  target -= a * b;
}
inline void subtract_product(std::complex<double>& target, const std::complex<double>& a,
                             const std::complex<double>& b) {
  target = {target.real() - (a.real() * b.real() - a.imag() * b.imag()),
            target.imag() - (a.real() * b.imag() + a.imag() * b.real())};
}
}  // namespace detail

/// PA = LU of an n x n matrix stored column-major (entry (i, j) at a[i + j*n]), factored in place.
template <class T>
class DenseLu {
 public:
  /// Takes the matrix and factors it. Returns 0, or k + 1 if the pivot of column k is zero (or
  /// not finite): the matrix is singular to working precision and solve() must not be called.
  int factor(std::vector<T> matrix, int n) {
    a_ = std::move(matrix);
    n_ = n;
    pivot_.assign(static_cast<size_t>(n), 0);
    for (int k = 0; k < n; ++k) {
      int p = k;
      double largest = detail::pivot_size(at(k, k));
      for (int i = k + 1; i < n; ++i) {
        double size = detail::pivot_size(at(i, k));
        if (size > largest) {
          largest = size;
          p = i;
        }
      }
      pivot_[static_cast<size_t>(k)] = p;
      if (!(largest > 0.0) || !std::isfinite(largest)) return k + 1;
      if (p != k)
        for (int j = 0; j < n; ++j) std::swap(at(k, j), at(p, j));
      const T inverse = T(1.0) / at(k, k);
      T* column_k = &at(0, k);
      for (int i = k + 1; i < n; ++i) column_k[i] *= inverse;
      for (int j = k + 1; j < n; ++j) {  // rank-1 update, column by column (contiguous)
        const T factor_kj = at(k, j);
        if (factor_kj == T(0.0)) continue;
        T* column_j = &at(0, j);
        for (int i = k + 1; i < n; ++i)
          detail::subtract_product(column_j[i], column_k[i], factor_kj);
      }
    }
    return 0;
  }

  /// Solves A x = b in place (after a successful factor()).
  void solve(T* b) const {
    const int n = n_;
    for (int k = 0; k < n; ++k) {
      int p = pivot_[static_cast<size_t>(k)];
      if (p != k) std::swap(b[k], b[p]);
    }
    for (int k = 0; k < n; ++k) {  // L y = P b, L unit lower triangular
      const T bk = b[k];
      if (bk == T(0.0)) continue;
      const T* column_k = &at(0, k);
      for (int i = k + 1; i < n; ++i) detail::subtract_product(b[i], column_k[i], bk);
    }
    for (int k = n - 1; k >= 0; --k) {  // U x = y
      b[k] /= at(k, k);
      const T bk = b[k];
      if (bk == T(0.0)) continue;
      const T* column_k = &at(0, k);
      for (int i = 0; i < k; ++i) detail::subtract_product(b[i], column_k[i], bk);
    }
  }

  int size() const { return n_; }

 private:
  T& at(int i, int j) { return a_[static_cast<size_t>(i) + static_cast<size_t>(j) * n_]; }
  const T& at(int i, int j) const {
    return a_[static_cast<size_t>(i) + static_cast<size_t>(j) * n_];
  }

  std::vector<T> a_;
  std::vector<int> pivot_;
  int n_ = 0;
};

/// The dense linear-algebra policy of Radau5 (see radau5.hpp, "Linear algebra policies"). Takes
/// the Jacobian dense or sparse (a sparse one is scattered into a dense matrix).
class DenseLinearSolver {
 public:
  static constexpr const char* name = "dense";
  static constexpr bool prefers_sparse_jacobian = false;

  std::string analyze(const JacobianMatrix& jacobian, const std::vector<double>& mass) {
    n_ = jacobian.n;
    mass_ = mass;
    return "";
  }

  /// Entries of the real matrix's factors: all n^2 of them.
  long factor_nonzeros() const { return static_cast<long>(n_) * n_; }

  /// Factors E1 = gamma*M - J and E2 = (alpha + i*beta)*M - J. Returns 0, or nonzero if either
  /// is singular.
  int factor(const JacobianMatrix& jacobian, double gamma, double alpha, double beta) {
    const size_t n = static_cast<size_t>(n_);
    std::vector<double> e1(n * n, 0.0);
    jacobian.for_each_entry([&](int i, int j, double value) {
      e1[static_cast<size_t>(i) + static_cast<size_t>(j) * n] -= value;
    });
    std::vector<std::complex<double>> e2(e1.begin(), e1.end());
    for (size_t i = 0; i < n; ++i) {
      e1[i + i * n] += gamma * mass_[i];
      e2[i + i * n] += std::complex<double>(alpha, beta) * mass_[i];
    }
    if (real_.factor(std::move(e1), n_) != 0) return 1;
    return complex_.factor(std::move(e2), n_) != 0 ? 2 : 0;
  }

  void solve_real(double* b) { real_.solve(b); }

  void solve_complex(double* re, double* im) {
    buffer_.resize(static_cast<size_t>(n_));
    for (int i = 0; i < n_; ++i) buffer_[static_cast<size_t>(i)] = {re[i], im[i]};
    complex_.solve(buffer_.data());
    for (int i = 0; i < n_; ++i) {
      re[i] = buffer_[static_cast<size_t>(i)].real();
      im[i] = buffer_[static_cast<size_t>(i)].imag();
    }
  }

 private:
  int n_ = 0;
  std::vector<double> mass_;
  DenseLu<double> real_;
  DenseLu<std::complex<double>> complex_;
  std::vector<std::complex<double>> buffer_;
};

}  // namespace integrators
}  // namespace daec
