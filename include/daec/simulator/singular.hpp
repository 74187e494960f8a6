// Singular points along the solution (docs/simulator.md, "Singular points"). Where A(X, t), the
// algebraic block rhs solves, or the constraint Jacobian dh/dX the projection uses loses rank,
// the reduced system does not determine the solution: an integrator steps across such a point
// and goes on along whichever branch its iterations find, and ends with status 0 and a wrong
// answer. After every step the run asks the model for the conditioning of both matrices
// (algebraic_condition, invariants_condition of the model) at the ends and the middle of the
// step, and for the sign of det(A). A change of sign between two steps means a singular point
// was crossed even where both ends are well conditioned: it is located by bisection on the
// method's interpolant. A saddle-point system (a linkage with Lagrange multipliers) loses rank
// without a change of sign: there the estimate peaks within the step, and the peak is followed
// on the interpolant to its top. --on-singular stop (the default) ends the run there, naming the
// instant, the equations and the unknowns; warn reports it on stderr and goes on.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/runtime/system.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/integrator.hpp>
#include <daec/simulator/options.hpp>
#include <daec/simulator/progress.hpp>

namespace daec::simulator {

// A condition estimate beyond this counts as singular: solving with it leaves fewer than six of
// a double's sixteen digits, less than the default tolerances ask for.
constexpr double kSingularCondition = 1e10;
// A peak of the condition estimate above this (within a step) is followed to its top: a
// singular point the step passed quickly. A well scaled regular model stays far below it.
constexpr double kSuspectCondition = 1e4;
// A sample above this that is higher than the samples on both sides of it (the middle of the
// step before included) is a peak too, and followed. Near a singular point the estimate grows
// like c / |t - t*|^2: the samples, half a step apart, reach kSuspectCondition only where one
// falls close enough to t*. `bdf` crossed the rhombus linkage's collinear instant
// (tests/data/rhombus_linkage.dae) with samples of 3.2e3 at the start of a step (313 half a step
// before it), 2.3e3 in its middle and 279 at its end, and went on as a parallelogram unwarned.
constexpr double kPeakCondition = 1e3;
// A peak followed on the interpolant to a top this many times the step's largest sample (and
// above kSuspectCondition) is a singular point the path passed close by, whatever its height.
// The estimate of a regular A follows the solution, which the step resolves: its top lies within
// a small factor of the samples. Near a singular point it grows like c / (|t - t*|^2 + d^2),
// where d is how far the computed path passes from the singular configuration: `bdf` at
// --rtol 1e-6 --atol 1e-6 passes the rhombus linkage's collinear instant
// (tests/data/rhombus_linkage.dae) with a top below kSingularCondition, found only so (as `ida`
// held to a hundredth of its tolerances did, with samples up to 8.8e5 and a top of 4.5e9).
constexpr double kNarrowPeakRise = 1e3;
// Bisection of a sign change of det(A) stops at a bracket this small relative to max(|t|, 1).
constexpr double kSingularLocateTolerance = 1e-13;
constexpr int kSingularLocateIterations = 200;
// At most this many unknowns and equations are named in a message.
constexpr size_t kSingularNamesShown = 8;

/// What the model's two condition checks say at one point.
struct Conditioning {
  double algebraic = 1.0;   // the model's algebraic_condition
  int unknown = -1;         // ... its weakest pivot's z
  int sign = 1;             // sign of det(A), 0 where singular
  double invariants = 1.0;  // the model's invariants_condition
  int invariant = -1;       // ... its weakest pivot's hidden constraint
  bool singular() const {
    return !(algebraic <= kSingularCondition) || !(invariants <= kSingularCondition);
  }
  // The larger estimate (infinity where one of them is), for comparing points.
  double largest() const { return std::max(algebraic, invariants); }
};

/// The checks at (t, x); a model without them (written by hand) is taken as regular everywhere.
inline Conditioning conditioning(const System& model, double t, const std::vector<double>& x) {
  Conditioning c;
  if (model.has_condition_checks) {
    c.algebraic = model.algebraic_condition(t, x.data(), &c.unknown, &c.sign);
    c.invariants = model.invariants_condition(t, x.data(), &c.invariant);
  }
  return c;
}

/// "a, b, c" of at most kSingularNamesShown names, "... and N more" after them.
inline std::string some_names(const std::vector<std::string>& names) {
  std::vector<std::string> shown(names.begin(),
                                 names.begin() + std::min(names.size(), kSingularNamesShown));
  std::string list = text::join(shown);
  if (names.size() > shown.size())
    list += " and " + std::to_string(names.size() - shown.size()) + " more";
  return list;
}

/// A condition estimate in two digits ("3.1e+12", "inf").
inline std::string estimate(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2g", value);
  return buffer;
}

/// What loses rank at a singular point: the block of A holding the weakest pivot (its equations
/// and unknowns), and dh/dX where it is singular too.
inline std::string singular_matrices(const System& model, const Conditioning& c,
                                     double threshold = kSingularCondition) {
  std::string what;
  if (!(c.algebraic <= threshold) || c.sign == 0) {
    std::vector<std::string> equations, unknowns;
    if (c.unknown >= 0) {
      for (int j = 0; j < model.num_algebraic; ++j) {
        if (model.algebraic_block[j] != model.algebraic_block[c.unknown]) continue;
        equations.push_back(model.algebraic_equation[j]);
        unknowns.push_back(model.algebraic_names[j]);
      }
    }
    what = "A(X, t) loses rank (condition estimate " + estimate(c.algebraic) + ")";
    if (!unknowns.empty())
      what +=
          ": the equations " + some_names(equations) + " do not determine " + some_names(unknowns);
  }
  if (!(c.invariants <= threshold)) {
    if (!what.empty()) what += "; ";
    what += "the constraint Jacobian dh/dX loses rank (condition estimate " +
            estimate(c.invariants) + ")";
    if (c.invariant >= 0)
      what += std::string(", at the hidden constraint ") + model.invariant_names[c.invariant];
  }
  return what;
}

/// Watches the solution for singular points, step after step.
class SingularityMonitor {
 public:
  SingularityMonitor(const System& model, OnSingular action)
      : model_(model), action_(action), x_(static_cast<size_t>(std::max(model.num_states, 1))) {}

  /// The start of the run, or of a stretch after an event (A may change with the branch).
  void start(double t, const std::vector<double>& x) {
    last_ = conditioning(model_, t, x);
    last_t_ = t;
    previous_centre_ = 0.0;
    if (last_.singular()) report(t, last_, "");
  }

  /// After a step from t_previous to (t, x). Besides both ends, the condition is sampled in the
  /// middle of the step: a singular point whose neighbourhood the step passed quickly shows as a
  /// peak of the estimate, which is then followed on the interpolant to its top.
  void check(double t_previous, double t, const std::vector<double>& x, Integrator& integrator) {
    const Conditioning before = last_;
    const double previous_centre = previous_centre_;
    previous_centre_ = 0.0;
    last_ = conditioning(model_, t, x);
    last_t_ = t;
    if (last_.singular()) {
      // The nearest point to the singularity may lie inside the step; warn once for a stretch.
      if (!before.singular()) climb(t_previous, t, integrator, last_.largest(), true);
      return;
    }
    if (before.sign != 0 && last_.sign != 0 && last_.sign != before.sign) {
      locate(t_previous, before.sign, t, integrator);
      return;
    }
    const double middle = t_previous + 0.5 * (t - t_previous);
    const Conditioning centre = at(middle, integrator);
    previous_centre_ = centre.largest();
    const double top = std::max({before.largest(), centre.largest(), last_.largest()});
    if (!(top >= kSuspectCondition)) {
      // A lower peak of the samples: at the step's start (followed up to the middle, where the
      // interpolant of this step begins) or in its middle.
      if (before.largest() >= kPeakCondition && before.largest() > previous_centre &&
          before.largest() > centre.largest()) {
        climb(t_previous, middle, integrator, top);
      } else if (centre.largest() >= kPeakCondition && centre.largest() > before.largest() &&
                 centre.largest() > last_.largest()) {
        climb(t_previous, t, integrator, top);
      }
      return;
    }
    if (centre.largest() >= top) {
      climb(t_previous, t, integrator, top);
    } else if (last_.largest() >= top) {
      climb(middle, t, integrator, top);
    } else {
      climb(t_previous, middle, integrator, top);
    }
  }

  /// A failure of the method (its step size vanished, its iterations diverged) near a singular
  /// point says so: the conditioning at the last step reached. True if it did.
  bool explain(Failure& failure) const {
    if (!(last_.largest() >= kSuspectCondition)) return false;
    failure.notes.push_back(
        "the reduced system is nearly singular where the integration stopped (t = " +
        text::format_number(last_t_) + "): " + singular_matrices(model_, last_, kSuspectCondition));
    return true;
  }

 private:
  Conditioning at(double t, Integrator& integrator) {
    integrator.interpolate(t, x_);
    return conditioning(model_, t, x_);
  }

  // Golden-section search for the largest condition estimate in [low, high] on the interpolant;
  // reports the top as a singular point if it passes kSingularCondition (or `singular`: the end
  // of the step is), or rises kNarrowPeakRise times above `sampled`, the step's largest sample.
  // It stops once the bracket is at rounding level or the best estimate has grown by less than
  // 1% over the last iterations (a regular peak: near a singular point the estimate grows
  // without bound as the bracket shrinks, up to where the path passes closest).
  void climb(double low, double high, Integrator& integrator, double sampled,
             bool singular = false) {
    constexpr double kGolden = 0.6180339887498949;
    const double tolerance = kSingularLocateTolerance * std::max({std::fabs(high), 1.0});
    double left = high - kGolden * (high - low), right = low + kGolden * (high - low);
    Conditioning c_left = at(left, integrator), c_right = at(right, integrator);
    // A's estimate first: dh/dX's Gram matrix reaches rounding level (an infinite estimate) long
    // before A's pivots do, so that A's tells the points nearest the singularity apart.
    auto better = [](const Conditioning& a, const Conditioning& b) {
      return a.algebraic != b.algebraic ? a.algebraic > b.algebraic : a.invariants > b.invariants;
    };
    Conditioning best = better(c_left, c_right) ? c_left : c_right;
    double best_t = better(c_left, c_right) ? left : right;
    int flat = 0;
    for (int i = 0; i < kSingularLocateIterations && high - low > tolerance && flat < 6; ++i) {
      if (!better(c_right, c_left)) {
        high = right;
        right = left;
        c_right = c_left;
        left = high - kGolden * (high - low);
        c_left = at(left, integrator);
      } else {
        low = left;
        left = right;
        c_left = c_right;
        right = low + kGolden * (high - low);
        c_right = at(right, integrator);
      }
      const bool left_better = better(c_left, c_right);
      const Conditioning& now = left_better ? c_left : c_right;
      const bool grew = now.algebraic > 1.01 * best.algebraic ||
                        now.invariants > 1.01 * best.invariants || now.singular();
      flat = grew ? 0 : flat + 1;
      if (better(now, best)) {
        best = now;
        best_t = left_better ? left : right;
      }
    }
    // The step's end is singular but no point inside it is more so: the end is the point to
    // name (reporting `best` would name no matrix, as none passed the threshold there).
    if (singular && !best.singular()) best = last_, best_t = last_t_;
    const bool narrow =
        best.largest() >= kSuspectCondition && best.largest() >= kNarrowPeakRise * sampled;
    if (singular || best.singular()) {
      report(best_t, best, "");
    } else if (narrow) {
      report(best_t, best, " (a narrow peak of the condition estimate)", kSuspectCondition);
    }
  }

  // det(A) has sign `sign_before` at `before` and the other sign at `after`: bisects on the
  // interpolant of the last step. A singular point ends with a large condition estimate beside
  // it, or, where the estimate cannot show it (a 1 x 1 block x z = x cos(t): its pivot scaled by
  // its own column is always 1), with |det A| far below its size at the ends of the step (at
  // the larger: one end may be the singular point itself); a jump of A (a coefficient such as
  // abs or sign that changes sign there) has neither.
  void locate(double before, int sign_before, double after, Integrator& integrator) {
    const double tolerance = kSingularLocateTolerance * std::max({std::fabs(after), 1.0});
    const double ends =
        std::max(log_determinant(before, integrator), log_determinant(after, integrator));
    Conditioning worst;
    worst.algebraic = 0.0;
    double worst_t = after, least = std::numeric_limits<double>::infinity();
    for (int i = 0; i < kSingularLocateIterations && after - before > tolerance; ++i) {
      const double middle = before + 0.5 * (after - before);
      if (!(middle > before && middle < after)) break;
      Conditioning c = at(middle, integrator);
      least = std::min(least, model_.algebraic_log_determinant(middle, x_.data()));
      if (!(c.algebraic <= worst.algebraic)) {
        worst = c;
        worst_t = middle;
      }
      if (c.sign == 0) break;
      (c.sign == sign_before ? before : after) = middle;
    }
    // |det A| at the bracket below 1/kSingularCondition of its size at an end of the step.
    const bool vanished = least < ends - std::log(kSingularCondition);
    if (vanished && !worst.singular()) {
      worst.algebraic = std::numeric_limits<double>::infinity();
      worst_t = before + 0.5 * (after - before);
    }
    if (worst.singular() || worst.sign == 0) report(worst_t, worst, " (det A changes sign there)");
  }

  // log |det A| on the interpolant at t (NaN for a model without the check).
  double log_determinant(double t, Integrator& integrator) {
    integrator.interpolate(t, x_);
    return model_.algebraic_log_determinant(t, x_.data());
  }

  // `threshold`: the estimate above which a matrix is named as the one that loses rank.
  void report(double t, const Conditioning& c, const std::string& how,
              double threshold = kSingularCondition) {
    const std::string message = "the reduced system is singular at t = " + text::format_number(t) +
                                how + ": " + singular_matrices(model_, c, threshold);
    if (action_ == OnSingular::stop) {
      std::vector<std::string> notes{
          "past this point the model does not determine the solution: an integrator may go on "
          "along any branch through it",
          "--on-singular warn reports such points and goes on"};
      // A combination's weights (minors of the reduction's B) may vanish where the model itself
      // is regular (docs/reduction.md, "Combinations").
      if (message.find("comb(") != std::string::npos)
        notes.push_back(
            "equations comb(...) combine the model's; where their weights vanish A is singular "
            "though the model may not be (daec --combinations nest or auto combine more rows; "
            "the default, promote, combines only rows whose dependency is numerical)");
      run_error(message, notes);
    }
    if (t == last_warning_) return;
    last_warning_ = t;
    clear_progress_line();
    std::fprintf(stderr, "sim: warning: %s\n", message.c_str());
  }

  const System& model_;
  OnSingular action_;
  std::vector<double> x_;  // scratch for the interpolant
  Conditioning last_;      // at the end of the last step, last_t_
  double last_t_ = 0.0;
  double previous_centre_ = 0.0;  // the largest estimate in the middle of the last step (0: none)
  double last_warning_ = std::nan("");
};

}  // namespace daec::simulator
