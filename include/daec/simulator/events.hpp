// Events: the changes of a model's conditions along the solution (docs/language.md). Between two
// events every relation keeps the mode it was frozen at (the model's set_modes), so that the method
// sees one smooth branch of the right-hand side. After each internal step the relations' live
// values at its end are compared with their modes; where one differs, the earliest change within
// the step is located on the method's interpolant (the Illinois secant on the switching functions
// conditions(), bracketed by the relations' own values, to a few units of rounding in t).
// The run then writes the rows before it, sets the modes there, applies the resets of the when
// clauses that fire there (when_reset.hpp), projects the state onto the constraints (which may
// have changed with the modes) and restarts the method. Each change of a
// condition goes to the run's EventSink (the --events file, or the Python result's events). Models
// without conditions (num_conditions == 0) have no events and pay nothing. A switching value that
// is not finite, at a step's end or where the location evaluates it, is no change but a failed step
// (not_finite, step_redo.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <daec/runtime/system.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/integrator.hpp>
#include <daec/simulator/options.hpp>
#include <daec/simulator/output.hpp>
#include <daec/simulator/progress.hpp>
#include <daec/simulator/when_reset.hpp>

namespace daec::simulator {

// Chattering: this many switches of one condition in a row, each closer to its last than
// kChatteringSpacing times T - T0, end the run (a sliding mode, x' = if x < 1 then 1 else -1 at
// x = 1, would otherwise switch at every rounding unit of t and never get on). Counted per
// condition: a hundred diodes of an array that each switch once at nearly the same instant are
// no chattering. Nor is a switch that leaves the rates X' and the algebraic unknowns Z as they
// were (to kSameRates): a law that is continuous across its relation, such as a transistor's
// current at a drain-source voltage of 0, which is 0 on both sides, lets the solution rest on
// the relation's surface, and rounding may then cross it at every step.
constexpr int kMaxChatteringEvents = 100;
constexpr double kChatteringSpacing = 1e-9;
// Relative difference of X' and Z across a switch, against their largest magnitude, below which
// the switch changed nothing (rounding of the two branches' formulas at the same point).
constexpr double kSameRates = 1e-10;
// Resets of when clauses in a row, each closer to the last than kChatteringSpacing times T - T0
// and not evenly spaced (kEvenSpacing), that end the run: their instants accumulate (a bouncing
// ball with restitution e < 1 comes to rest after infinitely many bounces). Fewer than
// kMaxChatteringEvents: the flights shrink geometrically, and a hundred more would reach below
// the rounding of t.
constexpr int kMaxChatteringResets = 10;
// Intervals between resets that differ by at most this fraction are evenly spaced (a periodic
// reset, located to the tolerance).
constexpr double kEvenSpacing = 0.01;
// Rounds of re-initialization after an event while the modes it gives keep changing.
constexpr int kMaxSettleRounds = 100;
// Secant iterations allowed to locate one event (it takes a handful).
constexpr int kMaxRootIterations = 200;

/// Where the conditions change: the time and the state there (on the old branch's solution).
/// `not_finite` says what was not finite at t instead, if the interpolant led there: then t is
/// no event, and the step is redone (step_redo.hpp).
struct Event {
  double t = 0.0;
  std::vector<double> x;
  std::string not_finite;
  /// The state at the near end of the located bracket: just before the instant, where the
  /// conditions still had their old values (the values of when clauses are taken from it).
  std::vector<double> x_before;
  /// The when clauses that fired and the first condition that switched (set by Events::apply;
  /// a reset may switch conditions back at the same instant).
  std::vector<int> fired;
  int switched = -1;
  double t_before = 0.0;  // the time of x_before
};

/// Receives each change of a condition: the time, the condition's name and its new value.
using EventSink = std::function<void(double t, const std::string& condition, bool value)>;

class Events {
  const int n, count;

 public:
  Events(System& model, const Options& options, EventSink sink)
      : n(model.num_states),
        count(model.num_conditions),
        model_(model),
        spacing_(kChatteringSpacing * (options.t_end - options.t_start)),
        sink_(std::move(sink)),
        in_a_row_(static_cast<size_t>(count), 0),
        last_switch_(static_cast<size_t>(count), 0.0),
        rtol_(options.rtol),
        atol_(options.atol),
        quiet_(options.quiet) {}

  /// Whether the model has conditions to watch.
  bool watched() const { return count > 0; }

  /// Freezes every relation at its value at the start.
  void start(double t, const std::vector<double>& x) {
    if (count > 0) {
      if (const int status = model_.set_modes(t, x.data()))
        run_error("at t = " + text::format_number(t) + ": " + unsettled(status));
    }
  }

  /// Whether some relation's live value at (t, x) differs from its mode: it changed since the
  /// last event or the start.
  bool changed(double t, const std::vector<double>& x) const { return mismatch(t, x) >= 0; }

  /// What is not finite at (t, x), a step's end or a point of its interpolant: the time, a
  /// state or a condition's switching value, in words with the time; "" if everything is. A
  /// relation that is not a number compares false: taken as it is, it would be an event.
  std::string not_finite(double t, const std::vector<double>& x) const {
    return not_finite(t, x, nullptr);
  }

  /// The earliest change in (t_lo, t_hi], where the step ended with x_hi (checked finite), or
  /// the first point of the search where something is not finite.
  Event locate(double t_lo, double t_hi, const std::vector<double>& x_hi,
               Integrator& integrator) const {
    Event hi{t_hi, x_hi, "", {}, {}, -1};
    std::vector<double> x(static_cast<size_t>(n));
    integrator.interpolate(t_lo, x);
    std::vector<double> x_lo = x;
    std::vector<double> g_lo = switching(t_lo, x), g_hi = switching(t_hi, x_hi);
    if (std::string why = not_finite(t_lo, x, &g_lo); !why.empty())
      return {t_lo, x, why, {}, {}, -1};
    double lo = t_lo;
    const double tolerance = 100 * DBL_EPSILON * (std::fabs(t_hi) + (t_hi - t_lo));
    int k = mismatch(t_hi, x_hi), kept = 0;  // kept: +1 lo was kept last time, -1 hi
    double a = g_lo[k], b = g_hi[k];         // g_k at lo and hi, halved by Illinois
    for (int i = 0; i < kMaxRootIterations && hi.t - lo > tolerance; ++i) {
      double tau =
          (a < 0) != (b < 0) && a != b ? hi.t - b * (hi.t - lo) / (b - a) : 0.5 * (lo + hi.t);
      // Never at an end: a point tolerance/2 inside ends the search from either side.
      tau = std::min(std::max(tau, lo + 0.5 * tolerance), hi.t - 0.5 * tolerance);
      integrator.interpolate(tau, x);
      std::vector<double> g = switching(tau, x);
      if (std::string why = not_finite(tau, x, &g); !why.empty()) return {tau, x, why, {}, {}, -1};
      if (int j = mismatch(tau, x); j >= 0) {
        hi = {tau, x, "", {}, {}, -1};
        g_hi = g;
        if (j != k) kept = 0;
        k = j;
        a = kept == 1 ? 0.5 * a : g_lo[k];
        b = g_hi[k];
        kept = 1;
      } else {
        lo = tau;
        x_lo = x;
        g_lo = g;
        a = g_lo[k];
        b = kept == -1 ? 0.5 * b : g_hi[k];
        kept = -1;
      }
    }
    hi.x_before = x_lo;
    hi.t_before = lo;
    return hi;
  }

  /// Sets the modes at the event, applies the resets of the when clauses that fire, moves the
  /// state onto the constraints of the new branch (holding the continuous states where they
  /// allow), records the conditions that changed, and stops the run when they chatter.
  void apply(Event& event, const Integrator& integrator) {
    if (count == 0) {
      (void)event, (void)integrator;
      return;
    }
    std::unique_ptr<System> old = model_.num_when_clauses > 0 ? model_.copy() : nullptr;
    std::vector<double> before(model_.modes(), model_.modes() + count);
    const Rates old_rates = rates(event.t, event.x);
    if (const int status = model_.set_modes(event.t, event.x.data()))
      integrator.fail(event.t, unsettled(status));
    for (int k = 0; k < count && event.switched < 0; ++k)
      if (model_.modes()[k] != before[static_cast<size_t>(k)]) event.switched = k;
    std::string last = report_changes(event.t, before);
    if (!same_rates(old_rates, rates(event.t, event.x)))
      count_switches(event.t, before, integrator);
    const int m = model_.num_algebraic;
    ResetValues values{event.x, buffer(m), std::vector<char>(static_cast<size_t>(n + m), 0)};
    std::string cause = "the switch of " + text::quoted(last);
    if (old) {
      event.fired = fired_clauses(*old, model_, event.t, event.x);
      if (!event.fired.empty()) {
        const std::vector<double>& x_before = event.x_before.empty() ? event.x : event.x_before;
        values = reset_values(*old, model_, event.t, x_before, x_before, event.fired, integrator);
        if (fires_again(event, values.x) && fires_again(event, x_before))
          values = reset_values(*old, model_, event.t, x_before, event.x, event.fired, integrator);
        cause = clause_names(model_, event.fired);
        count_resets(event.t, model_.when_names[event.fired.back()], integrator);
      }
    }
    ++events_;
    if (!event.fired.empty()) {
      event.x = settle(event.t, values, cause, integrator);
    } else if (model_.num_invariants > 0) {
      // The modes stay those of the instant: a switch alone changes no state, and the
      // re-initialization moves only what the new branch defines (rounding of the rest).
      event.x = reinitialized(model_, event.t, values, cause, integrator);
      report_moved(event.t, values.x, event.x, values.held, cause);
    }
  }

  long count_events() const { return events_; }

 private:
  // X' and Z at (t, x) under the current modes; `ok` false where the model cannot evaluate them.
  struct Rates {
    bool ok = false;
    std::vector<double> values;  // X' then Z
  };
  Rates rates(double t, const std::vector<double>& x) const {
    Rates r;
    r.values.assign(static_cast<size_t>(n + model_.num_algebraic), 0.0);
    r.ok = model_.rhs(t, x.data(), r.values.data(), r.values.data() + n) == 0 &&
           text::first_not_finite(r.values.data(), n + model_.num_algebraic) < 0;
    return r;
  }

  // Whether a switch left X' and Z as they were (kSameRates), each against its own largest
  // magnitude (multipliers of 1e3 must not hide a rate of 1e-8 that changed sign): then it is
  // no chattering.
  bool same_rates(const Rates& a, const Rates& b) const {
    if (!a.ok || !b.ok) return false;
    auto same = [&](size_t begin, size_t end) {
      double largest = 0.0, change = 0.0;
      for (size_t i = begin; i < end; ++i) {
        largest = std::max({largest, std::fabs(a.values[i]), std::fabs(b.values[i])});
        change = std::max(change, std::fabs(a.values[i] - b.values[i]));
      }
      return change <= kSameRates * largest;
    };
    return same(0, static_cast<size_t>(n)) && same(static_cast<size_t>(n), a.values.size());
  }

  // Counts the switch of each condition whose mode differs from `before`; stops the run when one
  // has switched kMaxChatteringEvents times in a row, each within spacing_ of its last.
  void count_switches(double t, const std::vector<double>& before, const Integrator& integrator) {
    for (int k = 0; k < count; ++k) {
      const size_t i = static_cast<size_t>(k);
      if (model_.modes()[k] == before[i]) continue;
      in_a_row_[i] = in_a_row_[i] > 0 && t - last_switch_[i] <= spacing_ ? in_a_row_[i] + 1 : 1;
      last_switch_[i] = t;
      if (in_a_row_[i] >= kMaxChatteringEvents)
        integrator.fail(t, "the condition " + text::quoted(model_.condition_names[k]) +
                               " switched " + std::to_string(in_a_row_[i]) +
                               " times in a row, each within " + text::format_number(spacing_) +
                               " of the last (chattering: neither branch can be followed)");
    }
  }

  // Sends each condition whose mode differs from `before` to the sink; the last one's name.
  std::string report_changes(double t, const std::vector<double>& before) {
    std::string last;
    for (int k = 0; k < count; ++k) {
      if (model_.modes()[k] == before[static_cast<size_t>(k)]) continue;
      last = model_.condition_names[k];
      if (sink_) sink_(t, last, model_.modes()[k] > 0);
    }
    return last;
  }

  // The state after a reset: `values` (the state at the instant with what the resets set) made
  // consistent under the modes it gives. A reset may switch relations that select the equations
  // (the branch that defines a promoted unknown), so the modes are set again at the result and
  // the re-initialization repeated under them until they hold. Continuous states that the
  // constraints moved are reported (docs/simulator.md, "Resets").
  std::vector<double> settle(double t, ResetValues values, const std::string& cause,
                             const Integrator& integrator) {
    const std::vector<double> at_instant = values.x;
    for (int round = 1;; ++round) {
      std::vector<double> x = model_.num_invariants > 0
                                  ? reinitialized(model_, t, values, cause, integrator)
                                  : values.x;
      std::vector<double> modes(model_.modes(), model_.modes() + count);
      if (const int status = model_.set_modes(t, x.data())) integrator.fail(t, unsettled(status));
      (void)report_changes(t, modes);
      if (std::equal(modes.begin(), modes.end(), model_.modes())) {
        report_moved(t, at_instant, x, values.held, cause);
        return x;
      }
      if (round == kMaxSettleRounds)
        integrator.fail(t, "the modes of the conditions do not settle after " + cause + " (" +
                               std::to_string(kMaxSettleRounds) +
                               " rounds of re-initialization, each switching some of them)");
      values.x = x;
    }
  }

  // Whether a clause of `event.fired` would fire again at once from the state `x`: its condition
  // false there and true a few bracket widths on along the solution. Where it would from the
  // state the resets give, carried from the near end of the bracket, and from that near end
  // itself, the resets did not turn the solution back from the condition (x' = -1 crossing
  // x < 0.5 while only c is reset): the states they do not set are then carried from the far end
  // instead, where the condition holds, and it stays true, as in Modelica, until the solution
  // crosses back. Where the resets turned it back (a bounce, h < 0 with v reversed) the near end
  // is kept: the condition is false as the run restarts, so a step that ends beyond the next
  // crossing still sees it change; and where only the resets make it fire again (a spurious
  // crossing that reverses a rising ball), it does, and the chattering guard stops the run.
  bool fires_again(const Event& event, const std::vector<double>& x) const {
    const double dt = std::max(4 * (event.t - event.t_before),
                               64 * DBL_EPSILON * std::max(std::fabs(event.t), 1.0));
    std::vector<double> f = buffer(n), ahead = x;
    if (model_.rhs(event.t, x.data(), f.data(), nullptr) != 0) return false;
    for (int i = 0; i < n; ++i) ahead[static_cast<size_t>(i)] += dt * f[static_cast<size_t>(i)];
    const std::unique_ptr<System> here = model_.copy(), later = model_.copy();
    if (here->set_modes(event.t, x.data()) != 0 ||
        later->set_modes(event.t + dt, ahead.data()) != 0)
      return false;
    for (int clause : fired_clauses(*here, *later, event.t + dt, ahead))
      if (std::find(event.fired.begin(), event.fired.end(), clause) != event.fired.end())
        return true;
    return false;
  }

  // Counts the resets in a row whose instants accumulate: each closer to the last than spacing_,
  // and at the rounding of t or not evenly spaced (a bouncing ball coming to rest: flights that
  // shrink, regularly or, located by a low-order method, irregularly). Evenly spaced resets,
  // however close (a sawtooth of 5 us over 1e4 s; a pulse train of two clauses), do not
  // accumulate: an interval within kEvenSpacing of the one or the two before. Stops the run at
  // kMaxChatteringResets in a row.
  void count_resets(double t, const std::string& clause, const Integrator& integrator) {
    const double interval = t - last_reset_;
    const auto even = [&](double other) {
      return other > 0.0 && std::fabs(interval - other) <= kEvenSpacing * std::max(interval, other);
    };
    const bool at_rounding = interval <= 64 * DBL_EPSILON * std::max(std::fabs(t), 1.0);
    const bool accumulates = resets_ > 0 && interval <= spacing_ &&
                             (at_rounding || !(even(intervals_[0]) || even(intervals_[1])));
    resets_in_a_row_ = accumulates ? resets_in_a_row_ + 1 : 1;
    if (resets_ > 0) intervals_ = {interval, intervals_[0]};
    ++resets_;
    last_reset_ = t;
    if (resets_in_a_row_ >= kMaxChatteringResets)
      integrator.fail(t, "the when clause " + text::quoted(clause) + " fired " +
                             std::to_string(resets_in_a_row_) + " times in a row, each within " +
                             text::format_number(spacing_) +
                             " of the last and not evenly spaced (chattering: its instants "
                             "accumulate)");
  }

  // Reports the continuous states that nothing held but the constraints moved at t.
  void report_moved(double t, const std::vector<double>& before, const std::vector<double>& after,
                    const std::vector<char>& held, const std::string& cause) const {
    if (quiet_) return;
    const std::vector<int> moved =
        moved_continuous_states(model_, before, after, held, rtol_, atol_);
    if (moved.empty()) return;
    clear_progress_line();
    std::fprintf(stderr,
                 "sim: at t = %s the constraints moved %zu continuous state%s after %s (before -> "
                 "after; nothing reset %s):\n",
                 text::format_number(t).c_str(), moved.size(), moved.size() == 1 ? "" : "s",
                 cause.c_str(), moved.size() == 1 ? "it" : "them");
    for (int i : moved)
      std::fprintf(stderr, "sim:   %s: %s -> %s\n", model_.state_names[i],
                   text::format_number(before[static_cast<size_t>(i)]).c_str(),
                   text::format_number(after[static_cast<size_t>(i)]).c_str());
  }

  // Why set_modes failed (a relation that compares algebraic unknowns is settled with them).
  static std::string unsettled(int status) {
    if (status == 3)
      return "the modes of the conditions do not settle: setting the conditions that compare "
             "algebraic unknowns from the unknowns they give cycles (no set of modes holds)";
    return "the algebraic unknowns cannot be solved for (" +
           std::string(status == 1 ? "A is singular" : "not finite") +
           ") to set the modes of the conditions that compare them";
  }

  // The first condition whose live value at (t, x) differs from its mode, or -1. A relation that
  // compares algebraic unknowns is evaluated with Z solved under the current modes (where
  // set_modes fails, the modes it leaves are those values).
  // not_finite(t, x) with the switching values at (t, x), if the caller has them (`g`), used
  // instead of evaluating them again.
  std::string not_finite(double t, const std::vector<double>& x,
                         const std::vector<double>* g) const {
    if (!std::isfinite(t)) return "the time reached is " + text::format_number(t);
    const std::string at = " at t = " + text::format_number(t);
    if (const int i = text::first_not_finite(x.data(), n); i >= 0)
      return "the state " + text::quoted(model_.state_names[i]) + " is " +
             text::format_number(x[static_cast<size_t>(i)]) + at;
    if (count == 0) return "";
    const std::vector<double> evaluated = g == nullptr ? switching(t, x) : std::vector<double>();
    const std::vector<double>& values = g == nullptr ? evaluated : *g;
    for (int k = 0; k < count; ++k)
      if (!std::isfinite(values[static_cast<size_t>(k)]))
        return "the switching function of the condition " +
               text::quoted(model_.condition_names[k]) + " is " +
               text::format_number(values[static_cast<size_t>(k)]) + at;
    return "";
  }

  int mismatch(double t, const std::vector<double>& x) const {
    if (count > 0) {
      const std::unique_ptr<System> live = model_.copy();
      (void)live->set_modes(t, x.data());
      for (int k = 0; k < count; ++k)
        if (live->modes()[k] != model_.modes()[k]) return k;
    } else {
      (void)t, (void)x;
    }
    return -1;
  }

  std::vector<double> switching(double t, const std::vector<double>& x) const {
    std::vector<double> g(static_cast<size_t>(count > 0 ? count : 1));
    if (count > 0) model_.conditions(t, x.data(), g.data());
    (void)t, (void)x;
    return g;
  }

  System& model_;
  double spacing_;
  EventSink sink_;
  long events_ = 0;
  std::vector<int> in_a_row_;        // per condition: its switches in a row (count_switches)
  std::vector<double> last_switch_;  // per condition: the time of its last switch
  long resets_ = 0;
  int resets_in_a_row_ = 0;
  double last_reset_ = 0.0;
  std::array<double, 2> intervals_{};  // between the last resets, the latest first
  double rtol_, atol_;
  bool quiet_;
};

}  // namespace daec::simulator
