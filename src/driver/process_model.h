// What daec does with one model: front end, reduction, then the summary and reports asked for.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "driver/options.h"
#include "support/source.h"

namespace daec {

/// What processing a model found out, for callers reporting on many models (batch mode).
struct ModelOutcome {
  std::optional<int> index;  ///< the differentiation index, once the reduction succeeded
};

/// Processes `file` as `options` say, printing diagnostics to `err` and summaries to `out`.
/// Returns false if the model had errors or an output could not be written. `outcome`, if given,
/// receives what is known about the model even when an output failed.
bool process_model(const SourceFile& file, const Options& options, std::ostream& out,
                   std::ostream& err, ModelOutcome* outcome = nullptr);

/// Whether `options` ask for code: everything but --check and runs asking only for reports.
bool generates_code(const Options& options);

/// Where the code of `input` goes without -o: its file stem + .cpp in the current directory
/// (models/pendulum.dae -> pendulum.cpp); standard input goes to standard output.
std::string default_output_path(const std::string& input);

/// Where the code of `input` goes: -o, or default_output_path(input).
std::string code_output_path(const std::string& input, const Options& options);

/// The paths of the part files of --split beside `code_path`: OUT_1.cpp ... OUT_N.cpp for
/// OUT.cpp (the number before the extension, or at the end of a name without one).
std::vector<std::string> part_output_paths(const std::string& code_path, int split);

/// Whether the run of `input` writes an output to standard output ('-'). Summaries then go to
/// standard error, so that standard output holds exactly that output.
bool writes_to_stdout(const std::string& input, const Options& options);

/// The path of the spy picture written beside a Markdown report: r.md -> r.spy.svg.
std::string spy_path_for(const std::string& report_path);

}  // namespace daec
