// Blocks of A in locality order, dependencies first (see the header).
#include "codegen/block_order.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

#include "codegen/locality_order.h"

namespace daec {

namespace {

// For each block, the earlier blocks its rows refer to (each once).
std::vector<std::vector<int>> block_dependencies(const SparsityPattern& a,
                                                 const BlockTriangularForm& form,
                                                 const std::vector<int>& block_of) {
  std::vector<int> column_block(a.cols());
  for (size_t i = 0; i < form.col_order.size(); ++i) column_block[form.col_order[i]] = block_of[i];
  std::vector<std::vector<int>> needs(form.block_count());
  for (size_t i = 0; i < form.row_order.size(); ++i) {
    for (int column : a.row(form.row_order[i])) {
      if (column_block[column] != block_of[i]) needs[block_of[i]].push_back(column_block[column]);
    }
  }
  for (std::vector<int>& list : needs) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  return needs;
}

}  // namespace

BlockTriangularForm blocks_in_locality_order(const SparsityPattern& a,
                                             const BlockTriangularForm& form,
                                             const std::vector<std::vector<int>>& row_uses,
                                             size_t hub_limit) {
  const int count = form.block_count();
  const std::vector<int> block_of = block_of_positions(form);
  std::vector<std::vector<int>> uses(count);
  for (size_t i = 0; i < form.row_order.size(); ++i) {
    const std::vector<int>& row = row_uses[form.row_order[i]];
    uses[block_of[i]].insert(uses[block_of[i]].end(), row.begin(), row.end());
  }
  for (std::vector<int>& list : uses) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  std::vector<int> rank(count);
  const std::vector<size_t> locality = locality_order(uses, hub_limit);
  for (size_t k = 0; k < locality.size(); ++k) rank[locality[k]] = static_cast<int>(k);
  // Kahn's algorithm, the ready block of least rank first.
  const std::vector<std::vector<int>> needs = block_dependencies(a, form, block_of);
  std::vector<std::vector<int>> needed_by(count);
  std::vector<int> waiting(count);
  for (int b = 0; b < count; ++b) {
    waiting[b] = static_cast<int>(needs[b].size());
    for (int c : needs[b]) needed_by[c].push_back(b);
  }
  using Ranked = std::pair<int, int>;  // (rank, block)
  std::priority_queue<Ranked, std::vector<Ranked>, std::greater<Ranked>> ready;
  for (int b = 0; b < count; ++b) {
    if (waiting[b] == 0) ready.push({rank[b], b});
  }
  BlockTriangularForm result;
  while (!ready.empty()) {
    const int b = ready.top().second;
    ready.pop();
    for (int i = form.block_start[b]; i < form.block_start[b + 1]; ++i) {
      result.row_order.push_back(form.row_order[i]);
      result.col_order.push_back(form.col_order[i]);
    }
    result.block_start.push_back(static_cast<int>(result.row_order.size()));
    for (int later : needed_by[b]) {
      if (--waiting[later] == 0) ready.push({rank[later], later});
    }
  }
  return result;
}

}  // namespace daec
