// Command-line parsing and the --help text.
#include "driver/options.h"

#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "frontend/constants.h"

#include <boost/program_options.hpp>

namespace po = boost::program_options;

namespace daec {

// The limits as given, signed: Boost would read "-1" into an unsigned number as a huge one.
struct GivenLimits {
  long long max_expression_size = static_cast<long long>(kDefaultMaxExpressionSize);
  long long time_limit = kDefaultTimeLimit;
  long long max_input_size = static_cast<long long>(kDefaultMaxInputBytes);
  std::string units = "warn";            ///< --units
  std::string combinations = "promote";  ///< --combinations
  std::string unknown_order = "auto";    ///< --unknown-order
};

static po::options_description visible_options(Options& o, std::string& dummies,
                                               GivenLimits& limits,
                                               std::vector<std::string>& defines) {
  po::options_description desc("Options");
  // clang-format off
  desc.add_options()
    ("help,h", po::bool_switch(&o.help), "print this help and exit")
    ("version", po::bool_switch(&o.version), "print the version and exit")
    ("define,D", po::value(&defines)->value_name("NAME=VALUE"),
     "replace the value of parameter NAME by VALUE (a number) before the model is flattened, "
     "e.g. -D N=1000 for the size of its arrays; repeatable")
    ("output,o", po::value(&o.output)->value_name("FILE"),
     "write the generated C++ to FILE ('-' for stdout); default: the model's file name with .cpp")
    ("output-dir", po::value(&o.output_dir)->value_name("DIR"),
     "batch mode: write DIR/<model file name without extension>.cpp for each model, creating DIR "
     "if missing")
    ("jobs,j", po::value(&o.jobs)->value_name("N"),
     "batch mode: compile up to N models at once, each in a process of its own (default 1)")
    ("split", po::value(&o.split)->value_name("N"),
     ("also write N part files beside the code, OUT_1.cpp ... OUT_N.cpp for -o OUT.cpp, holding "
      "the bulk of a large model's functions so that they compile in parallel; build them "
      "together with OUT.cpp (default 0: one file; at most " + std::to_string(kMaxSplit) +
      ")").c_str())
    ("check", po::bool_switch(&o.check),
     "check and reduce the model; print its classification, dependency table and index "
     "reduction summary; generate no code")
    ("main", po::bool_switch(&o.main),
     "append a main() that simulates the model with SUNDIALS and daec's integrators (see "
     "docs/simulator.md)")
    ("python-module", po::value(&o.python_module)->value_name("NAME"),
     "append a pybind11 module NAME whose class Model exposes the model to Python with NumPy "
     "arrays (daec_add_python_module builds it; see docs/python.md)")
    ("namespace", po::value(&o.name_space)->value_name("NS"),
     "C++ namespace of the generated code, e.g. 'mech::arm' (default: the model name, renamed "
     "if it is a C++ keyword, such as class -> class_model)")
    ("header", po::value(&o.header)->value_name("FILE"),
     "also write FILE, a header declaring NS::Model, for linking the generated code as a library "
     "('-' for stdout)")
    ("report", po::value(&o.report)->value_name("FILE"),
     "write a Markdown report of the reduction to FILE, and its sparsity picture beside it "
     "(FILE without .md, plus .spy.svg)")
    ("report-json", po::value(&o.report_json)->value_name("FILE"),
     "write the reduction as JSON (model, index, states, algebraic, dummies, invariants, rounds; "
     "'-' for stdout)")
    ("dummies", po::value(&dummies)->value_name("MODE"),
     "'auto' (default): dummy variables for derivatives whose equation holds algebraic unknowns; "
     "'never': substitute the derivatives instead")
    ("combinations", po::value(&limits.combinations)->value_name("MODE"),
     "constraints whose rows of B are dependent: 'promote' (default) makes their unknowns "
     "states wherever the rows hold fewer unknowns than there are rows, and combines the others "
     "into one free of the algebraic unknowns, comb(...); 'auto' combines them all, and makes "
     "states only where combinations would nest more than two deep; 'nest' always combines "
     "(docs/reduction.md, High index)")
    ("unknown-order", po::value(&limits.unknown_order)->value_name("MODE"),
     ("the order of the generated code's states and algebraic unknowns: 'auto' (default) "
      "keeps the model's declaration order up to " + std::to_string(kStructuralOrderVariables - 1) +
      " variables and numbers larger models by their structure, 'declared' always keeps it, "
      "'structural' always numbers by structure: coupled unknowns together, along a chain from "
      "one end, so that the cost of the code does not depend on the order the model is written "
      "in (the declared variables' names and locations keep declaration order; "
      "docs/generated-code.md, Large models)").c_str())
    ("units", po::value(&limits.units)->value_name("MODE"),
     "dimensional mismatches of the model's units (unit = \"m/s\"): 'warn' (default) reports "
     "them as warnings, 'error' as errors (the model is not compiled), 'off' does not check "
     "them (docs/language.md, Units)")
    ("compare-dummies", po::bool_switch(&o.compare_dummies),
     "with --check: reduce with and without dummy variables and compare the sizes")
    ("max-rounds", po::value(&o.max_rounds)->value_name("N"),
     "give up index reduction after N rounds (default 10)")
    ("max-expression-size", po::value(&limits.max_expression_size)->value_name("N"),
     ("stop with an error when an expression grows past N nodes while reducing or generating "
      "code, e.g. by differentiating a large nonlinear constraint again and again (default " +
      std::to_string(kDefaultMaxExpressionSize) +
      ", thousands of times what the bundled models and the 128-link benchmark chain need; "
      "0: no limit)").c_str())
    ("max-input-size", po::value(&limits.max_input_size)->value_name("BYTES"),
     ("stop with an error when a model file or standard input holds more than BYTES bytes "
      "(default " + std::to_string(kDefaultMaxInputBytes) +
      ", 64 MiB, over ten times a model of 200,000 equations; 0: no limit)").c_str())
    ("time-limit", po::value(&limits.time_limit)->value_name("SECONDS"),
     ("stop with an error when one model has taken SECONDS seconds (default " +
      std::to_string(kDefaultTimeLimit) +
      ", hundreds of times the second the 128-link benchmark chain takes; 0: no limit)").c_str());
  // clang-format on
  return desc;
}

static bool is_name(const std::string& text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// Splits each -D NAME=VALUE into `options`; returns a usage error, or "".
static std::string check_defines(const std::vector<std::string>& given, Options& options) {
  std::set<std::string> names;
  for (const std::string& text : given) {
    size_t equals = text.find('=');
    std::string name = text.substr(0, equals);
    if (equals == std::string::npos || !is_name(name)) {
      return "-D expects NAME=VALUE with a parameter's name, got '" + text + "'";
    }
    std::string value = text.substr(equals + 1);
    double number = std::strtod(value.c_str(), nullptr);
    bool zero_digits = value.find_first_of("123456789") >= value.find_first_of("eE");
    if (!is_number_literal(value) || !std::isfinite(number) || (number == 0 && !zero_digits)) {
      return "-D " + text +
             ": the value must be a number that fits a double (such as 1000, "
             "-2.5 or 1e-3)";
    }
    if (!names.insert(name).second) return "-D " + name + " is given twice";
    options.defines.push_back(Define{name, value});
  }
  return {};
}

// Copies the limits into `options`; returns a usage error, or "".
static std::string check_limits(const GivenLimits& limits, Options& options) {
  if (limits.max_expression_size < 0) {
    return "--max-expression-size must not be negative (0: no limit)";
  }
  if (limits.time_limit < 0) return "--time-limit must not be negative (0: no limit)";
  if (limits.max_input_size < 0) return "--max-input-size must not be negative (0: no limit)";
  // A year is limit enough, and larger values could overflow the timer.
  constexpr long long kYear = 366LL * 24 * 3600;
  if (limits.time_limit > kYear) {
    return "--time-limit must be at most " + std::to_string(kYear) + " seconds (a year)";
  }
  options.max_expression_size = static_cast<size_t>(limits.max_expression_size);
  options.time_limit = static_cast<int>(limits.time_limit);
  options.max_input_size = static_cast<size_t>(limits.max_input_size);
  return {};
}

// The mode named `value` of option --`option` into `mode`; false, with the usage error naming the
// modes ("--units must be 'warn', 'error' or 'off', not 'x'"), if it is none of them.
template <typename Mode>
static bool parse_mode(const char* option, const std::string& value,
                       std::initializer_list<std::pair<const char*, Mode>> modes, Mode& mode,
                       std::string& error) {
  std::string names;
  for (size_t k = 0; k < modes.size(); ++k) {
    const auto& [name, meaning] = modes.begin()[k];
    if (value == name) {
      mode = meaning;
      return true;
    }
    names += std::string(k == 0 ? "" : k + 1 == modes.size() ? " or " : ", ") + "'" + name + "'";
  }
  error = std::string("--") + option + " must be " + names + ", not '" + value + "'";
  return false;
}

std::optional<Options> parse_options(int argc, const char* const argv[], std::string& error) {
  Options options;
  std::string dummies = "auto";
  GivenLimits limits;
  std::vector<std::string> defines;
  po::options_description desc = visible_options(options, dummies, limits, defines);
  po::options_description hidden;
  // --part-cost N: the most one generated function holds (lines, plus one per 100 characters)
  // before it is cut into parts; for measuring compile times (bench/), not for users.
  // --work-counts: the work counters of each stage on stderr (support/work_counters.h), for the
  // scale benchmark and the tests that keep large models linear.
  hidden.add_options()("input", po::value(&options.inputs))(
      "part-cost", po::value(&options.part_cost)->value_name("N"))(
      "work-counts", po::bool_switch(&options.work_counts));
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description positional;
  positional.add("input", -1);
  try {
    po::variables_map vm;
    po::store(
        po::command_line_parser(argc, argv)
            .options(all)
            .positional(positional)
            .style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing)
            .run(),
        vm);
    po::notify(vm);
    // An empty value would silently mean the option was not given (no batch, no module, the
    // default namespace), so it is refused.
    for (const char* name : {"output-dir", "python-module", "namespace"}) {
      if (vm.count(name) && vm[name].as<std::string>().empty()) {
        error = std::string("--") + name + " needs a " +
                (name[0] == 'o'   ? "directory name"
                 : name[0] == 'p' ? "module name"
                                  : "namespace");
        return std::nullopt;
      }
    }
  } catch (const po::error& e) {
    error = e.what();
    return std::nullopt;
  }
  if (!parse_mode("dummies", dummies, {{"auto", DummyPolicy::Auto}, {"never", DummyPolicy::Never}},
                  options.dummies, error) ||
      !parse_mode("units", limits.units,
                  {{"warn", UnitCheckMode::Warn},
                   {"error", UnitCheckMode::Error},
                   {"off", UnitCheckMode::Off}},
                  options.units, error) ||
      !parse_mode("combinations", limits.combinations,
                  {{"auto", CombinationPolicy::LimitNesting},
                   {"promote", CombinationPolicy::PromoteStructural},
                   {"nest", CombinationPolicy::NestFreely}},
                  options.combinations, error) ||
      !parse_mode("unknown-order", limits.unknown_order,
                  {{"auto", UnknownOrder::Automatic},
                   {"declared", UnknownOrder::Declared},
                   {"structural", UnknownOrder::Structural}},
                  options.unknown_order, error))
    return std::nullopt;
  if (options.jobs < 1) {
    error = "--jobs must be at least 1";
    return std::nullopt;
  }
  if (options.split < 0 || options.split > kMaxSplit) {
    error = "--split must be from 0 to " + std::to_string(kMaxSplit);
    return std::nullopt;
  }
  // --compare-dummies is a part of --check's summary: alone it would be silently ignored.
  if (options.compare_dummies && !options.check) {
    error = "--compare-dummies needs --check (it adds to the summary --check prints)";
    return std::nullopt;
  }
  if (options.max_rounds < 1) {
    error = "--max-rounds must be at least 1";
    return std::nullopt;
  }
  error = check_limits(limits, options);
  if (error.empty()) error = check_defines(defines, options);
  if (!error.empty()) return std::nullopt;
  return options;
}

std::string help_text() {
  Options unused;
  std::string dummies;
  GivenLimits limits;
  std::vector<std::string> defines;
  std::ostringstream out;
  out << "daec - compile a differential-algebraic model (.dae) to C++\n\n"
         "Usage:\n"
         "  daec MODEL.dae [-o OUT.cpp]               compile one model\n"
         "  daec A.dae B.dae ... --output-dir DIR     compile a library of models (-j N)\n"
         "  daec MODEL.dae --main -o sim.cpp          emit a standalone simulator\n"
         "  daec MODEL.dae --check                    check the model and print its structure\n"
         "  daec MODEL.dae -D N=1000                  with parameter N set to 1000 (sizes too)\n"
         "  daec - ...                                read the model from standard input\n\n";
  out << visible_options(unused, dummies, limits, defines) << "\n";
  out << "A model declares parameters, variables and outputs, then its equations:\n\n"
         "  model pendulum \"Simple pendulum\";\n"
         "  parameter L = 1, g = 9.81;\n"
         "  variable x(start = 1), y, u, v(start = 1), lambda;\n"
         "  equation\n"
         "    x' = u;  y' = v;\n"
         "    u' = -lambda*x;  v' = -lambda*y - g;\n"
         "    rod: x^2 + y^2 = L^2;\n"
         "  end\n\n"
         "Examples:\n"
         "  daec models/pendulum.dae --check      the variables, equations and dependency table\n"
         "  daec models/pendulum.dae -o pend.cpp  generate the C++ model\n\n"
         "Batch mode (--output-dir) attempts every model, prints one line per model as it\n"
         "finishes, then a summary; a model that fails or cannot be read does not stop the rest\n"
         "(exit status 1). It does not combine with --check; --report, --report-json and\n"
         "--header take a single model.\n\n"
         "Outputs are written all or none, each to a temporary file renamed over its target: a\n"
         "model with errors or an output that cannot be written leaves existing files as they "
         "were.\n\n"
         "Exit status: 0 success, 1 errors in a model (diagnostics on stderr) or an output\n"
         "that cannot be written, 2 usage errors (bad options, unreadable input files).\n"
         "The language and the generated code are documented in docs/ and README.md.\n";
  return out.str();
}

}  // namespace daec
