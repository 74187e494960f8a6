// The command line of daec (docs/command-line.md), parsed with Boost.Program_options.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "codegen/generate.h"
#include "frontend/flatten.h"
#include "reduction/reduce.h"
#include "support/source.h"

namespace daec {

/// The default of --time-limit: ten minutes, hundreds of times what the largest models we know
/// take (the 128-link benchmark chain: about a second), yet a bound on a model that runs away.
inline constexpr int kDefaultTimeLimit = 600;

/// The most part files --split writes: more than the cores of any build machine.
inline constexpr int kMaxSplit = 256;

struct Options {
  std::vector<std::string> inputs;
  std::string output;      ///< -o; empty: MODEL stem + .cpp
  std::string output_dir;  ///< --output-dir
  std::string header;      ///< --header: also write the declaration of NS::Model
  int jobs = 1;
  int split = 0;  ///< --split: part files beside the code (0: none)
  /// --part-cost (hidden, for measuring): what one generated function may hold.
  size_t part_cost = kDefaultPartCost;
  /// --work-counts (hidden, for measuring): print each stage's work counters to stderr.
  bool work_counts = false;
  bool check = false;
  bool compare_dummies = false;
  bool main = false;
  std::string python_module;  ///< --python-module: append a pybind11 module of this name
  std::string name_space;
  std::string report;
  std::string report_json;
  DummyPolicy dummies = DummyPolicy::Auto;
  CombinationPolicy combinations = CombinationPolicy::LimitNesting;  ///< --combinations
  UnknownOrder unknown_order = UnknownOrder::Automatic;              ///< --unknown-order
  int max_rounds = 10;
  /// Nodes an expression may reach while reducing or generating code; 0: no limit.
  size_t max_expression_size = kDefaultMaxExpressionSize;
  /// Bytes a model's text may have (--max-input-size); 0: no limit.
  size_t max_input_size = kDefaultMaxInputBytes;
  /// Seconds one model may take; 0: no limit.
  int time_limit = kDefaultTimeLimit;
  /// -D NAME=VALUE (--define), in command-line order: parameter values replaced before the model
  /// is flattened, so that one model file serves every size.
  std::vector<Define> defines;
  /// --units: how dimensional mismatches are reported.
  UnitCheckMode units = UnitCheckMode::Warn;
  bool help = false;
  bool version = false;
};

/// Parses argv. On a usage error returns nullopt and sets `error` to a one-line message.
std::optional<Options> parse_options(int argc, const char* const argv[], std::string& error);

/// The text of `daec --help`.
std::string help_text();

}  // namespace daec
