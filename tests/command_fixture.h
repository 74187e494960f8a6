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

  std::filesystem::path dir_;
};

/// The bundled models (models/*.dae) by file name, sorted.
std::vector<std::string> bundled_model_files();

}  // namespace daec::test
