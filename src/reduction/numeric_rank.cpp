// Sparse rank-revealing Gaussian elimination.
#include "reduction/numeric_rank.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>

namespace daec {

namespace {

// A pivot is taken among the entries at least this fraction of the column's largest.
constexpr double kThreshold = 0.1;
// Past the last column of a row, in merges.
constexpr int kEnd = std::numeric_limits<int>::max();

class SparseElimination {
 public:
  SparseElimination(const std::vector<NumericRow>& rows, size_t columns)
      : rows_(rows),
        column_rows_(columns),
        row_done_(rows.size(), false),
        column_done_(columns, false) {
    double scale = 0.0;
    for (size_t r = 0; r < rows_.size(); ++r) {
      std::sort(rows_[r].begin(), rows_[r].end());
      for (const auto& [c, v] : rows_[r]) {
        column_rows_[c].push_back(static_cast<int>(r));
        scale = std::max(scale, std::fabs(v));
      }
    }
    tolerance_ = 1e-10 * scale * static_cast<double>(std::max(rows_.size(), columns));
    for (size_t c = 0; c < columns; ++c) push_column(static_cast<int>(c));
  }

  int rank() {
    int rank = 0;
    while (!queue_.empty()) {
      auto [count, c] = queue_.top();
      queue_.pop();
      if (column_done_[c] || count != column_rows_[c].size()) continue;  // stale entry
      column_done_[c] = true;
      rank += eliminate(c) ? 1 : 0;
    }
    return rank;
  }

 private:
  using Candidate = std::pair<int, double>;  // (row, value in the pivot column)

  void push_column(int c) { queue_.push({column_rows_[c].size(), c}); }

  // The open rows holding column c, with their values; column_rows_[c] is pruned to them.
  std::vector<Candidate> candidates(int c) {
    std::vector<Candidate> found;
    std::vector<int>& holders = column_rows_[c];
    std::sort(holders.begin(), holders.end());
    holders.erase(std::unique(holders.begin(), holders.end()), holders.end());
    for (int r : holders) {
      if (row_done_[r]) continue;
      const NumericRow& row = rows_[r];
      auto it = std::lower_bound(row.begin(), row.end(), std::make_pair(c, -HUGE_VAL));
      if (it != row.end() && it->first == c) found.push_back({r, it->second});
    }
    return found;
  }

  // Eliminates column c; false if its entries are all below the tolerance (no pivot).
  bool eliminate(int c) {
    std::vector<Candidate> found = candidates(c);
    double largest = 0.0;
    for (const Candidate& candidate : found)
      largest = std::max(largest, std::fabs(candidate.second));
    if (!(largest > tolerance_)) return false;
    int pivot = -1;
    for (const auto& [r, v] : found) {
      if (std::fabs(v) < kThreshold * largest) continue;
      if (pivot < 0 || rows_[r].size() < rows_[pivot].size()) pivot = r;
    }
    row_done_[pivot] = true;
    double pivot_value = 0.0;
    for (const auto& [r, v] : found) {
      if (r == pivot) pivot_value = v;
    }
    for (const auto& [r, v] : found) {
      if (r != pivot) subtract(r, v / pivot_value, pivot, c);
    }
    return true;
  }

  // rows_[r] -= factor * rows_[p], dropping column c (eliminated) and registering fill-in.
  void subtract(int r, double factor, int p, int c) {
    const NumericRow& pivot_row = rows_[p];
    NumericRow& row = rows_[r];
    NumericRow merged;
    merged.reserve(row.size() + pivot_row.size());
    size_t i = 0, j = 0;
    while (i < row.size() || j < pivot_row.size()) {
      int ci = i < row.size() ? row[i].first : kEnd;
      int cj = j < pivot_row.size() ? pivot_row[j].first : kEnd;
      if (ci < cj) {
        merged.push_back(row[i++]);
      } else if (cj < ci) {
        if (cj != c && !column_done_[cj]) {
          merged.push_back({cj, -factor * pivot_row[j].second});
          column_rows_[cj].push_back(r);
          push_column(cj);
        }
        ++j;
      } else {
        if (ci != c) merged.push_back({ci, row[i].second - factor * pivot_row[j].second});
        ++i, ++j;
      }
    }
    row = std::move(merged);
  }

  std::vector<NumericRow> rows_;
  std::vector<std::vector<int>> column_rows_;  // rows that may hold each column (some stale)
  std::vector<bool> row_done_, column_done_;
  double tolerance_ = 0.0;
  // Columns by their count of (possibly stale) rows, fewest first, then lowest index.
  std::priority_queue<std::pair<size_t, int>, std::vector<std::pair<size_t, int>>,
                      std::greater<std::pair<size_t, int>>>
      queue_;
};

}  // namespace

int numeric_rank(const std::vector<NumericRow>& rows, size_t columns) {
  return SparseElimination(rows, columns).rank();
}

}  // namespace daec
