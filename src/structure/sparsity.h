// The sparsity pattern of a matrix (which entries may be nonzero), the input of the structural
// analysis: matching, Dulmage–Mendelsohn and block triangular form.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace daec {

/// A read-only view of a contiguous run of indices (one row of a pattern).
struct IndexSpan {
  const int* first = nullptr;
  const int* last = nullptr;

  const int* begin() const { return first; }
  const int* end() const { return last; }
  int size() const { return static_cast<int>(last - first); }
  bool empty() const { return first == last; }
  int operator[](int i) const { return first[i]; }
};

/// Which entries of a rows × cols matrix are structurally nonzero. Stored row by row (compressed
/// sparse rows); the column indices of each row are sorted and distinct.
///
/// Factories and operations that take indices throw std::invalid_argument when an index is out of
/// range or a permutation is not one.
struct SparsityPattern {
  /// An empty (all-zero) pattern.
  SparsityPattern() = default;
  SparsityPattern(int rows, int cols);

  /// From a dense matrix given row by row; every nonzero value is an entry. All rows must have
  /// the same length; `cols` is needed only to give a pattern with no rows its width.
  static SparsityPattern from_dense(const std::vector<std::vector<int>>& matrix, int cols = -1);
  /// From (row, column) entries in any order; repeated entries count once.
  static SparsityPattern from_entries(int rows, int cols,
                                      const std::vector<std::pair<int, int>>& entries);
  /// From the column indices of each row, in any order.
  static SparsityPattern from_rows(int cols, const std::vector<std::vector<int>>& row_columns);
  /// From text with one line per row and one character per column: `1`, `x`, `X` or `*` for an
  /// entry, `0`, `.` or `·` for none. Blanks are ignored, so "1 0 1" and "1.1" are the same row;
  /// empty lines are skipped.
  static SparsityPattern from_text(std::string_view text);

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int nonzeros() const { return static_cast<int>(col_index_.size()); }

  /// The sorted column indices of row `r`.
  IndexSpan row(int r) const;
  /// Whether (r, c) is an entry; out-of-range positions are not.
  bool has(int r, int c) const;
  /// All entries, row by row.
  std::vector<std::pair<int, int>> entries() const;

  SparsityPattern transposed() const;
  /// The pattern with row i taken from row `row_order[i]` and column j from column
  /// `col_order[j]` (MATLAB's A(p, q)); both must be permutations.
  SparsityPattern permuted(const std::vector<int>& row_order,
                           const std::vector<int>& col_order) const;
  /// The pattern restricted to the given rows and columns (each list free of repeats), renumbered
  /// in the order given (MATLAB's A(rows, cols)).
  SparsityPattern submatrix(const std::vector<int>& row_list,
                            const std::vector<int>& col_list) const;

  /// One line per row, the entries separated by a space: `present` for an entry, `absent` for
  /// none. The defaults give "1 . 1"; ("1", "0") gives MATLAB's "1 0 1".
  std::string to_text(std::string_view present = "1", std::string_view absent = ".") const;

  friend bool operator==(const SparsityPattern& a, const SparsityPattern& b);
  friend bool operator!=(const SparsityPattern& a, const SparsityPattern& b) { return !(a == b); }

 private:
  int rows_ = 0;
  int cols_ = 0;
  std::vector<int> row_start_{0};  // row r holds col_index_[row_start_[r] .. row_start_[r + 1])
  std::vector<int> col_index_;
};

/// Whether `order` holds each of 0 .. size - 1 exactly once.
bool is_permutation_of(const std::vector<int>& order, int size);

/// The inverse of a permutation: inverse[order[i]] == i.
std::vector<int> inverse_permutation(const std::vector<int>& order);

}  // namespace daec
