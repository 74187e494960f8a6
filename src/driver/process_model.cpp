// Running the pipeline on one model and writing what was asked for.
#include "driver/process_model.h"

#include <ostream>

#include <fmt/format.h>

#include "analysis/classification.h"
#include "codegen/generate.h"
#include "frontend/frontend.h"
#include "reduction/pipeline.h"
#include "reduction/symbolic.h"
#include "report/check_summary.h"
#include "report/json_report.h"
#include "report/markdown_report.h"
#include "report/reduction_summary.h"
#include "support/atomic_file.h"
#include "support/text.h"

namespace daec {

std::string spy_path_for(const std::string& report_path) {
  std::string stem = report_path;
  if (stem.size() > 3 && stem.compare(stem.size() - 3, 3, ".md") == 0) stem.resize(stem.size() - 3);
  return stem + ".spy.svg";
}

static std::string base_name(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

static bool write_output(const std::string& path, const std::string& contents, std::ostream& err) {
  std::string error;
  if (write_file_atomically(path, contents, error)) return true;
  err << "daec: error: cannot write '" << path << "': " << error << "\n";
  return false;
}

// Nodes in F, A and b: how large the expressions of the final system are.
static size_t system_size(const ReducedSystem& system) {
  size_t size = 0;
  for (const StateEquation& f : system.differential) size += expression_size(f.rhs);
  for (const auto& row : system.A) {
    for (const GiNaC::ex& entry : row) size += entry.is_zero() ? 0 : expression_size(entry);
  }
  for (const GiNaC::ex& entry : system.b) size += expression_size(entry);
  return size;
}

static std::string dummy_comparison(const Model& model, const ReducedSystem& automatic,
                                    const Options& options) {
  DiagnosticEngine ignored;  // the same model already reduced once: nothing new to report
  ReductionOptions never{DummyPolicy::Never, options.max_rounds};
  std::optional<ReducedSystem> substituted = reduce_model(model, never, ignored);
  if (!substituted) return "dummy variables versus substitution: substitution failed\n";
  auto row = [](const char* what, size_t a, size_t b) {
    return fmt::format("  {:<28} {:>10} {:>10}\n", what, a, b);
  };
  return "dummy variables versus substitution:\n" +
         fmt::format("  {:<28} {:>10} {:>10}\n", "", "dummies", "substitute") +
         row("index", static_cast<size_t>(automatic.index),
             static_cast<size_t>(substituted->index)) +
         row("algebraic unknowns", automatic.algebraic.size(), substituted->algebraic.size()) +
         row("expression nodes (F, A, b)", system_size(automatic), system_size(*substituted));
}

static bool write_reports(const Model& model, const ReducedSystem& reduced, const Options& options,
                          std::ostream& err) {
  bool ok = true;
  if (!options.report.empty()) {
    std::string spy = spy_path_for(options.report);
    ok = write_output(spy, final_spy_svg(reduced), err) && ok;
    ok = write_output(options.report, markdown_report(model, reduced, base_name(spy)), err) && ok;
  }
  if (!options.report_json.empty()) {
    ok = write_output(options.report_json, json_report(model, reduced), err) && ok;
  }
  return ok;
}

bool generates_code(const Options& options) {
  if (options.check) return false;
  bool reports_only = !options.report.empty() || !options.report_json.empty();
  return !reports_only || !options.output.empty() || options.main || !options.header.empty();
}

std::string default_output_path(const std::string& input) {
  if (input == "-") return "-";
  std::string stem = base_name(input);
  size_t dot = stem.rfind('.');
  if (dot != std::string::npos && dot > 0) stem.resize(dot);
  return stem + ".cpp";
}

// Generates and writes the code; the one-line summary goes to `out`, or to `err` when the code
// itself goes to standard output.
static bool write_code(const SourceFile& file, const ReducedSystem& reduced, const Options& options,
                       std::ostream& out, std::ostream& err) {
  CodegenOptions codegen{options.name_space, options.main, file.name()};
  GeneratedCode code;
  try {
    code = generate_code(reduced, codegen);
  } catch (const std::exception& e) {
    err << "daec: internal error while generating code for " << file.name() << ": " << e.what()
        << "\n";
    return false;
  }
  std::string path = options.output.empty() ? default_output_path(file.name()) : options.output;
  bool ok = write_output(path, code.source, err);
  if (!options.header.empty()) ok = write_output(options.header, code.header, err) && ok;
  if (!ok) return false;
  (path == "-" ? err : out) << fmt::format(
      "{}: index {}; {}; wrote {} (rhs: {})\n", file.name(), reduced.index, format_counts(reduced),
      path == "-" ? "<stdout>" : path, count_of(code.rhs_operations, "operation", "operations"));
  return true;
}

bool process_model(const SourceFile& file, const Options& options, std::ostream& out,
                   std::ostream& err, ModelOutcome* outcome) {
  DiagnosticEngine diags;
  std::optional<Model> model = run_frontend(file, diags);
  std::optional<ReducedSystem> reduced;
  if (model) {
    ReductionOptions reduction{options.dummies, options.max_rounds};
    reduced = reduce_model(*model, reduction, diags);
  }
  diags.print(err);
  if (!reduced) return false;
  if (outcome) outcome->index = reduced->index;
  if (options.check) {
    out << format_check_summary(*model, classify(*model)) << "\n"
        << format_reduction_summary(*reduced);
    if (options.compare_dummies) out << "\n" << dummy_comparison(*model, *reduced, options);
  }
  bool ok = write_reports(*model, *reduced, options, err);
  if (generates_code(options)) ok = write_code(file, *reduced, options, out, err) && ok;
  return ok;
}

}  // namespace daec
