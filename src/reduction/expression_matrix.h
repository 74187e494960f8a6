// Sparse matrices of expressions (the Jacobians of the reduction and the code generator, and the
// matrix A of the reduced system): only the entries that are not identically 0 are stored, row by
// row, so that a model with tens of thousands of equations never holds a dense matrix. Also the
// map from unknowns' symbols to their columns that building them needs.
#pragma once

#include <unordered_map>
#include <vector>

#include <ginac/ginac.h>

#include "reduction/shared_expressions.h"
#include "reduction/system.h"
#include "structure/sparsity.h"

namespace daec {

struct MatrixEntry {
  int column = 0;
  GiNaC::ex value;
};

/// A rows x cols matrix of expressions stored by rows; each row's entries are sorted by column
/// and none of them is 0.
class ExpressionMatrix {
 public:
  ExpressionMatrix() = default;
  explicit ExpressionMatrix(size_t columns) : columns_(columns) {}

  size_t rows() const { return rows_.size(); }
  size_t cols() const { return columns_; }
  bool empty() const { return rows_.empty(); }
  size_t nonzeros() const;

  /// Appends a row; `entries` in any order, with distinct columns below cols(). Zeros are dropped.
  void add_row(std::vector<MatrixEntry> entries);
  /// The stored entries of row `r`, by increasing column.
  const std::vector<MatrixEntry>& row(size_t r) const { return rows_[r]; }
  /// The entry (r, c): 0 where nothing is stored.
  GiNaC::ex at(size_t r, size_t c) const;

  SparsityPattern pattern() const;
  /// The matrix as rows of cols() expressions, for the algorithms that need it dense (small
  /// matrices only: the symbolic left null space, the reports' tables).
  std::vector<std::vector<GiNaC::ex>> to_dense() const;

 private:
  size_t columns_ = 0;
  std::vector<std::vector<MatrixEntry>> rows_;
};

/// The columns of a list of unknowns by their symbols.
class SymbolColumns {
 public:
  explicit SymbolColumns(const std::vector<Unknown>& unknowns);

  /// Gives `symbol` the column `column`.
  void add(const GiNaC::ex& symbol, int column) { column_[symbol] = column; }

  /// The column of `symbol`, or -1 if it is none of the unknowns.
  int column(const GiNaC::ex& symbol) const;
  /// The columns of the unknowns that occur in `e`, sorted.
  std::vector<int> columns_in(const GiNaC::ex& e) const;
  /// Whether `e` holds any of the unknowns.
  bool occurs_in(const GiNaC::ex& e) const;

  struct Hasher {
    size_t operator()(const GiNaC::ex& e) const { return e.gethash(); }
  };
  struct Equality {
    bool operator()(const GiNaC::ex& a, const GiNaC::ex& b) const { return a.is_equal(b); }
  };

 private:
  // Hashed: every row of every Jacobian looks up each of its symbols here.
  std::unordered_map<GiNaC::ex, int, Hasher, Equality> column_;
};

/// d rows[i] / d unknowns[j], differentiating each row only by the unknowns it holds (a row of a
/// large model holds few of them). `before_row(i)` runs before row i is differentiated and
/// `after_entry(value)` after each derivative (the time and size limits); either may be empty.
template <typename BeforeRow, typename AfterEntry>
ExpressionMatrix jacobian_matrix(const std::vector<GiNaC::ex>& rows,
                                 const std::vector<Unknown>& unknowns, BeforeRow before_row,
                                 AfterEntry after_entry) {
  SymbolColumns columns(unknowns);
  ExpressionMatrix matrix(unknowns.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    before_row(i);
    std::vector<MatrixEntry> entries;
    for (int c : columns.columns_in(rows[i])) {
      GiNaC::ex value = shared_derivative(rows[i], GiNaC::ex_to<GiNaC::symbol>(unknowns[c].symbol));
      after_entry(value);
      entries.push_back({c, value});
    }
    matrix.add_row(std::move(entries));
  }
  return matrix;
}

/// The residuals of `constraints`, in order.
std::vector<GiNaC::ex> residuals_of(const std::vector<Constraint>& constraints);

}  // namespace daec
