// Breadth-first order of assignments over the unknowns they share (see the header).
#include "codegen/locality_order.h"

#include <algorithm>
#include <deque>
#include <unordered_map>

namespace daec {

std::vector<size_t> locality_order(const std::vector<std::vector<int>>& uses, size_t hub_limit) {
  std::unordered_map<int, std::vector<size_t>> readers;
  for (size_t i = 0; i < uses.size(); ++i)
    for (int unknown : uses[i]) readers[unknown].push_back(i);
  std::vector<size_t> order;
  order.reserve(uses.size());
  std::vector<bool> placed(uses.size(), false);
  std::deque<size_t> queue;
  for (size_t start = 0; start < uses.size(); ++start) {
    if (placed[start]) continue;
    placed[start] = true;
    queue.push_back(start);
    while (!queue.empty()) {
      const size_t i = queue.front();
      queue.pop_front();
      order.push_back(i);
      for (int unknown : uses[i]) {
        std::vector<size_t>& next = readers[unknown];
        if (next.size() > hub_limit) continue;
        for (size_t j : next) {
          if (placed[j]) continue;
          placed[j] = true;
          queue.push_back(j);
        }
        next.clear();  // every reader is placed or queued: the list is spent
      }
    }
  }
  return order;
}

}  // namespace daec
