// A fixture for tests that run the daec command (cli_test, batch_test): each test gets a fresh
// temporary directory, removed afterwards, in which commands run and files are written.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test_util.h"

namespace daec::test {

/// What every usage error ends with.
inline constexpr char kTryHelp[] = "Try 'daec --help' for more information.\n";

/// A model that compiles (exponential decay, index 1), for tests that need any good model.
inline constexpr char kGoodModel[] =
    "model decay \"Exponential decay\";\n"
    "parameter k = 0.5;\n"
    "variable x(start = 1);\n"
    "equation\n"
    "  x' = -k*x;\n"
    "end\n";

/// A model with one error: the undeclared name `y1` at line 4, column 7.
inline constexpr char kBadModel[] =
    "model broken;\n"
    "variable x;\n"
    "equation\n"
    "  x = y1;\n"
    "end\n";

class DaecCommandTest : public testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  /// Writes `text` to `name` (relative to the test directory), creating its directories.
  void write(const std::string& name, const std::string& text);
  /// The contents of `name`; empty if it cannot be read.
  std::string read(const std::string& name) const;
  /// The names of the files in `sub` (relative to the test directory), sorted.
  std::vector<std::string> files(const std::string& sub = ".") const;
  bool exists(const std::string& name) const;

  /// Runs daec with `arguments` in the test directory. In the sanitizer build LeakSanitizer would
  /// list the suppressions it used on stderr, which exact comparisons must not see.
  CommandResult daec(const std::string& arguments);
  /// Runs daec with `arguments` and expects the usage error `message`: status 2, nothing on
  /// stdout, `daec: error: MESSAGE` and the --help hint on stderr.
  void expect_usage_error(const std::string& arguments, const std::string& message);

  std::filesystem::path dir_;
};

/// The bundled models (models/*.dae) by file name, sorted.
std::vector<std::string> bundled_model_files();

}  // namespace daec::test
