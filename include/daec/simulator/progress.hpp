// The progress line of a simulator run (--progress, docs/simulator.md "Progress"): one line on
// stderr that a carriage return redraws, "sim: t = 0.52 of 2 (26%), 1234 steps", at most a few
// times a second and only once the run has lasted a second, so that a short run prints nothing.
// It is erased before anything else reaches the terminal: the statistics line, a warning, an
// error, and a CSV row when standard output is a terminal too. The clock and the writer are
// injected, so that tests drive it without waiting.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <utility>

namespace daec::simulator {

// Nothing is shown in a run's first second: a short run prints no progress at all.
constexpr double kProgressDelaySeconds = 1.0;
// At least this long between two redraws: five a second, readable and cheap.
constexpr double kProgressIntervalSeconds = 0.2;
// Significant digits of the times on the line: enough to see t move, short enough to read.
constexpr int kProgressDigits = 6;

class ProgressLine;

/// The progress line shown in this process, if any (one run at a time shows one).
inline ProgressLine*& active_progress_line() {
  static ProgressLine* line = nullptr;
  return line;
}

class ProgressLine {
 public:
  using Clock = std::function<double()>;                   // seconds, from any origin
  using Writer = std::function<void(const std::string&)>;  // where the line goes

  static double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  static void write_stderr(const std::string& text) { std::fputs(text.c_str(), stderr); }

  /// The line of a run from t_start to t_end; a disabled one never writes.
  ProgressLine(bool enabled, double t_start, double t_end, Clock clock = steady_seconds,
               Writer write = write_stderr)
      : enabled_(enabled),
        t_start_(t_start),
        t_end_(t_end),
        clock_(std::move(clock)),
        write_(std::move(write)),
        started_(enabled_ ? clock_() : 0.0) {
    if (enabled_) active_progress_line() = this;
  }
  ~ProgressLine() {
    clear();
    if (active_progress_line() == this) active_progress_line() = nullptr;
  }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// Whether the line is due for a redraw: past the first second, and the last redraw a fifth of
  /// a second ago. One reading of the clock; the caller counts the steps only when it says yes.
  bool due() {
    if (!enabled_) return false;
    now_ = clock_();
    return now_ - started_ >= kProgressDelaySeconds && now_ - drawn_ >= kProgressIntervalSeconds;
  }

  /// Draws the line for time t after `steps` steps (the caller asked due() first).
  void show(double t, long steps) {
    std::string line = "sim: t = " + short_number(t) + " of " + short_number(t_end_) + " (" +
                       std::to_string(percent(t)) + "%), " + std::to_string(steps) + " steps";
    const size_t length = line.size();
    if (line.size() < width_) line.append(width_ - line.size(), ' ');  // over the longer last
    write_("\r" + line);
    width_ = length;
    drawn_ = now_;
  }

  /// Erases the line if it is shown; the next redraw comes when due.
  void clear() {
    if (width_ == 0) return;
    write_("\r" + std::string(width_, ' ') + "\r");
    width_ = 0;
  }

 private:
  static std::string short_number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*g", kProgressDigits, value == 0.0 ? 0.0 : value);
    return text;
  }
  int percent(double t) const {
    const double fraction = (t - t_start_) / (t_end_ - t_start_);
    return static_cast<int>(std::floor(100 * std::min(std::max(fraction, 0.0), 1.0)));
  }

  const bool enabled_;
  const double t_start_, t_end_;
  Clock clock_;
  Writer write_;
  const double started_;
  double now_ = 0.0;
  double drawn_ = -std::numeric_limits<double>::infinity();
  size_t width_ = 0;  // of the line on the terminal; 0: none shown
};

/// Erases the progress line of the run, if one is shown: before a warning on stderr.
inline void clear_progress_line() {
  if (ProgressLine* line = active_progress_line()) line->clear();
}

}  // namespace daec::simulator
