// The simulator's main of the compiled runtime (daec::runtime::run, library daec_runtime) called
// in process on a hand-written model through its adapter, with its standard output and error
// captured: what a generated simulator would do, without generating.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <daec/runtime/model_adapter.hpp>
#include <daec/runtime/run.hpp>

namespace daec::test {

/// A file name in the runtime tests' scratch directory.
inline std::string scratch(const std::string& name) {
  std::string dir = std::string(DAEC_TEST_SCRATCH_DIR) + "/runtime";
  std::filesystem::create_directories(dir);
  return dir + "/" + name;
}

inline std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// daec::runtime::run on Model with `arguments`: the exit status, stdout and stderr.
struct RunResult {
  int status;
  std::string out, err;
};
/// `program` is argv[0], the name the simulator was run by.
template <typename Model>
RunResult run(std::vector<std::string> arguments, const std::string& program = "sim") {
  arguments.insert(arguments.begin(), program);
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  int status = daec::runtime::run(static_cast<int>(argv.size()), argv.data(),
                                  daec::runtime::ModelAdapter<Model>{});
  std::fflush(stdout);
  std::string out = testing::internal::GetCapturedStdout();
  return {status, out, testing::internal::GetCapturedStderr()};
}

}  // namespace daec::test
