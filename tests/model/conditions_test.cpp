// Tests of the conditional functions (src/model/conditions.cpp): evaluation once the operands
// are numbers, derivatives branch by branch, the symbol sets the reduction uses (incidence and
// conditions), the relation list, and numeric evaluation of the taken branch only.
#include "model/conditions.h"

#include <gtest/gtest.h>

#include <cmath>

#include "model/evaluation.h"
#include "model/expression_printer.h"

namespace daec {
namespace {

using GiNaC::ex;
using GiNaC::numeric;

struct Symbols {
  GiNaC::realsymbol x{"x"}, y{"y"}, a{"a"}, b{"b"}, t{"t"};
};

TEST(Conditions, RelationsOfNumbersAreDecided) {
  EXPECT_TRUE(ex(daec_lt(1, 2)).is_equal(1));
  EXPECT_TRUE(ex(daec_lt(2, 2)).is_zero());
  EXPECT_TRUE(ex(daec_le(2, 2)).is_equal(1));
  EXPECT_TRUE(ex(daec_gt(numeric(1, 3), numeric(1, 4))).is_equal(1));
  EXPECT_TRUE(ex(daec_ge(-1, 0)).is_zero());
  EXPECT_TRUE(ex(daec_eq(numeric(1, 2), numeric(2, 4))).is_equal(1));
  EXPECT_TRUE(ex(daec_ne(3, 3)).is_zero());
}

TEST(Conditions, RelationOfAnExpressionWithItselfIsDecided) {
  Symbols s;
  EXPECT_TRUE(ex(daec_le(s.x + 1, s.x + 1)).is_equal(1));
  EXPECT_TRUE(ex(daec_lt(s.x, s.x)).is_zero());
  EXPECT_TRUE(is_relation(daec_lt(s.x, s.y)));
  EXPECT_FALSE(is_relation(s.x));
}

TEST(Conditions, ConditionalOfADecidedConditionIsItsBranch) {
  Symbols s;
  EXPECT_TRUE(ex(daec_if(daec_lt(1, 2), s.a, s.b)).is_equal(s.a));
  EXPECT_TRUE(ex(daec_if(daec_lt(2, 1), s.a, s.b)).is_equal(s.b));
  EXPECT_TRUE(ex(daec_if(daec_lt(s.x, 0), s.a, s.a)).is_equal(s.a));  // both branches alike
  EXPECT_TRUE(is_if(daec_if(daec_lt(s.x, 0), s.a, s.b)));
}

TEST(Conditions, LogicalOperators) {
  Symbols s;
  ex c = daec_lt(s.x, 0);
  EXPECT_TRUE(ex(daec_and(1, c)).is_equal(c));
  EXPECT_TRUE(ex(daec_and(c, 0)).is_zero());
  EXPECT_TRUE(ex(daec_or(c, 1)).is_equal(1));
  EXPECT_TRUE(ex(daec_or(0, c)).is_equal(c));
  EXPECT_TRUE(ex(daec_and(c, c)).is_equal(c));
  EXPECT_TRUE(ex(daec_not(1)).is_zero());
  // not of a relation is the opposite relation; not of not is the operand.
  EXPECT_TRUE(ex(daec_not(c)).is_equal(daec_ge(s.x, 0)));
  EXPECT_TRUE(ex(daec_not(daec_ne(s.x, s.y))).is_equal(daec_eq(s.x, s.y)));
  ex both = daec_and(c, daec_gt(s.y, 1));
  EXPECT_TRUE(ex(daec_not(daec_not(both))).is_equal(both));
  EXPECT_TRUE(is_condition_call(both));
}

TEST(Conditions, DerivativeTakesEachBranchSeparately) {
  Symbols s;
  ex e = daec_if(daec_gt(s.x, 0), GiNaC::pow(s.x, 2), -s.x * s.y);
  ex d = e.diff(s.x);
  // One conditional of the derivatives, not daec_if(c, 1, 0)*2x + daec_if(c, 0, 1)*(-y).
  ASSERT_TRUE(is_if(d)) << d;
  EXPECT_TRUE(d.op(0).is_equal(daec_gt(s.x, 0)));
  EXPECT_TRUE(d.op(1).is_equal(2 * s.x));
  EXPECT_TRUE(d.op(2).is_equal(-s.y));
  EXPECT_TRUE(ex(daec_gt(s.x, s.y)).diff(s.x).is_zero());
  EXPECT_TRUE(ex(daec_and(daec_gt(s.x, 0), daec_lt(s.x, 1))).diff(s.x).is_zero());
  // A condition on time alone: the derivative of piecewise constants is 0 in both branches.
  EXPECT_TRUE(ex(daec_if(daec_lt(s.t, 1), 1, 2)).diff(s.t).is_zero());
}

TEST(Conditions, PartialDerivativesAreTheDocumentedOnes) {
  // d/da daec_if(c, a, b) = daec_if(c, 1, 0), d/db = daec_if(c, 0, 1), d/dc = 0.
  Symbols s;
  ex c = daec_lt(s.x, 0);
  ex e = daec_if(c, s.a, s.b);
  EXPECT_TRUE(e.diff(s.a).is_equal(daec_if(c, 1, 0)));
  EXPECT_TRUE(e.diff(s.b).is_equal(daec_if(c, 0, 1)));
  EXPECT_TRUE(e.diff(s.x).is_zero());
}

TEST(Conditions, MinAndMax) {
  Symbols s;
  EXPECT_TRUE(ex(make_min(2, 3)).is_equal(2));
  EXPECT_TRUE(ex(make_max(2, 3)).is_equal(3));
  EXPECT_TRUE(ex(make_min(s.x, s.x)).is_equal(s.x));
  ex m = make_min(s.x, s.y);
  EXPECT_TRUE(m.is_equal(daec_if(daec_lt(s.x, s.y), s.x, s.y)));
  EXPECT_TRUE(m.diff(s.x).is_equal(daec_if(daec_lt(s.x, s.y), 1, 0)));
}

TEST(Conditions, IncidenceIsTheUnionOfTheBranches) {
  Symbols s;
  ex e = s.y - daec_if(daec_gt(s.x, 0), s.a, s.b * s.t);
  SymbolSet values = value_symbols(e);
  EXPECT_EQ(values, (SymbolSet{s.y, s.a, s.b, s.t}));  // not x: it is only in the condition
  EXPECT_EQ(condition_symbols(e), (SymbolSet{s.x}));
  EXPECT_EQ(symbols_in(e).size(), 5u);
}

TEST(Conditions, SubstitutionOutsideConditionsKeepsTheRelations) {
  Symbols s;
  // g = i - (if x > 0.7 then (x - 0.7)/0.1 else x/1e6) with i = x = 0 outside the relation:
  // the branches' constants remain, the relation still compares x.
  ex g = s.y - daec_if(daec_gt(s.x, numeric(7, 10)), (s.x - numeric(7, 10)) * 10, s.x / 1000000);
  ex at_zero = substitute_outside_conditions(g, {{s.x, 0}, {s.y, 0}});
  EXPECT_EQ(to_dae(at_zero), "-(if x > 7/10 then -7 else 0)");
  // Logical operators are passed over whole too; other symbols are left alone.
  ex h = s.a * daec_if(daec_and(daec_lt(s.x, s.b), daec_not(daec_gt(s.y, 0))), s.x, s.b);
  EXPECT_EQ(to_dae(substitute_outside_conditions(h, {{s.x, 2}})),
            to_dae(s.a * daec_if(daec_and(daec_lt(s.x, s.b), daec_not(daec_gt(s.y, 0))), 2, s.b)));
  // Plain substitution would decide the relation at x = 0.
  EXPECT_EQ(to_dae(g.subs(GiNaC::exmap{{s.x, 0}, {s.y, 0}})), "0");
}

TEST(Conditions, RelationsInOrderOfFirstOccurrence) {
  Symbols s;
  ex first = daec_if(daec_lt(s.t, 1), s.x, 0) + daec_if(daec_gt(s.y, 2), 1, 0);
  ex second = daec_if(daec_and(daec_lt(s.t, 1), daec_ne(s.a, 0)), s.b, 1);
  std::vector<ex> relations = collect_relations({first, second});
  std::vector<std::string> printed;
  for (const ex& r : relations) printed.push_back(to_dae(r));
  // Within one expression by printed form, then the new ones of the next expression.
  EXPECT_EQ(printed, (std::vector<std::string>{"t < 1", "y > 2", "a <> 0"}));
}

TEST(Conditions, BoundedEvaluationTakesOnlyTheSelectedBranch) {
  Symbols s;
  ex e = daec_if(daec_gt(s.x, 0), GiNaC::log(s.x), -1);
  EXPECT_TRUE(evaluate_bounded(e, {{s.x, 0}}).is_equal(-1));
  EXPECT_NEAR(GiNaC::ex_to<numeric>(evaluate_bounded(e, {{s.x, 2}})).to_double(), std::log(2),
              1e-15);
  // `and` stops at a false operand, `or` at a true one.
  ex guarded = daec_if(daec_and(daec_gt(s.x, 0), daec_gt(GiNaC::log(s.x), 1)), 1, 2);
  EXPECT_TRUE(evaluate_bounded(guarded, {{s.x, 0}}).is_equal(2));
  ex either = daec_if(daec_or(daec_le(s.x, 0), daec_gt(GiNaC::log(s.x), 1)), 1, 2);
  EXPECT_TRUE(evaluate_bounded(either, {{s.x, 0}}).is_equal(1));
}

TEST(Conditions, PrintedInTheModelsSyntax) {
  Symbols s;
  EXPECT_EQ(to_dae(daec_if(daec_lt(s.t, 1), 0, GiNaC::sin(s.t - 1))),
            "if t < 1 then 0 else sin(t - 1)");
  EXPECT_EQ(to_dae(daec_if(daec_lt(s.x, 0), -1, daec_if(daec_gt(s.x, 1), 1, s.x))),
            "if x < 0 then -1 elseif x > 1 then 1 else x");
  EXPECT_EQ(to_dae(2 * daec_if(daec_ge(s.x, s.y), s.a, s.b)), "2*(if x >= y then a else b)");
  EXPECT_EQ(to_dae(s.y + daec_if(daec_eq(s.x, 0), s.a, s.b)), "(if x == 0 then a else b) + y");
  EXPECT_EQ(to_dae(make_min(s.x, 2 * s.y) + make_max(s.a, 0)), "max(a, 0) + min(x, 2*y)");
  ex c = daec_or(daec_and(daec_lt(s.x, 0), daec_not(daec_or(daec_gt(s.y, 1), daec_lt(s.a, 0)))),
                 daec_ne(s.b, 0));
  EXPECT_EQ(to_dae(daec_if(c, 1, 0)), "if x < 0 and not (y > 1 or a < 0) or b <> 0 then 1 else 0");
  EXPECT_EQ(to_dae(daec_if(daec_lt(s.x + s.y, 2 * s.a), 1, 0)), "if x + y < 2*a then 1 else 0");
}

}  // namespace
}  // namespace daec
