// Tests of the bandwidth-reducing order (structure/bandwidth_order.h): a permutation, the known
// bandwidth of permuted banded patterns, no fill-in on an arrow, components kept together.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include "structure/bandwidth_order.h"

namespace daec {
namespace {

using Graph = std::vector<std::set<int>>;

// The graph of `size` nodes with these edges, node v renamed label[v].
Graph graph(int size, const std::vector<std::pair<int, int>>& edges,
            const std::vector<int>& label) {
  Graph g(size);
  for (const auto& [u, v] : edges) {
    g[label[u]].insert(label[v]);
    g[label[v]].insert(label[u]);
  }
  return g;
}

// A fixed scrambling of 0 .. size - 1 (multiplication by a unit modulo a prime size).
std::vector<int> scrambled(int size, int step) {
  std::vector<int> label(size);
  for (int v = 0; v < size; ++v) label[v] = (v * step) % size;
  return label;
}

std::vector<int> identity(int size) {
  std::vector<int> label(size);
  std::iota(label.begin(), label.end(), 0);
  return label;
}

// Edges of the band |i - j| <= width on `size` nodes.
std::vector<std::pair<int, int>> band(int size, int width) {
  std::vector<std::pair<int, int>> edges;
  for (int i = 0; i < size; ++i)
    for (int j = i + 1; j <= std::min(size - 1, i + width); ++j) edges.push_back({i, j});
  return edges;
}

bool is_permutation(const std::vector<int>& order, int size) {
  std::vector<int> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  return sorted == identity(size);
}

// The largest |position(u) - position(v)| over the edges.
int bandwidth(const Graph& g, const std::vector<int>& order) {
  std::vector<int> position(order.size());
  for (size_t i = 0; i < order.size(); ++i) position[order[i]] = static_cast<int>(i);
  int width = 0;
  for (size_t u = 0; u < g.size(); ++u)
    for (int v : g[u]) width = std::max(width, std::abs(position[u] - position[v]));
  return width;
}

// The edges that symmetric elimination in `order` adds (fill-in).
int fill_in(Graph g, const std::vector<int>& order) {
  std::vector<bool> done(g.size(), false);
  int fill = 0;
  for (int v : order) {
    done[v] = true;
    std::vector<int> later;
    for (int w : g[v])
      if (!done[w]) later.push_back(w);
    for (size_t a = 0; a < later.size(); ++a)
      for (size_t b = a + 1; b < later.size(); ++b)
        if (g[later[a]].insert(later[b]).second) {
          g[later[b]].insert(later[a]);
          ++fill;
        }
  }
  return fill;
}

TEST(BandwidthOrdering, EmptyAndSingleNode) {
  EXPECT_TRUE(bandwidth_order({}).empty());
  EXPECT_EQ(bandwidth_order(Graph(1)), std::vector<int>{0});
}

TEST(BandwidthOrdering, PathIsNumberedFromAnEndTiesToTheLowerNode) {
  // 0 - 1 - 2 - 3: both ends have degree 1, the lower starts; reversed.
  EXPECT_EQ(bandwidth_order(graph(4, band(4, 1), identity(4))), (std::vector<int>{3, 2, 1, 0}));
}

TEST(BandwidthOrdering, ScrambledTridiagonalGetsBandwidthOne) {
  const int size = 31;  // prime: every step below is a permutation
  for (int step : {1, 3, 7, 12, 30}) {
    Graph g = graph(size, band(size, 1), scrambled(size, step));
    std::vector<int> order = bandwidth_order(g);
    ASSERT_TRUE(is_permutation(order, size)) << step;
    EXPECT_GT(bandwidth(g, identity(size)), step == 1 || step == 30 ? 0 : 1) << step;
    EXPECT_EQ(bandwidth(g, order), 1) << step;
    EXPECT_EQ(fill_in(g, order), 0) << step;
  }
}

TEST(BandwidthOrdering, ScrambledPentadiagonalGetsBandwidthTwo) {
  const int size = 23;
  for (int step : {5, 11}) {
    Graph g = graph(size, band(size, 2), scrambled(size, step));
    std::vector<int> order = bandwidth_order(g);
    ASSERT_TRUE(is_permutation(order, size)) << step;
    EXPECT_EQ(bandwidth(g, order), 2) << step;
  }
}

// An arrow (one node coupled to all others, a star): no order has bandwidth below half the
// leaves, and Cuthill-McKee does not reach that: it numbers the hub next to last. What it does
// give is an elimination without fill, which is what the linear solve needs.
TEST(BandwidthOrdering, ArrowIsEliminatedWithoutFill) {
  const int size = 9, hub = 4;
  std::vector<std::pair<int, int>> edges;
  for (int v = 0; v < size; ++v)
    if (v != hub) edges.push_back({hub, v});
  Graph g = graph(size, edges, identity(size));
  std::vector<int> order = bandwidth_order(g);
  ASSERT_TRUE(is_permutation(order, size));
  EXPECT_EQ(order[size - 2], hub);
  EXPECT_EQ(fill_in(g, order), 0);
  EXPECT_EQ(bandwidth(g, order), size - 2);  // the minimum would be (size - 1) / 2 = 4
  // The natural order, hub in the middle, has the minimal bandwidth but fills completely.
  EXPECT_EQ(bandwidth(g, identity(size)), 4);
  EXPECT_EQ(fill_in(g, identity(size)), 6);
}

TEST(BandwidthOrdering, ComponentsStayContiguous) {
  // Two scrambled paths (4 and 5 nodes) and an isolated node, interleaved in numbering.
  std::vector<int> label = {0, 2, 4, 6, 1, 3, 5, 7, 8, 9};
  std::vector<std::pair<int, int>> edges = {{0, 1}, {1, 2}, {2, 3}, {4, 5}, {5, 6}, {6, 7}, {7, 8}};
  Graph g = graph(10, edges, label);
  std::vector<int> order = bandwidth_order(g);
  ASSERT_TRUE(is_permutation(order, 10));
  EXPECT_EQ(bandwidth(g, order), 1);
  EXPECT_EQ(fill_in(g, order), 0);
}

TEST(BandwidthOrdering, LadderGetsItsMinimalBandwidth) {
  // Two rails of 8 nodes joined by rungs (2 x 8 grid): the minimal bandwidth is 2.
  const int length = 8;
  std::vector<std::pair<int, int>> edges;
  for (int i = 0; i < length; ++i) {
    edges.push_back({i, length + i});
    if (i + 1 < length) edges.push_back({i, i + 1}), edges.push_back({length + i, length + i + 1});
  }
  Graph g = graph(2 * length, edges, scrambled(2 * length, 5));
  std::vector<int> order = bandwidth_order(g);
  ASSERT_TRUE(is_permutation(order, 2 * length));
  EXPECT_EQ(bandwidth(g, order), 2);
}

}  // namespace
}  // namespace daec
