// The sparse linear-algebra policy of the Radau5 integrator: SuiteSparse KLU, used directly.
// klu_analyze runs once on the pattern of J plus the diagonal of the rows with mass; each
// factorization fills the values of E1 = gamma*M - J (klu_factor, later klu_refactor) and of the
// complex E2 = (alpha + i*beta)*M - J (klu_z_factor / klu_z_refactor, interleaved real and
// imaginary parts). A refactorization reuses the first one's pivot order; when KLU's cheap
// condition estimate says that order has gone bad, the matrix is factored afresh (as SUNDIALS
// does). Link with -lklu (Debian: libsuitesparse-dev).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#if __has_include(<klu.h>)
#include <klu.h>
#else
#include <suitesparse/klu.h>
#endif

#include "daec/integrators/jacobian_matrix.hpp"

namespace daec {
namespace integrators {

class KluLinearSolver {
 public:
  static constexpr const char* name = "klu";
  static constexpr bool prefers_sparse_jacobian = true;

  KluLinearSolver() { klu_defaults(&common_); }
  KluLinearSolver(const KluLinearSolver&) = delete;
  KluLinearSolver& operator=(const KluLinearSolver&) = delete;
  ~KluLinearSolver() { release(); }

  /// Builds the pattern of J plus the diagonal of the rows with mass and orders it (klu_analyze).
  /// A dense J gives a full pattern. Returns "" or what went wrong.
  std::string analyze(const JacobianMatrix& jacobian, const std::vector<double>& mass) {
    release();
    n_ = jacobian.n;
    mass_ = mass;
    build_pattern(jacobian);
    symbolic_ = klu_analyze(n_, colptr_.data(), rowval_.data(), &common_);
    if (symbolic_ == nullptr)
      return "KLU could not analyze the Jacobian's pattern (status " +
             std::to_string(common_.status) + ")";
    return "";
  }

  /// Factors E1 = gamma*M - J and E2 = (alpha + i*beta)*M - J. Returns 0, or nonzero if either
  /// is singular.
  int factor(const JacobianMatrix& jacobian, double gamma, double alpha, double beta) {
    const size_t nnz = rowval_.size();
    real_.assign(nnz, 0.0);
    for (size_t k = 0; k < jacobian.values.size(); ++k)
      real_[static_cast<size_t>(position_[k])] -= jacobian.values[k];
    complex_.assign(2 * nnz, 0.0);
    for (size_t k = 0; k < nnz; ++k) complex_[2 * k] = real_[k];
    for (int i = 0; i < n_; ++i) {
      if (diagonal_[static_cast<size_t>(i)] < 0) continue;  // an algebraic row: no gamma*M
      const size_t d = static_cast<size_t>(diagonal_[static_cast<size_t>(i)]);
      const double m = mass_[static_cast<size_t>(i)];
      real_[d] += gamma * m;
      complex_[2 * d] += alpha * m;
      complex_[2 * d + 1] += beta * m;
    }
    if (factor_one(false) != 0) return 1;
    return factor_one(true) != 0 ? 2 : 0;
  }

  void solve_real(double* b) { klu_solve(symbolic_, real_numeric_, n_, 1, b, &common_); }

  void solve_complex(double* re, double* im) {
    buffer_.resize(2 * static_cast<size_t>(n_));
    for (size_t i = 0; i < static_cast<size_t>(n_); ++i) {
      buffer_[2 * i] = re[i];
      buffer_[2 * i + 1] = im[i];
    }
    klu_z_solve(symbolic_, complex_numeric_, n_, 1, buffer_.data(), &common_);
    for (size_t i = 0; i < static_cast<size_t>(n_); ++i) {
      re[i] = buffer_[2 * i];
      im[i] = buffer_[2 * i + 1];
    }
  }

  /// Entries of the factored pattern (J plus the diagonal of the rows with mass).
  int nnz() const { return static_cast<int>(rowval_.size()); }

  /// Entries of the real matrix's factors (L, U and the off-diagonal blocks of KLU's block
  /// triangular form): the work of a solve, and of a refactorization roughly in proportion.
  long factor_nonzeros() const {
    if (real_numeric_ == nullptr) return 0;
    return static_cast<long>(real_numeric_->lnz) + real_numeric_->unz + real_numeric_->nzoff;
  }

 private:
  /// Column j of the pattern: J's rows in column j and, if row j has mass, j itself, sorted;
  /// position_ maps each entry of J (in the order of its values) to its place in rowval_.
  /// An algebraic row gets no diagonal entry: its gamma*M is 0, and a made-up entry there misleads
  /// both of KLU's orderings. The block triangular form would match unknowns to rows through
  /// entries that are always 0, and AMD, which orders the pattern plus its transpose on the
  /// assumption that it pivots on the diagonal, would order for pivots that partial pivoting then
  /// rejects. How much that costs depends on where the algebraic rows happen to fall, that is on
  /// the order in which the model declares its variables and equations: a 128-link pendulum chain
  /// declared body by body had factors 8 times as large as the same chain declared as arrays
  /// (docs/integrators.md, "Sparse factorization and declaration order").
  void build_pattern(const JacobianMatrix& jacobian) {
    std::vector<std::vector<int>> columns(static_cast<size_t>(n_));
    jacobian.for_each_entry(
        [&](int i, int j, double) { columns[static_cast<size_t>(j)].push_back(i); });
    colptr_.assign(1, 0);
    rowval_.clear();
    diagonal_.assign(static_cast<size_t>(n_), 0);
    for (int j = 0; j < n_; ++j) {
      std::vector<int>& rows = columns[static_cast<size_t>(j)];
      if (mass_[static_cast<size_t>(j)] != 0.0) rows.push_back(j);
      std::sort(rows.begin(), rows.end());
      rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
      rowval_.insert(rowval_.end(), rows.begin(), rows.end());
      colptr_.push_back(static_cast<int>(rowval_.size()));
    }
    auto place = [&](int i, int j) {
      auto first = rowval_.begin() + colptr_[static_cast<size_t>(j)];
      auto last = rowval_.begin() + colptr_[static_cast<size_t>(j) + 1];
      return static_cast<int>(std::lower_bound(first, last, i) - rowval_.begin());
    };
    position_.clear();
    jacobian.for_each_entry([&](int i, int j, double) { position_.push_back(place(i, j)); });
    for (int j = 0; j < n_; ++j)
      diagonal_[static_cast<size_t>(j)] = mass_[static_cast<size_t>(j)] != 0.0 ? place(j, j) : -1;
  }

  /// Refactors with the previous pivot order if there is one and it still looks sound, else
  /// factors afresh. 0 ok, 1 singular.
  int factor_one(bool complex) {
    klu_numeric*& numeric = complex ? complex_numeric_ : real_numeric_;
    double* values = complex ? complex_.data() : real_.data();
    if (numeric != nullptr) {
      int ok =
          complex
              ? klu_z_refactor(colptr_.data(), rowval_.data(), values, symbolic_, numeric, &common_)
              : klu_refactor(colptr_.data(), rowval_.data(), values, symbolic_, numeric, &common_);
      if (ok) {
        ok = complex ? klu_z_rcond(symbolic_, numeric, &common_)
                     : klu_rcond(symbolic_, numeric, &common_);
        const double threshold = std::pow(std::numeric_limits<double>::epsilon(), 2.0 / 3.0);
        if (ok && common_.rcond > threshold) return 0;
      }
      free_numeric(numeric, complex);
    }
    numeric = complex ? klu_z_factor(colptr_.data(), rowval_.data(), values, symbolic_, &common_)
                      : klu_factor(colptr_.data(), rowval_.data(), values, symbolic_, &common_);
    return numeric == nullptr ? 1 : 0;
  }

  void free_numeric(klu_numeric*& numeric, bool complex) {
    if (numeric == nullptr) return;
    if (complex)
      klu_z_free_numeric(&numeric, &common_);
    else
      klu_free_numeric(&numeric, &common_);
    numeric = nullptr;
  }

  void release() {
    free_numeric(real_numeric_, false);
    free_numeric(complex_numeric_, true);
    if (symbolic_ != nullptr) klu_free_symbolic(&symbolic_, &common_);
    symbolic_ = nullptr;
  }

  klu_common common_;
  klu_symbolic* symbolic_ = nullptr;
  klu_numeric* real_numeric_ = nullptr;
  klu_numeric* complex_numeric_ = nullptr;
  int n_ = 0;
  std::vector<double> mass_;
  std::vector<int> colptr_, rowval_, position_, diagonal_;
  std::vector<double> real_, complex_, buffer_;
};

}  // namespace integrators
}  // namespace daec
