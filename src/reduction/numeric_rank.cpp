// Sparse rank-revealing Gaussian elimination.
#include "reduction/numeric_rank.h"

#include "reduction/equilibration.h"
#include "reduction/ties.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>

namespace daec {

namespace {

// A pivot is taken among the entries at least this fraction of the column's largest.
constexpr double kThreshold = 0.1;
// In doubles, after scaling: a pivot below kSureZero * size is rounding, above kSureNonzero *
// scale it is there; in between the decision is a close call (RankDecision).
constexpr double kSureZero = 1e-14, kSureNonzero = 1e-6;
// With many digits (precise_rank), pivots below this fraction of the largest entry are zero.
constexpr double kPreciseZero = 1e-40;

// Past the last column of a row, in merges.
constexpr int kEnd = std::numeric_limits<int>::max();

// T is double or GiNaC::numeric (many digits).
template <typename T>
class SparseElimination {
 public:
  using Row = std::vector<std::pair<int, T>>;

  // Pivots of magnitude at most `zero` are zero; above `sure` they are sure; in between, a close
  // call (both fractions of the largest entry, times the dimension for rounding).
  SparseElimination(std::vector<Row> rows, size_t columns, double zero, double sure,
                    double close_zero)
      : rows_(std::move(rows)),
        column_rows_(columns),
        row_done_(rows_.size(), false),
        column_done_(columns, false) {
    T scale = 0;
    for (size_t r = 0; r < rows_.size(); ++r) {
      std::sort(rows_[r].begin(), rows_[r].end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      for (const auto& [c, v] : rows_[r]) {
        column_rows_[c].push_back(static_cast<int>(r));
        if (magnitude(v) > scale) scale = magnitude(v);
      }
    }
    T size = scale * T(static_cast<double>(std::max(rows_.size(), columns)));
    tolerance_ = T(zero) * size;
    sure_ = T(sure) * scale;
    close_zero_ = T(close_zero) * size;
    for (size_t c = 0; c < columns; ++c) push_column(static_cast<int>(c));
  }

  bool close_call() const { return close_call_; }

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
  using Candidate = std::pair<int, T>;  // (row, value in the pivot column)

  void push_column(int c) { queue_.push({column_rows_[c].size(), c}); }

  // The open rows holding column c, with their values; column_rows_[c] is pruned to them.
  std::vector<Candidate> candidates(int c) {
    std::vector<Candidate> found;
    std::vector<int>& holders = column_rows_[c];
    std::sort(holders.begin(), holders.end());
    holders.erase(std::unique(holders.begin(), holders.end()), holders.end());
    for (int r : holders) {
      if (row_done_[r]) continue;
      const Row& row = rows_[r];
      auto it = std::lower_bound(row.begin(), row.end(), c, [](const auto& entry, int column) {
        return entry.first < column;
      });
      if (it != row.end() && it->first == c) found.push_back({r, it->second});
    }
    return found;
  }

  // Eliminates column c; false if its entries are all below the tolerance (no pivot).
  bool eliminate(int c) {
    std::vector<Candidate> found = candidates(c);
    T largest = 0;
    for (const Candidate& candidate : found)
      if (magnitude(candidate.second) > largest) largest = magnitude(candidate.second);
    if (largest > close_zero_ && largest < sure_) close_call_ = true;
    if (!(largest > tolerance_)) return false;
    int pivot = -1;
    T threshold = T(kThreshold) * largest;
    for (const auto& [r, v] : found) {
      if (magnitude(v) < threshold) continue;
      if (pivot < 0 || rows_[r].size() < rows_[pivot].size()) pivot = r;
    }
    row_done_[pivot] = true;
    T pivot_value = 0;
    for (const auto& [r, v] : found) {
      if (r == pivot) pivot_value = v;
    }
    for (const auto& [r, v] : found) {
      if (r != pivot) subtract(r, v / pivot_value, pivot, c);
    }
    return true;
  }

  // rows_[r] -= factor * rows_[p], dropping column c (eliminated) and registering fill-in.
  void subtract(int r, const T& factor, int p, int c) {
    const Row& pivot_row = rows_[p];
    Row& row = rows_[r];
    Row merged;
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

  std::vector<Row> rows_;
  std::vector<std::vector<int>> column_rows_;  // rows that may hold each column (some stale)
  std::vector<bool> row_done_, column_done_;
  T tolerance_ = 0, sure_ = 0, close_zero_ = 0;
  bool close_call_ = false;
  // Columns by their count of (possibly stale) rows, fewest first, then lowest index.
  std::priority_queue<std::pair<size_t, int>, std::vector<std::pair<size_t, int>>,
                      std::greater<std::pair<size_t, int>>>
      queue_;
};

}  // namespace

RankDecision decide_rank(const std::vector<NumericRow>& rows, size_t columns) {
  bool tiny = has_tiny_entries(rows, columns);  // before scaling, which would hide them
  std::vector<NumericRow> scaled = rows;
  equilibrate(scaled, columns);
  SparseElimination<double> elimination(std::move(scaled), columns, 1e-10, kSureNonzero, kSureZero);
  RankDecision decision;
  decision.rank = elimination.rank();
  decision.close_call = elimination.close_call() || tiny;
  return decision;
}

int numeric_rank(const std::vector<NumericRow>& rows, size_t columns) {
  return decide_rank(rows, columns).rank;
}

int precise_rank(const std::vector<PreciseRow>& rows, size_t columns) {
  return SparseElimination<GiNaC::numeric>(rows, columns, kPreciseZero, 1.0, 0.0).rank();
}

}  // namespace daec
