// The simulator's command line (docs/simulator.md): options, their defaults and their checks. Knows
// nothing of the model; the names given to --set and --method are resolved later.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/option_numbers.hpp>
#include <daec/simulator/output_files.hpp>
#include <daec/simulator/output_times_option.hpp>

namespace daec::simulator {

// Defaults of the command line (documented in --help).
constexpr double kDefaultTStart = 0.0;
constexpr double kDefaultTEnd = 1.0;
constexpr int kDefaultStepsPerRun = 100;  // DT = (T - T0) / 100
constexpr double kDefaultRtol = 1e-8;
constexpr double kDefaultAtol = 1e-10;
// Relative tolerances below this ask for more digits than a double has (Radau5 refuses them).
constexpr double kSmallestRtol = 1e-15;
// A relative tolerance of 1 or more asks for no correct digit at all.
constexpr double kLargestRtol = 1.0;
// Output times T0 + k*DT closer than this many rounding units of t could round to one time.
constexpr double kSmallestStepUlps = 4;
// More output rows than this is surely a mistake in --step.
constexpr double kMaxOutputRows = 1e9;

struct Setting {
  std::string name;
  double value;
  bool fix = false;  // --fix: consistent initialization keeps the start exactly
};

enum class LinearSolver { automatic, dense, klu };

/// What the run does at a singular point of the reduced system (singular.hpp).
enum class OnSingular { stop, warn };

/// Whether the run shows its progress line (progress.hpp): --progress, --no-progress, or as
/// stderr is (automatic: when it is a terminal).
enum class ProgressMode { automatic, on, off };

/// One item of --plot-columns: the column `y` drawn against the column `x`, "" for t (a name
/// alone) or a name (a pair x:y, a phase plot).
struct PlotColumn {
  std::string x, y;
  bool operator==(const PlotColumn& other) const { return x == other.x && y == other.y; }
};

struct Options {
  double t_start = kDefaultTStart;
  double t_end = kDefaultTEnd;
  bool t_end_given = false;          // else T is the last of --output-times, if given
  double step = 0.0;                 // 0: not given, (T - T0) / kDefaultStepsPerRun
  std::vector<double> output_times;  // --output-times (empty: T0 + k*DT)
  std::string output_times_source;   // "--output-times" or "--output-times @FILE", for messages
  double rtol = kDefaultRtol;
  double atol = kDefaultAtol;
  std::vector<Setting> settings;  // --set and --fix, in command-line order
  std::string output = "-";
  std::string method;  // "": the model's default
  LinearSolver linear_solver = LinearSolver::automatic;
  OnSingular on_singular = OnSingular::stop;
  std::string plot;                      // --plot FILE ("" none)
  std::vector<PlotColumn> plot_columns;  // --plot-columns a,b,c or x:y (empty: every column)
  std::vector<std::string> columns;      // --columns: names and patterns (empty: every column)
  std::string events;                    // --events FILE ("" none): the switches of conditions
  std::string sensitivities;             // --sensitivities p1,p2|all ("" none)
  bool help = false;
  bool list_methods = false;  // --method list
  bool quiet = false;         // --quiet: no report of the starts consistent initialization moved
  ProgressMode progress = ProgressMode::automatic;
};

/// NAME=VALUE of --set (or of --fix, `option`).
inline Setting parse_setting(const std::string& option, const std::string& text) {
  size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    usage_error(option + " expects NAME=VALUE, got '" + text + "'");
  std::string name = text.substr(0, equals);
  return {name, parse_number(option + " " + name, text.substr(equals + 1)), option == "--fix"};
}

inline LinearSolver parse_linear_solver(const std::string& text) {
  if (text == "auto") return LinearSolver::automatic;
  if (text == "dense") return LinearSolver::dense;
  if (text == "klu") return LinearSolver::klu;
  usage_error("--linear-solver expects dense, klu or auto, got '" + text + "'");
}

inline OnSingular parse_on_singular(const std::string& text) {
  if (text == "stop") return OnSingular::stop;
  if (text == "warn") return OnSingular::warn;
  usage_error("--on-singular expects stop or warn, got '" + text + "'");
}

/// One name of --plot-columns from text[i]: a CSV field "..." with "" for a quote, or the text up
/// to a comma or colon outside square brackets (so that A[1,2] is one name). Empty if there is
/// none; `bad` reports a malformed quoted name.
template <typename Bad>
std::string parse_column_name(const std::string& text, size_t& i, const Bad& bad) {
  std::string name;
  if (i < text.size() && text[i] == '"') {  // a quoted name: up to the lone closing quote
    for (++i;; ++i) {
      if (i == text.size()) bad(" (a quoted name lacks its closing quote)");
      if (text[i] != '"') {
        name += text[i];
      } else if (i + 1 < text.size() && text[i + 1] == '"') {
        name += text[i++];
      } else {
        break;
      }
    }
    if (++i < text.size() && text[i] != ',' && text[i] != ':')
      bad(" (a quoted name ends the item)");
    return name;
  }
  for (int depth = 0; i < text.size() && ((text[i] != ',' && text[i] != ':') || depth > 0); ++i) {
    depth += text[i] == '[' ? 1 : text[i] == ']' && depth > 0 ? -1 : 0;
    name += text[i];
  }
  return name;
}

/// The items of --plot-columns "a,b,c" (columns against t) or "x:y,u:v" (y against x, u against
/// v): separated by the commas outside square brackets and outside double quotes, so that an
/// array element A[1,2] is one name; a name may be written as a CSV field, "..." with "" for a
/// quote (RFC 4180). An empty item, a pair that lacks a name or has three, and a mix of names
/// and pairs are errors.
inline std::vector<PlotColumn> parse_columns(const std::string& text) {
  auto bad = [&](const std::string& why) {
    usage_error("--plot-columns expects names separated by commas" + why + ", got '" + text + "'");
  };
  std::vector<PlotColumn> columns;
  std::string first_item;
  size_t i = 0;
  while (true) {
    const size_t start = i;
    std::vector<std::string> names{parse_column_name(text, i, bad)};
    while (i < text.size() && text[i] == ':') names.push_back(parse_column_name(text, ++i, bad));
    const std::string item = text.substr(start, i - start);
    if (names.size() == 1 && names[0].empty()) bad("");
    if (names.size() > 2 || (names.size() == 2 && (names[0].empty() || names[1].empty())))
      usage_error("--plot-columns: '" + item + "' is not a pair x:y of two names");
    columns.push_back(names.size() == 2 ? PlotColumn{names[0], names[1]}
                                        : PlotColumn{"", names[0]});
    if (columns.size() == 1) first_item = item;
    if (columns.back().x.empty() != columns.front().x.empty()) {
      const std::string pair = columns.front().x.empty() ? item : first_item;
      usage_error("--plot-columns mixes names drawn against t with pairs x:y ('" + pair +
                  "'); a plot draws one kind: a,b,c or x:y,u:v");
    }
    if (i >= text.size()) return columns;
    ++i;  // the comma
    if (i == text.size()) bad("");
  }
}

/// The items of --columns "x,v,x[*]": names and patterns (* for any text), separated by the
/// commas outside square brackets and outside double quotes, each possibly a CSV field "...".
inline std::vector<std::string> parse_column_patterns(const std::string& text,
                                                      const std::string& option = "--columns") {
  auto bad = [&](const std::string& why) {
    usage_error(option + " expects names or patterns separated by commas" + why + ", got '" + text +
                "'");
  };
  std::vector<std::string> patterns;
  size_t i = 0;
  while (true) {
    std::string pattern;
    if (i < text.size() && text[i] == '"') {
      pattern = parse_column_name(text, i, bad);
      if (i < text.size() && text[i] == ':') bad(" (a quoted name ends the item)");
    } else {
      for (int depth = 0; i < text.size() && (text[i] != ',' || depth > 0); ++i) {
        depth += text[i] == '[' ? 1 : text[i] == ']' && depth > 0 ? -1 : 0;
        pattern += text[i];
      }
    }
    if (pattern.empty()) bad("");
    patterns.push_back(pattern);
    if (i >= text.size()) return patterns;
    ++i;  // the comma
    if (i == text.size()) bad("");
  }
}

/// Whether `name` matches `pattern`, where * stands for any text (none included) and every other
/// character for itself: x[*] matches x[1] and x[12], A[1,*] the first row of A.
inline bool matches_pattern(const std::string& pattern, const std::string& name) {
  size_t p = 0, n = 0, star = std::string::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p, ++n;
    } else if (star != std::string::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

/// `name` as parse_columns reads it back: as it is, or quoted when it holds a quote, or a comma
/// or colon outside square brackets (or is empty).
inline std::string column_selector(const std::string& name) {
  bool plain = !name.empty() && name.front() != '"';
  int depth = 0;
  for (char c : name) {
    depth += c == '[' ? 1 : c == ']' && depth > 0 ? -1 : 0;
    plain = plain && c != '"' && ((c != ',' && c != ':') || depth > 0);
  }
  if (plain && depth == 0) return name;
  std::string quoted = "\"";
  for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// The options that take a value, and those that take none.
constexpr const char* kValueOptions[] = {
    "--t-start",       "--t-end",  "--step",   "--rtol",          "--atol",
    "--set",           "--fix",    "--output", "--linear-solver", "--plot",
    "--plot-columns",  "--method", "--events", "--on-singular",   "--output-times",
    "--sensitivities", "--columns"};
constexpr const char* kFlagOptions[] = {"--quiet", "--progress", "--no-progress", "--help"};

inline bool takes_value(const std::string& option) {
  for (const char* known : kValueOptions)
    if (option == known) return true;
  return false;
}

/// The Levenshtein distance of a and b (insertions, deletions, substitutions).
inline size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// "unknown option '--tend'; did you mean '--t-end'?": the known option closest to `option`
/// when it is a plausible typo (at most a third of its letters changed, and at most 3), else
/// none.
inline std::string unknown_option(const std::string& argument, const std::string& option) {
  std::string message = "unknown option '" + argument + "'";
  std::string best;
  size_t best_distance = 0;
  auto consider = [&](const char* known) {
    const size_t distance = edit_distance(option, known);
    if (best.empty() || distance < best_distance) best = known, best_distance = distance;
  };
  for (const char* known : kValueOptions) consider(known);
  for (const char* known : kFlagOptions) consider(known);
  const size_t letters = option.size() > 2 ? option.size() - 2 : 0;
  if (!best.empty() && best_distance <= std::min<size_t>(3, std::max<size_t>(1, letters / 3)))
    message += "; did you mean '" + best + "'?";
  return message;
}

inline void apply_option(Options& options, const std::string& option, const std::string& value) {
  if (option == "--t-start") options.t_start = parse_number(option, value);
  if (option == "--t-end") {
    options.t_end = parse_number(option, value);
    options.t_end_given = true;
  }
  if (option == "--output-times") {
    OutputTimesArgument argument = read_output_times(value);
    options.output_times = std::move(argument.times);
    options.output_times_source = std::move(argument.source);
  }
  if (option == "--step") options.step = parse_number(option, value);
  if (option == "--rtol") options.rtol = parse_number(option, value);
  if (option == "--atol") options.atol = parse_number(option, value);
  if (option == "--set" || option == "--fix")
    options.settings.push_back(parse_setting(option, value));
  if (option == "--linear-solver") options.linear_solver = parse_linear_solver(value);
  if (option == "--on-singular") options.on_singular = parse_on_singular(value);
  if (option == "--plot-columns") options.plot_columns = parse_columns(value);
  if (option == "--columns") options.columns = parse_column_patterns(value);
  if (option == "--sensitivities") {
    if (value.empty()) usage_error("--sensitivities expects parameter names (p1,p2) or 'all'");
    options.sensitivities = value;
  }
  if (option == "--method") {
    if (value.empty()) usage_error("--method expects a method name or 'list'");
    options.list_methods = value == "list";
    options.method = value;
  }
  if (option == "--output" || option == "--plot" || option == "--events") {
    if (value.empty())
      usage_error(option + " expects a file name" + (option == "--output" ? " or '-'" : ""));
    (option == "--output" ? options.output
     : option == "--plot" ? options.plot
                          : options.events) = value;
  }
}

inline bool has_suffix(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Whether two output paths name one file: both '-' (standard output), the same path once "."
/// and ".." and symbolic links are resolved (a dangling link to another output included: writing
/// through it creates that output), or (for files that exist) the same inode, whatever links lead
/// there.
inline bool same_file(const std::string& a, const std::string& b) {
  if (a == "-" || b == "-") return a == b;
  namespace fs = std::filesystem;
  if (fs::path(a).lexically_normal() == fs::path(b).lexically_normal()) return true;
  const std::string end_a = output_destination(a), end_b = output_destination(b);
  std::error_code error_a, error_b;
  const fs::path real_a = fs::weakly_canonical(end_a.empty() ? a : end_a, error_a),
                 real_b = fs::weakly_canonical(end_b.empty() ? b : end_b, error_b);
  if (!error_a && !error_b && real_a == real_b) return true;
  return fs::equivalent(a, b, error_a) && !error_a;
}

/// Where the units of the CSV file `path` go: OUT.units.csv beside OUT.csv (or beside OUT).
inline std::string units_path(const std::string& path) {
  const std::string suffix = ".csv";
  bool csv = path.size() > suffix.size() &&
             path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  return (csv ? path.substr(0, path.size() - suffix.size()) : path) + ".units.csv";
}

/// Two outputs on one file would interleave or overwrite each other: a usage error, before
/// anything is written.
inline void check_distinct_outputs(const Options& options) {
  const std::pair<const char*, std::string> outputs[] = {
      {"--output", options.output},
      {"the units of --output", options.output == "-" ? "" : units_path(options.output)},
      {"--events", options.events},
      {"--plot", options.plot}};
  for (size_t i = 0; i < std::size(outputs); ++i) {
    for (size_t j = i + 1; j < std::size(outputs); ++j) {
      const std::string &a = outputs[i].second, &b = outputs[j].second;
      if (a.empty() || b.empty() || !same_file(a, b)) continue;
      usage_error(std::string(outputs[i].first) + " and " + outputs[j].first +
                  " would both write " +
                  (a == "-" ? std::string("to standard output ('-')") : "'" + b + "'"));
    }
  }
}

/// The output times must stay apart in double precision: DT at least kSmallestStepUlps rounding
/// units of the largest |t|, or rows would repeat a time.
inline void check_step_resolution(const Options& options) {
  const double largest = std::max(std::fabs(options.t_start), std::fabs(options.t_end));
  const double ulp = std::nextafter(largest, HUGE_VAL) - largest;
  if (options.step >= kSmallestStepUlps * ulp) return;
  usage_error("--step " + text::format_number(options.step) +
              " is below the resolution of t near " + text::format_number(largest) + " (" +
              text::format_number(ulp) + "): output times would repeat; it must be at least " +
              text::format_number(kSmallestStepUlps * ulp));
}

/// --output-times against --t-start and --t-end: from T0 on; T defaults to the last time, and a
/// T given must not come before it (the run goes on to T, writing no row after the last time).
inline void check_output_times(Options& options) {
  using text::format_number;
  const std::string& source = options.output_times_source;
  const double first = options.output_times.front(), last = options.output_times.back();
  if (first < options.t_start)
    usage_error(source + " starts at " + format_number(first) + ", before --t-start (" +
                format_number(options.t_start) + ")");
  if (!options.t_end_given) {
    if (!(last > options.t_start))
      usage_error(source + " needs a time after --t-start (" + format_number(options.t_start) +
                  "): the run ends at the last time");
    options.t_end = last;
  } else if (last > options.t_end) {
    usage_error(source + " ends at " + format_number(last) + ", after --t-end (" +
                format_number(options.t_end) + ")");
  }
}

/// The uniform output step: DT > 0, not too many rows, times apart in double precision.
inline void check_step(Options& options) {
  using text::format_number;
  if (options.step == 0.0) options.step = (options.t_end - options.t_start) / kDefaultStepsPerRun;
  if (!(options.step > 0.0) || !std::isfinite(options.step))
    usage_error("--step must be positive, got " + format_number(options.step));
  if ((options.t_end - options.t_start) / options.step > kMaxOutputRows)
    usage_error("--step " + format_number(options.step) + " asks for too many output rows");
  check_step_resolution(options);
}

inline void check_options(Options& options) {
  using text::format_number;
  if (!options.output_times.empty()) check_output_times(options);
  if (!(options.t_end > options.t_start))
    usage_error("--t-end (" + format_number(options.t_end) + ") must be greater than --t-start (" +
                format_number(options.t_start) + ")");
  if (!std::isfinite(options.t_end - options.t_start))
    usage_error("the interval from --t-start to --t-end is too long");
  if (options.output_times.empty()) check_step(options);
  if (!(options.rtol > 0.0)) usage_error("--rtol must be positive");
  if (options.rtol < kSmallestRtol)
    usage_error("--rtol " + format_number(options.rtol) + " is below " +
                format_number(kSmallestRtol) + ", more than double precision can deliver");
  if (!(options.rtol < kLargestRtol))
    usage_error("--rtol " + format_number(options.rtol) +
                " asks for no correct digit; it must be below 1");
  if (!(options.atol > 0.0)) usage_error("--atol must be positive");
  if (!options.plot_columns.empty() && options.plot.empty())
    usage_error("--plot-columns needs --plot FILE");
  if (!options.plot.empty() && !has_suffix(options.plot, ".svg") &&
      !has_suffix(options.plot, ".png"))
    usage_error("--plot " + options.plot + ": the file name must end in .svg or .png");
  check_distinct_outputs(options);
}

/// Applies `option` if it is one that takes no value (--quiet, --progress, --no-progress).
inline bool apply_flag(Options& options, const std::string& option) {
  if (option == "--quiet") options.quiet = true;
  if (option == "--progress") options.progress = ProgressMode::on;
  if (option == "--no-progress") options.progress = ProgressMode::off;
  return option == "--quiet" || option == "--progress" || option == "--no-progress";
}

/// The options of argv; --help and --method list end the parsing (nothing else is checked then).
inline Options parse_arguments(int argc, char** argv) {
  Options options;
  bool step_given = false;
  for (int i = 1; i < argc; ++i) {
    std::string argument = argv[i];
    if (argument == "--help" || argument == "-h") {
      options.help = true;
      return options;
    }
    size_t equals = argument.find('=');
    std::string option = argument.substr(0, equals);
    if (apply_flag(options, option)) {
      if (equals != std::string::npos)
        usage_error(option + " takes no value, got '" + argument + "'");
      continue;
    }
    if (argument.rfind("-", 0) != 0) usage_error("unexpected argument '" + argument + "'");
    if (!takes_value(option)) usage_error(unknown_option(argument, option));
    std::string value;
    if (equals != std::string::npos) {
      value = argument.substr(equals + 1);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      usage_error("option " + option + " expects a value");
    }
    apply_option(options, option, value);
    if (options.list_methods) return options;
    if (option == "--step") step_given = true;
  }
  if (step_given && !options.output_times.empty())
    usage_error(
        "--output-times and --step cannot be combined: --output-times replaces the "
        "uniform step");
  if (step_given && options.step == 0.0) usage_error("--step must be positive, got 0");
  check_options(options);
  return options;
}

}  // namespace daec::simulator
