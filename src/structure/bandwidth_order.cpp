// Reverse Cuthill-McKee (see the header).
#include "structure/bandwidth_order.h"

#include <algorithm>

namespace daec {

std::vector<int> bandwidth_order(const std::vector<std::set<int>>& neighbours) {
  int size = static_cast<int>(neighbours.size());
  auto degree = [&](int v) { return neighbours[v].size(); };
  std::vector<int> order;
  std::vector<bool> seen(size, false);
  // An unvisited node of least degree (the lowest of them) starts the next component.
  std::vector<int> by_degree(size);
  for (int v = 0; v < size; ++v) by_degree[v] = v;
  std::stable_sort(by_degree.begin(), by_degree.end(),
                   [&](int x, int y) { return degree(x) < degree(y); });
  size_t next_start = 0;
  while (static_cast<int>(order.size()) < size) {
    while (seen[by_degree[next_start]]) ++next_start;
    int start = by_degree[next_start];
    seen[start] = true;
    for (size_t head = order.size(), tail = (order.push_back(start), order.size()); head < tail;
         tail = order.size()) {
      for (; head < tail; ++head) {
        std::vector<int> next;
        for (int w : neighbours[order[head]]) {
          if (!seen[w]) next.push_back(w), seen[w] = true;
        }
        std::stable_sort(next.begin(), next.end(),
                         [&](int x, int y) { return degree(x) < degree(y); });
        order.insert(order.end(), next.begin(), next.end());
      }
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

}  // namespace daec
