// Unit tests of locality_order: breadth first over shared unknowns, hubs ignored, every
// assignment once.
#include <gtest/gtest.h>

#include <vector>

#include "codegen/locality_order.h"

namespace daec {
namespace {

// The uses of a chain's links listed in the order `chain_position`: link k reads unknowns k and
// k + 1.
std::vector<std::vector<int>> chain_uses(const std::vector<int>& chain_position) {
  std::vector<std::vector<int>> uses;
  for (int k : chain_position) uses.push_back({k, k + 1});
  return uses;
}

// A chain of assignments, the k-th reading unknowns k and k + 1, listed in a scrambled order:
// the order sweeps the chain from one end to the other, whichever link is listed first.
TEST(LocalityOrder, SweepsAChainFromAnEndWhateverTheListOrder) {
  const std::vector<int> chain_position = {7, 2, 9, 0, 5, 3, 8, 1, 6, 4};
  std::vector<size_t> order = locality_order(chain_uses(chain_position), 64);
  ASSERT_EQ(chain_position.size(), order.size());
  // The first listed link, 7, is nearer the end 9: the sweep starts from the far end, 0.
  for (size_t i = 0; i < order.size(); ++i)
    EXPECT_EQ(static_cast<int>(i), chain_position[order[i]]);
}

// The same chain listed from its middle, in both directions: the same sweep, up to direction.
TEST(LocalityOrder, AChainListedFromItsMiddleIsSweptFromAnEnd) {
  const std::vector<int> chain_position = {5, 4, 6, 3, 7, 2, 8, 1, 9, 0};
  std::vector<size_t> order = locality_order(chain_uses(chain_position), 64);
  ASSERT_EQ(chain_position.size(), order.size());
  const int first = chain_position[order[0]];
  ASSERT_TRUE(first == 0 || first == 9) << first;
  for (size_t i = 0; i < order.size(); ++i) {
    const int expected = first == 0 ? static_cast<int>(i) : 9 - static_cast<int>(i);
    EXPECT_EQ(expected, chain_position[order[i]]) << "position " << i;
  }
}

// An unknown every assignment reads (a parameter-like hub) does not make them neighbours: the
// components it would join stay in the list order of their first assignments.
TEST(LocalityOrder, AHubLinksNothing) {
  std::vector<std::vector<int>> uses = {{100, 1}, {100, 2}, {100, 3}, {100, 1}};
  EXPECT_EQ((std::vector<size_t>{3, 0, 1, 2}), locality_order(uses, 2));
  // Below the limit the hub links all four: the walk from 0 reaches 3 last, and starts there.
  EXPECT_EQ((std::vector<size_t>{3, 0, 1, 2}), locality_order(uses, 64));
  std::vector<std::vector<int>> apart = {{100, 1}, {100, 2}, {100, 3}, {100, 4}};
  EXPECT_EQ((std::vector<size_t>{0, 1, 2, 3}), locality_order(apart, 2));
}

// Assignments that read no unknown, and separate components, keep their list order.
TEST(LocalityOrder, ComponentsInListOrder) {
  std::vector<std::vector<int>> uses = {{}, {5}, {}, {6}, {5}};
  EXPECT_EQ((std::vector<size_t>{0, 4, 1, 2, 3}), locality_order(uses, 64));
  EXPECT_TRUE(locality_order({}, 64).empty());
}

}  // namespace
}  // namespace daec
