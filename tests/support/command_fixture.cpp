// The daec command fixture.
#include "command_fixture.h"

#include <stdlib.h>

#include <algorithm>
#include <fstream>
#include <iterator>

namespace daec::test {

namespace fs = std::filesystem;

void DaecCommandTest::SetUp() {
  std::string pattern = (fs::temp_directory_path() / "daec_test_XXXXXX").string();
  ASSERT_NE(nullptr, mkdtemp(pattern.data()));
  dir_ = pattern;
}

void DaecCommandTest::TearDown() {
  std::error_code ignored;
  // Tests make directories read-only on purpose; give them back before removing everything.
  for (const auto& entry : fs::directory_iterator(dir_, ignored)) {
    fs::permissions(entry.path(), fs::perms::owner_all, fs::perm_options::add, ignored);
  }
  fs::remove_all(dir_, ignored);
}

void DaecCommandTest::write(const std::string& name, const std::string& text) {
  fs::create_directories((dir_ / name).parent_path());
  std::ofstream out(dir_ / name, std::ios::binary);
  out << text;
}

std::string DaecCommandTest::read(const std::string& name) const {
  std::ifstream in(dir_ / name, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> DaecCommandTest::files(const std::string& sub) const {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir_ / sub)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool DaecCommandTest::exists(const std::string& name) const {
  return fs::exists(dir_ / name);
}

CommandResult DaecCommandTest::daec(const std::string& arguments) {
  return run_command("cd '" + dir_.string() +
                     "' && LSAN_OPTIONS=\"$LSAN_OPTIONS:print_suppressions=0\" '" + daec_binary() +
                     "' " + arguments);
}

void DaecCommandTest::expect_usage_error(const std::string& arguments, const std::string& message) {
  CommandResult r = daec(arguments);
  EXPECT_EQ(2, r.status) << arguments;
  EXPECT_EQ("", r.out) << arguments;
  EXPECT_EQ("daec: error: " + message + "\n" + kTryHelp, r.err) << arguments;
}

std::vector<std::string> bundled_model_files() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(source_dir() + "/models")) {
    if (entry.path().extension() == ".dae") names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace daec::test
