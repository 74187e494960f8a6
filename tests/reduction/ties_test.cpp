// The pivot choices of reduction/ties.h: ties up to rounding settled by position, in doubles and
// with many digits, over all candidates or only the open ones.
#include "reduction/ties.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

using daec::first_of_largest;

TEST(Ties, EqualUpToRoundingIsTheFirst) {
  EXPECT_EQ(first_of_largest(std::vector<double>{0.5, 2.0 * (1 - 1e-12), -2.0, 1.0}), 1u);
  EXPECT_EQ(first_of_largest(std::vector<double>{0.5, 1.9, -2.0, 1.0}), 2u);
}

TEST(Ties, AllZeroOrEmpty) {
  EXPECT_EQ(first_of_largest(std::vector<double>{0.0, 0.0}), 0u);
  EXPECT_EQ(first_of_largest(std::vector<double>{}), 0u);
}

TEST(Ties, OnlyOpenPositionsCompete) {
  std::vector<double> values{5.0, 1.0, -3.0, 3.0 * (1 + 1e-13)};
  EXPECT_EQ(first_of_largest(values, {false, true, true, true}), 2u);
  EXPECT_EQ(first_of_largest(values, {true, true, true, true}), 0u);
  EXPECT_EQ(first_of_largest(values, {false, true, false, false}), 1u);
  // All open ones zero: the first open one; none open: past the end.
  EXPECT_EQ(first_of_largest(std::vector<double>{4.0, 0.0, 0.0}, {false, false, true}), 2u);
  EXPECT_EQ(first_of_largest(values, {false, false, false, false}), 4u);
}

TEST(Ties, ManyDigitsTieFartherThanDoubles) {
  GiNaC::numeric two(2), close = GiNaC::numeric(2) - GiNaC::numeric(1, 1000000000) *
                                                         GiNaC::numeric(1, 1000000000) *
                                                         GiNaC::numeric(1, 1000000000);
  // 1e-27 relative is a difference with many digits' tie fraction (1e-30), not a tie.
  EXPECT_EQ(first_of_largest(std::vector<GiNaC::numeric>{close, -two}), 1u);
  EXPECT_EQ(first_of_largest(std::vector<GiNaC::numeric>{two, -two}), 0u);
}

}  // namespace
