// The axes of --plot: the range an axis covers, its tick positions and how a tick is printed.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace daec::simulator {

/// An axis' extent in data units, low < high.
struct AxisRange {
  double low, high;
};

// Space left beyond the data on either side of a value axis, as a fraction of its extent.
constexpr double kAxisPadding = 0.05;
// An axis spans at least this fraction of the magnitude of its values: its ticks, printed to six
// digits, stay distinct, and values that differ only by rounding are drawn as the constant they
// are.
constexpr double kSmallestRelativeExtent = 1e-5;
// More ticks than this on an axis is a bug in the spacing, never drawn.
constexpr double kMaxTicks = 100;

/// The range of `values` (every value of every vector), widened by kAxisPadding (and to
/// kSmallestRelativeExtent), or around the single value (half its size, at least 0.5) when they
/// are all equal. Empty: [0, 1].
inline AxisRange value_range(const std::vector<const std::vector<double>*>& values) {
  double low = HUGE_VAL, high = -HUGE_VAL;
  for (const std::vector<double>* v : values)
    for (double x : *v) low = std::min(low, x), high = std::max(high, x);
  if (low > high) return {0, 1};
  if (!(high > low)) {
    const double pad = std::max(1.0, std::fabs(low)) * 0.5;
    return {low - pad, high + pad};
  }
  const double pad = kAxisPadding * (high - low);
  const double smallest = kSmallestRelativeExtent * std::max(std::fabs(low), std::fabs(high));
  if (high - low + 2 * pad < smallest) {
    const double middle = low / 2 + high / 2;
    return {middle - smallest / 2, middle + smallest / 2};
  }
  return {low - pad, high + pad};
}

/// The time axis: exactly from the first to the last time (one more unit when they agree).
inline AxisRange time_range(const std::vector<double>& t) {
  if (t.empty()) return {0, 1};
  return {t.front(), t.back() > t.front() ? t.back() : t.front() + 1};
}

/// Tick positions covering [low, high] at a 1-2-5 spacing, about `count` of them. Each is an
/// integer times 10^e, computed so that 0.6 is 0.6, not 0.6000000000000001.
inline std::vector<double> ticks(double low, double high, int count) {
  const double raw = (high - low) / count;
  const double exponent = std::floor(std::log10(raw)), magnitude = std::pow(10.0, exponent);
  double factor = 10;
  for (double candidate : {1.0, 2.0, 5.0})
    if (candidate * magnitude >= raw) {
      factor = candidate;
      break;
    }
  auto value = [&](double multiple) {  // multiple * factor * 10^exponent, correctly rounded
    return exponent < 0 ? multiple * factor / std::pow(10.0, -exponent)
                        : multiple * factor * magnitude;
  };
  std::vector<double> positions;
  const double step = factor * magnitude, first = std::ceil(low / step);
  const double last = std::floor(high / step);
  // Past 2^53 a double no longer counts by one: no ticks rather than an endless loop.
  if (!(last - first < kMaxTicks) || first + 1 == first || last - 1 == last) return positions;
  for (int i = 0; first + i <= last; ++i)
    positions.push_back(first + i == 0 ? 0.0 : value(first + i));
  return positions;
}

/// A tick label: six significant digits.
inline std::string axis_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

}  // namespace daec::simulator
