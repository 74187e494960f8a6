// A --plot chart as SVG text (docs/simulator.md, "Plots"): panels stacked one above the other,
// each with its axes, grid, curves and legend beside it. The picture is sized from its parts: it
// is as wide as the widest legend needs and each panel as tall as its legend needs, so that every
// legend entry lies inside it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <daec/simulator/plot_legend.hpp>
#include <daec/simulator/plot_scale.hpp>
#include <daec/simulator/plot_style.hpp>

namespace daec::simulator {

/// One curve: the points (x[i], y[i]), how it is stroked, and its legend label if it has one
/// ("" for a curve counted in the legend's note instead).
struct PlotCurve {
  std::string label;
  const std::vector<double>* x;
  const std::vector<double>* y;
  LineStyle style;
  bool mark_start = false;  // a dot where the curve starts (phase plots: the direction)
};

/// One panel: its curves (drawn in order, the first beneath), the label of its vertical axis and
/// the ranges of both axes; `height` is the plot area's height before its legend is fitted.
struct PlotPanel {
  std::vector<PlotCurve> curves;
  std::string y_label;
  AxisRange x_range{0, 1}, y_range{0, 1};
  double height = 0;
  size_t unlisted = 0;        // curves left out of the legend
  bool fixed_height = false;  // the legend may not make it taller (equal scales)
};

/// A chart: a title, panels stacked top to bottom and the label of the horizontal axis. With
/// `shared_x` the panels share it (time): only the bottom one prints its ticks.
struct PlotChart {
  std::string title, x_label;
  std::vector<PlotPanel> panels;
  double plot_width = 0;
  bool shared_x = true;
};

// The picture's margins and gaps, in its units (pixels).
constexpr double kChartTop = 46;          // above the first panel: the title
constexpr double kChartBottom = 52;       // below the last panel: tick labels and the axis label
constexpr double kSharedPanelGap = 14;    // between panels that share the horizontal axis
constexpr double kLegendMargin = 16;      // between a panel and its legend, and after the legend
constexpr double kYLabelSpace = 34;       // left of the tick labels: the vertical axis label
constexpr double kYLabelX = 20;           // where the vertical axis label's baseline lies
constexpr double kTickLabelGap = 6;       // between a tick label and the axis
constexpr double kTitleFontSize = 16;     // the title's font size
constexpr int kXTicks = 8, kYTicks = 6;   // about this many ticks per axis
constexpr double kStartMarkRadius = 3.5;  // the dot where a phase curve starts
constexpr double kPointSpacing = 0.5;     // a point nearer the last one drawn is left out

inline std::string svg_escaped(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    if (c == '&')
      escaped += "&amp;";
    else if (c == '<')
      escaped += "&lt;";
    else if (c == '>')
      escaped += "&gt;";
    else if (c == '"')
      escaped += "&quot;";
    else
      escaped += c;
  }
  return escaped;
}

/// A number as an SVG coordinate: two decimals.
inline std::string svg_coordinate(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

/// The stroke attributes of `style`.
inline std::string svg_stroke(const LineStyle& style) {
  std::string attributes = "fill=\"none\" stroke=\"" + style.color + "\" stroke-width=\"" +
                           svg_coordinate(style.width) + "\"";
  if (!style.dash.empty()) attributes += " stroke-dasharray=\"" + style.dash + "\"";
  if (style.opacity < 1) attributes += " stroke-opacity=\"" + svg_coordinate(style.opacity) + "\"";
  return attributes;
}

inline std::string svg_text(double x, double y, const std::string& anchor,
                            const std::string& text) {
  return "<text x=\"" + svg_coordinate(x) + "\" y=\"" + svg_coordinate(y) + "\" text-anchor=\"" +
         anchor + "\">" + svg_escaped(text) + "</text>\n";
}

inline std::string svg_line(double x1, double y1, double x2, double y2,
                            const std::string& attributes) {
  return "<line x1=\"" + svg_coordinate(x1) + "\" y1=\"" + svg_coordinate(y1) + "\" x2=\"" +
         svg_coordinate(x2) + "\" y2=\"" + svg_coordinate(y2) + "\" " + attributes + "/>\n";
}

/// Where a panel is drawn: its plot area and its legend.
struct PanelBox {
  double left, top, width, height;
  LegendLayout legend;
};

/// The legend entries of `panel`: its labelled curves.
inline std::vector<LegendEntry> legend_entries(const PlotPanel& panel) {
  std::vector<LegendEntry> entries;
  for (const PlotCurve& curve : panel.curves)
    if (!curve.label.empty()) entries.push_back({curve.label, curve.style});
  return entries;
}

/// The width of the widest tick label of the panels' vertical axes.
inline double widest_y_tick(const PlotChart& chart) {
  double widest = 0;
  for (const PlotPanel& panel : chart.panels)
    for (double tick : ticks(panel.y_range.low, panel.y_range.high, kYTicks))
      widest = std::max(widest, text_width(axis_number(tick), kPlotFontSize));
  return widest;
}

/// The axes, grid and tick labels of the panel in `box`; the horizontal ticks labelled if
/// `x_labels`.
inline std::string svg_axes(const PlotPanel& panel, const PanelBox& box, bool x_labels) {
  std::string svg;
  const AxisRange& xr = panel.x_range;
  const AxisRange& yr = panel.y_range;
  const std::string grid = "stroke=\"#ddd\"";
  for (double tick : ticks(xr.low, xr.high, kXTicks)) {
    const double x = box.left + (tick - xr.low) / (xr.high - xr.low) * box.width;
    svg += svg_line(x, box.top, x, box.top + box.height, grid);
    if (x_labels) svg += svg_text(x, box.top + box.height + 18, "middle", axis_number(tick));
  }
  for (double tick : ticks(yr.low, yr.high, kYTicks)) {
    const double y = box.top + (yr.high - tick) / (yr.high - yr.low) * box.height;
    svg += svg_line(box.left, y, box.left + box.width, y, grid);
    svg += svg_text(box.left - kTickLabelGap, y + 4, "end", axis_number(tick));
  }
  svg += "<rect x=\"" + svg_coordinate(box.left) + "\" y=\"" + svg_coordinate(box.top) +
         "\" width=\"" + svg_coordinate(box.width) + "\" height=\"" + svg_coordinate(box.height) +
         "\" fill=\"none\" stroke=\"black\"/>\n";
  const double middle = box.top + box.height / 2;
  svg += "<text transform=\"translate(" + svg_coordinate(kYLabelX) + "," + svg_coordinate(middle) +
         ") rotate(-90)\" text-anchor=\"middle\">" + svg_escaped(panel.y_label) + "</text>\n";
  return svg;
}

/// Where the point (x, y) of `panel` lies in the picture, the panel drawn in `box`.
inline std::pair<double, double> pixel(const PlotPanel& panel, const PanelBox& box, double x,
                                       double y) {
  const AxisRange& xr = panel.x_range;
  const AxisRange& yr = panel.y_range;
  return {box.left + (x - xr.low) / (xr.high - xr.low) * box.width,
          box.top + (yr.high - y) / (yr.high - yr.low) * box.height};
}

/// The points attribute of `curve` in `box`: a point within kPointSpacing of the last one kept is
/// left out (the line drawn stays within that of every point), so that a long run's picture
/// holds about as many points as its curves are long in pixels; the last point is always kept.
inline std::string svg_points(const PlotCurve& curve, const PlotPanel& panel, const PanelBox& box) {
  std::string points;
  double last_x = HUGE_VAL, last_y = HUGE_VAL;
  const size_t n = curve.x->size();
  for (size_t i = 0; i < n; ++i) {
    const auto [x, y] = pixel(panel, box, (*curve.x)[i], (*curve.y)[i]);
    if (i + 1 < n && std::fabs(x - last_x) < kPointSpacing && std::fabs(y - last_y) < kPointSpacing)
      continue;
    points += (points.empty() ? "" : " ") + svg_coordinate(x) + "," + svg_coordinate(y);
    last_x = x, last_y = y;
  }
  return points;
}

/// The curves of the panel in `box`, clipped to it (a wide stroke or a start dot at the edge of
/// the range reaches over the frame).
inline std::string svg_curves(const PlotPanel& panel, const PanelBox& box, size_t panel_index) {
  const std::string clip = "panel" + std::to_string(panel_index);
  std::string svg = "<clipPath id=\"" + clip + "\"><rect x=\"" + svg_coordinate(box.left) +
                    "\" y=\"" + svg_coordinate(box.top) + "\" width=\"" +
                    svg_coordinate(box.width) + "\" height=\"" + svg_coordinate(box.height) +
                    "\"/></clipPath>\n<g clip-path=\"url(#" + clip + ")\">\n";
  for (const PlotCurve& curve : panel.curves) {
    svg += "<polyline " + svg_stroke(curve.style) + " points=\"" + svg_points(curve, panel, box) +
           "\"/>\n";
    if (!curve.mark_start || curve.x->empty()) continue;
    const auto [x, y] = pixel(panel, box, curve.x->front(), curve.y->front());
    svg += "<circle cx=\"" + svg_coordinate(x) + "\" cy=\"" + svg_coordinate(y) + "\" r=\"" +
           svg_coordinate(kStartMarkRadius) + "\" fill=\"" + curve.style.color + "\"/>\n";
  }
  return svg + "</g>\n";
}

/// The legend of the panel in `box`, beside it: column by column, then the note.
inline std::string svg_legend(const PlotPanel& panel, const PanelBox& box) {
  std::string svg;
  const LegendLayout& layout = box.legend;
  const std::vector<LegendEntry> entries = legend_entries(panel);
  const double x0 = box.left + box.width + kLegendMargin;
  for (size_t k = 0; k < entries.size(); ++k) {
    const double x =
        x0 + static_cast<double>(k / layout.rows) * (layout.column_width + kLegendColumnGap);
    const double y = box.top + (static_cast<double>(k % layout.rows) + 0.5) * kLegendRow;
    LineStyle sample = entries[k].style;
    sample.opacity = 1;
    svg += svg_line(x, y, x + kLegendSwatch, y, svg_stroke(sample));
    svg += svg_text(x + kLegendSwatch + kLegendGap, y + 4, "start", entries[k].label);
  }
  if (!layout.note.empty()) {
    const double y = box.top + (static_cast<double>(layout.rows) + 0.5) * kLegendRow;
    svg += "<text x=\"" + svg_coordinate(x0) + "\" y=\"" + svg_coordinate(y + 4) +
           "\" font-style=\"italic\">" + svg_escaped(layout.note) + "</text>\n";
  }
  return svg;
}

/// Where each panel of `chart` goes: the legends laid out first, each panel as tall as its
/// legend needs (at least its own height), stacked below the title.
inline std::vector<PanelBox> layout_panels(const PlotChart& chart) {
  std::vector<PanelBox> boxes;
  const double left = kYLabelSpace + widest_y_tick(chart) + kTickLabelGap;
  double top = kChartTop;
  for (const PlotPanel& panel : chart.panels) {
    PanelBox box{left, top, chart.plot_width, panel.height, {}};
    box.legend = layout_legend(legend_entries(panel), panel.unlisted, panel.height,
                               panel.fixed_height ? kStyledCurves : kMaxLegendColumns);
    box.height = std::max(box.height, box.legend.height);
    boxes.push_back(box);
    top += box.height + (chart.shared_x ? kSharedPanelGap : kChartBottom);
  }
  return boxes;
}

/// The chart as an SVG document.
inline std::string chart_svg(const PlotChart& chart) {
  const std::vector<PanelBox> boxes = layout_panels(chart);
  double width = 0, height = kChartTop;
  for (const PanelBox& box : boxes) {
    width = std::max(width, box.left + box.width + kLegendMargin + box.legend.width);
    height = box.top + box.height + kChartBottom;
  }
  width += kLegendMargin;
  const double title_width = text_width(chart.title, kTitleFontSize) + 2 * kLegendMargin;
  width = std::max(width, title_width);
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + svg_coordinate(width) +
                    "\" height=\"" + svg_coordinate(height) + "\" viewBox=\"0 0 " +
                    svg_coordinate(width) + " " + svg_coordinate(height) +
                    "\" font-family=\"sans-serif\" font-size=\"" + svg_coordinate(kPlotFontSize) +
                    "\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"" + svg_coordinate(width / 2) + "\" y=\"28\" text-anchor=\"middle\" " +
         "font-size=\"" + svg_coordinate(kTitleFontSize) + "\">" + svg_escaped(chart.title) +
         "</text>\n";
  for (size_t i = 0; i < boxes.size(); ++i) {
    const bool last = i + 1 == boxes.size();
    const PanelBox& box = boxes[i];
    svg += svg_axes(chart.panels[i], box, last || !chart.shared_x);
    svg += svg_curves(chart.panels[i], box, i);
    svg += svg_legend(chart.panels[i], box);
    if (last || !chart.shared_x)
      svg += svg_text(box.left + box.width / 2, box.top + box.height + 40, "middle", chart.x_label);
  }
  return svg + "</svg>\n";
}

}  // namespace daec::simulator
