// Unit tests of locality_order: breadth first over shared unknowns, hubs ignored, every
// assignment once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "codegen/locality_order.h"

namespace daec {
namespace {

// A chain of assignments, the k-th reading unknowns k and k + 1, listed in a scrambled order:
// the breadth-first order walks along the chain from the first listed, so that each assignment
// after the first shares an unknown with one placed before it (the list order does not).
TEST(LocalityOrder, WalksAChainWhateverTheListOrder) {
  const std::vector<int> chain_position = {7, 2, 9, 0, 5, 3, 8, 1, 6, 4};
  std::vector<std::vector<int>> uses;
  for (int k : chain_position) uses.push_back({k, k + 1});
  std::vector<size_t> order = locality_order(uses, 64);
  ASSERT_EQ(uses.size(), order.size());
  std::vector<size_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) EXPECT_EQ(i, sorted[i]);
  EXPECT_EQ(0u, order[0]);  // starts from the first listed
  for (size_t i = 1; i < order.size(); ++i) {
    const int here = chain_position[order[i]];
    bool touches_placed = false;
    for (size_t j = 0; j < i; ++j) touches_placed |= std::abs(chain_position[order[j]] - here) == 1;
    EXPECT_TRUE(touches_placed) << "position " << i;
  }
}

// An unknown every assignment reads (a parameter-like hub) does not make them neighbours: the
// order stays the list order where nothing else links them.
TEST(LocalityOrder, AHubLinksNothing) {
  std::vector<std::vector<int>> uses = {{100, 1}, {100, 2}, {100, 3}, {100, 1}};
  EXPECT_EQ((std::vector<size_t>{0, 3, 1, 2}), locality_order(uses, 2));
  EXPECT_EQ((std::vector<size_t>{0, 1, 2, 3}), locality_order(uses, 64));
}

// Assignments that read no unknown, and separate components, keep their list order.
TEST(LocalityOrder, ComponentsInListOrder) {
  std::vector<std::vector<int>> uses = {{}, {5}, {}, {6}, {5}};
  EXPECT_EQ((std::vector<size_t>{0, 1, 4, 2, 3}), locality_order(uses, 64));
  EXPECT_TRUE(locality_order({}, 64).empty());
}

}  // namespace
}  // namespace daec
