// Tests of the structural analysis (src/structure): sparsity patterns, maximum matching,
// Dulmage–Mendelsohn and block lower-triangular form, on the 7×7 pattern of docs/method.md's second
// example, small hand-made cases, random patterns against brute-force references, and a 200,000-row
// chain.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "structure/block_triangular.h"
#include "structure/dulmage_mendelsohn.h"
#include "structure/matching.h"
#include "structure/sparsity.h"

namespace daec {
namespace {

// The pattern of the final linear system of the coupled pendulums (docs/method.md: the coupled
// pendulums). Rows: Constraint 1'', 2'', 3'', 4, 5, 6, 7. Columns: λ1 λ2 λ3 u1dot v1dot u2dot
// v2dot.
SparsityPattern seed_pattern() {
  return SparsityPattern::from_dense({
      {0, 0, 0, 1, 1, 0, 0},  // Constraint 1''
      {0, 0, 0, 0, 0, 1, 1},  // Constraint 2''
      {0, 0, 0, 1, 1, 1, 1},  // Constraint 3''
      {1, 0, 1, 1, 0, 0, 0},  // Constraint 4
      {1, 0, 1, 0, 1, 0, 0},  // Constraint 5
      {0, 1, 1, 0, 0, 1, 0},  // Constraint 6
      {0, 1, 1, 0, 0, 0, 1},  // Constraint 7
  });
}

std::vector<int> iota_vector(int n) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

// ---- references and checks ----------------------------------------------------------------

// Maximum matching size by simple augmenting paths (Kuhn), recursive: only for small patterns.
int reference_rank(const SparsityPattern& pattern) {
  std::vector<int> col_to_row(pattern.cols(), -1);
  std::function<bool(int, std::vector<bool>&)> augment = [&](int r, std::vector<bool>& seen) {
    for (int c : pattern.row(r)) {
      if (seen[c]) continue;
      seen[c] = true;
      if (col_to_row[c] == -1 || augment(col_to_row[c], seen)) {
        col_to_row[c] = r;
        return true;
      }
    }
    return false;
  };
  int size = 0;
  for (int r = 0; r < pattern.rows(); ++r) {
    std::vector<bool> seen(pattern.cols(), false);
    if (augment(r, seen)) ++size;
  }
  return size;
}

std::vector<int> all_except(int n, int skipped) {
  std::vector<int> list;
  for (int i = 0; i < n; ++i) {
    if (i != skipped) list.push_back(i);
  }
  return list;
}

// The coarse DM parts from their definition, by brute force: a row is over-determined iff some
// maximum matching leaves it unmatched, i.e. deleting it keeps the rank; likewise for columns.
struct ReferenceParts {
  std::vector<int> over_rows, over_cols, under_rows, under_cols;
};

ReferenceParts reference_parts(const SparsityPattern& pattern) {
  int rank = reference_rank(pattern);
  std::set<int> over_cols, under_rows;
  ReferenceParts parts;
  for (int r = 0; r < pattern.rows(); ++r) {
    auto without = pattern.submatrix(all_except(pattern.rows(), r), iota_vector(pattern.cols()));
    if (reference_rank(without) != rank) continue;
    parts.over_rows.push_back(r);
    for (int c : pattern.row(r)) over_cols.insert(c);
  }
  for (int c = 0; c < pattern.cols(); ++c) {
    auto without = pattern.submatrix(iota_vector(pattern.rows()), all_except(pattern.cols(), c));
    if (reference_rank(without) != rank) continue;
    parts.under_cols.push_back(c);
    for (int r = 0; r < pattern.rows(); ++r) {
      if (pattern.has(r, c)) under_rows.insert(r);
    }
  }
  parts.over_cols.assign(over_cols.begin(), over_cols.end());
  parts.under_rows.assign(under_rows.begin(), under_rows.end());
  return parts;
}

// Every entry of the permuted pattern lies in or below the diagonal blocks, given the block of
// each row position and each column position.
void expect_block_lower_triangular(const SparsityPattern& permuted,
                                   const std::vector<int>& row_block,
                                   const std::vector<int>& col_block) {
  for (auto [i, j] : permuted.entries()) {
    EXPECT_LE(col_block[j], row_block[i]) << "entry (" << i << ", " << j << ") above the blocks\n"
                                          << permuted.to_text();
  }
}

// Whether the rows of a block, linked through the matching, reach each other (irreducible).
bool strongly_connected(const SparsityPattern& pattern, const Matching& matching,
                        const std::vector<int>& rows) {
  std::set<int> members(rows.begin(), rows.end());
  for (int start : rows) {
    std::set<int> reached{start};
    std::vector<int> stack{start};
    while (!stack.empty()) {
      int r = stack.back();
      stack.pop_back();
      for (int c : pattern.row(r)) {
        int next = matching.col_to_row[c];
        if (members.count(next) && reached.insert(next).second) stack.push_back(next);
      }
    }
    if (reached.size() != members.size()) return false;
  }
  return true;
}

// All the promises of BlockTriangularForm for a square pattern and its perfect matching.
void expect_valid_block_form(const SparsityPattern& pattern, const Matching& matching,
                             const BlockTriangularForm& form) {
  int n = pattern.rows();
  ASSERT_TRUE(is_permutation_of(form.row_order, n));
  ASSERT_TRUE(is_permutation_of(form.col_order, n));
  ASSERT_EQ(form.block_start.front(), 0);
  ASSERT_EQ(form.block_start.back(), n);
  std::vector<int> block_of(n);
  for (int b = 0; b < form.block_count(); ++b) {
    ASSERT_GT(form.block_size(b), 0);
    std::vector<int> rows;
    for (int i = form.block_start[b]; i < form.block_start[b + 1]; ++i) {
      block_of[i] = b;
      rows.push_back(form.row_order[i]);
    }
    EXPECT_TRUE(strongly_connected(pattern, matching, rows)) << "block " << b << " is reducible";
  }
  SparsityPattern permuted = pattern.permuted(form.row_order, form.col_order);
  for (int i = 0; i < n; ++i) EXPECT_TRUE(permuted.has(i, i)) << "zero on the diagonal at " << i;
  expect_block_lower_triangular(permuted, block_of, block_of);
}

// The block of each row and column position of dm.row_order / dm.col_order: the over part is
// block 0, the well part's blocks follow, the under part is last.
void dm_blocks(const DulmageMendelsohn& dm, std::vector<int>& row_block,
               std::vector<int>& col_block) {
  row_block.assign(dm.over_rows.size(), 0);
  col_block.assign(dm.over_cols.size(), 0);
  const BlockTriangularForm& well = dm.well_blocks;
  for (int b = 0; b < well.block_count(); ++b) {
    row_block.insert(row_block.end(), well.block_size(b), b + 1);
    col_block.insert(col_block.end(), well.block_size(b), b + 1);
  }
  row_block.insert(row_block.end(), dm.under_rows.size(), well.block_count() + 1);
  col_block.insert(col_block.end(), dm.under_cols.size(), well.block_count() + 1);
}

void expect_valid_dulmage_mendelsohn(const SparsityPattern& pattern, const DulmageMendelsohn& dm) {
  ASSERT_TRUE(is_valid_matching(pattern, dm.matching));
  EXPECT_EQ(dm.structural_rank, dm.matching.size);
  ASSERT_TRUE(is_permutation_of(dm.row_order, pattern.rows()));
  ASSERT_TRUE(is_permutation_of(dm.col_order, pattern.cols()));

  // The parts partition the rows and the columns, with the right shapes.
  std::vector<int> rows = dm.over_rows, cols = dm.over_cols;
  rows.insert(rows.end(), dm.well_rows.begin(), dm.well_rows.end());
  rows.insert(rows.end(), dm.under_rows.begin(), dm.under_rows.end());
  cols.insert(cols.end(), dm.well_cols.begin(), dm.well_cols.end());
  cols.insert(cols.end(), dm.under_cols.begin(), dm.under_cols.end());
  std::sort(rows.begin(), rows.end());
  std::sort(cols.begin(), cols.end());
  EXPECT_EQ(rows, iota_vector(pattern.rows()));
  EXPECT_EQ(cols, iota_vector(pattern.cols()));
  EXPECT_TRUE(dm.over_rows.empty() || dm.over_rows.size() > dm.over_cols.size());
  EXPECT_TRUE(dm.under_cols.empty() || dm.under_cols.size() > dm.under_rows.size());
  EXPECT_EQ(dm.well_rows.size(), dm.well_cols.size());

  // The k-th matched pair sits at (unmatched rows + k, k).
  for (int k = 0; k < dm.structural_rank; ++k) {
    EXPECT_EQ(dm.matching.row_to_col[dm.row_order[dm.unmatched_rows() + k]], dm.col_order[k]);
  }
  std::vector<int> row_block, col_block;
  dm_blocks(dm, row_block, col_block);
  expect_block_lower_triangular(pattern.permuted(dm.row_order, dm.col_order), row_block, col_block);

  // The well part's blocks, checked on the well part alone.
  SparsityPattern well = pattern.submatrix(dm.well_rows, dm.well_cols);
  for (int b = 0; b < dm.well_blocks.block_count(); ++b) {
    std::vector<int> block_rows;
    for (int i = dm.well_blocks.block_start[b]; i < dm.well_blocks.block_start[b + 1]; ++i) {
      block_rows.push_back(dm.well_blocks.row_order[i]);
    }
    EXPECT_TRUE(strongly_connected(pattern, dm.matching, block_rows));
  }
  EXPECT_EQ(structural_rank(well), static_cast<int>(dm.well_rows.size()));
}

// ---- sparsity patterns ----------------------------------------------------------------------

TEST(Structure, PatternFromDenseEntriesRowsAndTextAgree) {
  SparsityPattern dense = SparsityPattern::from_dense({{1, 0, 2}, {0, 0, 0}, {0, -1, 1}});
  SparsityPattern entries =
      SparsityPattern::from_entries(3, 3, {{2, 2}, {0, 2}, {0, 0}, {2, 1}, {0, 0}});
  SparsityPattern rows = SparsityPattern::from_rows(3, {{2, 0}, {}, {1, 2, 1}});
  SparsityPattern text = SparsityPattern::from_text("1 . 1\n0 0 0\n\n.x*\n");
  EXPECT_EQ(dense, entries);
  EXPECT_EQ(dense, rows);
  EXPECT_EQ(dense, text);
  EXPECT_EQ(dense.rows(), 3);
  EXPECT_EQ(dense.cols(), 3);
  EXPECT_EQ(dense.nonzeros(), 4);
  EXPECT_EQ(std::vector<int>(dense.row(2).begin(), dense.row(2).end()), (std::vector<int>{1, 2}));
  EXPECT_TRUE(dense.row(1).empty());
}

TEST(Structure, PatternHasAndEntries) {
  SparsityPattern pattern = SparsityPattern::from_text("1 . 1\n. . .\n. 1 1");
  EXPECT_TRUE(pattern.has(0, 0));
  EXPECT_FALSE(pattern.has(0, 1));
  EXPECT_TRUE(pattern.has(2, 1));
  EXPECT_FALSE(pattern.has(1, 2));
  EXPECT_FALSE(pattern.has(-1, 0));
  EXPECT_FALSE(pattern.has(0, 3));
  EXPECT_FALSE(pattern.has(3, 0));
  std::vector<std::pair<int, int>> expected{{0, 0}, {0, 2}, {2, 1}, {2, 2}};
  EXPECT_EQ(pattern.entries(), expected);
}

TEST(Structure, PatternTransposeAndPermute) {
  SparsityPattern pattern = SparsityPattern::from_text("1 1 . .\n. . . 1\n1 . 1 .");
  EXPECT_EQ(pattern.transposed().to_text(), "1 . 1\n1 . .\n. . 1\n. 1 .\n");
  EXPECT_EQ(pattern.transposed().transposed(), pattern);
  // Row i of the result is row row_order[i], column j is column col_order[j].
  SparsityPattern permuted = pattern.permuted({2, 0, 1}, {3, 2, 1, 0});
  EXPECT_EQ(permuted.to_text(), ". 1 . 1\n. . 1 1\n1 . . .\n");
  for (auto [r, c] : pattern.entries()) {
    EXPECT_TRUE(
        permuted.has(inverse_permutation({2, 0, 1})[r], inverse_permutation({3, 2, 1, 0})[c]));
  }
  EXPECT_EQ(pattern.submatrix({2, 1}, {0, 3}).to_text(), "1 .\n. 1\n");
}

TEST(Structure, PatternTextRendering) {
  SparsityPattern pattern = SparsityPattern::from_text("1.\n.1\n11");
  EXPECT_EQ(pattern.to_text(), "1 .\n. 1\n1 1\n");
  EXPECT_EQ(pattern.to_text("1", "0"), "1 0\n0 1\n1 1\n");
  EXPECT_EQ(SparsityPattern(0, 5).to_text(), "");
  EXPECT_EQ(SparsityPattern(2, 0).to_text(), "\n\n");
  EXPECT_EQ(SparsityPattern::from_text("· 1\n1 ·"), SparsityPattern::from_text(".1\n1."));
}

TEST(Structure, PatternRejectsBadInput) {
  EXPECT_THROW(SparsityPattern(-1, 2), std::invalid_argument);
  EXPECT_THROW(SparsityPattern::from_entries(2, 2, {{2, 0}}), std::invalid_argument);
  EXPECT_THROW(SparsityPattern::from_entries(2, 2, {{0, -1}}), std::invalid_argument);
  EXPECT_THROW(SparsityPattern::from_dense({{1, 0}, {1}}), std::invalid_argument);
  EXPECT_THROW(SparsityPattern::from_text("1 0\n1"), std::invalid_argument);
  EXPECT_THROW(SparsityPattern::from_text("1 2"), std::invalid_argument);
  SparsityPattern pattern = SparsityPattern::from_text("11\n01");
  EXPECT_THROW(pattern.permuted({0, 0}, {0, 1}), std::invalid_argument);
  EXPECT_THROW(pattern.permuted({0, 1}, {1}), std::invalid_argument);
  EXPECT_THROW(pattern.submatrix({0, 2}, {0}), std::invalid_argument);
}

// ---- the coupled pendulums' pattern
// ---------------------------------------------------------------------

TEST(Structure, SeedPatternHasStructuralRankSeven) {
  SparsityPattern pattern = seed_pattern();
  EXPECT_EQ(pattern, SparsityPattern::from_text(R"(
      · · · 1 1 · ·
      · · · · · 1 1
      · · · 1 1 1 1
      1 · 1 1 · · ·
      1 · 1 · 1 · ·
      · 1 1 · · 1 ·
      · 1 1 · · · 1)"));
  EXPECT_EQ(structural_rank(pattern), 7);
  Matching matching = maximum_matching(pattern);
  EXPECT_TRUE(is_valid_matching(pattern, matching));
  EXPECT_EQ(matching.size, 7);
}

TEST(Structure, SeedPatternPermutesToZeroFreeDiagonal) {
  SparsityPattern pattern = seed_pattern();
  DulmageMendelsohn dm = dulmage_mendelsohn(pattern);
  EXPECT_EQ(dm.structural_rank, 7);
  EXPECT_EQ(dm.well_rows, iota_vector(7));
  EXPECT_EQ(dm.well_cols, iota_vector(7));
  EXPECT_TRUE(dm.over_rows.empty() && dm.over_cols.empty());
  EXPECT_TRUE(dm.under_rows.empty() && dm.under_cols.empty());
  SparsityPattern permuted = pattern.permuted(dm.row_order, dm.col_order);
  for (int i = 0; i < 7; ++i) EXPECT_TRUE(permuted.has(i, i)) << permuted.to_text();
  expect_valid_dulmage_mendelsohn(pattern, dm);
  // The constraints are coupled through λ3 and the accelerations: one irreducible block, so
  // the generated code must solve all seven unknowns together (as the seed does with A Z = b).
  EXPECT_EQ(dm.well_blocks.block_count(), 1);
  expect_valid_block_form(pattern, dm.matching, block_triangular_form(pattern));
}

TEST(Structure, SeedMatlabPermutationIsOfTheSamePattern) {
  // sparsity_pattern(p, q) as printed by MATLAB in the seed: a permutation of the same pattern.
  SparsityPattern matlab = SparsityPattern::from_text(R"(
      1 0 1 1 0 0 0
      0 1 1 0 0 1 0
      1 0 1 0 1 0 0
      0 0 0 1 1 0 0
      0 0 0 1 1 1 1
      0 0 0 0 0 1 1
      0 1 1 0 0 0 1)");
  for (int i = 0; i < 7; ++i) EXPECT_TRUE(matlab.has(i, i));
  EXPECT_EQ(structural_rank(matlab), 7);
  EXPECT_EQ(matlab.nonzeros(), seed_pattern().nonzeros());
  // MATLAB's p: the rows Constraint 4, 6, 5, 1'', 3'', 2'', 7 (q is the identity).
  EXPECT_EQ(seed_pattern().permuted({3, 5, 4, 0, 2, 1, 6}, iota_vector(7)), matlab);
}

// ---- square, singular and rectangular patterns ---------------------------------------------

TEST(Structure, IdentityIsOneBlockPerRow) {
  const int n = 5;
  std::vector<std::pair<int, int>> diagonal;
  for (int i = 0; i < n; ++i) diagonal.emplace_back(i, i);
  SparsityPattern identity = SparsityPattern::from_entries(n, n, diagonal);
  EXPECT_EQ(structural_rank(identity), n);
  BlockTriangularForm form = block_triangular_form(identity);
  EXPECT_EQ(form.row_order, iota_vector(n));
  EXPECT_EQ(form.col_order, iota_vector(n));
  EXPECT_EQ(form.block_start, iota_vector(n + 1));
  DulmageMendelsohn dm = dulmage_mendelsohn(identity);
  EXPECT_EQ(dm.row_order, iota_vector(n));
  EXPECT_EQ(dm.col_order, iota_vector(n));
}

TEST(Structure, LowerTriangularIsSizeOneBlocksInOrder) {
  SparsityPattern lower = SparsityPattern::from_text(R"(
      1 . . . .
      1 1 . . .
      . 1 1 . .
      1 . 1 1 .
      1 1 1 1 1)");
  BlockTriangularForm form = block_triangular_form(lower);
  EXPECT_EQ(form.row_order, iota_vector(5));
  EXPECT_EQ(form.col_order, iota_vector(5));
  EXPECT_EQ(form.block_start, iota_vector(6));
  expect_valid_block_form(lower, maximum_matching(lower), form);
}

TEST(Structure, UpperTriangularComesOutReversed) {
  // Equation 0 needs the unknowns of equations 1 and 2: those are solved first.
  SparsityPattern upper = SparsityPattern::from_text("1 1 1\n. 1 1\n. . 1");
  BlockTriangularForm form = block_triangular_form(upper);
  EXPECT_EQ(form.row_order, (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(form.col_order, (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(form.block_start, iota_vector(4));
  EXPECT_EQ(upper.permuted(form.row_order, form.col_order).to_text(), "1 . .\n1 1 .\n1 1 1\n");
}

TEST(Structure, CyclicPatternIsOneBlock) {
  // x0 needs x1, x1 needs x2, ..., x5 needs x0.
  SparsityPattern cyclic =
      SparsityPattern::from_rows(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}});
  BlockTriangularForm form = block_triangular_form(cyclic);
  EXPECT_EQ(form.block_count(), 1);
  EXPECT_EQ(form.row_order, iota_vector(6));
  expect_valid_block_form(cyclic, maximum_matching(cyclic), form);
}

TEST(Structure, BlocksComeInSolveOrder) {
  // Equations 1 and 3 form a 2×2 block in unknowns 1 and 3 that needs unknown 2 (equation 2);
  // equation 0 needs everything.
  SparsityPattern pattern = SparsityPattern::from_text(R"(
      1 1 1 1
      . 1 1 1
      . . 1 .
      . 1 . 1)");
  BlockTriangularForm form = block_triangular_form(pattern);
  EXPECT_EQ(form.row_order, (std::vector<int>{2, 1, 3, 0}));
  EXPECT_EQ(form.block_start, (std::vector<int>{0, 1, 3, 4}));
  expect_valid_block_form(pattern, maximum_matching(pattern), form);
  EXPECT_EQ(block_of_positions(form), (std::vector<int>{0, 1, 1, 2}));
}

TEST(Structure, ZeroRowIsOverDetermined) {
  SparsityPattern pattern = SparsityPattern::from_text("1 . .\n. . .\n. 1 1");
  DulmageMendelsohn dm = dulmage_mendelsohn(pattern);
  EXPECT_EQ(dm.structural_rank, 2);
  EXPECT_EQ(dm.over_rows, std::vector<int>{1});
  EXPECT_TRUE(dm.over_cols.empty());
  EXPECT_EQ(dm.well_rows, std::vector<int>{0});
  EXPECT_EQ(dm.well_cols, std::vector<int>{0});
  EXPECT_EQ(dm.under_rows, std::vector<int>{2});
  EXPECT_EQ(dm.under_cols, (std::vector<int>{1, 2}));
  EXPECT_EQ(dm.unmatched_rows(), 1);
  EXPECT_EQ(dm.unmatched_cols(), 1);
  // Unmatched row first, unmatched column last: the matched pairs on the diagonal below the main.
  EXPECT_EQ(pattern.permuted(dm.row_order, dm.col_order).to_text(), ". . .\n1 . .\n. 1 1\n");
  expect_valid_dulmage_mendelsohn(pattern, dm);
}

TEST(Structure, ZeroColumnIsUnderDetermined) {
  SparsityPattern pattern = SparsityPattern::from_text("1 . .\n. . 1\n1 . 1");
  DulmageMendelsohn dm = dulmage_mendelsohn(pattern);
  EXPECT_EQ(dm.structural_rank, 2);
  EXPECT_EQ(dm.under_cols, std::vector<int>{1});
  EXPECT_TRUE(dm.under_rows.empty());
  // Three equations in the two unknowns 0 and 2.
  EXPECT_EQ(dm.over_rows, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(dm.over_cols, (std::vector<int>{0, 2}));
  EXPECT_TRUE(dm.well_rows.empty());
  expect_valid_dulmage_mendelsohn(pattern, dm);
}

TEST(Structure, TwoIdenticalSingleEntryRowsAreOverDetermined) {
  // Equations 0 and 2 both determine only unknown 1; equation 1 holds unknowns 0 and 2.
  SparsityPattern pattern = SparsityPattern::from_text(". 1 . .\n1 . 1 .\n. 1 . .\n. . . 1");
  DulmageMendelsohn dm = dulmage_mendelsohn(pattern);
  EXPECT_EQ(dm.structural_rank, 3);
  EXPECT_EQ(dm.over_rows, (std::vector<int>{0, 2}));
  EXPECT_EQ(dm.over_cols, std::vector<int>{1});
  EXPECT_EQ(dm.under_rows, std::vector<int>{1});
  EXPECT_EQ(dm.under_cols, (std::vector<int>{0, 2}));
  EXPECT_EQ(dm.well_rows, std::vector<int>{3});
  EXPECT_EQ(dm.well_cols, std::vector<int>{3});
  expect_valid_dulmage_mendelsohn(pattern, dm);
}

TEST(Structure, WidePatternIsUnderDetermined) {
  SparsityPattern pattern = SparsityPattern::from_text("1 1 . .\n. . 1 1");
  DulmageMendelsohn dm = dulmage_mendelsohn(pattern);
  EXPECT_EQ(dm.structural_rank, 2);
  EXPECT_EQ(dm.under_rows, (std::vector<int>{0, 1}));
  EXPECT_EQ(dm.under_cols, iota_vector(4));
  EXPECT_TRUE(dm.well_rows.empty() && dm.over_rows.empty() && dm.over_cols.empty());
  expect_valid_dulmage_mendelsohn(pattern, dm);
}

TEST(Structure, TallPatternIsOverDetermined) {
  SparsityPattern pattern = SparsityPattern::from_text("1 1 . .\n. . 1 1").transposed();
  DulmageMendelsohn dm = dulmage_mendelsohn(pattern);
  EXPECT_EQ(dm.structural_rank, 2);
  EXPECT_EQ(dm.over_rows, iota_vector(4));
  EXPECT_EQ(dm.over_cols, (std::vector<int>{0, 1}));
  EXPECT_TRUE(dm.well_rows.empty() && dm.under_rows.empty() && dm.under_cols.empty());
  expect_valid_dulmage_mendelsohn(pattern, dm);
}

TEST(Structure, SingularPatternWithAllThreeParts) {
  // Unknown 0 is fixed by equations 0 and 1 (over); equation 2 fixes unknown 1 given unknown 0
  // (well); equation 3 relates unknowns 2 and 3 (under).
  SparsityPattern pattern = SparsityPattern::from_text("1 . . .\n1 . . .\n1 1 . .\n. 1 1 1");
  DulmageMendelsohn dm = dulmage_mendelsohn(pattern);
  EXPECT_EQ(dm.over_rows, (std::vector<int>{0, 1}));
  EXPECT_EQ(dm.over_cols, std::vector<int>{0});
  EXPECT_EQ(dm.well_rows, std::vector<int>{2});
  EXPECT_EQ(dm.well_cols, std::vector<int>{1});
  EXPECT_EQ(dm.under_rows, std::vector<int>{3});
  EXPECT_EQ(dm.under_cols, (std::vector<int>{2, 3}));
  expect_valid_dulmage_mendelsohn(pattern, dm);
}

TEST(Structure, RectangularPatternWithWellAndUnderParts) {
  // Equations 0 and 1 fix unknowns 0 then 1; equation 2 relates unknowns 2, 3 and 4.
  SparsityPattern pattern = SparsityPattern::from_text("1 . . . .\n1 1 . . .\n. . 1 1 1");
  DulmageMendelsohn dm = dulmage_mendelsohn(pattern);
  EXPECT_EQ(dm.structural_rank, 3);
  EXPECT_TRUE(dm.over_rows.empty() && dm.over_cols.empty());
  EXPECT_EQ(dm.well_rows, (std::vector<int>{0, 1}));
  EXPECT_EQ(dm.well_cols, (std::vector<int>{0, 1}));
  EXPECT_EQ(dm.well_blocks.block_start, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(dm.under_rows, std::vector<int>{2});
  EXPECT_EQ(dm.under_cols, (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(pattern.permuted(dm.row_order, dm.col_order).to_text(),
            "1 . . . .\n1 1 . . .\n. . 1 1 1\n");
  expect_valid_dulmage_mendelsohn(pattern, dm);
}

TEST(Structure, EmptyPatterns) {
  for (auto [rows, cols] : std::vector<std::pair<int, int>>{{0, 0}, {0, 3}, {3, 0}, {2, 2}}) {
    SparsityPattern pattern(rows, cols);
    EXPECT_EQ(structural_rank(pattern), 0);
    DulmageMendelsohn dm = dulmage_mendelsohn(pattern);
    EXPECT_EQ(dm.over_rows, iota_vector(rows));
    EXPECT_EQ(dm.under_cols, iota_vector(cols));
    expect_valid_dulmage_mendelsohn(pattern, dm);
  }
  EXPECT_EQ(block_triangular_form(SparsityPattern(0, 0)).block_count(), 0);
}

TEST(Structure, RefusesWhatItCannotDecompose) {
  EXPECT_THROW(block_triangular_form(SparsityPattern::from_text("1 1")), std::invalid_argument);
  SparsityPattern singular = SparsityPattern::from_text("1 1\n. .");
  EXPECT_THROW(block_triangular_form(singular), std::invalid_argument);
  SparsityPattern square = SparsityPattern::from_text("1 1\n1 .");
  Matching partial{{1, kUnmatched}, {kUnmatched, 0}, 1};
  EXPECT_TRUE(is_valid_matching(square, partial));
  EXPECT_THROW(block_triangular_form(square, partial), std::invalid_argument);
  // Row 1 and column 0 are both free and adjacent: not maximum.
  EXPECT_THROW(dulmage_mendelsohn(square, partial), std::invalid_argument);
  // (1, 1) is no entry of the pattern.
  Matching wrong{{0, 1}, {0, 1}, 2};
  EXPECT_FALSE(is_valid_matching(square, wrong));
  EXPECT_THROW(dulmage_mendelsohn(square, wrong), std::invalid_argument);
}

// ---- random patterns --------------------------------------------------------------------------

SparsityPattern random_pattern(std::mt19937& random) {
  int rows = std::uniform_int_distribution<int>(0, 9)(random);
  int cols = std::uniform_int_distribution<int>(0, 9)(random);
  if (random() % 3 == 0) cols = rows;  // plenty of square cases
  double density = std::uniform_real_distribution<double>(0.05, 0.5)(random);
  std::bernoulli_distribution entry(density);
  std::vector<std::pair<int, int>> entries;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      if (entry(random)) entries.emplace_back(r, c);
    }
  }
  return SparsityPattern::from_entries(rows, cols, entries);
}

std::vector<int> random_permutation(int n, std::mt19937& random) {
  std::vector<int> order = iota_vector(n);
  std::shuffle(order.begin(), order.end(), random);
  return order;
}

std::vector<int> renumbered(const std::vector<int>& list, const std::vector<int>& order) {
  std::vector<int> result;
  for (int i : list) result.push_back(order[i]);
  std::sort(result.begin(), result.end());
  return result;
}

// The well part's blocks as sets of original rows: unique, whatever the matching or order.
std::set<std::set<int>> block_row_sets(const BlockTriangularForm& form,
                                       const std::vector<int>& to_original) {
  std::set<std::set<int>> blocks;
  for (int b = 0; b < form.block_count(); ++b) {
    std::set<int> rows;
    for (int i = form.block_start[b]; i < form.block_start[b + 1]; ++i) {
      rows.insert(to_original[form.row_order[i]]);
    }
    blocks.insert(rows);
  }
  return blocks;
}

TEST(Structure, RandomPatternsAgreeWithReferences) {
  std::mt19937 random(20240611);
  for (int trial = 0; trial < 400; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    SparsityPattern pattern = random_pattern(random);
    SCOPED_TRACE(pattern.to_text());
    Matching matching = maximum_matching(pattern);
    ASSERT_TRUE(is_valid_matching(pattern, matching));
    ASSERT_EQ(matching.size, reference_rank(pattern));
    EXPECT_EQ(structural_rank(pattern.transposed()), matching.size);

    DulmageMendelsohn dm = dulmage_mendelsohn(pattern);
    expect_valid_dulmage_mendelsohn(pattern, dm);
    ReferenceParts reference = reference_parts(pattern);
    EXPECT_EQ(dm.over_rows, reference.over_rows);
    EXPECT_EQ(dm.over_cols, reference.over_cols);
    EXPECT_EQ(dm.under_rows, reference.under_rows);
    EXPECT_EQ(dm.under_cols, reference.under_cols);

    // Shuffled rows and columns give the same parts and the same blocks.
    std::vector<int> row_order = random_permutation(pattern.rows(), random);
    std::vector<int> col_order = random_permutation(pattern.cols(), random);
    DulmageMendelsohn shuffled = dulmage_mendelsohn(pattern.permuted(row_order, col_order));
    EXPECT_EQ(renumbered(shuffled.over_rows, row_order), dm.over_rows);
    EXPECT_EQ(renumbered(shuffled.under_cols, col_order), dm.under_cols);
    EXPECT_EQ(renumbered(shuffled.well_rows, row_order), dm.well_rows);
    EXPECT_EQ(renumbered(shuffled.well_cols, col_order), dm.well_cols);
    EXPECT_EQ(block_row_sets(shuffled.well_blocks, row_order),
              block_row_sets(dm.well_blocks, iota_vector(pattern.rows())));
  }
}

TEST(Structure, RandomNonsingularPatternsGiveValidBlockForms) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 300; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    // A hidden permuted diagonal keeps the pattern nonsingular; the rest is sparse noise.
    int n = std::uniform_int_distribution<int>(1, 12)(random);
    std::vector<int> hidden = random_permutation(n, random);
    std::bernoulli_distribution noise(std::uniform_real_distribution<double>(0.0, 0.3)(random));
    std::vector<std::pair<int, int>> entries;
    for (int r = 0; r < n; ++r) {
      entries.emplace_back(r, hidden[r]);
      for (int c = 0; c < n; ++c) {
        if (noise(random)) entries.emplace_back(r, c);
      }
    }
    SparsityPattern pattern = SparsityPattern::from_entries(n, n, entries);
    Matching matching = maximum_matching(pattern);
    ASSERT_EQ(matching.size, n);
    expect_valid_block_form(pattern, matching, block_triangular_form(pattern, matching));
  }
}

TEST(Structure, MediumRandomPatternsNeedSeveralPhases) {
  // Two or three entries per row leave the greedy start well short of a maximum matching, so
  // Hopcroft–Karp runs several phases with long augmenting paths.
  std::mt19937 random(99);
  for (int trial = 0; trial < 60; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    int rows = std::uniform_int_distribution<int>(50, 300)(random);
    int cols = std::uniform_int_distribution<int>(rows - 20, rows + 20)(random);
    std::uniform_int_distribution<int> column(0, cols - 1);
    std::vector<std::pair<int, int>> entries;
    for (int r = 0; r < rows; ++r) {
      int count = std::uniform_int_distribution<int>(1, 3)(random);
      for (int k = 0; k < count; ++k) entries.emplace_back(r, column(random));
    }
    SparsityPattern pattern = SparsityPattern::from_entries(rows, cols, entries);
    Matching matching = maximum_matching(pattern);
    ASSERT_TRUE(is_valid_matching(pattern, matching));
    ASSERT_EQ(matching.size, reference_rank(pattern));
    expect_valid_dulmage_mendelsohn(pattern, dulmage_mendelsohn(pattern, matching));
  }
}

// ---- large patterns: no recursion ---------------------------------------------------------------

TEST(Structure, LongAugmentingPath) {
  // Row i holds columns i and i + 1, the last row only column 0. The greedy start matches row i
  // to column i and leaves the last row out: the one augmenting path runs through every row.
  const int n = 200000;
  std::vector<std::pair<int, int>> entries;
  for (int i = 0; i + 1 < n; ++i) {
    entries.emplace_back(i, i);
    entries.emplace_back(i, i + 1);
  }
  entries.emplace_back(n - 1, 0);
  SparsityPattern pattern = SparsityPattern::from_entries(n, n, entries);
  Matching matching = maximum_matching(pattern);
  EXPECT_EQ(matching.size, n);
  EXPECT_TRUE(is_valid_matching(pattern, matching));
  // The last row alone fixes unknown 0, then row 0 fixes unknown 1, and so on.
  BlockTriangularForm form = block_triangular_form(pattern, matching);
  ASSERT_EQ(form.block_count(), n);
  EXPECT_EQ(form.row_order[0], n - 1);
  for (int i = 1; i < n; ++i) ASSERT_EQ(form.row_order[i], i - 1);
  DulmageMendelsohn dm = dulmage_mendelsohn(pattern);
  EXPECT_EQ(dm.structural_rank, n);
  EXPECT_EQ(static_cast<int>(dm.well_rows.size()), n);
}

TEST(Structure, HugeCycleIsOneBlock) {
  // Row i holds columns i and i + 1 (mod n): one cycle through all rows, so Tarjan's depth-first
  // search goes n rows deep before it finds the single component.
  const int n = 200000;
  std::vector<std::pair<int, int>> entries;
  for (int i = 0; i < n; ++i) {
    entries.emplace_back(i, i);
    entries.emplace_back(i, (i + 1) % n);
  }
  SparsityPattern pattern = SparsityPattern::from_entries(n, n, entries);
  BlockTriangularForm form = block_triangular_form(pattern);
  ASSERT_EQ(form.block_count(), 1);
  EXPECT_EQ(form.row_order, iota_vector(n));
}

TEST(Structure, LongDependencyChain) {
  // Upper bidiagonal: equation i needs the unknown of equation i + 1, so the depth-first search
  // goes 200,000 rows deep and the blocks come out last row first.
  const int n = 200000;
  std::vector<std::pair<int, int>> entries;
  for (int i = 0; i < n; ++i) {
    entries.emplace_back(i, i);
    if (i + 1 < n) entries.emplace_back(i, i + 1);
  }
  SparsityPattern pattern = SparsityPattern::from_entries(n, n, entries);
  BlockTriangularForm form = block_triangular_form(pattern);
  ASSERT_EQ(form.block_count(), n);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(form.row_order[i], n - 1 - i);
    ASSERT_EQ(form.col_order[i], n - 1 - i);
  }
  // With one more column, the whole chain is under-determined.
  std::vector<std::pair<int, int>> wide = entries;
  wide.emplace_back(n - 1, n);
  DulmageMendelsohn dm = dulmage_mendelsohn(SparsityPattern::from_entries(n, n + 1, wide));
  EXPECT_EQ(static_cast<int>(dm.under_rows.size()), n);
  EXPECT_EQ(static_cast<int>(dm.under_cols.size()), n + 1);
}

}  // namespace
}  // namespace daec
