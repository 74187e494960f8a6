// The graph walks of reduction/shared_expressions.h against GiNaC's own tree walks, on random
// expressions that share subexpressions.
#include "reduction/shared_expressions.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "model/conditions.h"
#include "model/evaluation.h"

namespace {

using GiNaC::ex;

// A random expression of `steps` operations over x, y, z, each combining earlier results (so
// that later ones share earlier ones, as a differentiated constraint does).
ex random_shared(std::mt19937& random, const std::vector<ex>& symbols, int steps) {
  std::vector<ex> parts = symbols;
  parts.push_back(GiNaC::numeric(3, 2));
  for (int i = 0; i < steps; ++i) {
    std::uniform_int_distribution<size_t> pick(0, parts.size() - 1);
    const ex& a = parts[pick(random)];
    const ex& b = parts[pick(random)];
    switch (std::uniform_int_distribution<int>(0, 8)(random)) {
      case 0:
        parts.push_back(a + b);
        break;
      case 1:
        parts.push_back(a - 2 * b);
        break;
      case 2:
        parts.push_back(a * b);
        break;
      case 3:
        parts.push_back(-a * b * symbols[0]);
        break;
      case 4:
        parts.push_back(GiNaC::pow(a, 3));
        break;
      case 5:
        parts.push_back(GiNaC::sin(a) + GiNaC::exp(b));
        break;
      case 6:
        parts.push_back(GiNaC::pow(a, b));
        break;
      case 7:
        parts.push_back(daec::daec_if(daec::daec_lt(a, b), a * b, GiNaC::cos(a)));
        break;
      default:
        parts.push_back(GiNaC::pow(a + 1, -1) * GiNaC::sqrt(b));
        break;
    }
  }
  return parts.back() + parts[parts.size() / 2];
}

TEST(SharedExpressions, DerivativeIsGiNaCsDerivative) {
  GiNaC::realsymbol x("x"), y("y"), z("z");
  std::mt19937 random(7);
  for (int trial = 0; trial < 200; ++trial) {
    ex e = random_shared(random, {x, y, z}, 12);
    for (const GiNaC::realsymbol& s : {x, y, z}) {
      ex expected = e.diff(s);
      ex actual = daec::shared_derivative(e, s);
      EXPECT_TRUE(actual.is_equal(expected))
          << e << " by " << s << ": " << actual << " vs " << expected;
    }
  }
}

TEST(SharedExpressions, SubstitutionIsGiNaCsSubstitution) {
  GiNaC::realsymbol x("x"), y("y"), z("z");
  std::mt19937 random(11);
  GiNaC::exmap values{{x, 0}, {y, z + 2}};
  for (int trial = 0; trial < 200; ++trial) {
    ex e = random_shared(random, {x, y, z}, 12);
    ex actual;
    try {
      actual = daec::shared_substitute(e, values);
    } catch (const std::exception&) {
      // 1/0 at x = 0: node-by-node evaluation meets it too. (Not GiNaC's own subs, which leaks
      // what it was building when it throws.)
      EXPECT_ANY_THROW(daec::evaluate_bounded(e, {{x, 0}, {y, 3}, {z, 1}}));
      continue;
    }
    ex expected = e.subs(values, GiNaC::subs_options::no_pattern);
    EXPECT_TRUE((actual - expected).expand().is_zero())
        << e << ": " << actual << " vs " << expected;
  }
}

}  // namespace
