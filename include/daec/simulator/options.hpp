// The simulator's command line (spec §5, §5.1): options, their defaults and their checks. Knows
// nothing of the model; the names given to --set and --method are resolved later.
#pragma once

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/simulator/failure.hpp>

namespace daec::simulator {

// Defaults of the command line (documented in --help).
constexpr double kDefaultTStart = 0.0;
constexpr double kDefaultTEnd = 1.0;
constexpr int kDefaultStepsPerRun = 100;  // DT = (T - T0) / 100
constexpr double kDefaultRtol = 1e-8;
constexpr double kDefaultAtol = 1e-10;
// Relative tolerances below this ask for more digits than a double has (Radau5 refuses them).
constexpr double kSmallestRtol = 1e-15;
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

struct Options {
  double t_start = kDefaultTStart;
  double t_end = kDefaultTEnd;
  double step = 0.0;  // 0: not given, (T - T0) / kDefaultStepsPerRun
  double rtol = kDefaultRtol;
  double atol = kDefaultAtol;
  std::vector<Setting> settings;  // --set and --fix, in command-line order
  std::string output = "-";
  std::string method;  // "": the model's default
  LinearSolver linear_solver = LinearSolver::automatic;
  OnSingular on_singular = OnSingular::stop;
  std::string plot;                       // --plot FILE ("" none)
  std::vector<std::string> plot_columns;  // --plot-columns a,b,c (empty: every column)
  std::string events;                     // --events FILE ("" none): the switches of conditions
  bool help = false;
  bool list_methods = false;  // --method list
  bool quiet = false;         // --quiet: no report of the starts consistent initialization moved
};

/// Strict number: the whole text must be a finite number.
inline double parse_number(const std::string& option, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  bool whole = !text.empty() && end == text.c_str() + text.size() &&
               !std::isspace(static_cast<unsigned char>(text[0]));
  if (!whole || errno == ERANGE || !std::isfinite(value))
    usage_error("invalid number '" + text + "' for " + option);
  return value;
}

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

/// "a,b,c" as its items; an empty item is an error.
inline std::vector<std::string> parse_columns(const std::string& text) {
  std::vector<std::string> columns;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
    if (item.empty())
      usage_error("--plot-columns expects names separated by commas, got '" + text + "'");
    columns.push_back(item);
    if (comma == std::string::npos) return columns;
    start = comma + 1;
  }
}

inline bool takes_value(const std::string& option) {
  static const char* const kValueOptions[] = {
      "--t-start",      "--t-end",  "--step",   "--rtol",          "--atol",
      "--set",          "--fix",    "--output", "--linear-solver", "--plot",
      "--plot-columns", "--method", "--events", "--on-singular"};
  for (const char* known : kValueOptions)
    if (option == known) return true;
  return false;
}

inline void apply_option(Options& options, const std::string& option, const std::string& value) {
  if (option == "--t-start") options.t_start = parse_number(option, value);
  if (option == "--t-end") options.t_end = parse_number(option, value);
  if (option == "--step") options.step = parse_number(option, value);
  if (option == "--rtol") options.rtol = parse_number(option, value);
  if (option == "--atol") options.atol = parse_number(option, value);
  if (option == "--set" || option == "--fix")
    options.settings.push_back(parse_setting(option, value));
  if (option == "--linear-solver") options.linear_solver = parse_linear_solver(value);
  if (option == "--on-singular") options.on_singular = parse_on_singular(value);
  if (option == "--plot-columns") options.plot_columns = parse_columns(value);
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

inline void check_options(Options& options) {
  using text::format_number;
  if (!(options.t_end > options.t_start))
    usage_error("--t-end (" + format_number(options.t_end) + ") must be greater than --t-start (" +
                format_number(options.t_start) + ")");
  if (!std::isfinite(options.t_end - options.t_start))
    usage_error("the interval from --t-start to --t-end is too long");
  if (options.step == 0.0) options.step = (options.t_end - options.t_start) / kDefaultStepsPerRun;
  if (!(options.step > 0.0) || !std::isfinite(options.step))
    usage_error("--step must be positive, got " + format_number(options.step));
  if ((options.t_end - options.t_start) / options.step > kMaxOutputRows)
    usage_error("--step " + format_number(options.step) + " asks for too many output rows");
  if (!(options.rtol > 0.0)) usage_error("--rtol must be positive");
  if (options.rtol < kSmallestRtol)
    usage_error("--rtol " + format_number(options.rtol) + " is below " +
                format_number(kSmallestRtol) + ", more than double precision can deliver");
  if (!(options.atol > 0.0)) usage_error("--atol must be positive");
  if (!options.plot_columns.empty() && options.plot.empty())
    usage_error("--plot-columns needs --plot FILE");
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
    if (argument == "--quiet") {
      options.quiet = true;
      continue;
    }
    size_t equals = argument.find('=');
    std::string option = argument.substr(0, equals);
    if (argument.rfind("-", 0) != 0) usage_error("unexpected argument '" + argument + "'");
    if (!takes_value(option)) usage_error("unknown option '" + argument + "'");
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
  if (step_given && options.step == 0.0) usage_error("--step must be positive, got 0");
  check_options(options);
  return options;
}

}  // namespace daec::simulator
