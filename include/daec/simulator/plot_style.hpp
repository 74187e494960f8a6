// The line styles of --plot (docs/simulator.md, "Plots"): each curve a colour and a dash pattern,
// so that more curves than colours stay distinguishable, drawn wider the earlier it comes so that
// a later curve lying on an earlier one leaves the earlier visible beside it and in its gaps.
#pragma once

#include <cstddef>
#include <string>

namespace daec::simulator {

/// How one curve is stroked (SVG attributes).
struct LineStyle {
  std::string color;
  std::string dash;  // stroke-dasharray, "" for a solid line
  double width;
  double opacity;
};

// The colours, chosen to differ in hue and lightness (the ten of matplotlib's "tab10").
inline const char* const kPlotColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                          "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
constexpr size_t kPlotColorCount = sizeof kPlotColors / sizeof kPlotColors[0];
// The dash patterns: solid, dashed, dotted, dash-dot (in user units of the picture).
inline const char* const kPlotDashes[] = {"", "9 4", "2 3", "12 3 3 3"};
constexpr size_t kPlotDashCount = sizeof kPlotDashes / sizeof kPlotDashes[0];
/// How many curves get a style of their own (and a legend entry); the rest are drawn grey.
constexpr size_t kStyledCurves = kPlotColorCount * kPlotDashCount;
// Stroke widths: the last styled curve of a picture is drawn this thin, the first this much wider.
constexpr double kThinnestLine = 1.4;
constexpr double kLineWidthRange = 1.6;
// Opacity of a styled curve: a curve beneath shows faintly through one drawn over it.
constexpr double kLineOpacity = 0.85;

/// The style of curve `index` of `styled` styled curves (index < kStyledCurves). Every pair of
/// colour and dash occurs once: the dash steps on with each curve and once more after each round
/// of colours (10 and 4 share the factor 2), so neighbours never share a dash either.
inline LineStyle line_style(size_t index, size_t styled) {
  const size_t dash = (index + index / kPlotColorCount) % kPlotDashCount;
  const double rank = styled > 1 ? static_cast<double>(styled - 1 - index) / (styled - 1) : 1.0;
  return {kPlotColors[index % kPlotColorCount], kPlotDashes[dash],
          kThinnestLine + kLineWidthRange * rank, kLineOpacity};
}

/// The style of the curves beyond kStyledCurves: thin and grey, beneath the styled ones.
inline LineStyle rest_style() {
  return {"#b0b0b0", "", 0.8, 1.0};
}

}  // namespace daec::simulator
