// Block lower-triangular form by Tarjan's strongly-connected-components algorithm, iterative.
#include "structure/block_triangular.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace daec {

namespace {

constexpr int kUnvisited = -1;

// Tarjan's algorithm on the rows of a square pattern, where row r has an edge to the row matched
// to each of its columns ("equation r needs the unknown that equation r' determines"). Tarjan
// finishes a component only after every component it reaches, so the components come out with
// their dependencies first: exactly the block lower-triangular solve order.
class MatchedGraphComponents {
 public:
  MatchedGraphComponents(const SparsityPattern& pattern, const Matching& perfect)
      : pattern_(pattern),
        matching_(perfect),
        index_(pattern.rows(), kUnvisited),
        low_link_(pattern.rows(), 0),
        on_stack_(pattern.rows(), false),
        next_edge_(pattern.rows(), 0) {}

  BlockTriangularForm run() {
    for (int r = 0; r < pattern_.rows(); ++r) {
      if (index_[r] == kUnvisited) visit_from(r);
    }
    return std::move(form_);
  }

 private:
  void discover(int r) {
    index_[r] = low_link_[r] = next_index_++;
    on_stack_[r] = true;
    component_stack_.push_back(r);
    call_stack_.push_back(r);
  }

  // The depth-first search, with call_stack_ in place of recursion: each step either follows
  // the next edge of the row on top or, when it has none left, returns from that row.
  void visit_from(int root) {
    discover(root);
    while (!call_stack_.empty()) {
      int r = call_stack_.back();
      IndexSpan columns = pattern_.row(r);
      if (next_edge_[r] < columns.size()) {
        int next = matching_.col_to_row[columns[next_edge_[r]++]];
        if (index_[next] == kUnvisited) {
          discover(next);
        } else if (on_stack_[next]) {
          low_link_[r] = std::min(low_link_[r], index_[next]);
        }
        continue;
      }
      call_stack_.pop_back();
      if (!call_stack_.empty()) {
        int parent = call_stack_.back();
        low_link_[parent] = std::min(low_link_[parent], low_link_[r]);
      }
      if (low_link_[r] == index_[r]) emit_component(r);
    }
  }

  // Pops the component rooted at `root` and appends it to the form as the next block.
  void emit_component(int root) {
    std::vector<int> rows;
    int r;
    do {
      r = component_stack_.back();
      component_stack_.pop_back();
      rows.push_back(r);
    } while (r != root);
    std::sort(rows.begin(), rows.end());
    for (int row : rows) {
      on_stack_[row] = false;
      form_.row_order.push_back(row);
      form_.col_order.push_back(matching_.row_to_col[row]);
    }
    form_.block_start.push_back(static_cast<int>(form_.row_order.size()));
  }

  const SparsityPattern& pattern_;
  const Matching& matching_;
  std::vector<int> index_;     // discovery order of each row
  std::vector<int> low_link_;  // smallest discovery index reachable within the current tree
  std::vector<bool> on_stack_;
  std::vector<int> next_edge_;
  std::vector<int> component_stack_;
  std::vector<int> call_stack_;
  int next_index_ = 0;
  BlockTriangularForm form_;
};

}  // namespace

BlockTriangularForm block_triangular_form(const SparsityPattern& pattern, const Matching& perfect) {
  if (pattern.rows() != pattern.cols()) {
    throw std::invalid_argument("block triangular form: the pattern is not square");
  }
  if (!is_valid_matching(pattern, perfect) || perfect.size != pattern.rows()) {
    throw std::invalid_argument("block triangular form: not a perfect matching of the pattern");
  }
  return MatchedGraphComponents(pattern, perfect).run();
}

BlockTriangularForm block_triangular_form(const SparsityPattern& pattern) {
  if (pattern.rows() != pattern.cols()) {
    throw std::invalid_argument("block triangular form: the pattern is not square");
  }
  Matching matching = maximum_matching(pattern);
  if (matching.size != pattern.rows()) {
    throw std::invalid_argument(
        "block triangular form: the pattern is structurally singular (rank " +
        std::to_string(matching.size) + " of " + std::to_string(pattern.rows()) + ")");
  }
  return MatchedGraphComponents(pattern, matching).run();
}

std::vector<int> block_of_positions(const BlockTriangularForm& form) {
  std::vector<int> block_of(form.row_order.size());
  for (int b = 0; b < form.block_count(); ++b) {
    for (int i = form.block_start[b]; i < form.block_start[b + 1]; ++i) block_of[i] = b;
  }
  return block_of;
}

}  // namespace daec
