// Patterns of the generated Jacobians.
#include "codegen/jacobian_structure.h"

#include <algorithm>

namespace daec {

int ColumnPattern::find(int row, int column) const {
  auto first = rowval.begin() + colptr[column], last = rowval.begin() + colptr[column + 1];
  auto it = std::lower_bound(first, last, row);
  return it != last && *it == row ? static_cast<int>(it - rowval.begin()) : -1;
}

ColumnPattern column_pattern(const SparsityPattern& pattern) {
  SparsityPattern by_columns = pattern.transposed();
  ColumnPattern result;
  result.rows = pattern.rows();
  for (int j = 0; j < by_columns.rows(); ++j) {
    for (int i : by_columns.row(j)) result.rowval.push_back(i);
    result.colptr.push_back(result.nonzeros());
  }
  return result;
}

ColumnPattern residual_iteration_pattern(const SystemPatterns& p) {
  int n = p.F_X.rows(), m = p.A.rows();
  std::vector<std::pair<int, int>> entries;
  for (int i = 0; i < n; ++i) {
    entries.push_back({i, i});
    for (int j : p.F_X.row(i)) entries.push_back({i, j});
    for (int c : p.F_Z.row(i)) entries.push_back({i, n + c});
  }
  for (int k = 0; k < m; ++k) {
    for (int j : p.g_X.row(k)) entries.push_back({n + k, j});
    for (int c : p.A.row(k)) entries.push_back({n + k, n + c});
  }
  return column_pattern(SparsityPattern::from_entries(n + m, n + m, entries));
}

namespace {

// The solve order of A: the block of each position, and each constraint's position.
struct BlockIndex {
  std::vector<int> block_of_position, position_of_row;

  explicit BlockIndex(const LinearSolvePlan& plan)
      : block_of_position(block_of_positions(plan.blocks)), position_of_row(plan.size) {
    for (int i = 0; i < plan.size; ++i) position_of_row[plan.blocks.row_order[i]] = i;
  }
  int block_of_row(int row) const { return block_of_position[position_of_row[row]]; }
};

// Consecutive blocks of a sorted list as runs [begin, end).
std::vector<std::pair<int, int>> runs_of(const std::vector<int>& sorted) {
  std::vector<std::pair<int, int>> runs;
  for (int b : sorted) {
    if (!runs.empty() && runs.back().second == b) {
      ++runs.back().second;
    } else {
      runs.push_back({b, b + 1});
    }
  }
  return runs;
}

}  // namespace

AlgebraicReach algebraic_reach(const SystemPatterns& patterns, const LinearSolvePlan& plan,
                               size_t limit) {
  BlockIndex index(plan);
  int block_count = plan.blocks.block_count();
  std::vector<std::vector<int>> dependents(block_count);  // block b -> blocks that read it
  for (int i = 0; i < plan.size; ++i) {
    for (int j : plan.earlier_columns[i])
      dependents[index.block_of_position[j]].push_back(index.block_of_position[i]);
  }
  for (auto& list : dependents) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  ColumnPattern g_X = column_pattern(patterns.g_X);
  AlgebraicReach reach;
  std::vector<int> seen(block_count, -1);
  size_t work = 0;
  for (int j = 0; j < g_X.cols() && reach.exact; ++j) {
    std::vector<int> reached;
    for (int e = g_X.colptr[j]; e < g_X.colptr[j + 1]; ++e) {
      int b = index.block_of_row(g_X.rowval[e]);
      if (seen[b] != j) seen[b] = j, reached.push_back(b);
    }
    for (size_t head = 0; head < reached.size() && work <= limit; ++head, ++work) {
      for (int c : dependents[reached[head]]) {
        if (seen[c] != j) seen[c] = j, reached.push_back(c);
      }
    }
    std::sort(reached.begin(), reached.end());
    reach.runs.push_back(runs_of(reached));
    reach.exact = work <= limit;
  }
  if (reach.exact) return reach;
  reach.runs.assign(g_X.cols(), {});
  for (int j = 0; j < g_X.cols(); ++j) {
    int first = block_count;
    for (int e = g_X.colptr[j]; e < g_X.colptr[j + 1]; ++e)
      first = std::min(first, index.block_of_row(g_X.rowval[e]));
    if (first < block_count) reach.runs[j].push_back({first, block_count});
  }
  return reach;
}

std::optional<ColumnPattern> rhs_jacobian_pattern(const SystemPatterns& patterns,
                                                  const LinearSolvePlan* plan,
                                                  const AlgebraicReach* reach, size_t limit) {
  int n = patterns.F_X.rows();
  ColumnPattern F_X = column_pattern(patterns.F_X);
  // The rows of F that hold an unknown of each block.
  std::vector<std::vector<int>> rows_of_block;
  if (plan) {
    rows_of_block.resize(plan->blocks.block_count());
    std::vector<int> block_of_column(plan->size);
    for (int b = 0; b < plan->blocks.block_count(); ++b) {
      for (int i = plan->blocks.block_start[b]; i < plan->blocks.block_start[b + 1]; ++i)
        block_of_column[plan->blocks.col_order[i]] = b;
    }
    for (int i = 0; i < n; ++i) {
      for (int c : patterns.F_Z.row(i)) rows_of_block[block_of_column[c]].push_back(i);
    }
    for (auto& rows : rows_of_block) rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  }
  ColumnPattern result;
  result.rows = n;
  std::vector<int> seen(n, -1);
  for (int j = 0; j < F_X.cols(); ++j) {
    std::vector<int> rows;
    auto add = [&](int i) {
      if (seen[i] != j) seen[i] = j, rows.push_back(i);
    };
    for (int e = F_X.colptr[j]; e < F_X.colptr[j + 1]; ++e) add(F_X.rowval[e]);
    if (reach) {
      for (const auto& [begin, end] : reach->runs[j]) {
        for (int b = begin; b < end; ++b) {
          for (int i : rows_of_block[b]) add(i);
          if (result.rowval.size() + rows.size() > limit) return std::nullopt;
        }
      }
    }
    if (result.rowval.size() + rows.size() > limit) return std::nullopt;
    std::sort(rows.begin(), rows.end());
    result.rowval.insert(result.rowval.end(), rows.begin(), rows.end());
    result.colptr.push_back(result.nonzeros());
  }
  return result;
}

}  // namespace daec
