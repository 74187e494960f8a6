// --plot FILE.svg|FILE.png (docs/simulator.md, "Plots"): what is drawn. Columns against t go into
// one panel per unit (from the descriptions: "mass [kg]" has the unit kg), stacked on a shared t
// axis; pairs x:y into one phase plot, at equal scales where both axes have one unit. The parts:
// plot_style.hpp (line styles), plot_legend.hpp (legends), plot_scale.hpp (axes), plot_svg.hpp
// (the SVG document), plot_png.hpp (PNG through an installed converter).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <daec/simulator/options.hpp>
#include <daec/simulator/output_files.hpp>
#include <daec/simulator/plot_png.hpp>
#include <daec/simulator/plot_scale.hpp>
#include <daec/simulator/plot_style.hpp>
#include <daec/simulator/plot_svg.hpp>

namespace daec::simulator {

/// One plotted column: its name, its unit ("" if the description gives none) and its values.
struct PlotSeries {
  std::string name, unit;
  std::vector<double> values;
};

// The plot area: its width, and its height alone or as one of several stacked panels.
constexpr double kPlotWidth = 600;
constexpr double kSinglePanelHeight = 380;
constexpr double kStackedPanelHeight = 220;
// A phase plot at equal scales is at least and at most this high (its range widened to fit).
constexpr double kLowestPhasePlot = 240;
constexpr double kHighestPhasePlot = 600;
// An axis label lists the names it shows up to this many characters, else says "value".
constexpr size_t kMaxAxisNamesChars = 40;

/// The unit of a description "rod force [N/m]": the text in the last brackets, or "".
inline std::string unit_of(const std::string& description) {
  size_t close = description.rfind(']');
  size_t open = close == std::string::npos ? close : description.rfind('[', close);
  if (open == std::string::npos) return "";
  return description.substr(open + 1, close - open - 1);
}

/// "x [m]", or "x" without a unit.
inline std::string with_unit(const std::string& name, const std::string& unit) {
  return unit.empty() ? name : name + " [" + unit + "]";
}

/// The label of an axis showing `series`: their names (each once) with the unit they share,
/// "x1, y1 [m]", or each with its own, "x [m], angle [rad]"; "value [m]" (or "value") when that
/// is too long.
inline std::string axis_label(const std::vector<const PlotSeries*>& series) {
  std::vector<const PlotSeries*> distinct;
  bool one_unit = true;
  for (const PlotSeries* s : series) {
    one_unit = one_unit && s->unit == series.front()->unit;
    bool seen = false;
    for (const PlotSeries* d : distinct) seen = seen || d->name == s->name;
    if (!seen) distinct.push_back(s);
  }
  std::string names;
  for (const PlotSeries* s : distinct)
    names += (names.empty() ? "" : ", ") + (one_unit ? s->name : with_unit(s->name, s->unit));
  const std::string unit = one_unit && !series.empty() ? series.front()->unit : "";
  if (names.size() > kMaxAxisNamesChars) names = "value";
  return with_unit(names, unit);
}

/// The style of the curve of series `index` of `count`: its own up to kStyledCurves, grey after.
inline LineStyle series_style(size_t index, size_t count) {
  return index < kStyledCurves ? line_style(index, std::min(count, kStyledCurves)) : rest_style();
}

/// Adds curve `index` of `count` to `panel`: a grey one (unlisted) beneath the styled ones.
inline void add_curve(PlotPanel& panel, size_t index, size_t count, PlotCurve curve) {
  curve.style = series_style(index, count);
  if (index < kStyledCurves) return panel.curves.push_back(std::move(curve));
  curve.label.clear();
  ++panel.unlisted;
  panel.curves.insert(panel.curves.begin() + static_cast<std::ptrdiff_t>(panel.unlisted - 1),
                      std::move(curve));
}

/// The series against t: one panel per unit, in the order the units first come, or a single
/// panel when all share one unit (or none has a unit). The chart points into `t` and `series`,
/// which must outlive it: temporaries are refused (the deleted overloads below).
inline PlotChart time_chart(const std::string& title, const std::vector<double>& t,
                            const std::vector<PlotSeries>& series) {
  std::vector<std::string> units;
  for (const PlotSeries& s : series)
    if (std::find(units.begin(), units.end(), s.unit) == units.end()) units.push_back(s.unit);
  PlotChart chart{title, "t", {}, kPlotWidth, true};
  for (const std::string& unit : units) {
    PlotPanel panel;
    std::vector<const PlotSeries*> members;
    std::vector<const std::vector<double>*> values;
    for (size_t i = 0; i < series.size(); ++i) {
      if (series[i].unit != unit) continue;
      members.push_back(&series[i]);
      values.push_back(&series[i].values);
      add_curve(panel, i, series.size(),
                {with_unit(series[i].name, unit), &t, &series[i].values, {}, false});
    }
    panel.y_label = axis_label(members);
    panel.x_range = time_range(t);
    panel.y_range = value_range(values);
    panel.height = units.size() > 1 ? kStackedPanelHeight : kSinglePanelHeight;
    chart.panels.push_back(std::move(panel));
  }
  return chart;
}

/// Widens `range` about its middle to `extent`.
inline AxisRange widened(const AxisRange& range, double extent) {
  const double middle = (range.low + range.high) / 2;
  return {middle - extent / 2, middle + extent / 2};
}

/// Gives `panel` (x_range and y_range in one unit) equal scales on both axes: its height follows
/// the ranges' ratio within [kLowestPhasePlot, kHighestPhasePlot], the range that is short for
/// that widened.
inline void equal_scales(PlotPanel& panel, double width) {
  const double dx = panel.x_range.high - panel.x_range.low;
  const double dy = panel.y_range.high - panel.y_range.low;
  panel.height = std::clamp(width * dy / dx, kLowestPhasePlot, kHighestPhasePlot);
  panel.fixed_height = true;  // a long legend goes into more columns
  if (dy / dx < panel.height / width)
    panel.y_range = widened(panel.y_range, dx * panel.height / width);
  else
    panel.x_range = widened(panel.x_range, dy * width / panel.height);
}

/// One phase plot of each ys[i] against xs[i] (the curves start at a dot).
PlotChart time_chart(const std::string&, std::vector<double>&&,
                     const std::vector<PlotSeries>&) = delete;
PlotChart time_chart(const std::string&, const std::vector<double>&,
                     std::vector<PlotSeries>&&) = delete;

/// Pairs of series, y against x, in one panel; the chart points into `xs` and `ys`.
inline PlotChart phase_chart(const std::string& title, const std::vector<PlotSeries>& xs,
                             const std::vector<PlotSeries>& ys) {
  PlotPanel panel;
  std::vector<const PlotSeries*> x_series, y_series;
  std::vector<const std::vector<double>*> x_values, y_values;
  for (size_t i = 0; i < xs.size(); ++i) {
    x_series.push_back(&xs[i]), y_series.push_back(&ys[i]);
    x_values.push_back(&xs[i].values), y_values.push_back(&ys[i].values);
    add_curve(panel, i, xs.size(),
              {"(" + xs[i].name + ", " + ys[i].name + ")", &xs[i].values, &ys[i].values, {}, true});
  }
  panel.y_label = axis_label(y_series);
  panel.x_range = value_range(x_values);
  panel.y_range = value_range(y_values);
  panel.height = kSinglePanelHeight;
  std::string unit = xs.empty() ? "" : xs.front().unit;
  bool one_unit = !unit.empty();
  for (size_t i = 0; i < xs.size(); ++i)
    one_unit = one_unit && xs[i].unit == unit && ys[i].unit == unit;
  if (one_unit) equal_scales(panel, kPlotWidth);
  PlotChart chart{title, axis_label(x_series), {}, kPlotWidth, false};
  chart.panels.push_back(std::move(panel));
  return chart;
}

/// The chart of the series against t as SVG text.
PlotChart phase_chart(const std::string&, std::vector<PlotSeries>&&,
                      const std::vector<PlotSeries>&) = delete;
PlotChart phase_chart(const std::string&, const std::vector<PlotSeries>&,
                      std::vector<PlotSeries>&&) = delete;

inline std::string plot_svg(const std::string& title, const std::vector<double>& t,
                            const std::vector<PlotSeries>& series) {
  return chart_svg(time_chart(title, t, series));
}

/// Writes `svg` to `path` (its suffix checked with the options): as it is for .svg, converted
/// for .png (plot_png.hpp); each through a temporary renamed into place (StagedFile), run_error
/// on failure.
inline void write_plot(const std::string& path, const std::string& svg) {
  if (!has_suffix(path, ".png")) {
    StagedFile file(path, "the plot");
    file.write(svg);
    return file.commit();
  }
  StagedFile source(path + ".svg", "the plot's SVG");
  source.write(svg);
  source.close();
  StagedFile file(path, "the plot");
  file.close();  // the converter writes the temporary by its name
  convert_svg_to_png(source.writing(), file.writing(), path);
  file.commit();
}

}  // namespace daec::simulator
