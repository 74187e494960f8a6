// Planning the block-structured sparse LU of A Z = b (see the header).
#include "structure/sparse_elimination_plan.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "structure/bandwidth_order.h"

namespace daec {

int LinearSolvePlan::index(int row, int column) const {
  auto it = index_.find({row, column});
  if (it == index_.end()) {
    throw std::logic_error("A(" + std::to_string(row) + ", " + std::to_string(column) +
                           ") is not stored");
  }
  return it->second;
}

namespace {

// The pattern of one position's row inside its own block, updated as elimination fills it in.
using RowPattern = std::set<int>;

std::vector<int> inverse(const std::vector<int>& order) {
  std::vector<int> position(order.size());
  for (size_t i = 0; i < order.size(); ++i) position[order[i]] = static_cast<int>(i);
  return position;
}

// What the planner knows of the entries while it eliminates: which stay the numbers they were
// in A (a nonzero number on the diagonal is a pivot that can never vanish).
struct EntryState {
  std::set<std::pair<int, int>> constant;  ///< (row position, column position), nonzero numbers
  std::set<std::pair<int, int>> ones;      ///< those of them that are 1
  std::set<std::pair<int, int>> modified;  ///< entries an earlier step changed
  std::set<int> exchanged;                 ///< rows that took part in a row exchange
  bool fixed(int k) const {
    return constant.count({k, k}) && !modified.count({k, k}) && !exchanged.count(k);
  }
};

// The rows of one block while it is eliminated, with the column index of the same pattern:
// column_rows[j] holds the positions whose row holds j, so that a step finds its candidates
// without scanning the block.
struct EliminationPatterns {
  std::vector<RowPattern> rows;
  std::vector<std::set<int>> column_rows;

  void insert(int i, int j) {
    if (rows[i].insert(j).second) column_rows[j].insert(i);
  }
};

// One pivot step. With a pivot that may vanish, every row that may be chosen gets the union of
// the candidates' patterns (partial pivoting, George and Ng's bound); with a constant pivot the
// row stays in place and each row below only takes in the pivot row's pattern.
PivotStep eliminate(int k, EliminationPatterns& patterns, std::set<std::pair<int, int>>& stored,
                    EntryState& state) {
  std::vector<RowPattern>& rows = patterns.rows;
  PivotStep step;
  step.position = k;
  step.fixed_pivot = state.fixed(k);
  step.unit_pivot = step.fixed_pivot && state.ones.count({k, k});
  if (rows[k].count(k) == 0) throw std::logic_error("unmatched diagonal in the block form");
  RowPattern right(rows[k].upper_bound(k), rows[k].end());
  const std::set<int>& holders = patterns.column_rows[k];
  for (auto it = holders.lower_bound(k); it != holders.end(); ++it) {
    step.candidates.push_back(*it);
    if (!step.fixed_pivot) right.insert(rows[*it].upper_bound(k), rows[*it].end());
  }
  step.columns.assign(right.begin(), right.end());
  for (int i : step.candidates) {
    stored.insert({i, k});
    for (int j : right) stored.insert({i, j});
    if (i == k && step.fixed_pivot) continue;
    for (int j : right) patterns.insert(i, j);
    for (int j : right) state.modified.insert({i, j});
    if (!step.fixed_pivot && step.candidates.size() > 1) state.exchanged.insert(i);
  }
  return step;
}

// One diagonal block of A while its order is chosen: rows and columns by their offset in the
// block, each row's pattern growing with the fill of the pivots chosen so far.
struct BlockOrdering {
  explicit BlockOrdering(int size)
      : rows(size), column_rows(size), row_done(size, false), column_done(size, false) {}

  std::vector<RowPattern> rows;
  std::vector<std::set<int>> column_rows;   ///< the rows holding each column
  std::vector<std::pair<int, int>> pivots;  ///< (row, column) in the order chosen
  std::set<std::pair<int, int>> modified;   ///< entries a chosen pivot's elimination changed
  std::vector<bool> row_done, column_done;

  void insert(int r, int c) {
    rows[r].insert(c);
    column_rows[c].insert(r);
  }

  // Eliminates column `column` from the other open rows with the pivot row `row`.
  void choose(int row, int column) {
    pivots.push_back({row, column});
    row_done[row] = true;
    column_done[column] = true;
    std::set<int> holders = std::move(column_rows[column]);
    for (int r : holders) {
      if (row_done[r]) continue;
      rows[r].erase(column);
      for (int c : rows[row]) {
        if (column_done[c]) continue;
        insert(r, c);
        modified.insert({r, c});
      }
    }
  }
};

// Orders the positions of block [begin, end). Entries of A that are nonzero numbers (the 1 of a
// dummy variable's defining equation) are taken first as pivots, wherever they are: eliminating
// a dummy variable this way costs what substituting it would, and the pivot needs no search.
// Entries that are 1 go before the other numbers (a unit pivot needs no reciprocal and its
// multipliers no multiplication); taking the numbers in the rows' order alone made a block's
// pivots, and so its cost, depend on the order in which the model declared its equations.
// The rows and columns left are then matched on the pattern that remains after those
// eliminations (it has a perfect matching: eliminating nonzero pivots keeps A nonsingular) and
// put in bandwidth order.
// `offset` (one entry per column of `a`, all -1) is scratch, left as it was found.
void order_block(const SparsityPattern& a, const SparsityPattern& constant,
                 const SparsityPattern& ones, int begin, int end, BlockTriangularForm& blocks,
                 std::vector<int>& offset) {
  int size = end - begin;
  std::vector<int> rows(blocks.row_order.begin() + begin, blocks.row_order.begin() + end);
  std::vector<int> columns(blocks.col_order.begin() + begin, blocks.col_order.begin() + end);
  for (int k = 0; k < size; ++k) offset[columns[k]] = k;
  BlockOrdering block(size);
  for (int r = 0; r < size; ++r) {
    for (int column : a.row(rows[r])) {
      if (offset[column] >= 0) block.insert(r, offset[column]);
    }
  }
  for (const SparsityPattern* numbers : {&ones, &constant}) {
    for (int r = 0; r < size; ++r) {
      if (block.row_done[r]) continue;
      for (int column : a.row(rows[r])) {
        int c = offset[column];
        if (c < 0 || block.column_done[c] || !numbers->has(rows[r], column)) continue;
        if (block.modified.count({r, c}) || block.rows[r].count(c) == 0) continue;
        block.choose(r, c);
        break;
      }
    }
  }
  // The rest: a perfect matching of what remains, then reverse Cuthill-McKee on it.
  std::vector<int> open_rows, open_columns, open_offset(size, -1);
  for (int k = 0; k < size; ++k) {
    if (!block.row_done[k]) open_rows.push_back(k);
    if (block.column_done[k]) continue;
    open_offset[k] = static_cast<int>(open_columns.size());
    open_columns.push_back(k);
  }
  int rest = static_cast<int>(open_rows.size());
  std::vector<std::pair<int, int>> entries;
  for (int i = 0; i < rest; ++i) {
    for (int c : block.rows[open_rows[i]]) {
      if (open_offset[c] >= 0) entries.push_back({i, open_offset[c]});
    }
  }
  SparsityPattern remaining = SparsityPattern::from_entries(rest, rest, entries);
  Matching matching = maximum_matching(remaining);
  if (matching.size != rest) throw std::logic_error("a block of A is structurally singular");
  std::vector<std::set<int>> neighbours(rest);
  for (const auto& [i, j] : entries) {
    int other = matching.col_to_row[j];
    if (other == i) continue;
    neighbours[i].insert(other);
    neighbours[other].insert(i);
  }
  for (int i : bandwidth_order(neighbours)) {
    block.pivots.push_back({open_rows[i], open_columns[matching.row_to_col[i]]});
  }
  for (int k = 0; k < size; ++k) {
    blocks.row_order[begin + k] = rows[block.pivots[k].first];
    blocks.col_order[begin + k] = columns[block.pivots[k].second];
  }
  for (int column : columns) offset[column] = -1;
}

// The block triangular form with each block's positions ordered by order_block (the blocks and
// their order stay; only the pairing and order of rows and columns inside a block change).
BlockTriangularForm ordered(const SparsityPattern& a, const SparsityPattern& constant,
                            const SparsityPattern& ones, BlockTriangularForm blocks) {
  std::vector<int> offset(a.cols(), -1);
  for (int b = 0; b < blocks.block_count(); ++b) {
    int begin = blocks.block_start[b], end = blocks.block_start[b + 1];
    if (end - begin >= 2) order_block(a, constant, ones, begin, end, blocks, offset);
  }
  return blocks;
}

}  // namespace

LinearSolvePlan plan_linear_solve(const SparsityPattern& a, const BlockTriangularForm& form,
                                  const SparsityPattern& constant, const SparsityPattern& ones) {
  LinearSolvePlan plan;
  plan.size = a.rows();
  plan.blocks = ordered(a, constant, ones, form);
  const BlockTriangularForm& blocks = plan.blocks;
  std::vector<int> column_position = inverse(blocks.col_order);
  const std::vector<int> block_of = block_of_positions(blocks);
  std::set<std::pair<int, int>> stored;
  EntryState state;
  std::vector<int> row_position = inverse(blocks.row_order);
  for (const auto& [row, column] : constant.entries()) {
    state.constant.insert({row_position[row], column_position[column]});
  }
  for (const auto& [row, column] : ones.entries()) {
    state.ones.insert({row_position[row], column_position[column]});
  }
  EliminationPatterns patterns{std::vector<RowPattern>(plan.size),
                               std::vector<std::set<int>>(plan.size)};
  plan.earlier_columns.resize(plan.size);
  for (int i = 0; i < plan.size; ++i) {
    for (int column : a.row(blocks.row_order[i])) {
      int j = column_position[column];
      stored.insert({i, j});
      if (block_of[j] < block_of[i]) {
        plan.earlier_columns[i].push_back(j);
      } else if (block_of[j] == block_of[i]) {
        patterns.insert(i, j);
      } else {
        throw std::logic_error("entry above the diagonal blocks");
      }
    }
  }
  for (int b = 0; b < blocks.block_count(); ++b) {
    int end = blocks.block_start[b + 1];
    for (int k = blocks.block_start[b]; k < end; ++k) {
      plan.steps.push_back(eliminate(k, patterns, stored, state));
    }
  }
  plan.storage.assign(stored.begin(), stored.end());
  for (size_t s = 0; s < plan.storage.size(); ++s) {
    plan.index_[plan.storage[s]] = static_cast<int>(s);
  }
  return plan;
}

size_t lu_operation_count(const LinearSolvePlan& plan) {
  size_t operations = 0;
  for (const PivotStep& step : plan.steps) {
    size_t below = step.candidates.size() - 1;
    size_t divide = step.unit_pivot ? 0 : 1;  // 1/pivot, a multiplier, r[k] * 1/pivot
    operations += divide + below * (divide + 2 * step.columns.size());
    operations += 2 * below;                         // forward substitution
    operations += divide + 2 * step.columns.size();  // back substitution
  }
  for (const std::vector<int>& earlier : plan.earlier_columns) operations += 2 * earlier.size();
  return operations;
}

SolveOperations solve_operations(const LinearSolvePlan& plan) {
  SolveOperations result;
  auto& ops = result.ops;
  size_t first_step = 0;
  for (int b = 0; b < plan.blocks.block_count(); ++b) {
    int begin = plan.blocks.block_start[b], end = plan.blocks.block_start[b + 1];
    for (int i = begin; i < end; ++i) {
      for (int j : plan.earlier_columns[i]) ops.push_back({i, plan.index(i, j), j});
    }
    size_t last_step = first_step + static_cast<size_t>(end - begin);
    for (size_t s = first_step; s < last_step; ++s) {
      const PivotStep& step = plan.steps[s];
      if (step.candidates.size() == 1) continue;
      if (!step.fixed_pivot) ops.push_back({step.position, -1, 0});
      for (size_t c = 1; c < step.candidates.size(); ++c) {
        int i = step.candidates[c];
        ops.push_back({i, plan.index(i, step.position), step.position});
      }
    }
    for (size_t s = last_step; s-- > first_step;) {
      const PivotStep& step = plan.steps[s];
      int k = step.position;
      for (int j : step.columns) ops.push_back({k, plan.index(k, j), j});
      if (!step.unit_pivot) ops.push_back({k, -2 - plan.index(k, k), 0});
    }
    first_step = last_step;
    result.block_start.push_back(static_cast<int>(ops.size()));
  }
  return result;
}

}  // namespace daec
