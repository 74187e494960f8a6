// --plot FILE.svg|FILE.png (docs/simulator.md, "The accuracy target"): the CSV columns (or those of
// --plot-columns) against t, as an SVG line chart with axes, ticks, a legend and the model's units
// (from the descriptions: "mass [kg]" has the unit kg). A PNG is converted from the SVG by
// rsvg-convert (Debian: librsvg2-bin) or ImageMagick's convert, whichever is installed.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/options.hpp>
#include <daec/simulator/output_files.hpp>

namespace daec::simulator {

/// One plotted column: its name, its unit ("" if the description gives none) and its values.
struct PlotSeries {
  std::string name, unit;
  std::vector<double> values;
};

/// The unit of a description "rod force [N/m]": the text in the last brackets, or "".
inline std::string unit_of(const std::string& description) {
  size_t close = description.rfind(']');
  size_t open = close == std::string::npos ? close : description.rfind('[', close);
  if (open == std::string::npos) return "";
  return description.substr(open + 1, close - open - 1);
}

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
  const double step = factor * magnitude;
  for (double k = std::ceil(low / step); k <= std::floor(high / step); ++k)
    positions.push_back(k == 0 ? 0.0 : value(k));
  return positions;
}

/// The y range of the series, widened a little (and made non-empty for constant values).
inline std::pair<double, double> value_range(const std::vector<PlotSeries>& series) {
  double low = HUGE_VAL, high = -HUGE_VAL;
  for (const PlotSeries& s : series)
    for (double v : s.values) low = std::min(low, v), high = std::max(high, v);
  if (!(high > low)) {
    double pad = std::max(1.0, std::fabs(low)) * 0.5;
    return {low - pad, high + pad};
  }
  double pad = 0.05 * (high - low);
  return {low - pad, high + pad};
}

inline std::string axis_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

/// The y-axis label: the common unit of every series, or "value" if they differ.
inline std::string y_label(const std::vector<PlotSeries>& series) {
  std::string unit = series.empty() ? "" : series[0].unit;
  for (const PlotSeries& s : series)
    if (s.unit != unit) return "value (units in the legend)";
  return unit.empty() ? "value" : "value [" + unit + "]";
}

/// The chart as SVG text: `title` on top, t on the x axis.
inline std::string plot_svg(const std::string& title, const std::vector<double>& t,
                            const std::vector<PlotSeries>& series) {
  constexpr double width = 860, height = 520, left = 90, right = 200, top = 50, bottom = 60;
  const double plot_w = width - left - right, plot_h = height - top - bottom;
  static const char* const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                        "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  const double t0 = t.front(), t1 = t.back() > t.front() ? t.back() : t.front() + 1;
  const std::pair<double, double> range = value_range(series);
  const double low = range.first, high = range.second;
  auto px = [&](double v) { return left + (v - t0) / (t1 - t0) * plot_w; };
  auto py = [&](double v) { return top + (high - v) / (high - low) * plot_h; };
  std::string svg;
  auto add = [&](const std::string& text) { svg += text + "\n"; };
  char buffer[256];
  std::snprintf(buffer, sizeof buffer,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
                "viewBox=\"0 0 %g %g\" font-family=\"sans-serif\" font-size=\"13\">",
                width, height, width, height);
  add(buffer);
  add("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
  add("<text x=\"" + axis_number(left + plot_w / 2) +
      "\" y=\"28\" text-anchor=\"middle\" "
      "font-size=\"16\">" +
      svg_escaped(title) + "</text>");
  for (double tick : ticks(t0, t1, 8)) {
    std::snprintf(buffer, sizeof buffer,
                  "<line x1=\"%.2f\" y1=\"%g\" x2=\"%.2f\" y2=\"%g\" stroke=\"#ddd\"/>"
                  "<text x=\"%.2f\" y=\"%g\" text-anchor=\"middle\">%s</text>",
                  px(tick), top, px(tick), top + plot_h, px(tick), top + plot_h + 18,
                  axis_number(tick).c_str());
    add(buffer);
  }
  for (double tick : ticks(low, high, 6)) {
    std::snprintf(buffer, sizeof buffer,
                  "<line x1=\"%g\" y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\" stroke=\"#ddd\"/>"
                  "<text x=\"%g\" y=\"%.2f\" text-anchor=\"end\">%s</text>",
                  left, py(tick), left + plot_w, py(tick), left - 6, py(tick) + 4,
                  axis_number(tick).c_str());
    add(buffer);
  }
  std::snprintf(buffer, sizeof buffer,
                "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" "
                "stroke=\"black\"/>",
                left, top, plot_w, plot_h);
  add(buffer);
  add("<text x=\"" + axis_number(left + plot_w / 2) + "\" y=\"" + axis_number(height - 15) +
      "\" text-anchor=\"middle\">t</text>");
  add("<text transform=\"translate(22," + axis_number(top + plot_h / 2) +
      ") rotate(-90)\" text-anchor=\"middle\">" + svg_escaped(y_label(series)) + "</text>");
  for (size_t i = 0; i < series.size(); ++i) {
    const char* color = kColors[i % (sizeof kColors / sizeof kColors[0])];
    std::string points;
    for (size_t row = 0; row < t.size(); ++row) {
      std::snprintf(buffer, sizeof buffer, "%.2f,%.2f ", px(t[row]), py(series[i].values[row]));
      points += buffer;
    }
    add("<polyline fill=\"none\" stroke=\"" + std::string(color) +
        "\" stroke-width=\"1.8\" points=\"" + points + "\"/>");
    double y = top + 10 + 20.0 * static_cast<double>(i);
    std::string label =
        series[i].name + (series[i].unit.empty() ? "" : " [" + series[i].unit + "]");
    std::snprintf(buffer, sizeof buffer,
                  "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"%s\" "
                  "stroke-width=\"3\"/><text x=\"%g\" y=\"%g\">",
                  left + plot_w + 15, y, left + plot_w + 40, y, color, left + plot_w + 46, y + 4);
    add(buffer + svg_escaped(label) + "</text>");
  }
  add("</svg>");
  return svg;
}

/// Writes `svg` to `path` (its suffix checked with the options): as it is for .svg, converted
/// for .png; each through a temporary renamed into place (StagedFile), run_error on failure.
inline void write_plot(const std::string& path, const std::string& svg) {
  const bool png = has_suffix(path, ".png");
  if (!png) {
    StagedFile file(path, "the plot");
    file.write(svg);
    return file.commit();
  }
  StagedFile source(path + ".svg", "the plot's SVG");
  source.write(svg);
  source.close();
  StagedFile file(path, "the plot");
  file.close();  // the converter writes the temporary by its name
  auto quoted = [](const std::string& text) {
    std::string q = "'";
    for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  const std::string from = quoted(source.writing()), to = quoted(file.writing());
  const std::string command = "command -v rsvg-convert >/dev/null 2>&1 && rsvg-convert -o " + to +
                              " " + from + " || { command -v convert >/dev/null 2>&1 && " +
                              "convert svg:" + from + " png:" + to + "; }";
  if (std::system(command.c_str()) != 0)
    run_error("--plot " + path +
              ": writing PNG needs rsvg-convert (Debian: librsvg2-bin) or ImageMagick's "
              "convert; write .svg instead");
  file.commit();
}

}  // namespace daec::simulator
