// Implementation of the shared test helpers.
#include "test_util.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace daec::test {

std::string source_dir() {
  return DAEC_SOURCE_DIR;
}
std::string daec_binary() {
  return DAEC_BINARY;
}

std::string read_source_file(const std::string& relative_path) {
  std::ifstream in(source_dir() + "/" + relative_path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + relative_path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

static std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

#ifdef DAEC_SANITIZE_GENERATED
// In the sanitizer build the leak check at a process's exit is a third of a short run (0.17 of the
// 0.5 s of a sanitized `daec --check`), and the tests start hundreds: every fourth child keeps
// it, the others skip it. Each runs the code the in-process tests check for leaks at their
// own exit. A command that sets ASAN_OPTIONS itself decides for itself.
constexpr unsigned kLeakCheckEvery = 4;

static std::string sampled_leak_check(const std::string& command) {
  static std::atomic<unsigned> started{0};
  if (command.find("ASAN_OPTIONS") != std::string::npos) return "";
  return started++ % kLeakCheckEvery == 0
             ? ""
             : "export ASAN_OPTIONS=\"$ASAN_OPTIONS:detect_leaks=0\"; ";
}
#else
static std::string sampled_leak_check(const std::string&) {
  return "";
}
#endif

CommandResult run_command(const std::string& command) {
  char out_template[] = "/tmp/daec_test_out_XXXXXX";
  char err_template[] = "/tmp/daec_test_err_XXXXXX";
  int out_fd = mkstemp(out_template);
  int err_fd = mkstemp(err_template);
  if (out_fd < 0 || err_fd < 0) throw std::runtime_error("mkstemp failed");
  std::string full =
      "(" + sampled_leak_check(command) + command + ") >" + out_template + " 2>" + err_template;
  CommandResult result;
  int raw = std::system(full.c_str());
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  result.out = slurp(out_template);
  result.err = slurp(err_template);
  std::remove(out_template);
  std::remove(err_template);
  ::close(out_fd);
  ::close(err_fd);
  return result;
}

}  // namespace daec::test
