// Tests of the numeric decisions the reduction takes at sample points (docs/reduction.md):
// scaling, close calls settled with many digits, and points moved onto the invariants.
#include <gtest/gtest.h>

#include <cmath>

#include "reduction/equilibration.h"
#include "reduction/manifold_points.h"
#include "reduction/numeric_rank.h"
#include "reduction/symbolic.h"

namespace daec {
namespace {

// Two capacitors of capacitance c in series with a resistor (tests/data/capacitors_si.dae):
// nonsingular for every c, with entries c next to ones.
std::vector<NumericRow> capacitor_rows(double c) {
  return {{{0, c}, {2, -1}}, {{1, c}, {3, -1}}, {{0, 1}, {1, 1}}, {{2, -1}, {3, 1}}};
}

TEST(RankDecisions, EquilibrationBringsEveryRowAndColumnToUnitSize) {
  std::vector<NumericRow> rows = {{{0, 1e12}, {1, 3e12}}, {{0, 2e-9}}, {}, {{1, 5.0}}};
  equilibrate(rows, 3);
  std::vector<double> row_max(4, 0.0), column_max(3, 0.0);
  for (size_t r = 0; r < rows.size(); ++r) {
    for (const auto& [c, v] : rows[r]) {
      row_max[r] = std::max(row_max[r], std::fabs(v));
      column_max[c] = std::max(column_max[c], std::fabs(v));
    }
  }
  for (size_t r : {0, 1, 3}) {
    EXPECT_GE(row_max[r], 0.5) << r;
    EXPECT_LE(row_max[r], 2.0) << r;
  }
  EXPECT_TRUE(rows[2].empty());
  EXPECT_EQ(column_max[2], 0.0);  // an empty column stays empty
}

TEST(RankDecisions, TinyEntriesAreCloseCallsWhateverTheirOrigin) {
  EXPECT_TRUE(has_tiny_entries(capacitor_rows(1e-15), 4));
  EXPECT_FALSE(has_tiny_entries(capacitor_rows(1e-3), 4));
  // Rounding left of a cancellation, next to entries of one.
  EXPECT_TRUE(has_tiny_entries({{0.75, 0.04}, {8.8e-21, 0.56}}));
}

TEST(RankDecisions, CapacitancesInFaradsAreSettledWithManyDigits) {
  for (double c : {1e-15, 1e-12, 1e-9, 1.0, 1e6}) {
    RankDecision decision = decide_rank(capacitor_rows(c), 4);
    if (!decision.close_call) {
      EXPECT_EQ(decision.rank, 4) << c;
    }
    std::vector<PreciseRow> precise;
    for (const NumericRow& row : capacitor_rows(c)) {
      PreciseRow p;
      for (const auto& [column, value] : row) p.push_back({column, GiNaC::numeric(value)});
      precise.push_back(p);
    }
    EXPECT_EQ(precise_rank(precise, 4), 4) << c;
  }
  EXPECT_TRUE(decide_rank(capacitor_rows(1e-12), 4).close_call);
}

TEST(RankDecisions, PreciseRankSeesExactDependence) {
  // Row 2 = row 0 + 1e-20 * row 1 exactly: the three rows have rank 2, rows 0 and 2 alone too
  // (1e-20 is a coefficient, far above the 1e-40 of a zero); proportional rows have rank 1.
  GiNaC::numeric tiny = GiNaC::numeric(10).power(-20);
  std::vector<PreciseRow> rows = {
      {{0, 1}, {1, 2}}, {{0, 3}, {1, 7}}, {{0, 1 + 3 * tiny}, {1, 2 + 7 * tiny}}};
  EXPECT_EQ(precise_rank(rows, 2), 2);
  std::vector<PreciseRow> square = {rows[0], rows[2]};
  EXPECT_EQ(precise_rank(square, 2), 2);  // 1e-20 is far above the 1e-40 of a zero
  std::vector<PreciseRow> same = {rows[0], {{0, 2}, {1, 4}}};
  EXPECT_EQ(precise_rank(same, 2), 1);
}

TEST(RankDecisions, PointsAreMovedOntoTheInvariants) {
  GiNaC::realsymbol x("x"), y("y"), t("t");
  // The unit circle and a second, dependent copy of it: J J^T is singular.
  ManifoldProjection projection({x * x + y * y - 1, 2 * (x * x + y * y - 1), x - y * t}, {x, y});
  GiNaC::exmap point{{x, 1.3}, {y, 0.4}, {t, GiNaC::numeric(1, 2)}};
  ASSERT_TRUE(projection.project(point));
  std::optional<GiNaC::numeric> circle = evaluate_precisely(x * x + y * y - 1, point);
  std::optional<GiNaC::numeric> line = evaluate_precisely(x - y * t, point);
  ASSERT_TRUE(circle && line);
  EXPECT_LT(GiNaC::abs(*circle), GiNaC::numeric(10).power(-45));
  EXPECT_LT(GiNaC::abs(*line), GiNaC::numeric(10).power(-45));
  EXPECT_TRUE(GiNaC::ex_to<GiNaC::numeric>(point[x]).is_rational());  // exact for many digits
  // Nowhere to go: x^2 + 1 = 0 has no real point; the point stays where it was.
  ManifoldProjection impossible({x * x + 1}, {x});
  GiNaC::exmap other{{x, 0.5}};
  EXPECT_FALSE(impossible.project(other));
  EXPECT_EQ(other[x], GiNaC::ex(0.5));
}

}  // namespace
}  // namespace daec
