// Locating the first root of several event functions g_i(t) on an interval [t_lo, t_hi] where
// they are known at both ends: the Illinois variant of the secant method on the component whose
// secant root comes first, bracketing all components at once (the algorithm of Hiebert and
// Shampine's ROOT, as in SUNDIALS CVODE's rootfinding). A root is a strict sign change of g_i,
// or g_i becoming exactly zero at the right end.
#pragma once

#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace daec {
namespace integrators {

struct RootLocation {
  double t = 0.0;               ///< right end of the final bracket: the root, within tolerance
  std::vector<double> g;        ///< g at t
  std::vector<int> directions;  ///< per component: +1 rose through 0, -1 fell, 0 no root
};

namespace detail {
inline bool strict_sign_change(double a, double b) {
  return (a < 0.0 && b > 0.0) || (a > 0.0 && b < 0.0);
}
inline bool reaches_zero(double a, double b) {
  return strict_sign_change(a, b) || (b == 0.0 && a != 0.0);
}
}  // namespace detail

/// Finds the first root in (t_lo, t_hi] of the functions whose values at the ends are g_lo and
/// g_hi, to |error| <= tolerance. evaluate(t, g) fills g at t in between and returns 0, or
/// nonzero to give up. Returns 1 (root found, `out` filled), 0 (no sign change in the interval)
/// or the nonzero value evaluate returned.
template <class Evaluate>
int locate_first_root(double t_lo, std::vector<double> g_lo, double t_hi, std::vector<double> g_hi,
                      double tolerance, Evaluate&& evaluate, RootLocation& out) {
  using detail::reaches_zero;
  using detail::strict_sign_change;
  const size_t m = g_lo.size();
  auto any = [&](const std::vector<double>& a, const std::vector<double>& b,
                 bool (*test)(double, double)) {
    for (size_t i = 0; i < m; ++i)
      if (test(a[i], b[i])) return true;
    return false;
  };
  if (!any(g_lo, g_hi, reaches_zero)) return 0;
  std::vector<double> g_mid(m);
  double alpha = 1.0;  // Illinois weight on g_lo
  int previous_side = 0;
  // Illinois converges superlinearly; the bound only guards against a g that is not continuous.
  for (int iteration = 0; iteration < 200 && t_hi - t_lo > tolerance; ++iteration) {
    // The component whose secant root lies earliest: the largest fraction g_hi / (g_hi - g_lo).
    int chosen = -1;
    double largest = 0.0;
    for (size_t i = 0; i < m; ++i) {
      if (!strict_sign_change(g_lo[i], g_hi[i])) continue;
      double fraction = std::fabs(g_hi[i] / (g_hi[i] - g_lo[i]));
      if (chosen < 0 || fraction > largest) {
        largest = fraction;
        chosen = static_cast<int>(i);
      }
    }
    if (chosen < 0) break;  // only components that are exactly zero at t_hi: the root is t_hi
    const double lo = g_lo[static_cast<size_t>(chosen)], hi = g_hi[static_cast<size_t>(chosen)];
    const double width = t_hi - t_lo;
    double t_mid = t_hi - width * hi / (hi - alpha * lo);
    // Keep t_mid inside the bracket and at least half a tolerance from either end.
    const double fraction_of_width = width / tolerance > 5.0 ? 0.1 : 0.5 * tolerance / width;
    if (!(t_mid - t_lo >= 0.5 * tolerance)) t_mid = t_lo + fraction_of_width * width;
    if (!(t_hi - t_mid >= 0.5 * tolerance)) t_mid = t_hi - fraction_of_width * width;
    int status = evaluate(t_mid, g_mid.data());
    if (status != 0) return status;
    int side;
    if (any(g_lo, g_mid, strict_sign_change)) {
      t_hi = t_mid;
      g_hi = g_mid;
      side = 1;
    } else if (any(g_lo, g_mid, reaches_zero)) {  // exactly zero at t_mid: that is the root
      t_hi = t_mid;
      g_hi = g_mid;
      break;
    } else {
      t_lo = t_mid;
      g_lo = g_mid;
      side = 2;
    }
    // Illinois: when the same end is kept twice, halve its function value's weight.
    if (side == previous_side)
      alpha = side == 2 ? 2.0 * alpha : 0.5 * alpha;
    else
      alpha = 1.0;
    previous_side = side;
  }
  out.t = t_hi;
  out.directions.assign(m, 0);
  for (size_t i = 0; i < m; ++i)
    if (reaches_zero(g_lo[i], g_hi[i])) out.directions[i] = g_hi[i] > g_lo[i] ? 1 : -1;
  out.g = std::move(g_hi);
  return 1;
}

}  // namespace integrators
}  // namespace daec
