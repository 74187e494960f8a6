// The simulator's main (daec::simulator::run) called in process on a hand-written model, with its
// standard output and error captured: what a generated simulator would do, without generating.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <daec/simulator/run.hpp>

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

/// run<Model> with `arguments`: the exit status, stdout and stderr.
struct RunResult {
  int status;
  std::string out, err;
};
template <typename Model>
RunResult run(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), "sim");
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  int status = daec::simulator::run<Model>(static_cast<int>(argv.size()), argv.data());
  std::fflush(stdout);
  std::string out = testing::internal::GetCapturedStdout();
  return {status, out, testing::internal::GetCapturedStderr()};
}

}  // namespace daec::test
