// What the simulator writes and when (docs/simulator.md, "Output", "Output times", "Progress"):
// the CSV numbers (shortest round trip, never -0), --output-times (rows exactly at the times
// listed, on every method and across an event; its usage errors) and the progress line (driven by
// an injected clock and writer, never timed). In process on the hand-written circle and switching
// models (circle_model.h, switch_model.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <daec/simulator/run.hpp>

#include "circle_model.h"
#include "run_in_process.h"
#include "switch_model.h"

namespace {

namespace sim = daec::simulator;

using daec::test::read;
using daec::test::RunResult;
using daec::test::scratch;

RunResult run(const std::vector<std::string>& arguments) {
  return daec::test::run<circle::Model>(arguments);
}

/// The rows of a CSV as its fields' text (the header dropped).
std::vector<std::vector<std::string>> rows_of(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::istringstream items(line);
    for (std::string field; std::getline(items, field, ',');) fields.push_back(field);
    rows.push_back(fields);
  }
  return rows;
}

/// The first column (t) of a CSV, as written.
std::vector<std::string> times_of(const std::string& csv) {
  std::vector<std::string> times;
  for (const std::vector<std::string>& row : rows_of(csv)) times.push_back(row.at(0));
  return times;
}

/// What a terminal shows of `text`: a carriage return goes back to the start of the line,
/// characters overwrite; trailing blanks are dropped.
std::string terminal_view(const std::string& text) {
  std::vector<std::string> lines(1);
  size_t column = 0;
  for (char c : text) {
    if (c == '\n') {
      lines.emplace_back();
      column = 0;
    } else if (c == '\r') {
      column = 0;
    } else {
      std::string& line = lines.back();
      if (column >= line.size()) line.resize(column + 1, ' ');
      line[column++] = c;
    }
  }
  std::string view;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string line = lines[i];
    line.erase(line.find_last_not_of(' ') + 1);
    view += line + (i + 1 < lines.size() ? "\n" : "");
  }
  return view;
}

// ----- CSV numbers ------------------------------------------------------------------------------

TEST(SimulatorOutput, NumbersAreTheShortestThatReadBack) {
  EXPECT_EQ(sim::csv_number(0.03), "0.03");
  EXPECT_EQ(sim::csv_number(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(sim::csv_number(-18.62), "-18.62");
  EXPECT_EQ(sim::csv_number(10.81), "10.81");
  EXPECT_EQ(sim::csv_number(-0.0), "0");
  EXPECT_EQ(sim::csv_number(0.0), "0");
  EXPECT_EQ(sim::csv_number(100), "100");
  EXPECT_EQ(sim::csv_number(1e-5), "1e-05");
  EXPECT_EQ(sim::csv_number(1e20), "1e+20");
  EXPECT_EQ(sim::csv_number(5e-324), "5e-324");
  EXPECT_EQ(sim::csv_number(-1.7976931348623157e308), "-1.7976931348623157e+308");
  EXPECT_EQ(sim::csv_line({0, -0.0, 0.5, -2.25e-7}), "0,0,0.5,-2.25e-07\n");
  std::mt19937_64 random(42);
  std::uniform_real_distribution<double> exponent(-300, 300), mantissa(-1, 1);
  for (int i = 0; i < 10000; ++i) {
    const double value = mantissa(random) * std::pow(10.0, exponent(random));
    const std::string text = sim::csv_number(value);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), value) << text;
    EXPECT_LE(text.size(), 24u) << text;
  }
}

TEST(SimulatorOutput, RowsAndEventTimesPrintShortest) {
  RunResult r = run({"--t-end", "0.1", "--step", "0.03"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("t,x,y,z,angle\n0,1.5,0,2.25,0\n0.03,", 0), 0u) << r.out;
  EXPECT_EQ(times_of(r.out), (std::vector<std::string>{"0", "0.03", "0.06", "0.09", "0.1"}));
  for (const std::vector<std::string>& row : rows_of(r.out))
    for (const std::string& field : row) EXPECT_EQ(field.rfind("-0", 0), std::string::npos);
  // The events file too: the switch at pi/12 in its shortest form.
  const std::string events = scratch("output-events.csv");
  RunResult switched =
      daec::test::run<switching::Model>({"--t-end", "0.5", "--events", events, "--rtol", "1e-10"});
  ASSERT_EQ(switched.status, 0) << switched.err;
  const std::string log = read(events);
  ASSERT_EQ(log.rfind("t,condition,value\n", 0), 0u) << log;
  const std::string t = log.substr(18, log.find(',', 18) - 18);
  EXPECT_EQ(sim::csv_number(std::strtod(t.c_str(), nullptr)), t) << log;
  EXPECT_NEAR(std::strtod(t.c_str(), nullptr), M_PI / 12, 1e-9) << log;
}

// ----- --output-times ---------------------------------------------------------------------------

TEST(SimulatorOutput, ListedTimesAreTheRows) {
  sim::Options options;
  options.output_times = {0.25, 0.5, 1.75};
  const sim::OutputTimes times(options);
  ASSERT_EQ(times.count(), 3);
  EXPECT_EQ(times[0], 0.25);
  EXPECT_EQ(times[2], 1.75);
}

// Every method writes its rows at exactly the times listed (no row at T0 unless listed), on the
// exact solution; the end time defaults to the last.
TEST(SimulatorOutput, EveryMethodLandsOnEachListedTime) {
  const std::vector<std::string> listed = {"0.1", "0.2", "0.30000000000000004", "0.7", "1.25"};
  for (const char* method : {"radau5", "radau5-dae", "bdf", "ida"}) {
    SCOPED_TRACE(method);
    RunResult r = run({"--output-times", "0.1,0.2,0.30000000000000004,.7,1.25e0", "--method",
                       method, "--rtol", "1e-10", "--atol", "1e-12"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(times_of(r.out), listed);
    for (const std::vector<std::string>& row : rows_of(r.out)) {
      const double t = std::strtod(row[0].c_str(), nullptr);
      EXPECT_NEAR(std::strtod(row[1].c_str(), nullptr), 1.5 * std::cos(2 * t), 1e-7) << row[0];
      EXPECT_NEAR(std::strtod(row[2].c_str(), nullptr), 1.5 * std::sin(2 * t), 1e-7) << row[0];
    }
  }
}

// Across an event (the switch at pi/12 = 0.2618), at T0, and with a later --t-end: the run goes on
// to T (the statistics say so), but writes no row after the last time.
TEST(SimulatorOutput, ListedTimesAcrossAnEventAndBeforeALaterEnd) {
  const double w = 2, r = 1.5, t1 = M_PI / (6 * w);
  for (const char* method : {"radau5", "bdf", "ida"}) {
    SCOPED_TRACE(method);
    RunResult run = daec::test::run<switching::Model>({"--output-times", "0,0.26,0.2618,0.27,0.5",
                                                       "--t-end", "2", "--method", method, "--rtol",
                                                       "1e-11", "--atol", "1e-11"});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(times_of(run.out), (std::vector<std::string>{"0", "0.26", "0.2618", "0.27", "0.5"}));
    EXPECT_NE(run.err.find(", events 1, "), std::string::npos) << run.err;
    for (const std::vector<std::string>& row : rows_of(run.out)) {
      const double t = std::strtod(row[0].c_str(), nullptr);
      const double angle = t < t1 ? w * t : M_PI / 6 + w / 2 * (t - t1);
      EXPECT_NEAR(std::strtod(row[1].c_str(), nullptr), r * std::cos(angle), 1e-8) << row[0];
    }
  }
}

TEST(SimulatorOutput, ListedTimesFromAFile) {
  const std::string file = scratch("output-times.txt");
  std::ofstream(file) << "# measured at\r\n\r\n  0.5\r\n\t1e-1x\n";
  RunResult bad = run({"--output-times", "@" + file});
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err, "sim: error: invalid number '1e-1x' for --output-times at " + file +
                         ":4 (a decimal number that fits a double, such as 1000, -2.5 or "
                         "1e-3)\nsim: note: run with --help for the usage\n");
  std::ofstream(file) << "# measured at\r\n\r\n  0.5\r\n\t0.75  \n# end\n1\n";
  RunResult ok = run({"--output-times=@" + file, "--t-start", "0.5"});
  ASSERT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(times_of(ok.out), (std::vector<std::string>{"0.5", "0.75", "1"}));
}

// Each rule of --output-times has its own message; bad usage never touches the output file.
TEST(SimulatorOutput, OutputTimesUsageErrors) {
  const std::string csv = scratch("output-times-never.csv"), file = scratch("times-bad.txt");
  const std::string empty = scratch("times-empty.txt"), missing = scratch("no-such-times.txt");
  std::ofstream(file) << "0.1\n0.3\n\n0.2\n";
  std::ofstream(empty) << "# nothing\n\n";
  std::filesystem::remove(missing);
  const std::string decimal = " (a decimal number that fits a double, such as 1000, -2.5 or 1e-3)";
  struct Case {
    std::vector<std::string> arguments;
    std::string message;
  };
  const Case cases[] = {
      {{"--output-times", "0.1,x"}, "invalid number 'x' for --output-times" + decimal},
      {{"--output-times", "0.1,inf"}, "invalid number 'inf' for --output-times" + decimal},
      {{"--output-times", "1e999"}, "invalid number '1e999' for --output-times" + decimal},
      {{"--output-times", "0.1, 0.2"}, "invalid number ' 0.2' for --output-times" + decimal},
      {{"--output-times", "0.1,,0.2"},
       "--output-times expects times separated by commas, or @FILE, got '0.1,,0.2'"},
      {{"--output-times", ""},
       "--output-times expects times separated by commas, or @FILE, got ''"},
      {{"--output-times", "0.1,0.2,"},
       "--output-times expects times separated by commas, or @FILE, got '0.1,0.2,'"},
      {{"--output-times", "0.5,0.5"},
       "--output-times must be strictly increasing: 0.5 follows 0.5"},
      {{"--output-times", "0.5,1,0.7"},
       "--output-times must be strictly increasing: 0.7 follows 1"},
      {{"--output-times", "@" + file},
       "--output-times must be strictly increasing: 0.2 at " + file + ":4 follows 0.3"},
      {{"--output-times", "@"}, "--output-times expects a file name after '@'"},
      {{"--output-times", "@" + missing},
       "cannot read the --output-times file '" + missing + "': No such file or directory"},
      {{"--output-times", "@" + empty},
       "the --output-times file '" + empty +
           "' holds no time (one time a line; blank lines and lines starting with # are skipped)"},
      {{"--output-times", "-0.5,1"}, "--output-times starts at -0.5, before --t-start (0)"},
      {{"--t-start", "1", "--output-times", "@" + scratch("output-times.txt")},
       "--output-times @" + scratch("output-times.txt") + " starts at 0.5, before --t-start (1)"},
      {{"--output-times", "0.5,3", "--t-end", "2"}, "--output-times ends at 3, after --t-end (2)"},
      {{"--output-times", "0"},
       "--output-times needs a time after --t-start (0): the run ends at "
       "the last time"},
      {{"--step", "0.1", "--output-times", "0.5"},
       "--output-times and --step cannot be combined: --output-times replaces the uniform step"},
  };
  std::ofstream(scratch("output-times.txt")) << "0.5\n1\n";
  for (const Case& c : cases) {
    std::ofstream(csv) << "OLD\n";
    std::vector<std::string> arguments = c.arguments;
    arguments.insert(arguments.end(), {"--output", csv});
    RunResult r = run(arguments);
    EXPECT_EQ(r.status, 2) << c.message;
    EXPECT_EQ(r.err, "sim: error: " + c.message + "\nsim: note: run with --help for the usage\n");
    EXPECT_EQ(read(csv), "OLD\n") << c.message;
  }
  // A single time after T0 is fine, and so is T0 itself with a later --t-end.
  EXPECT_EQ(times_of(run({"--output-times", "0.5"}).out), std::vector<std::string>{"0.5"});
  EXPECT_EQ(times_of(run({"--output-times", "0", "--t-end", "0.5"}).out),
            std::vector<std::string>{"0"});
}

// ----- The progress line ------------------------------------------------------------------------

/// A progress line on a fake clock, writing into `out`.
struct FakeTerminal {
  double now = 100;
  std::string out;
  sim::ProgressLine::Clock clock() {
    return [this] { return now; };
  }
  sim::ProgressLine::Writer writer() {
    return [this](const std::string& text) { out += text; };
  }
};

TEST(ProgressLine, NothingInTheFirstSecondThenFiveRedrawsASecond) {
  FakeTerminal terminal;
  {
    sim::ProgressLine line(true, 0, 2, terminal.clock(), terminal.writer());
    terminal.now = 100.99;
    EXPECT_FALSE(line.due());
    terminal.now = 101;
    ASSERT_TRUE(line.due());
    line.show(0.5, 1234);
    EXPECT_EQ(terminal.out, "\rsim: t = 0.5 of 2 (25%), 1234 steps");
    terminal.now = 101.19;
    EXPECT_FALSE(line.due());
    terminal.now = 101.2;
    ASSERT_TRUE(line.due());
    terminal.out.clear();
    line.show(1.25, 99);  // one character shorter: a blank over the last one
    EXPECT_EQ(terminal.out, "\rsim: t = 1.25 of 2 (62%), 99 steps ");
    terminal.out.clear();
    line.clear();
    EXPECT_EQ(terminal.out, "\r" + std::string(34, ' ') + "\r");
    terminal.out.clear();
    line.clear();  // nothing shown: nothing to erase
    EXPECT_EQ(terminal.out, "");
    terminal.now = 101.4;
    ASSERT_TRUE(line.due());
    line.show(1.0 / 3, 7);
    EXPECT_EQ(terminal.out, "\rsim: t = 0.333333 of 2 (16%), 7 steps");
    terminal.out.clear();
  }  // the destructor erases the line: a run that ends by an error leaves none
  EXPECT_EQ(terminal.out, "\r" + std::string(37, ' ') + "\r");
}

TEST(ProgressLine, DisabledNeverWrites) {
  FakeTerminal terminal;
  {
    sim::ProgressLine line(false, 0, 2, terminal.clock(), terminal.writer());
    terminal.now = 1000;
    EXPECT_FALSE(line.due());
    sim::clear_progress_line();
  }
  EXPECT_EQ(terminal.out, "");
}

// A warning erases the line of the run in progress (clear_progress_line); once the run is over
// there is none to erase.
TEST(ProgressLine, AWarningErasesTheLineOfTheRun) {
  FakeTerminal terminal;
  {
    sim::ProgressLine line(true, -1, 1e7, terminal.clock(), terminal.writer());
    terminal.now = 102;
    ASSERT_TRUE(line.due());
    line.show(-0.0, 0);
    EXPECT_EQ(terminal.out, "\rsim: t = 0 of 1e+07 (0%), 0 steps");
    terminal.out.clear();
    sim::clear_progress_line();
    EXPECT_EQ(terminal.out, "\r" + std::string(33, ' ') + "\r");
    EXPECT_EQ(sim::active_progress_line(), &line);
  }
  EXPECT_EQ(sim::active_progress_line(), nullptr);
}

// --progress and --no-progress take no value; with either, what stderr shows in the end (a
// terminal's view) is the statistics line alone, whether the line was drawn or not.
TEST(ProgressLine, FlagsAndTheStatisticsLine) {
  RunResult bad = run({"--progress=yes"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err,
            "sim: error: --progress takes no value, got '--progress=yes'\n"
            "sim: note: run with --help for the usage\n");
  RunResult quiet = run({"--quiet=1"});
  EXPECT_EQ(quiet.err,
            "sim: error: --quiet takes no value, got '--quiet=1'\n"
            "sim: note: run with --help for the usage\n");
  RunResult plain = run({"--t-end", "0.5", "--no-progress"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.err.find('\r'), std::string::npos);
  EXPECT_EQ(plain.err.rfind("method radau5, linear solver dense, steps ", 0), 0u) << plain.err;
  RunResult shown = run({"--t-end", "0.5", "--progress"});
  ASSERT_EQ(shown.status, 0) << shown.err;
  EXPECT_EQ(terminal_view(shown.err), plain.err);
  EXPECT_EQ(shown.out, plain.out);
  RunResult help = run({"--help"});
  for (const char* part : {"--output-times L", "@FILE", "--progress", "--no-progress"})
    EXPECT_NE(help.out.find(part), std::string::npos) << part << "\n" << help.out;
}

}  // namespace

namespace {

TEST(SimulatorOutput, UnitsFileBesideTheCsv) {
  EXPECT_EQ("out.units.csv", daec::simulator::units_path("out.csv"));
  EXPECT_EQ("dir/run.units.csv", daec::simulator::units_path("dir/run"));
  EXPECT_EQ(".csv.units.csv", daec::simulator::units_path(".csv"));
}

}  // namespace
