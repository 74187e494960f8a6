// Replays the inputs of fuzz/regressions/ (crashes, leaks and runaway evaluations found with the
// fuzz target, fuzz/daec_fuzz.cpp) through the same pipeline in process: front end, reduction,
// code generation. Each must end with an error diagnostic or with generated code, quickly; the
// sanitizer build also checks for leaks and undefined behaviour on them.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "codegen/generate.h"
#include "reduction/pipeline.h"
#include "test_util.h"

namespace daec {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> regression_inputs() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(test::source_dir() + "/fuzz/regressions")) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(FuzzRegressions, EveryInputEndsWithAnErrorOrCodeQuickly) {
  std::vector<std::string> inputs = regression_inputs();
  ASSERT_FALSE(inputs.empty());
  for (const std::string& name : inputs) {
    SCOPED_TRACE(name);
    auto start = std::chrono::steady_clock::now();
    auto run = test::run(test::read_source_file("fuzz/regressions/" + name), name);
    std::optional<ReducedSystem> reduced;
    if (run->model) reduced = reduce_model(*run->model, ReductionOptions{}, run->diags);
    if (reduced) {
      EXPECT_FALSE(generate_code(*reduced, CodegenOptions{}).source.empty());
    } else {
      EXPECT_TRUE(run->diags.has_errors());
      EXPECT_NE(std::string::npos, run->diagnostics().find(name + ":")) << run->diagnostics();
    }
    std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    EXPECT_LT(seconds.count(), 10.0);
  }
}

}  // namespace
}  // namespace daec
