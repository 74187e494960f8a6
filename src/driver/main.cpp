// The daec command: parses the command line and runs the pipeline on each model.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "analysis/classification.h"
#include "driver/options.h"
#include "frontend/frontend.h"
#include "report/check_summary.h"
#include "support/diagnostics.h"
#include "support/source.h"

namespace {

constexpr int kExitModelError = 1;
constexpr int kExitUsageError = 2;

int usage_error(const std::string& message) {
  std::cerr << "daec: error: " << message << "\nTry 'daec --help' for more information.\n";
  return kExitUsageError;
}

// Options whose stage is not part of this build yet are refused plainly rather than ignored.
std::string unavailable_feature(const daec::Options& o) {
  if (!o.report.empty()) return "--report";
  if (!o.report_json.empty()) return "--report-json";
  if (o.check) return {};
  if (o.main) return "--main";
  if (!o.output_dir.empty()) return "--output-dir";
  return o.output.empty() ? "code generation (the default action)" : "-o";
}

std::string validate(const daec::Options& o) {
  if (o.inputs.empty()) return "no input model given";
  if (o.inputs.size() > 1 && !o.output.empty()) {
    return "-o names one output file, but " + std::to_string(o.inputs.size()) +
           " models were given (use --output-dir for several)";
  }
  if (!o.output.empty() && !o.output_dir.empty()) return "-o and --output-dir exclude each other";
  int from_stdin = 0;
  for (const std::string& input : o.inputs) from_stdin += input == "-";
  if (from_stdin > 1) return "standard input ('-') can be read only once";
  return {};
}

// Checks one model and prints its summary; returns whether it was free of errors.
bool check_model(const daec::SourceFile& file, bool print_separator) {
  daec::DiagnosticEngine diags;
  std::optional<daec::Model> model = daec::run_frontend(file, diags);
  diags.print(std::cerr);
  if (!model) return false;
  if (print_separator) std::cout << '\n';
  std::cout << daec::format_check_summary(*model, daec::classify(*model));
  return true;
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
  std::string missing = unavailable_feature(*options);
  if (!missing.empty()) {
    return usage_error(missing + " is not available in this version of daec yet; "
                       "only --check (parse, check and classify) is");
  }
  std::vector<std::unique_ptr<daec::SourceFile>> files;
  for (const std::string& input : options->inputs) {
    auto file = daec::SourceFile::load(input, error);
    if (!file) return usage_error("cannot read '" + input + "': " + error);
    files.push_back(std::move(file));
  }
  int status = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    if (!check_model(*files[i], i > 0)) status = kExitModelError;
  }
  return status;
}
