// Putting the content of a sum back into its power (power_content.h).
#include "model/power_content.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "model/evaluation.h"
#include "model/expression_walk.h"

namespace daec {

using GiNaC::ex;
using GiNaC::numeric;

namespace {

// Roots larger than this are not tried exactly: a double no longer holds every integer.
constexpr double kMaxExactRoot = 9007199254740992.0;  // 2^53

// The integer r with r^n = p (p > 0), if there is one.
std::optional<numeric> integer_root(const numeric& p, long n) {
  double guess = std::exp(GiNaC::log(p).to_double() / static_cast<double>(n));
  if (!std::isfinite(guess) || guess > kMaxExactRoot) return std::nullopt;
  numeric r(static_cast<long>(std::llround(guess)));
  for (const numeric& candidate : {r - 1, r, r + 1}) {
    if (candidate.is_positive() && candidate.power(n) == p) return candidate;
  }
  return std::nullopt;
}

// |c|^(1/n) where it is a fraction.
std::optional<numeric> rational_root(const numeric& c, long n) {
  if (!c.is_rational()) return std::nullopt;
  std::optional<numeric> top = integer_root(c.numer(), n);
  std::optional<numeric> bottom = top ? integer_root(c.denom(), n) : std::nullopt;
  if (!bottom) return std::nullopt;
  return *top / *bottom;
}

// Whether every number in `e` has a double to stand for it.
bool within_double(const ex& e) {
  bool within = true;
  for_each_node(
      e,
      [&](const GiNaC::basic& node) {
        if (within && GiNaC::is_a<numeric>(node) &&
            !beyond_double(static_cast<const numeric&>(node)).empty())
          within = false;
        return within;
      },
      true);
  return within;
}

std::optional<ContentInPower> scale(const numeric& c, const ex& power, size_t index) {
  const ex& sum = power.op(0);
  long m = GiNaC::ex_to<numeric>(power.op(1)).to_long();
  long n = std::labs(m);
  std::optional<numeric> k = rational_root(c, n);
  if (k && m < 0) k = k->inverse();
  if (!k) {
    double log10_c = GiNaC::log(c).to_double() / std::log(10.0);
    k = numeric(10).power(numeric(std::lround(log10_c / static_cast<double>(m))));
  }
  ContentInPower result{index, *k * sum, c / k->power(m)};
  if (!beyond_double(result.rest).empty() || !within_double(result.scaled)) return std::nullopt;
  return result;
}

bool is_power_of_sum(const ex& e) {
  if (!GiNaC::is_exactly_a<GiNaC::power>(e) || !GiNaC::is_exactly_a<GiNaC::add>(e.op(0)) ||
      !GiNaC::is_a<numeric>(e.op(1)))
    return false;
  const numeric& m = GiNaC::ex_to<numeric>(e.op(1));
  return m.is_integer() && GiNaC::abs(m) >= 2 && GiNaC::abs(m) <= numeric(1L << 30);
}

}  // namespace

std::optional<ContentInPower> content_into_power(const numeric& coefficient,
                                                 const GiNaC::exvector& factors) {
  numeric c = GiNaC::abs(coefficient);
  if (!c.is_real() || c.is_zero()) return std::nullopt;
  std::vector<size_t> powers;
  for (size_t i = 0; i < factors.size(); ++i)
    if (is_power_of_sum(factors[i])) powers.push_back(i);
  auto order = [&](size_t i) { return GiNaC::abs(GiNaC::ex_to<numeric>(factors[i].op(1))); };
  std::stable_sort(powers.begin(), powers.end(),
                   [&](size_t a, size_t b) { return order(a) > order(b); });
  for (size_t i : powers) {
    if (std::optional<ContentInPower> found = scale(c, factors[i], i)) return found;
  }
  return std::nullopt;
}

}  // namespace daec
