// Hopcroft–Karp maximum bipartite matching with an explicit stack instead of recursion.
#include "structure/matching.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace daec {

namespace {

constexpr int kUnreached = std::numeric_limits<int>::max();

// One run of Hopcroft–Karp. Each phase finds the length of the shortest augmenting paths by a
// breadth-first search from the unmatched rows, then augments along a maximal set of disjoint
// shortest paths by depth-first searches restricted to the layers: O(√V) phases of O(E) each.
class HopcroftKarp {
 public:
  explicit HopcroftKarp(const SparsityPattern& pattern)
      : pattern_(pattern), layer_(pattern.rows(), kUnreached), next_edge_(pattern.rows(), 0) {
    matching_.row_to_col.assign(pattern.rows(), kUnmatched);
    matching_.col_to_row.assign(pattern.cols(), kUnmatched);
  }

  Matching run() {
    match_greedily();
    while (build_layers()) {
      std::fill(next_edge_.begin(), next_edge_.end(), 0);
      for (int r = 0; r < pattern_.rows(); ++r) {
        if (matching_.row_to_col[r] == kUnmatched && augment_from(r)) ++matching_.size;
      }
    }
    return std::move(matching_);
  }

 private:
  void match(int r, int c) {
    matching_.row_to_col[r] = c;
    matching_.col_to_row[c] = r;
  }

  // A cheap start: most rows of practical patterns are matched here, leaving few phases.
  void match_greedily() {
    for (int r = 0; r < pattern_.rows(); ++r) {
      for (int c : pattern_.row(r)) {
        if (matching_.col_to_row[c] == kUnmatched) {
          match(r, c);
          ++matching_.size;
          break;
        }
      }
    }
  }

  // Breadth-first search over alternating paths from the unmatched rows: layer_[r] is the number
  // of matched edges from a free row to r. Stops after the first layer that touches an unmatched
  // column (last_layer_); returns false when no augmenting path is left.
  bool build_layers() {
    queue_.clear();
    for (int r = 0; r < pattern_.rows(); ++r) {
      bool free_row = matching_.row_to_col[r] == kUnmatched;
      layer_[r] = free_row ? 0 : kUnreached;
      if (free_row) queue_.push_back(r);
    }
    last_layer_ = kUnreached;
    for (size_t head = 0; head < queue_.size(); ++head) {
      int r = queue_[head];
      if (layer_[r] > last_layer_) break;  // longer than the shortest augmenting paths
      for (int c : pattern_.row(r)) {
        int next = matching_.col_to_row[c];
        if (next == kUnmatched) {
          last_layer_ = layer_[r];
        } else if (layer_[next] == kUnreached) {
          layer_[next] = layer_[r] + 1;
          queue_.push_back(next);
        }
      }
    }
    return last_layer_ != kUnreached;
  }

  // Depth-first search for a shortest augmenting path from the free row `root`, through rows one
  // layer deeper each step. path_ holds the rows of the current path; next_edge_[r] is the
  // column of r being tried, so dead ends are never scanned twice in a phase.
  bool augment_from(int root) {
    path_.assign(1, root);
    while (!path_.empty()) {
      int r = path_.back();
      IndexSpan columns = pattern_.row(r);
      bool descended = false;
      for (; next_edge_[r] < columns.size(); ++next_edge_[r]) {
        int next = matching_.col_to_row[columns[next_edge_[r]]];
        if (next == kUnmatched && layer_[r] == last_layer_) {
          flip_path();
          return true;
        }
        if (next != kUnmatched && layer_[next] == layer_[r] + 1 && layer_[next] <= last_layer_) {
          path_.push_back(next);
          descended = true;
          break;
        }
      }
      if (descended) continue;
      layer_[r] = kUnreached;  // a dead end for the rest of this phase
      path_.pop_back();
      if (!path_.empty()) ++next_edge_[path_.back()];
    }
    return false;
  }

  // Each row of the path takes the column it was trying: that column was matched to the next
  // row of the path (or, for the last row, was free).
  void flip_path() {
    for (int r : path_) match(r, pattern_.row(r)[next_edge_[r]]);
  }

  const SparsityPattern& pattern_;
  Matching matching_;
  std::vector<int> layer_;
  std::vector<int> next_edge_;
  std::vector<int> queue_;
  std::vector<int> path_;
  int last_layer_ = kUnreached;
};

}  // namespace

Matching maximum_matching(const SparsityPattern& pattern) {
  return HopcroftKarp(pattern).run();
}

int structural_rank(const SparsityPattern& pattern) {
  return maximum_matching(pattern).size;
}

// Whether every matched pair in row_to_col is an entry whose column points back to the row.
static bool matched_pairs_agree(const SparsityPattern& pattern, const Matching& matching) {
  int pairs = 0;
  for (int r = 0; r < pattern.rows(); ++r) {
    int c = matching.row_to_col[r];
    if (c == kUnmatched) continue;
    if (c < 0 || c >= pattern.cols() || matching.col_to_row[c] != r || !pattern.has(r, c)) {
      return false;
    }
    ++pairs;
  }
  return pairs == matching.size;
}

bool is_valid_matching(const SparsityPattern& pattern, const Matching& matching) {
  if (static_cast<int>(matching.row_to_col.size()) != pattern.rows() ||
      static_cast<int>(matching.col_to_row.size()) != pattern.cols()) {
    return false;
  }
  if (!matched_pairs_agree(pattern, matching)) return false;
  // Every matched column must be the partner of its row (catches a column pointing at a row
  // that points elsewhere, which the row-side check cannot see).
  int matched_cols = 0;
  for (int c = 0; c < pattern.cols(); ++c) {
    int r = matching.col_to_row[c];
    if (r == kUnmatched) continue;
    if (r < 0 || r >= pattern.rows() || matching.row_to_col[r] != c) return false;
    ++matched_cols;
  }
  return matched_cols == matching.size;
}

}  // namespace daec
