// Implementation of the shared test helpers.
#include "test_util.h"

#include <sys/wait.h>
#include <unistd.h>

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

CommandResult run_command(const std::string& command) {
  char out_template[] = "/tmp/daec_test_out_XXXXXX";
  char err_template[] = "/tmp/daec_test_err_XXXXXX";
  int out_fd = mkstemp(out_template);
  int err_fd = mkstemp(err_template);
  if (out_fd < 0 || err_fd < 0) throw std::runtime_error("mkstemp failed");
  std::string full = "(" + command + ") >" + out_template + " 2>" + err_template;
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
