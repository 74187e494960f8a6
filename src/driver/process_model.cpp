// Running the pipeline on one model and writing what was asked for.
#include "driver/process_model.h"

#include <new>
#include <optional>
#include <ostream>
#include <vector>

#include <fmt/format.h>

#include "analysis/classification.h"
#include "codegen/generate.h"
#include "frontend/frontend.h"
#include "reduction/limits.h"
#include "reduction/pipeline.h"
#include "reduction/symbolic.h"
#include "report/check_summary.h"
#include "report/json_report.h"
#include "report/markdown_report.h"
#include "report/reduction_summary.h"
#include "support/atomic_file.h"
#include "support/text.h"
#include "support/watchdog.h"
#include "support/work_counters.h"

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

static void print_write_error(const std::string& path, const std::string& error,
                              std::ostream& err) {
  if (path == "-") {
    err << "daec: error: cannot write to standard output: " << error << "\n";
  } else {
    err << "daec: error: cannot write '" << path << "': " << error << "\n";
  }
}

static bool stage_output(OutputFiles& files, const std::string& path, std::string contents,
                         std::ostream& err) {
  std::string error;
  if (files.stage(path, std::move(contents), error)) return true;
  print_write_error(path, error, err);
  return false;
}

// Nodes in F, A and b: how large the expressions of the final system are.
static size_t system_size(const ReducedSystem& system) {
  size_t size = 0;
  for (const StateEquation& f : system.differential) size += expression_size(f.rhs);
  for (size_t r = 0; r < system.A.rows(); ++r) {
    for (const MatrixEntry& entry : system.A.row(r)) size += expression_size(entry.value);
  }
  for (const GiNaC::ex& entry : system.b) size += expression_size(entry);
  return size;
}

// A limit exceeded while reducing without dummies is worth a line here, not a failed check.
static std::string dummy_comparison(const Model& model, const ReducedSystem& automatic,
                                    const Options& options) {
  DiagnosticEngine diags;  // the same model already reduced once: only a limit can be new
  ReductionOptions never{DummyPolicy::Never, options.max_rounds, options.max_expression_size,
                         options.combinations};
  std::optional<ReducedSystem> substituted = reduce_model(model, never, diags);
  if (!substituted) {
    std::string why = diags.diagnostics().empty() ? "" : ": " + diags.diagnostics()[0].message;
    return "dummy variables versus substitution: substitution failed" + why + "\n";
  }
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

namespace {

// An output computed but not yet written: a model that fails late (a limit exceeded while
// generating code) writes no file at all, and writing is never cut short by the time limit.
struct PendingFile {
  std::string path, contents;
};

// One model's run: its diagnostics, printed once.
struct ModelRun {
  DiagnosticEngine diags;
  bool printed = false;

  void print(std::ostream& err) {
    if (!printed) diags.print(err);
    printed = true;
  }
};

// Stops the watchdog however processing the model ends.
struct WatchdogArmed {
  WatchdogArmed(const std::string& file_name, int seconds) { arm_watchdog(file_name, seconds); }
  ~WatchdogArmed() { disarm_watchdog(); }
  WatchdogArmed(const WatchdogArmed&) = delete;
  WatchdogArmed& operator=(const WatchdogArmed&) = delete;
};

}  // namespace

static void add_reports(const Model& model, const ReducedSystem& reduced, const Options& options,
                        std::vector<PendingFile>& files) {
  if (!options.report.empty()) {
    std::string spy = spy_path_for(options.report);
    files.push_back({spy, final_spy_svg(reduced)});
    files.push_back({options.report, markdown_report(model, reduced, base_name(spy))});
  }
  if (!options.report_json.empty()) {
    files.push_back({options.report_json, json_report(model, reduced)});
  }
}

bool generates_code(const Options& options) {
  if (options.check) return false;
  bool reports_only = !options.report.empty() || !options.report_json.empty();
  return !reports_only || !options.output.empty() || options.main ||
         !options.python_module.empty() || !options.header.empty();
}

std::string default_output_path(const std::string& input) {
  if (input == "-") return "-";
  std::string stem = base_name(input);
  size_t dot = stem.rfind('.');
  if (dot != std::string::npos && dot > 0) stem.resize(dot);
  return stem + ".cpp";
}

std::string code_output_path(const std::string& input, const Options& options) {
  return options.output.empty() ? default_output_path(input) : options.output;
}

std::vector<std::string> part_output_paths(const std::string& code_path, int split) {
  size_t slash = code_path.find_last_of('/');
  size_t dot = code_path.rfind('.');
  bool has_extension =
      dot != std::string::npos && dot > (slash == std::string::npos ? 0 : slash + 1);
  std::string stem = has_extension ? code_path.substr(0, dot) : code_path;
  std::string extension = has_extension ? code_path.substr(dot) : "";
  std::vector<std::string> paths;
  for (int k = 1; k <= split; ++k) paths.push_back(stem + "_" + std::to_string(k) + extension);
  return paths;
}

bool writes_to_stdout(const std::string& input, const Options& options) {
  bool code = generates_code(options) && code_output_path(input, options) == "-";
  return code || options.header == "-" || options.report_json == "-";
}

// Generates the code (and the header) into `files`. Returns the rhs operation count, or nullopt
// after reporting a failure.
static std::optional<size_t> add_code(const SourceFile& file, const Model& model,
                                      const ReducedSystem& reduced, const Options& options,
                                      std::vector<PendingFile>& files, std::ostream& err) {
  std::string path = code_output_path(file.path(), options);
  CodegenOptions codegen{
      options.name_space,          options.main,      options.python_module, file.name(),
      options.max_expression_size, options.part_cost, options.split,         base_name(path)};
  GeneratedCode code;
  try {
    code = generate_code(reduced, codegen);
  } catch (const LimitExceeded& e) {
    DiagnosticEngine diags;
    report_limit(e, &file, diags);
    diags.print(err);
    return std::nullopt;
  } catch (const std::bad_alloc&) {
    throw;  // reported by process_model, naming the stage
  } catch (const std::exception& e) {
    DiagnosticEngine diags;
    report_expression_failure(e, model.location, diags);
    diags.print(err);
    return std::nullopt;
  }
  files.push_back({path, std::move(code.source)});
  std::vector<std::string> part_paths = part_output_paths(path, options.split);
  for (size_t k = 0; k < part_paths.size(); ++k)
    files.push_back({part_paths[k], std::move(code.parts[k])});
  if (!options.header.empty()) files.push_back({options.header, std::move(code.header)});
  return code.rhs_operations;
}

// All outputs of a model or none: each is staged first, and only when every one of them could be
// are they put in place, so that a header or report that cannot be written does not leave a new
// code file beside an old header. Every output that failed is named.
static bool write_outputs(std::vector<PendingFile>& pending, std::ostream& err) {
  OutputFiles files;
  bool ok = true;
  for (PendingFile& f : pending) ok = stage_output(files, f.path, std::move(f.contents), err) && ok;
  if (!ok) return false;
  std::vector<OutputFiles::Failure> failures = files.commit();
  for (const OutputFiles::Failure& failure : failures) {
    print_write_error(failure.path, failure.error, err);
  }
  return failures.empty();
}

// Everything but the handling of running out of memory.
static bool run_model(const SourceFile& file, const Options& options, std::ostream& out,
                      std::ostream& err, ModelOutcome* outcome, ModelRun& run) {
  enter_stage(SourceLocation{&file}, "reading the model");
  std::string usage_error;
  FlattenOptions flatten{options.defines};
  flatten.units = options.units;
  std::optional<Model> model;
  {
    WorkStageScope stage(WorkStage::FrontEnd);
    model = run_frontend(file, run.diags, flatten, &usage_error);
  }
  if (!usage_error.empty()) {
    err << "daec: error: " << usage_error << "\n";
    if (outcome) outcome->usage_error = true;
    return false;
  }
  std::optional<ReducedSystem> reduced;
  if (model) {
    ReductionOptions reduction{options.dummies, options.max_rounds, options.max_expression_size,
                               options.combinations, options.unknown_order};
    reduced = reduce_model(*model, reduction, run.diags);
  }
  run.print(err);
  if (!reduced) return false;
  if (outcome) outcome->index = reduced->index;
  std::vector<PendingFile> files;
  {
    WorkStageScope stage(WorkStage::Summary);
    if (options.check) {
      out << format_check_summary(*model, classify(*model)) << "\n"
          << format_reduction_summary(*reduced);
      if (options.compare_dummies) out << "\n" << dummy_comparison(*model, *reduced, options);
    }
    add_reports(*model, *reduced, options, files);
  }
  std::optional<size_t> rhs_operations;
  if (generates_code(options)) {
    WorkStageScope stage(WorkStage::CodeGeneration);
    rhs_operations = add_code(file, *model, *reduced, options, files, err);
    if (!rhs_operations) return false;
  }
  // The work is done: writing the files is not stopped half way by the time limit.
  disarm_watchdog();
  enter_stage(SourceLocation{&file}, "writing the output files");
  if (!write_outputs(files, err)) return false;
  if (!rhs_operations) return true;
  std::string path = code_output_path(file.path(), options);
  out << fmt::format("{}: index {}; {}; wrote {} (rhs: {})\n", file.name(), reduced->index,
                     format_counts(*reduced), path == "-" ? "<stdout>" : path,
                     count_of(*rhs_operations, "operation", "operations"));
  return true;
}

// Where the current stage is, for a failure that has no better place: a stage about the whole
// model (reading it, classifying its variables) points at the start of the file, so that every
// message keeps the FILE:LINE:COL form.
static SourceLocation stage_location(const SourceFile& file) {
  SourceLocation location = current_stage_location();
  if (!location.valid()) location = file.location_at(0);
  return location;
}

namespace {

// The work counters of the model's stages on `err` (--work-counts) however it ends.
struct WorkCountsPrinted {
  WorkCountsPrinted(bool print, std::ostream& err) : print_(print), err_(err) {
    reset_work_counts();
  }
  ~WorkCountsPrinted() {
    if (print_) err_ << format_work_counts(work_counts());
  }
  WorkCountsPrinted(const WorkCountsPrinted&) = delete;
  WorkCountsPrinted& operator=(const WorkCountsPrinted&) = delete;

 private:
  bool print_;
  std::ostream& err_;
};

}  // namespace

bool process_model(const SourceFile& file, const Options& options, std::ostream& out,
                   std::ostream& err, ModelOutcome* outcome) {
  WorkCountsPrinted counts(options.work_counts, err);
  WatchdogArmed watchdog(file.name(), options.time_limit);
  ModelRun run;
  try {
    return run_model(file, options, out, err, outcome, run);
  } catch (const std::bad_alloc&) {
    // What was allocated for the stage has been freed while unwinding: reporting can allocate.
    run.print(err);
    SourceLocation location = stage_location(file);
    DiagnosticEngine diags;
    diags.error(location, "out of memory while " + current_stage() +
                              " (a lower --max-expression-size stops such a model sooner)");
    diags.print(err);
    return false;
  } catch (const std::exception& e) {
    // A defect of daec's, still told in the diagnostics' form, at the place it was working on.
    run.print(err);
    SourceLocation location = stage_location(file);
    DiagnosticEngine diags;
    std::string stage = current_stage().empty() ? "" : " while " + current_stage();
    diags.error(location, "internal error" + stage + ": " + e.what() +
                              " (a defect of daec: please report it with the model)");
    diags.print(err);
    return false;
  }
}

}  // namespace daec
