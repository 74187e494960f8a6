// daec/simulator/plot*.hpp on synthetic series: line styles, legends that fit the picture, panels
// by unit, phase plots, and PNG conversion through fake and real converters on PATH.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <daec/simulator/plot.hpp>

#include "run_in_process.h"

namespace {

namespace sim = daec::simulator;
using daec::test::read;
using daec::test::scratch;

/// 0, 0.01, ..., 1.
std::vector<double> times() {
  std::vector<double> t;
  for (int i = 0; i <= 100; ++i) t.push_back(i / 100.0);
  return t;
}

/// A series `name` [unit] of sin(k t) + offset over times().
sim::PlotSeries wave(const std::string& name, const std::string& unit, double k, double offset) {
  sim::PlotSeries s{name, unit, {}};
  for (double t : times()) s.values.push_back(std::sin(k * t) + offset);
  return s;
}

/// How often `part` occurs in `text`.
size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

/// The number in attribute `name` of the SVG root element.
double root_size(const std::string& svg, const std::string& name) {
  std::smatch match;
  EXPECT_TRUE(std::regex_search(svg, match, std::regex(" " + name + "=\"([0-9.]+)\"")));
  return std::stod(match[1]);
}

TEST(Plot, EveryStyledCurveHasItsOwnColourAndDash) {
  std::set<std::pair<std::string, std::string>> seen;
  for (size_t i = 0; i < sim::kStyledCurves; ++i) {
    const sim::LineStyle style = sim::line_style(i, sim::kStyledCurves);
    EXPECT_TRUE(seen.insert({style.color, style.dash}).second) << i;
    if (i > 0) {
      const sim::LineStyle before = sim::line_style(i - 1, sim::kStyledCurves);
      EXPECT_NE(style.dash, before.dash) << i;    // neighbours differ in dash too
      EXPECT_LT(style.width, before.width) << i;  // later curves thinner: earlier ones show
    }
  }
  EXPECT_EQ(sim::kStyledCurves, 40u);
  EXPECT_EQ(sim::line_style(0, 1).width, sim::kThinnestLine + sim::kLineWidthRange);
}

// 160 columns (the 32-link chain): 40 legend entries, the rest counted in a note, and every text
// of the picture inside it.
TEST(Plot, ALongLegendFitsThePictureWithANote) {
  std::vector<sim::PlotSeries> series;
  for (int k = 1; k <= 160; ++k)
    series.push_back(wave("lambda[" + std::to_string(k) + "]", "N/m", k, 0));
  const std::string svg = sim::plot_svg("daec simulation of pendulum_chain", times(), series);
  EXPECT_EQ(count(svg, "<polyline"), 160u);
  EXPECT_EQ(count(svg, "stroke=\"#b0b0b0\""), 120u);
  EXPECT_EQ(count(svg, ">lambda[40] [N/m]</text>"), 1u);
  EXPECT_EQ(count(svg, ">lambda[41] [N/m]</text>"), 0u);
  EXPECT_EQ(count(svg, ">\u2026 and 120 more: use --plot-columns</text>"), 1u);
  const double width = root_size(svg, "width"), height = root_size(svg, "height");
  const std::regex text("<text x=\"([0-9.-]+)\" y=\"([0-9.-]+)\" text-anchor=\"start\">([^<]*)<");
  size_t entries = 0;
  for (std::sregex_iterator it(svg.begin(), svg.end(), text), end; it != end; ++it, ++entries) {
    const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
    EXPECT_LE(x + sim::text_width((*it)[3], sim::kPlotFontSize), width) << (*it)[3];
    EXPECT_LE(y, height) << (*it)[3];
  }
  EXPECT_EQ(entries, 40u);
}

// A long run's curve keeps about a point per half pixel of its length, and its last point.
TEST(Plot, LongRunsAreThinnedToThePixels) {
  std::vector<double> t;
  sim::PlotSeries wave_series{"y", "", {}};
  for (int i = 0; i <= 100000; ++i) {
    t.push_back(i * 1e-4);
    wave_series.values.push_back(std::sin(t.back()));
  }
  const std::string svg = sim::plot_svg("title", t, {wave_series});
  const size_t at = svg.find("points=\""), end = svg.find('"', at + 8);
  const std::string points = svg.substr(at + 8, end - at - 8);
  EXPECT_LT(count(points, ","), 3000u);  // its length, about 1,400 pixels, over half a pixel
  EXPECT_GT(count(points, ","), 600u);   // every half pixel of the 600 wide panel at least
  const std::vector<sim::PlotSeries> one{wave_series};
  const sim::PlotChart chart = sim::time_chart("title", t, one);
  const sim::PanelBox box = sim::layout_panels(chart)[0];
  const auto [x, y] = sim::pixel(chart.panels[0], box, 10, std::sin(10.0));
  EXPECT_EQ(points.substr(points.rfind(' ') + 1),
            sim::svg_coordinate(x) + "," + sim::svg_coordinate(y));
}

// Stacked panels grow to hold their legends.
TEST(Plot, PanelsGrowToTheirLegends) {
  std::vector<sim::PlotSeries> series;
  for (int k = 1; k <= 30; ++k) series.push_back(wave("x" + std::to_string(k), "m", k, 0));
  series.push_back(wave("v", "m/s", 1, 0));
  const std::vector<double> t = times();
  const sim::PlotChart chart = sim::time_chart("t", t, series);
  const std::vector<sim::PanelBox> boxes = sim::layout_panels(chart);
  ASSERT_EQ(boxes.size(), 2u);
  EXPECT_EQ(boxes[0].legend.columns, sim::kMaxLegendColumns);
  EXPECT_EQ(boxes[0].legend.rows, 15u);
  EXPECT_EQ(boxes[0].height, 15 * sim::kLegendRow);
  EXPECT_EQ(boxes[1].height, sim::kStackedPanelHeight);
  EXPECT_EQ(boxes[1].top, boxes[0].top + boxes[0].height + sim::kSharedPanelGap);
}

TEST(Plot, OnePanelPerUnit) {
  auto panels = [](const std::vector<std::string>& units) {
    std::vector<sim::PlotSeries> series;
    for (const std::string& unit : units) series.push_back(wave("s", unit, 1, 0));
    const std::vector<double> t = times();
    return sim::time_chart("t", t, series).panels.size();
  };
  EXPECT_EQ(panels({"m", "m", "m"}), 1u);
  EXPECT_EQ(panels({"", ""}), 1u);
  EXPECT_EQ(panels({"m", "m/s", "m"}), 2u);
  EXPECT_EQ(panels({"m", ""}), 2u);
  std::vector<sim::PlotSeries> series{wave("x1", "m", 1, 0), wave("y1", "m", 2, 0),
                                      wave("u1", "m/s", 1, 0)};
  const std::vector<double> t = times();
  const sim::PlotChart chart = sim::time_chart("title", t, series);
  EXPECT_EQ(chart.panels[0].y_label, "x1, y1 [m]");
  EXPECT_EQ(chart.panels[1].y_label, "u1 [m/s]");
  const std::string svg = sim::chart_svg(chart);
  EXPECT_EQ(count(svg, ">t</text>"), 1u);  // one shared t axis, labelled below the last panel
  EXPECT_EQ(count(svg, "<clipPath"), 2u);
}

TEST(Plot, AxisLabels) {
  const sim::PlotSeries x{"x", "m", {}}, angle{"angle", "rad", {}}, q{"q", "", {}};
  EXPECT_EQ(sim::axis_label({&x, &x}), "x [m]");
  EXPECT_EQ(sim::axis_label({&x, &angle}), "x [m], angle [rad]");
  EXPECT_EQ(sim::axis_label({&q}), "q");
  std::vector<sim::PlotSeries> many(12, sim::PlotSeries{"long_name", "kg", {}});
  for (size_t i = 0; i < many.size(); ++i) many[i].name += std::to_string(i);
  std::vector<const sim::PlotSeries*> pointers;
  for (const sim::PlotSeries& s : many) pointers.push_back(&s);
  EXPECT_EQ(sim::axis_label(pointers), "value [kg]");
  EXPECT_EQ(sim::legend_label(std::string(50, 'a')), std::string(39, 'a') + "\u2026");
  EXPECT_EQ(sim::legend_label("short"), "short");
}

// Values that differ only by rounding (a constant radius) get an axis whose ticks stay distinct;
// spacing that a double cannot count in gives no ticks instead of an endless loop.
TEST(Plot, NearlyConstantValuesAndExtremeRanges) {
  const std::vector<double> radius{2.25, 2.2500000000000004, 2.25};
  const sim::AxisRange range = sim::value_range({&radius});
  EXPECT_NEAR(range.high - range.low, 2.25e-5, 1e-15);
  const std::vector<double> positions = sim::ticks(range.low, range.high, sim::kYTicks);
  ASSERT_GE(positions.size(), 3u);
  EXPECT_NE(sim::axis_number(positions[0]), sim::axis_number(positions[1]));
  EXPECT_EQ(sim::ticks(1e17, 1e17 + 64, 8), std::vector<double>{});
  const std::vector<double> constant{3, 3};
  EXPECT_EQ(sim::value_range({&constant}).low, 1.5);
  EXPECT_EQ(sim::value_range({}).high, 1);
}

// A phase plot in one unit has equal scales: a circle stays round.
TEST(Plot, PhasePlotAtEqualScales) {
  std::vector<sim::PlotSeries> xs{{"x", "m", {}}}, ys{{"y", "m", {}}};
  for (double t : times()) {
    xs[0].values.push_back(2 * std::cos(6.283185307179586 * t));
    ys[0].values.push_back(std::sin(6.283185307179586 * t) - 1);
  }
  const sim::PlotChart chart = sim::phase_chart("p", xs, ys);
  ASSERT_EQ(chart.panels.size(), 1u);
  const sim::PlotPanel& panel = chart.panels[0];
  const double x_scale = chart.plot_width / (panel.x_range.high - panel.x_range.low);
  const double y_scale = panel.height / (panel.y_range.high - panel.y_range.low);
  EXPECT_NEAR(x_scale / y_scale, 1, 1e-12);
  EXPECT_EQ(chart.x_label, "x [m]");
  EXPECT_EQ(panel.y_label, "y [m]");
  const std::string svg = sim::chart_svg(chart);
  EXPECT_EQ(count(svg, ">(x, y)</text>"), 1u);
  // Many pairs: the legend takes more columns instead of making the panel taller.
  const std::vector<sim::PlotSeries> many_x(40, xs[0]), many_y(40, ys[0]);
  const sim::PlotChart many = sim::phase_chart("p", many_x, many_y);
  const sim::PanelBox box = sim::layout_panels(many)[0];
  EXPECT_EQ(box.height, many.panels[0].height);
  EXPECT_EQ(box.legend.columns, 3u);     // 16 rows beside the 300 high panel
  EXPECT_EQ(count(svg, "<circle"), 1u);  // where the curve starts
}

TEST(Plot, PlotColumnsTakesNamesOrPairs) {
  using Columns = std::vector<sim::PlotColumn>;
  EXPECT_EQ(sim::parse_columns("a,b"), (Columns{{"", "a"}, {"", "b"}}));
  EXPECT_EQ(sim::parse_columns("x1:y1,\"A[1,2]\":A[2,1]"),
            (Columns{{"x1", "y1"}, {"A[1,2]", "A[2,1]"}}));
  EXPECT_EQ(sim::parse_columns("\"a:b\""), (Columns{{"", "a:b"}}));
  EXPECT_EQ(sim::column_selector("a:b"), "\"a:b\"");
  const std::pair<std::string, std::string> bad[] = {
      {"x:", "--plot-columns: 'x:' is not a pair x:y of two names"},
      {"a,:y", "--plot-columns: ':y' is not a pair x:y of two names"},
      {"x:y:z", "--plot-columns: 'x:y:z' is not a pair x:y of two names"},
      {"a,x:y",
       "--plot-columns mixes names drawn against t with pairs x:y ('x:y'); a plot "
       "draws one kind: a,b,c or x:y,u:v"},
      {"x:y,a",
       "--plot-columns mixes names drawn against t with pairs x:y ('x:y'); a plot "
       "draws one kind: a,b,c or x:y,u:v"},
      {"x:y,", "--plot-columns expects names separated by commas, got 'x:y,'"},
  };
  for (const auto& [text, message] : bad) {
    try {
      sim::parse_columns(text);
      ADD_FAILURE() << text;
    } catch (const sim::Failure& failure) {
      EXPECT_EQ(failure.status, 2) << text;
      EXPECT_EQ(failure.message, message) << text;
    }
  }
}

/// While it lives: PATH is `path`; restored after.
class PathIs {
 public:
  explicit PathIs(const std::string& path) {
    const char* old = std::getenv("PATH");
    had_ = old != nullptr;
    if (had_) old_ = old;
    ::setenv("PATH", path.c_str(), 1);
  }
  ~PathIs() {
    if (had_)
      ::setenv("PATH", old_.c_str(), 1);
    else
      ::unsetenv("PATH");
  }
  PathIs(const PathIs&) = delete;
  PathIs& operator=(const PathIs&) = delete;

 private:
  bool had_ = false;
  std::string old_;
};

/// A directory holding the shell scripts `programs` (name, body), executable.
std::string fake_programs(const std::string& dir_name,
                          const std::vector<std::pair<std::string, std::string>>& programs) {
  const std::string dir = scratch(dir_name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const auto& [name, body] : programs) {
    std::ofstream(dir + "/" + name) << "#!/bin/sh\n" << body << "\n";
    ::chmod((dir + "/" + name).c_str(), 0755);
  }
  return dir;
}

/// The failure of converting a small SVG to `png`, with PATH `path`.
sim::Failure png_failure(const std::string& path, const std::string& png) {
  const PathIs scoped(path);
  try {
    sim::write_plot(png, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2\" height=\"2\"/>");
  } catch (const sim::Failure& failure) {
    return failure;
  }
  return {0, "", {}};
}

const char* const kInstallNote =
    "install rsvg-convert (Debian: apt-get install librsvg2-bin) or ImageMagick, or write the plot "
    "as .svg; the other outputs are written";

TEST(Plot, PngNeedsAWorkingConverter) {
  const std::string png = scratch("no-converter.png");
  std::filesystem::remove(png);
  const std::string empty = fake_programs("no-converters", {});
  sim::Failure none = png_failure(empty, png);
  EXPECT_EQ(none.status, 1);
  EXPECT_EQ(none.message,
            "cannot create the plot '" + png + "': no converter from SVG to PNG worked");
  EXPECT_EQ(none.notes,
            (std::vector<std::string>{"tried rsvg-convert: not found on PATH",
                                      "tried magick: not found on PATH",
                                      "tried convert: not found on PATH", kInstallNote}));
  // A stand-in convert, an rsvg-convert that fails, a magick that writes no PNG.
  const std::string fakes = fake_programs(
      "fake-converters", {{"convert", "echo 'convert: ImageMagick is not installed here'"},
                          {"rsvg-convert", "echo 'rsvg-convert: cannot render' >&2; exit 3"},
                          {"magick",
                           "[ \"$1\" = -version ] && echo 'Version: ImageMagick 7.1.0'\n"
                           "[ \"$1\" = -version ] || echo text > \"${2#png:}\""}});
  sim::Failure fake = png_failure(fakes, png);
  EXPECT_EQ(fake.notes,
            (std::vector<std::string>{"tried rsvg-convert: " + fakes +
                                          "/rsvg-convert: exit status 3: rsvg-convert: "
                                          "cannot render",
                                      "tried magick: " + fakes +
                                          "/magick: wrote no PNG (the file does not start with "
                                          "its signature)",
                                      "tried convert: " + fakes +
                                          "/convert: not ImageMagick (convert -version printed "
                                          "'convert: ImageMagick is not installed here')",
                                      kInstallNote}));
  // An ImageMagick 7 whose output is a PNG: the plot is written (svg: and png: say the formats).
  const std::string magick = fake_programs(
      "magick-converter", {{"magick",
                            "[ \"$1\" = -version ] && echo 'Version: ImageMagick 7.1.0'\n"
                            "case $1 in svg:*) printf '\\211PNG\\r\\n\\032\\nrest' > "
                            "\"${2#png:}\";; esac"}});
  EXPECT_EQ(png_failure(magick, png).status, 0);
  EXPECT_TRUE(sim::is_png_file(png));
  std::filesystem::remove(png);
  const std::string killed = fake_programs("killed-converter", {{"rsvg-convert", "kill -9 $$"}});
  EXPECT_EQ(png_failure(killed, png).notes.front(),
            "tried rsvg-convert: " + killed + "/rsvg-convert: ended by signal 9");
  EXPECT_FALSE(std::filesystem::exists(png));
  for (const auto& entry : std::filesystem::directory_iterator(scratch("")))  // no temporary left
    EXPECT_NE(entry.path().filename().string().rfind("no-converter.png.", 0), 0u) << entry.path();
}

TEST(Plot, PngByRsvgConvert) {
  if (sim::find_on_path("rsvg-convert").empty()) GTEST_SKIP() << "no rsvg-convert on PATH";
  const std::string png = scratch("converted.png");
  std::filesystem::remove(png);
  sim::write_plot(png, sim::plot_svg("t", times(), {wave("x", "m", 1, 0)}));
  EXPECT_TRUE(sim::is_png_file(png));
  EXPECT_FALSE(sim::is_png_file(scratch("no-converters")));
}

}  // namespace
