// The Jacobian df/dy as the Radau5 integrator stores it and hands it to a linear solver: dense
// (column-major n x n) or sparse in compressed sparse column form (CSC, 0-based, the layout of
// daec's generated rhs_jacobian_colptr / rhs_jacobian_rowval and of SUNDIALS' CSC_MAT).
#pragma once

#include <string>
#include <vector>

namespace daec {
namespace integrators {

/// A fixed CSC pattern of an n x n matrix: the entries of column j are rowval[colptr[j]] ...
/// rowval[colptr[j+1]-1]. Row indices need not be sorted within a column, but must be unique.
struct SparsityPattern {
  int n = 0;
  std::vector<int> colptr;  ///< size n + 1, colptr[0] == 0
  std::vector<int> rowval;  ///< size colptr[n]

  int nnz() const { return colptr.empty() ? 0 : colptr.back(); }

  /// "" if the pattern is well formed, else what is wrong with it.
  std::string check() const {
    if (n < 0) return "negative size";
    if (static_cast<int>(colptr.size()) != n + 1) return "colptr must have n + 1 entries";
    if (colptr[0] != 0) return "colptr[0] must be 0";
    for (int j = 0; j < n; ++j)
      if (colptr[j + 1] < colptr[j]) return "colptr must not decrease";
    if (static_cast<int>(rowval.size()) != nnz()) return "rowval must have colptr[n] entries";
    std::vector<int> seen(static_cast<size_t>(n), -1);
    for (int j = 0; j < n; ++j) {
      for (int k = colptr[j]; k < colptr[j + 1]; ++k) {
        int i = rowval[k];
        if (i < 0 || i >= n) return "row index out of range in column " + std::to_string(j);
        if (seen[i] == j) return "duplicate row index in column " + std::to_string(j);
        seen[i] = j;
      }
    }
    return "";
  }
};

/// df/dy at one point. Dense: `values` is n*n, column-major (entry (i, j) at values[i + j*n]).
/// Sparse: `values` holds one number per entry of `pattern`, in its order.
struct JacobianMatrix {
  int n = 0;
  bool sparse = false;
  SparsityPattern pattern;  ///< only when sparse
  std::vector<double> values;

  static JacobianMatrix dense(int size) {
    JacobianMatrix m;
    m.n = size;
    m.values.assign(static_cast<size_t>(size) * static_cast<size_t>(size), 0.0);
    return m;
  }
  static JacobianMatrix csc(SparsityPattern p) {
    JacobianMatrix m;
    m.n = p.n;
    m.sparse = true;
    m.values.assign(static_cast<size_t>(p.nnz()), 0.0);
    m.pattern = std::move(p);
    return m;
  }

  /// Calls visit(row, column, value) for every stored entry.
  template <class Visit>
  void for_each_entry(Visit&& visit) const {
    if (!sparse) {
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) visit(i, j, values[static_cast<size_t>(i + j * n)]);
      return;
    }
    for (int j = 0; j < n; ++j)
      for (int k = pattern.colptr[j]; k < pattern.colptr[j + 1]; ++k)
        visit(pattern.rowval[k], j, values[static_cast<size_t>(k)]);
  }
};

}  // namespace integrators
}  // namespace daec
