// The event search of the Radau5 integrator (radau5.hpp): which part of the solution has been
// searched for roots of the event functions g(t, y) and their values there, the search of the
// next stretch (the first sign change located with the Illinois method of root_finder.hpp, on
// values the stepper gives from its dense output), the root tolerance, the restart offset after a
// root, and the directions of the last root (docs/integrators.md, "How the Radau code is
// organised").
//
// The search knows nothing of the problem or of the dense output: the stepper passes a function
// evaluate(t, g) that fills g at t and returns false when the event functions failed.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "daec/integrators/root_finder.hpp"

namespace daec {
namespace integrators {
namespace detail {

// The default root tolerance, relative to max(1, |t|).
constexpr double kRootTolerance = 1e-12;
// A function exactly zero at the scan's start takes its sign this many root tolerances later.
constexpr double kRootRestartOffset = 10.0;

/// The tolerance of a root in (t_lo, t_end]: `option` if positive, else kRootTolerance *
/// max(1, |t|) for every t in the interval (the root's too).
inline double root_tolerance(double option, double t_lo, double t_end) {
  return option > 0.0 ? option
                      : kRootTolerance * std::max(1.0, std::min(std::fabs(t_lo), std::fabs(t_end)));
}

enum class EventScan { none, root_found, failed };

class Radau5EventSearch {
 public:
  /// For m event functions; forgets what was searched.
  void resize(size_t m) {
    g_lo_.assign(m, 0.0);
    directions_.assign(m, 0);
  }
  size_t size() const { return g_lo_.size(); }
  bool empty() const { return g_lo_.empty(); }

  /// Starts the search at t, as at a (re)start: nothing behind t is searched, no root is
  /// reported. False if evaluate failed (at once, with no event functions: true).
  template <class Evaluate>
  bool start(double t, Evaluate&& evaluate) {
    std::fill(directions_.begin(), directions_.end(), 0);
    t_lo_ = t;
    return g_lo_.empty() || evaluate(t, g_lo_.data());
  }

  /// The end of the part searched so far; the next scan starts there.
  double searched_until() const { return t_lo_; }
  /// After root_found: the root, and per event function +1 (rose through 0), -1 (fell) or 0.
  double root() const { return t_lo_; }
  const std::vector<int>& directions() const { return directions_; }

  /// Searches (searched_until(), t_end] for the first root. root_found: the search continues
  /// after the root; none: up to t_end; failed (evaluate returned false): nothing changed.
  template <class Evaluate>
  EventScan scan(double t_end, double tolerance_option, Evaluate&& evaluate) {
    if (g_lo_.empty() || !(t_end > t_lo_)) {
      t_lo_ = std::max(t_lo_, t_end);
      return EventScan::none;
    }
    const double tolerance = root_tolerance(tolerance_option, t_lo_, t_end);
    // locate_first_root passes a nonzero return on; negative, it cannot be taken for a root.
    auto values = [&](double t, double* g) { return evaluate(t, g) ? 0 : -1; };
    std::vector<double> g_hi(g_lo_.size());
    double t_lo = t_lo_;
    std::vector<double> g_lo = g_lo_;
    if (!step_off_zeros(t_end, tolerance, values, t_lo, g_lo)) return EventScan::failed;
    if (values(t_end, g_hi.data()) != 0) return EventScan::failed;
    RootLocation root;
    const int found = locate_first_root(t_lo, g_lo, t_end, g_hi, tolerance, values, root);
    if (found < 0 || found > 1) return EventScan::failed;
    if (found == 0) {
      t_lo_ = t_end;
      g_lo_ = std::move(g_hi);
      return EventScan::none;
    }
    t_lo_ = root.t;
    g_lo_ = root.g;
    directions_ = root.directions;
    return EventScan::root_found;
  }

 private:
  /// A function exactly zero where the scan starts (a root just reported) takes its sign from a
  /// little later, so that the same root is not reported again. False if values failed.
  template <class Values>
  static bool step_off_zeros(double t_end, double tolerance, Values& values, double& t_lo,
                             std::vector<double>& g_lo) {
    if (std::find(g_lo.begin(), g_lo.end(), 0.0) == g_lo.end()) return true;
    t_lo = std::min(t_lo + kRootRestartOffset * tolerance, t_lo + 0.5 * (t_end - t_lo));
    return values(t_lo, g_lo.data()) == 0;
  }

  double t_lo_ = 0.0;            // searched up to here
  std::vector<double> g_lo_;     // g at t_lo_
  std::vector<int> directions_;  // of the last root
};

}  // namespace detail
}  // namespace integrators
}  // namespace daec
