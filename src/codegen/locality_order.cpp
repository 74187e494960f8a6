// Breadth-first order of assignments over the unknowns they share (see the header).
#include "codegen/locality_order.h"

#include <deque>
#include <unordered_map>
#include <utility>

namespace daec {

namespace {

// The assignments and the unknowns they share, numbered densely: readers[u] lists the
// assignments that read unknown u, and hubs (more readers than the limit) are left out of
// `reads`, so that a walk never follows them.
struct SharingGraph {
  std::vector<std::vector<int>> reads;
  std::vector<std::vector<size_t>> readers;

  SharingGraph(const std::vector<std::vector<int>>& uses, size_t hub_limit) : reads(uses.size()) {
    std::unordered_map<int, int> number;
    for (size_t i = 0; i < uses.size(); ++i) {
      for (int unknown : uses[i]) {
        auto [it, added] = number.emplace(unknown, static_cast<int>(readers.size()));
        if (added) readers.emplace_back();
        readers[it->second].push_back(i);
        reads[i].push_back(it->second);
      }
    }
    for (std::vector<int>& list : reads) {
      std::vector<int> kept;
      for (int u : list) {
        if (readers[u].size() <= hub_limit) kept.push_back(u);
      }
      list = std::move(kept);
    }
  }
};

// Breadth first from `start` through the assignments whose mark is not `pass`, marking each
// with it; an unknown's readers are queued once (`spent`). Returns the assignments in the order
// reached.
std::vector<size_t> walk(const SharingGraph& graph, size_t start, int pass, std::vector<int>& mark,
                         std::vector<int>& spent) {
  std::vector<size_t> reached;
  std::deque<size_t> queue{start};
  mark[start] = pass;
  while (!queue.empty()) {
    const size_t i = queue.front();
    queue.pop_front();
    reached.push_back(i);
    for (int u : graph.reads[i]) {
      if (spent[u] == pass) continue;
      spent[u] = pass;
      for (size_t j : graph.readers[u]) {
        if (mark[j] == pass) continue;
        mark[j] = pass;
        queue.push_back(j);
      }
    }
  }
  return reached;
}

}  // namespace

std::vector<size_t> locality_order(const std::vector<std::vector<int>>& uses, size_t hub_limit) {
  const SharingGraph graph(uses, hub_limit);
  std::vector<int> mark(uses.size(), -1), spent(graph.readers.size(), -1);
  std::vector<bool> placed(uses.size(), false);
  std::vector<size_t> order;
  order.reserve(uses.size());
  int pass = 0;
  for (size_t first = 0; first < uses.size(); ++first) {
    if (placed[first]) continue;
    // A walk from the first listed assignment ends at one of the farthest from it, an end of
    // the component (for a chain, one of its two ends): the walk from there is the order, the
    // same sweep whichever assignment happened to be listed first.
    const size_t end = walk(graph, first, pass++, mark, spent).back();
    for (size_t i : walk(graph, end, pass++, mark, spent)) {
      placed[i] = true;
      order.push_back(i);
    }
  }
  return order;
}

}  // namespace daec
