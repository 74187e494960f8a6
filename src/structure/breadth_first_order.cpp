// Cuthill-McKee from pseudo-peripheral nodes (see the header).
#include "structure/breadth_first_order.h"

#include <algorithm>
#include <cstddef>
#include <tuple>
#include <utility>

namespace daec {
namespace {

using Graph = std::vector<std::vector<int>>;

// The breadth-first levels from a root over the nodes not yet numbered: the nodes in visiting
// order and, beside each, its level.
struct Levels {
  std::vector<int> nodes;
  std::vector<int> level;
  int depth() const { return level.back() + 1; }
};

// Fills `levels` from root; `mark` is all false on entry and on return.
void levels_from(const Graph& neighbours, int root, const std::vector<bool>& numbered,
                 std::vector<bool>& mark, Levels& levels) {
  levels.nodes.assign(1, root);
  levels.level.assign(1, 0);
  mark[static_cast<size_t>(root)] = true;
  for (size_t head = 0; head < levels.nodes.size(); ++head) {
    for (int w : neighbours[static_cast<size_t>(levels.nodes[head])]) {
      if (numbered[static_cast<size_t>(w)] || mark[static_cast<size_t>(w)]) continue;
      mark[static_cast<size_t>(w)] = true;
      levels.nodes.push_back(w);
      levels.level.push_back(levels.level[head] + 1);
    }
  }
  for (int v : levels.nodes) mark[static_cast<size_t>(v)] = false;
}

// What a node looks like from where it is, for breaking ties without its number: its label,
// its degree, then the sum of its neighbours' degrees.
using Key = std::tuple<long, size_t, size_t>;

std::vector<Key> structural_keys(const Graph& neighbours, const std::vector<long>& labels) {
  std::vector<Key> keys(neighbours.size());
  for (size_t v = 0; v < neighbours.size(); ++v) {
    size_t around = 0;
    for (int w : neighbours[v]) around += neighbours[static_cast<size_t>(w)].size();
    keys[v] = {labels.empty() ? 0 : labels[v], neighbours[v].size(), around};
  }
  return keys;
}

// The nodes of the last level of `levels` whose key is the least, at most kMostEnds of them.
constexpr size_t kMostEnds = 8;
std::vector<int> least_in_last_level(const Levels& levels, const std::vector<Key>& keys) {
  std::vector<int> least;
  const int last = levels.level.back();
  for (size_t k = 0; k < levels.nodes.size(); ++k) {
    if (levels.level[k] != last) continue;
    const int v = levels.nodes[k];
    if (!least.empty() && keys[static_cast<size_t>(v)] < keys[static_cast<size_t>(least[0])])
      least.clear();
    if (least.empty() || keys[static_cast<size_t>(v)] == keys[static_cast<size_t>(least[0])])
      least.push_back(v);
  }
  std::sort(least.begin(), least.end());
  if (least.size() > kMostEnds) least.resize(kMostEnds);
  return least;
}

// The shape of the levels from a node: per level its width and the sum of its degrees.
using Width = std::pair<size_t, size_t>;
std::vector<Width> profile(const Levels& levels, const Graph& neighbours) {
  std::vector<Width> shape(static_cast<size_t>(levels.depth()));
  for (size_t k = 0; k < levels.nodes.size(); ++k) {
    Width& entry = shape[static_cast<size_t>(levels.level[k])];
    ++entry.first;
    entry.second += neighbours[static_cast<size_t>(levels.nodes[k])].size();
  }
  return shape;
}

// The node a component is numbered from. George and Liu's pseudo-peripheral node (from the seed,
// move to a least node of the last level while that makes the levels deeper) is one end of the
// component, but which end, and which of the nodes there, depends on where the seed lies, and so
// on the numbers. Of the least nodes at both ends, the one whose levels are deepest, then
// narrowest first (by their profile), is taken: the same end and node in any numbering unless
// the component looks the same from both.
int start_node(const Graph& neighbours, const std::vector<Key>& keys, int seed,
               const std::vector<bool>& numbered, std::vector<bool>& mark) {
  Levels from_root, from_candidate;
  int root = seed;
  levels_from(neighbours, root, numbered, mark, from_root);
  for (;;) {
    const int candidate = least_in_last_level(from_root, keys).front();
    levels_from(neighbours, candidate, numbered, mark, from_candidate);
    if (from_candidate.depth() <= from_root.depth()) break;
    root = candidate;
    std::swap(from_root, from_candidate);
  }
  std::vector<int> ends = least_in_last_level(from_root, keys);  // the far end
  levels_from(neighbours, ends.front(), numbered, mark, from_candidate);
  for (int v : least_in_last_level(from_candidate, keys)) ends.push_back(v);  // root's end
  ends.push_back(root);
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  int best = -1;
  std::vector<Width> best_profile;
  for (int v : ends) {
    levels_from(neighbours, v, numbered, mark, from_candidate);
    std::vector<Width> shape = profile(from_candidate, neighbours);
    const bool better = best < 0 || shape.size() > best_profile.size() ||
                        (shape.size() == best_profile.size() &&
                         std::make_pair(shape, keys[static_cast<size_t>(v)]) <
                             std::make_pair(best_profile, keys[static_cast<size_t>(best)]));
    if (better) best = v, best_profile = std::move(shape);
  }
  return best;
}

}  // namespace

std::vector<int> breadth_first_order(const Graph& neighbours, const std::vector<long>& labels) {
  const size_t size = neighbours.size();
  const std::vector<Key> keys = structural_keys(neighbours, labels);
  auto by_structure_then_number = [&](int a, int b) {
    const Key& ka = keys[static_cast<size_t>(a)];
    const Key& kb = keys[static_cast<size_t>(b)];
    return ka != kb ? ka < kb : a < b;
  };
  std::vector<int> seeds(size);
  for (size_t v = 0; v < size; ++v) seeds[v] = static_cast<int>(v);
  std::sort(seeds.begin(), seeds.end(), by_structure_then_number);
  std::vector<bool> numbered(size, false), mark(size, false);
  std::vector<int> order, next;
  order.reserve(size);
  for (int seed : seeds) {
    if (numbered[static_cast<size_t>(seed)]) continue;
    const int start = start_node(neighbours, keys, seed, numbered, mark);
    numbered[static_cast<size_t>(start)] = true;
    order.push_back(start);
    for (size_t head = order.size() - 1; head < order.size(); ++head) {
      next.clear();
      for (int w : neighbours[static_cast<size_t>(order[head])])
        if (!numbered[static_cast<size_t>(w)]) next.push_back(w);
      std::sort(next.begin(), next.end(), by_structure_then_number);
      for (int w : next) {
        numbered[static_cast<size_t>(w)] = true;
        order.push_back(w);
      }
    }
  }
  return order;
}

}  // namespace daec
