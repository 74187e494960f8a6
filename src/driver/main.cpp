// The daec command: parses the command line and runs the pipeline on each model.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/cpp_names.h"
#include "codegen/generate.h"
#include "driver/batch.h"
#include "driver/options.h"
#include "driver/process_model.h"
#include "support/atomic_file.h"
#include "support/source.h"

namespace {

constexpr int kExitModelError = 1;
constexpr int kExitUsageError = 2;

int usage_error(const std::string& message) {
  std::cerr << "daec: error: " << message << "\nTry 'daec --help' for more information.\n";
  return kExitUsageError;
}

// A report file holds one model's reduction: with several models each would overwrite the last.
std::string check_one_report_per_file(const daec::Options& o) {
  if (o.inputs.size() < 2) return {};
  const char* option = !o.report.empty()        ? "--report"
                       : !o.report_json.empty() ? "--report-json"
                                                : nullptr;
  if (!option) return {};
  return std::string(option) + " names one report file, but " + std::to_string(o.inputs.size()) +
         " models were given (ask for reports one model at a time)";
}

// Several models compiled side by side each go to their stem + .cpp: two with the same stem
// (a/model.dae, b/model.dae) would overwrite one another.
std::string check_distinct_outputs(const daec::Options& o) {
  if (o.inputs.size() < 2 || !o.output_dir.empty() || !daec::generates_code(o)) return {};
  std::map<std::string, std::string> input_of;
  for (const std::string& input : o.inputs) {
    std::string output = daec::default_output_path(input);
    auto [it, fresh] = input_of.emplace(output, input);
    if (!fresh && output != "-") {
      return "'" + it->second + "' and '" + input + "' would both be written to '" + output +
             "' (compile them one at a time with -o)";
    }
  }
  return {};
}

// One file a run writes, and what asked for it (for messages).
struct Output {
  std::string what;
  std::string path;
};

std::vector<Output> outputs_of(const daec::Options& o) {
  std::vector<Output> outputs;
  if (daec::generates_code(o)) {
    for (const std::string& input : o.inputs) {
      std::string code = o.output_dir.empty() ? daec::code_output_path(input, o)
                                              : daec::batch_output_path(o.output_dir, input);
      outputs.push_back({!o.output_dir.empty() ? "--output-dir"
                         : o.output.empty()    ? "the code"
                                               : "-o",
                         code});
      for (const std::string& part : daec::part_output_paths(code, o.split))
        outputs.push_back({"--split", part});
    }
  }
  if (!o.header.empty()) outputs.push_back({"--header", o.header});
  if (!o.report.empty()) {
    outputs.push_back({"--report", o.report});
    outputs.push_back({"the picture of --report", daec::spy_path_for(o.report)});
  }
  if (!o.report_json.empty()) outputs.push_back({"--report-json", o.report_json});
  return outputs;
}

// Whether two paths name one file: the same words, the same path once "./" and ".." are
// resolved, (for files that exist) the same inode, whatever links lead there, or the same file
// where their symbolic links end: a dangling link to another output would create that output.
bool same_file(const std::string& a, const std::string& b) {
  if (a == "-" || b == "-") return a == b;
  namespace fs = std::filesystem;
  if (fs::path(a).lexically_normal() == fs::path(b).lexically_normal()) return true;
  std::error_code ec;
  if (fs::equivalent(a, b, ec) && !ec) return true;
  std::string error;  // a chain that cannot be followed is refused when written
  std::string end_a = daec::output_destination(a, error),
              end_b = daec::output_destination(b, error);
  if (end_a.empty() || end_b.empty()) return false;
  fs::path real_a = fs::weakly_canonical(end_a, ec);
  if (ec) return false;
  fs::path real_b = fs::weakly_canonical(end_b, ec);
  return !ec && real_a == real_b;
}

// Two outputs on one file would leave only the last; an output on an input model would replace
// the model by generated text.
std::string check_outputs(const daec::Options& o) {
  std::vector<Output> outputs = outputs_of(o);
  for (size_t i = 0; i < outputs.size(); ++i) {
    for (size_t j = i + 1; j < outputs.size(); ++j) {
      if (!same_file(outputs[i].path, outputs[j].path)) continue;
      std::string where =
          outputs[i].path == "-" ? "to standard output ('-')" : "'" + outputs[j].path + "'";
      return outputs[i].what + " and " + outputs[j].what + " would both write " + where;
    }
    for (const std::string& input : o.inputs) {
      if (input == "-" || !same_file(input, outputs[i].path)) continue;
      return outputs[i].what + " would overwrite the input model '" + input + "'";
    }
  }
  return {};
}

std::string validate(const daec::Options& o) {
  if (o.inputs.empty()) return "no input model given";
  if (o.inputs.size() > 1 && !o.output.empty()) {
    return "-o names one output file, but " + std::to_string(o.inputs.size()) +
           " models were given (use --output-dir for several)";
  }
  if (!o.output.empty() && !o.output_dir.empty()) return "-o and --output-dir exclude each other";
  if (o.check && (!o.output.empty() || o.main || !o.python_module.empty() || !o.header.empty() ||
                  !o.output_dir.empty())) {
    return "--check generates no code; it cannot be combined with -o, --main, --python-module, "
           "--header or --output-dir";
  }
  if (!o.header.empty() && o.inputs.size() > 1) return "--header names one file, for one model";
  if (o.split > 0 && daec::generates_code(o) && o.output_dir.empty() &&
      daec::code_output_path(o.inputs.front(), o) == "-") {
    return "--split writes part files beside the code: name its file with -o, not '-'";
  }
  if (!o.python_module.empty()) {
    if (o.inputs.size() > 1) return "--python-module names one module, for one model";
    if (o.main) return "--main and --python-module exclude each other (one file, one entry point)";
    if (!daec::is_safe_cpp_identifier(o.python_module))
      return "--python-module '" + o.python_module +
             "' is not a usable module name (an identifier that is not a C++ keyword or "
             "reserved name)";
  }
  if (!o.name_space.empty() && !daec::is_valid_namespace(o.name_space)) {
    return "--namespace '" + o.name_space +
           "' is not a usable C++ namespace (identifiers separated by '::', none a C++ keyword "
           "or reserved name)";
  }
  int from_stdin = 0;
  for (const std::string& input : o.inputs) from_stdin += input == "-";
  if (from_stdin > 1) return "standard input ('-') can be read only once";
  // The Markdown report links to its picture by file name; '-' would put it in "-.spy.svg".
  if (o.report == "-") return "--report needs a file name: its picture is written beside it";
  std::string error = check_one_report_per_file(o);
  if (error.empty()) error = check_distinct_outputs(o);
  if (error.empty() && !o.output_dir.empty()) error = daec::check_batch_usage(o);
  if (error.empty()) error = check_outputs(o);
  return error;
}

// A descriptor 0, 1 or 2 closed by the caller (`daec ... >&-`) would be handed to the next file
// daec opens, an output's temporary, and text meant for stdout or stderr would land in it. Each
// closed one is taken by /dev/null opened the other way round, so that using it still fails
// (EBADF) as it would have.
void hold_closed_standard_descriptors() {
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
    if (::fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
    int held = ::open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
    if (held >= 0 && held != fd) {
      ::dup2(held, fd);
      ::close(held);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  hold_closed_standard_descriptors();
  std::string error;
  std::optional<daec::Options> options = daec::parse_options(argc, argv, error);
  if (!options) return usage_error(error);
  if (options->help) {
    std::cout << daec::help_text();
    return 0;
  }
  if (options->version) {
    std::cout << "daec " << DAEC_VERSION << "\n";
    return 0;
  }
  error = validate(*options);
  if (!error.empty()) return usage_error(error);
  if (!options->output_dir.empty()) return daec::run_batch(*options, std::cout, std::cerr);
  std::vector<std::unique_ptr<daec::SourceFile>> files;
  for (const std::string& input : options->inputs) {
    auto file = daec::SourceFile::load(input, error, options->max_input_size);
    if (!file) {
      // Still a usage error (status 2), but --help would not help with a missing file.
      std::string what = input == "-" ? "standard input" : "'" + input + "'";
      std::cerr << "daec: error: cannot read " << what << ": " << error << "\n";
      return kExitUsageError;
    }
    files.push_back(std::move(file));
  }
  // Standard output carries only an output written to '-' when there is one; the summaries
  // (process_model prints them to the stream it is given) then go to stderr.
  bool stdout_taken = false;
  for (const std::string& input : options->inputs) {
    stdout_taken = stdout_taken || daec::writes_to_stdout(input, *options);
  }
  std::ostream& summaries = stdout_taken ? std::cerr : std::cout;
  int status = 0;
  bool printed = false;
  for (const auto& file : files) {
    std::ostringstream summary;
    daec::ModelOutcome outcome;
    if (!daec::process_model(*file, *options, summary, std::cerr, &outcome)) {
      status = outcome.usage_error ? kExitUsageError : std::max(status, kExitModelError);
    }
    if (summary.str().empty()) continue;
    summaries << (printed ? "\n" : "") << summary.str() << std::flush;  // blank line between models
    printed = true;
  }
  return status;
}
