// Tests of the symbolic predicates of reduction/symbolic.h that decide by an expression's form.
#include <gtest/gtest.h>

#include "reduction/symbolic.h"

namespace daec {
namespace {

using GiNaC::ex;
using GiNaC::realsymbol;

TEST(NeverVanishes, NumbersSumsOfOneSignAndTheirProducts) {
  realsymbol u("u"), q("q"), t("t");
  EXPECT_TRUE(never_vanishes(ex(3) / 7));
  EXPECT_TRUE(never_vanishes(-ex(2)));
  EXPECT_TRUE(never_vanishes(7 * pow(u, 2) + 20));
  EXPECT_TRUE(never_vanishes(-ex(19197) / 25000 - ex(57591) / 250000 * pow(q, 2)));
  EXPECT_TRUE(never_vanishes(exp(t) * 3));
  EXPECT_TRUE(never_vanishes(-(pow(q, 2) + 4) * exp(u * t) * pow(7 * pow(u, 4) + 1, 3)));
  EXPECT_TRUE(never_vanishes(pow(1 + pow(u, 2), -1)));
  EXPECT_TRUE(never_vanishes(2 + exp(q) + pow(pow(u, 2) + 1, 2)));
}

TEST(NeverVanishes, WhatItsFormDoesNotShowIsNotClaimed) {
  realsymbol u("u"), q("q");
  EXPECT_FALSE(never_vanishes(0));
  EXPECT_FALSE(never_vanishes(u));
  EXPECT_FALSE(never_vanishes(cos(u)));
  EXPECT_FALSE(never_vanishes(pow(u, 2)));                // zero at u = 0
  EXPECT_FALSE(never_vanishes(pow(u, 2) + pow(q, 2)));    // zero at the origin
  EXPECT_FALSE(never_vanishes(pow(u, 2) - 1));            // terms of both signs
  EXPECT_FALSE(never_vanishes(pow(u, 3) + 1));            // an odd power
  EXPECT_FALSE(never_vanishes(3 * u * (pow(q, 2) + 1)));  // one factor may vanish
  EXPECT_FALSE(never_vanishes(pow(u, ex(1) / 2) + 1));    // not an even power
}

}  // namespace
}  // namespace daec
