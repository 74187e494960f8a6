// The daec command: parses the command line and runs the pipeline on each model.
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/generate.h"
#include "driver/batch.h"
#include "driver/options.h"
#include "driver/process_model.h"
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

std::string validate(const daec::Options& o) {
  if (o.inputs.empty()) return "no input model given";
  if (o.inputs.size() > 1 && !o.output.empty()) {
    return "-o names one output file, but " + std::to_string(o.inputs.size()) +
           " models were given (use --output-dir for several)";
  }
  if (!o.output.empty() && !o.output_dir.empty()) return "-o and --output-dir exclude each other";
  if (o.check && (!o.output.empty() || o.main || !o.header.empty() || !o.output_dir.empty())) {
    return "--check generates no code; it cannot be combined with -o, --main, --header or "
           "--output-dir";
  }
  if (!o.header.empty() && o.inputs.size() > 1) return "--header names one file, for one model";
  if (!o.name_space.empty() && !daec::is_valid_namespace(o.name_space)) {
    return "--namespace '" + o.name_space +
           "' is not a usable C++ namespace (identifiers separated by '::', none a C++ keyword "
           "or reserved name)";
  }
  int from_stdin = 0;
  for (const std::string& input : o.inputs) from_stdin += input == "-";
  if (from_stdin > 1) return "standard input ('-') can be read only once";
  std::string error = check_one_report_per_file(o);
  if (error.empty()) error = check_distinct_outputs(o);
  if (error.empty() && !o.output_dir.empty()) error = daec::check_batch_usage(o);
  return error;
}

}  // namespace

int main(int argc, char** argv) {
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
    auto file = daec::SourceFile::load(input, error);
    if (!file) {
      // Still a usage error (status 2), but --help would not help with a missing file.
      std::cerr << "daec: error: cannot read '" << input << "': " << error << "\n";
      return kExitUsageError;
    }
    files.push_back(std::move(file));
  }
  int status = 0;
  bool printed = false;
  for (const auto& file : files) {
    std::ostringstream summary;
    if (!daec::process_model(*file, *options, summary, std::cerr)) status = kExitModelError;
    if (summary.str().empty()) continue;
    std::cout << (printed ? "\n" : "") << summary.str() << std::flush;  // blank line between models
    printed = true;
  }
  return status;
}
