// Helpers shared by the tests: run the front end on a string and look at what came out.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "frontend/frontend.h"
#include "support/diagnostics.h"
#include "support/source.h"

namespace daec::test {

/// The result of running the front end on a model given as text. Keeps the source alive, since
/// diagnostics and locations point into it.
struct FrontendRun {
  std::unique_ptr<SourceFile> file;
  DiagnosticEngine diags;
  std::optional<Model> model;

  /// All diagnostics as printed (file:line:col: error: message, source line, caret).
  std::string diagnostics() const { return diags.str(); }
};

inline std::unique_ptr<FrontendRun> run(const std::string& text,
                                        const std::string& file_name = "test.dae",
                                        const FlattenOptions& options = {}) {
  auto result = std::make_unique<FrontendRun>();
  result->file = std::make_unique<SourceFile>(file_name, text);
  result->model = run_frontend(*result->file, result->diags, options);
  return result;
}

/// Reads a file of the source tree (paths relative to the repository root).
std::string read_source_file(const std::string& relative_path);

/// The repository root (DAEC_SOURCE_DIR) and the daec binary (DAEC_BINARY).
std::string source_dir();
std::string daec_binary();

/// Runs a shell command; returns its exit status and captures stdout and stderr.
struct CommandResult {
  int status = -1;
  std::string out, err;
};
CommandResult run_command(const std::string& command);

}  // namespace daec::test
