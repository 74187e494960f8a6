// Tests of the structural numbering (structure/breadth_first_order.h): a permutation; a path
// numbered from one end whatever its nodes' numbers, and a path with a distinguishable end
// numbered the same way in every numbering; a ladder numbered rung by rung; components one after
// the other; a star from a leaf.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <utility>
#include <vector>

#include "structure/breadth_first_order.h"

namespace daec {
namespace {

using Graph = std::vector<std::vector<int>>;

// The graph of `size` nodes with these edges, node v renamed label[v].
Graph graph(int size, const std::vector<std::pair<int, int>>& edges,
            const std::vector<int>& label) {
  Graph g(static_cast<size_t>(size));
  for (const auto& [u, v] : edges) {
    g[static_cast<size_t>(label[static_cast<size_t>(u)])].push_back(label[static_cast<size_t>(v)]);
    g[static_cast<size_t>(label[static_cast<size_t>(v)])].push_back(label[static_cast<size_t>(u)]);
  }
  for (auto& list : g) std::sort(list.begin(), list.end());
  return g;
}

// A fixed scrambling of 0 .. size - 1 (multiplication by a unit modulo a prime size).
std::vector<int> scrambled(int size, int step) {
  std::vector<int> label(static_cast<size_t>(size));
  for (int v = 0; v < size; ++v) label[static_cast<size_t>(v)] = (v * step) % size;
  return label;
}

std::vector<int> identity(int size) {
  std::vector<int> label(static_cast<size_t>(size));
  std::iota(label.begin(), label.end(), 0);
  return label;
}

// order mapped back through `label`: which original node each place holds.
std::vector<int> unlabelled(const std::vector<int>& order, const std::vector<int>& label) {
  std::vector<int> original(label.size());
  for (size_t v = 0; v < label.size(); ++v)
    original[static_cast<size_t>(label[v])] = static_cast<int>(v);
  std::vector<int> result;
  for (int node : order) result.push_back(original[static_cast<size_t>(node)]);
  return result;
}

bool is_permutation_of_nodes(std::vector<int> order, size_t size) {
  std::sort(order.begin(), order.end());
  return order == identity(static_cast<int>(size));
}

TEST(BreadthFirstOrder, EmptyGraph) {
  EXPECT_TRUE(breadth_first_order({}).empty());
}

TEST(BreadthFirstOrder, APathIsNumberedFromOneEndWhateverItsNumbers) {
  constexpr int kSize = 31;  // prime: every step below scrambles
  std::vector<std::pair<int, int>> edges;
  for (int v = 0; v + 1 < kSize; ++v) edges.emplace_back(v, v + 1);
  for (int step : {1, 3, 7, 12}) {
    SCOPED_TRACE(step);
    const std::vector<int> label = scrambled(kSize, step);
    const std::vector<int> order = breadth_first_order(graph(kSize, edges, label));
    ASSERT_TRUE(is_permutation_of_nodes(order, kSize));
    const std::vector<int> walk = unlabelled(order, label);
    // From one end to the other: each node next to the one before.
    EXPECT_TRUE(walk.front() == 0 || walk.front() == kSize - 1) << walk.front();
    for (size_t k = 1; k < walk.size(); ++k) EXPECT_EQ(1, std::abs(walk[k] - walk[k - 1]));
  }
}

// A ladder of 2 x 20 nodes (rungs 2k -- 2k + 1, rails 2k -- 2k + 2 and 2k + 1 -- 2k + 3), as a
// chain of bodies of two variables: whatever the numbers, each rung's nodes come one after the
// other, the rungs from one end to the other.
TEST(BreadthFirstOrder, ALadderIsNumberedRungByRung) {
  constexpr int kRungs = 20, kSize = 2 * kRungs;
  std::vector<std::pair<int, int>> edges;
  for (int k = 0; k < kRungs; ++k) {
    edges.emplace_back(2 * k, 2 * k + 1);
    if (k + 1 < kRungs) {
      edges.emplace_back(2 * k, 2 * k + 2);
      edges.emplace_back(2 * k + 1, 2 * k + 3);
    }
  }
  std::vector<int> label = identity(kSize);
  std::reverse(label.begin(), label.end());
  for (const std::vector<int>& numbers : {identity(kSize), label}) {
    const std::vector<int> walk =
        unlabelled(breadth_first_order(graph(kSize, edges, numbers)), numbers);
    ASSERT_TRUE(is_permutation_of_nodes(walk, kSize));
    const int first_rung = walk[0] / 2;
    EXPECT_TRUE(first_rung == 0 || first_rung == kRungs - 1);
    for (size_t k = 0; k < walk.size(); k += 2) {
      EXPECT_EQ(walk[k] / 2, walk[k + 1] / 2) << "place " << k;
      EXPECT_EQ(static_cast<int>(k / 2), std::abs(walk[k] / 2 - first_rung)) << "place " << k;
    }
  }
}

// A path 0 - 1 - ... - 11 with a leaf 12 on node 1: its two ends look different, and it is
// numbered the same way, from the same end, whatever its nodes' numbers.
TEST(BreadthFirstOrder, AnUnevenPathIsNumberedTheSameWayInEveryNumbering) {
  constexpr int kSize = 13;  // prime: every step below scrambles
  std::vector<std::pair<int, int>> edges = {{1, 12}};
  for (int v = 0; v + 1 < 12; ++v) edges.emplace_back(v, v + 1);
  const std::vector<int> expected =
      unlabelled(breadth_first_order(graph(kSize, edges, identity(kSize))), identity(kSize));
  for (int step : {2, 5, 7, 11}) {
    SCOPED_TRACE(step);
    const std::vector<int> label = scrambled(kSize, step);
    EXPECT_EQ(expected, unlabelled(breadth_first_order(graph(kSize, edges, label)), label));
  }
}

TEST(BreadthFirstOrder, ComponentsComeOneAfterTheOther) {
  // A path 0-1-2 and a path 3-4-5-6, interleaved numbers, and a lone node 7.
  const Graph g = graph(8, {{0, 1}, {1, 2}, {3, 4}, {4, 5}, {5, 6}}, {0, 2, 4, 1, 3, 5, 6, 7});
  const std::vector<int> order = breadth_first_order(g);
  ASSERT_TRUE(is_permutation_of_nodes(order, 8));
  // The lone node has the least degree: it comes first, then the component of node 0 (whose
  // end, 0, is the lowest of the least-degree nodes left), then the other.
  EXPECT_EQ((std::vector<int>{7, 0, 2, 4, 1, 3, 5, 6}), order);
}

TEST(BreadthFirstOrder, AStarStartsAtALeaf) {
  // Node 0 joined to 1 .. 5: from leaf 1 the centre, then the other leaves by number.
  const Graph g = graph(6, {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}}, identity(6));
  EXPECT_EQ((std::vector<int>{1, 0, 2, 3, 4, 5}), breadth_first_order(g));
}

}  // namespace
}  // namespace daec
