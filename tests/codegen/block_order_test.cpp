// Unit tests of blocks_in_locality_order: blocks that read the same states come together, in a
// sweep that does not depend on the order the form listed them in, and never before a block
// they depend on.
#include <gtest/gtest.h>

#include <vector>

#include "codegen/block_order.h"

namespace daec {
namespace {

// Whether every row of `form` refers only to its own block and earlier ones, and the positions
// are a permutation of the rows and columns.
bool lower_triangular(const SparsityPattern& a, const BlockTriangularForm& form) {
  const int n = a.rows();
  if (static_cast<int>(form.row_order.size()) != n || form.block_start.back() != n) return false;
  std::vector<int> block_of(n), column_block(n, -1), row_seen(n, 0);
  for (int b = 0; b < form.block_count(); ++b) {
    for (int i = form.block_start[b]; i < form.block_start[b + 1]; ++i) block_of[i] = b;
  }
  for (int i = 0; i < n; ++i) {
    column_block[form.col_order[i]] = block_of[i];
    ++row_seen[form.row_order[i]];
  }
  for (int i = 0; i < n; ++i) {
    if (row_seen[i] != 1 || column_block[i] < 0) return false;
    for (int column : a.row(form.row_order[i])) {
      if (column_block[column] > block_of[i]) return false;
    }
  }
  return true;
}

// Independent one-row blocks of a chain: row r reads the states k and k + 1 of its link k. The
// blocks come out along the chain from one end, whatever the rows' order.
TEST(BlockOrder, IndependentBlocksSweepTheChainTheyRead) {
  const std::vector<int> link = {4, 1, 5, 0, 3, 2};
  const int n = static_cast<int>(link.size());
  std::vector<std::pair<int, int>> diagonal;
  std::vector<std::vector<int>> uses;
  for (int r = 0; r < n; ++r) {
    diagonal.push_back({r, r});
    uses.push_back({link[r], link[r] + 1});
  }
  const SparsityPattern a = SparsityPattern::from_entries(n, n, diagonal);
  const BlockTriangularForm form = block_triangular_form(a);
  const BlockTriangularForm ordered = blocks_in_locality_order(a, form, uses, 64);
  ASSERT_TRUE(lower_triangular(a, ordered));
  ASSERT_EQ(n, ordered.block_count());
  const int first = link[ordered.row_order[0]];
  ASSERT_TRUE(first == 0 || first == n - 1) << first;
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(first == 0 ? i : n - 1 - i, link[ordered.row_order[i]]) << "position " << i;
  }
}

// A block comes after the blocks it refers to even where the locality order would put it
// first. The rows read the states of a chain (row 0: 1; row 1: 1 and 2; row 2: 2), which is
// swept from row 0's end, but row 0 refers to the unknown of row 2.
TEST(BlockOrder, DependenciesComeFirst) {
  const SparsityPattern a = SparsityPattern::from_entries(3, 3, {{0, 0}, {0, 2}, {1, 1}, {2, 2}});
  BlockTriangularForm form;
  form.row_order = {2, 0, 1};
  form.col_order = {2, 0, 1};
  form.block_start = {0, 1, 2, 3};
  ASSERT_TRUE(lower_triangular(a, form));
  const BlockTriangularForm ordered = blocks_in_locality_order(a, form, {{1}, {1, 2}, {2}}, 64);
  ASSERT_TRUE(lower_triangular(a, ordered));
  EXPECT_EQ((std::vector<int>{1, 2, 0}), ordered.row_order);
  EXPECT_EQ((std::vector<int>{1, 2, 0}), ordered.col_order);
  EXPECT_EQ((std::vector<int>{0, 1, 2, 3}), ordered.block_start);
}

// Blocks of several rows stay whole, their rows and columns in their own order.
TEST(BlockOrder, BlocksStayWhole) {
  // Rows 0 and 1 form one block (each holds the other's column), row 2 another.
  const SparsityPattern a =
      SparsityPattern::from_entries(3, 3, {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 2}});
  const BlockTriangularForm form = block_triangular_form(a);
  const BlockTriangularForm ordered = blocks_in_locality_order(a, form, {{1}, {2}, {3}}, 64);
  ASSERT_TRUE(lower_triangular(a, ordered));
  ASSERT_EQ(2, ordered.block_count());
  for (int b = 0; b < 2; ++b) {
    const int size = ordered.block_start[b + 1] - ordered.block_start[b];
    const int row = ordered.row_order[ordered.block_start[b]];
    EXPECT_EQ(row == 2 ? 1 : 2, size);
  }
}

}  // namespace
}  // namespace daec
