// Tests of the sparse numerical rank (reduction/numeric_rank.h) on hand-built matrices of known
// rank: full, deficient, rows of very different scales, and pivots on either side of the
// threshold, with the close calls it reports there.
#include <gtest/gtest.h>

#include <vector>

#include "reduction/numeric_rank.h"

namespace daec {
namespace {

// A dense matrix as sparse rows, zeros left out and each row's entries in reverse column order
// (rows may list their entries in any order).
std::vector<NumericRow> sparse(const std::vector<std::vector<double>>& dense) {
  std::vector<NumericRow> rows;
  for (const std::vector<double>& values : dense) {
    NumericRow row;
    for (size_t c = values.size(); c-- > 0;)
      if (values[c] != 0.0) row.push_back({static_cast<int>(c), values[c]});
    rows.push_back(row);
  }
  return rows;
}

TEST(NumericRank, EmptyAndZeroMatrices) {
  EXPECT_EQ(numeric_rank({}, 0), 0);
  EXPECT_EQ(numeric_rank({}, 3), 0);
  EXPECT_EQ(numeric_rank({{}, {}}, 4), 0);
  EXPECT_FALSE(decide_rank({{}, {}}, 4).close_call);
}

TEST(NumericRank, FullRank) {
  EXPECT_EQ(numeric_rank(sparse({{2, -1, 0}, {-1, 2, -1}, {0, -1, 2}}), 3), 3);
  EXPECT_EQ(numeric_rank(sparse({{0, 0, 1}, {0, 1, 0}, {1, 0, 0}}), 3), 3);   // needs exchanges
  EXPECT_EQ(numeric_rank(sparse({{1, 2, 3, 4, 5}, {0, 1, 0, 1, 0}}), 5), 2);  // wide
  EXPECT_EQ(numeric_rank(sparse({{1, 1}, {1, -1}, {3, 1}, {0, 5}}), 2), 2);   // tall
  RankDecision decision = decide_rank(sparse({{4, 1}, {1, 3}}), 2);
  EXPECT_EQ(decision.rank, 2);
  EXPECT_FALSE(decision.close_call);
}

TEST(NumericRank, RankDeficient) {
  // Row 2 = row 0 + 2 row 1; column 3 = column 0 - column 1.
  EXPECT_EQ(numeric_rank(sparse({{1, 2, 0, -1}, {0, 1, 1, -1}, {1, 4, 2, -3}}), 4), 2);
  EXPECT_EQ(numeric_rank(sparse({{1, 2, 3}, {2, 4, 6}, {-1, -2, -3}}), 3), 1);
  // A zero column and a repeated row.
  EXPECT_EQ(numeric_rank(sparse({{1, 0, 2}, {1, 0, 2}, {0, 0, 5}}), 3), 2);
  // The 6 x 6 second-difference matrix with periodic ends: singular (constant vectors), rank 5.
  std::vector<std::vector<double>> periodic(6, std::vector<double>(6, 0.0));
  for (int i = 0; i < 6; ++i) {
    periodic[i][i] = 2;
    periodic[i][(i + 1) % 6] = -1;
    periodic[i][(i + 5) % 6] = -1;
  }
  EXPECT_EQ(numeric_rank(sparse(periodic), 6), 5);
}

TEST(NumericRank, RowAndColumnScalesDoNotMatter) {
  // Rows in units 1e12 apart: independent, and a dependent pair of the same scales.
  EXPECT_EQ(numeric_rank(sparse({{1e12, 2e12}, {3e-9, 4e-9}}), 2), 2);
  EXPECT_EQ(numeric_rank(sparse({{1e12, 2e12}, {1e-9, 2e-9}}), 2), 1);
  // Columns in very different units: x in micrometres, y in kilometres.
  EXPECT_EQ(numeric_rank(sparse({{1e6, 1e-3}, {2e6, 3e-3}}), 2), 2);
  EXPECT_EQ(numeric_rank(sparse({{1e6, 1e-3}, {2e6, 2e-3}}), 2), 1);
  // A row far below the others is not rounding: it counts.
  EXPECT_EQ(numeric_rank(sparse({{1, 1, 0}, {1, -1, 0}, {0, 0, 1e-20}}), 3), 3);
}

// [[1, 1], [1, 1 + e]]: the second pivot is e. The tolerance is 1e-10 times the largest entry
// (1 after scaling) times the dimension (2): e = 1e-9 counts, 1e-11 does not, and both lie in the
// range where doubles cannot tell with confidence, so both are close calls; 1e-3 is sure.
TEST(NumericRank, NearlySingularAtTheThreshold) {
  auto nearly = [](double e) { return sparse({{1, 1}, {1, 1 + e}}); };
  RankDecision sure = decide_rank(nearly(1e-3), 2);
  EXPECT_EQ(sure.rank, 2);
  EXPECT_FALSE(sure.close_call);
  RankDecision above = decide_rank(nearly(1e-9), 2);
  EXPECT_EQ(above.rank, 2);
  EXPECT_TRUE(above.close_call);
  RankDecision below = decide_rank(nearly(1e-11), 2);
  EXPECT_EQ(below.rank, 1);
  EXPECT_TRUE(below.close_call);
  // Exactly singular in doubles: a sure rank 1.
  RankDecision singular = decide_rank(nearly(0.0), 2);
  EXPECT_EQ(singular.rank, 1);
  EXPECT_FALSE(singular.close_call);
}

TEST(NumericRank, PreciseRankOfExactValues) {
  using GiNaC::numeric;
  // Thirds and sevenths, which doubles cannot hold exactly: row 2 = row 0 + row 1 exactly.
  std::vector<PreciseRow> rows = {{{0, numeric(1, 3)}, {1, numeric(2, 3)}, {2, numeric(1)}},
                                  {{0, numeric(1, 7)}, {1, numeric(5, 7)}, {2, numeric(2)}},
                                  {{0, numeric(10, 21)}, {1, numeric(29, 21)}, {2, numeric(3)}}};
  EXPECT_EQ(precise_rank(rows, 3), 2);
  rows.push_back({{2, numeric(1)}});
  EXPECT_EQ(precise_rank(rows, 3), 3);
  // A difference of 1e-30, far below doubles' rounding, is still a rank.
  std::vector<PreciseRow> close = {{{0, numeric(1)}, {1, numeric(1)}},
                                   {{0, numeric(1)}, {1, numeric(1) + numeric(10).power(-30)}}};
  EXPECT_EQ(precise_rank(close, 2), 2);
  std::vector<PreciseRow> equal = {{{0, numeric(1, 3)}, {1, numeric(1)}},
                                   {{0, numeric(2, 3)}, {1, numeric(2)}}};
  EXPECT_EQ(precise_rank(equal, 2), 1);
}

}  // namespace
}  // namespace daec
