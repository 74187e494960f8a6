// Tests of batch mode (`daec A.dae B.dae ... --output-dir DIR -j N`, src/driver/batch): the real
// binary on bundled models and a broken one, checking exit statuses, the progress lines and the
// summary (times masked), which files appear, and that -j 1 and -j 2 write the same bytes.
#include <gtest/gtest.h>

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "command_fixture.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using daec::test::CommandResult;

const char kBrokenDiagnostics[] =
    "broken.dae:4:7: error: use of undeclared name 'y1'\n"
    "  x = y1;\n"
    "      ^\n";

using daec::test::kBadModel;
using daec::test::kTryHelp;

// Times vary from run to run: "(index 3, 0.12 s)" and "in 1.80 s" become "T s".
std::string mask_times(const std::string& text) {
  static const std::regex time("[0-9]+\\.[0-9][0-9] s");
  return std::regex_replace(text, time, "T s");
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Where two texts first differ, by line, short enough for a failure message.
std::string first_difference(const std::string& a, const std::string& b) {
  std::vector<std::string> x = lines_of(a), y = lines_of(b);
  for (size_t i = 0; i < std::max(x.size(), y.size()); ++i) {
    std::string p = i < x.size() ? x[i] : "<end>", q = i < y.size() ? y[i] : "<end>";
    if (p != q) return "line " + std::to_string(i + 1) + ": '" + p + "' versus '" + q + "'";
  }
  return "in line endings";
}

class Batch : public daec::test::DaecCommandTest {
 protected:
  // Copies bundled models into the test directory, so that progress lines show short names.
  void copy_models(const std::vector<std::string>& names) {
    for (const std::string& name : names) {
      write(name, daec::test::read_source_file("models/" + name));
    }
  }

  static std::vector<std::string> bundled_models() { return daec::test::bundled_model_files(); }
};

TEST_F(Batch, ConvertsEveryModelWithProgressAndSummary) {
  copy_models({"pendulum.dae", "exponential_ode.dae"});
  CommandResult r = daec("pendulum.dae exponential_ode.dae --output-dir out");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ("", r.err);
  EXPECT_EQ(
      "[1/2] pendulum.dae -> out/pendulum.cpp (index 3, T s)\n"
      "[2/2] exponential_ode.dae -> out/exponential_ode.cpp (index 0, T s)\n"
      "converted 2 of 2 models in T s\n",
      mask_times(r.out));
  EXPECT_EQ((std::vector<std::string>{"exponential_ode.cpp", "pendulum.cpp"}), files("out"));
}

TEST_F(Batch, OutputIsWhatASingleCompilationWrites) {
  copy_models({"pendulum.dae"});
  ASSERT_EQ(0, daec("pendulum.dae --output-dir out").status);
  CommandResult single = daec("pendulum.dae -o single.cpp");
  ASSERT_EQ(0, single.status) << single.err;
  EXPECT_FALSE(read("single.cpp").empty());
  EXPECT_EQ(read("single.cpp"), read("out/pendulum.cpp"));
}

TEST_F(Batch, OneModelIsABatchToo) {
  copy_models({"index_chain.dae"});
  CommandResult r = daec("index_chain.dae --output-dir out -j 4");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ(
      "[1/1] index_chain.dae -> out/index_chain.cpp (index 3, T s)\n"
      "converted 1 of 1 model in T s\n",
      mask_times(r.out));
}

TEST_F(Batch, FailingModelsDoNotStopTheRest) {
  copy_models({"pendulum.dae", "index_chain.dae"});
  write("broken.dae", kBadModel);
  CommandResult r =
      daec("pendulum.dae broken.dae missing.dae index_chain.dae --output-dir out -j 1");
  EXPECT_EQ(1, r.status);
  EXPECT_EQ(
      "[1/4] pendulum.dae -> out/pendulum.cpp (index 3, T s)\n"
      "[2/4] FAILED broken.dae\n"
      "[3/4] FAILED missing.dae\n"
      "[4/4] index_chain.dae -> out/index_chain.cpp (index 3, T s)\n"
      "converted 2 of 4 models in T s; failed: broken.dae, missing.dae\n",
      mask_times(r.out));
  // An unreadable model is a failed model of the batch (status 1), not a usage error.
  EXPECT_EQ(std::string(kBrokenDiagnostics) +
                "daec: error: cannot read 'missing.dae': No such file or directory\n",
            r.err);
  // No file for the failed models, and no temporary file.
  EXPECT_EQ((std::vector<std::string>{"index_chain.cpp", "pendulum.cpp"}), files("out"));
}

TEST_F(Batch, FailingModelLeavesItsOldOutputAsItWas) {
  copy_models({"pendulum.dae"});
  write("broken.dae", kBadModel);
  write("out/broken.cpp", "// from an earlier, good version\n");
  CommandResult r = daec("broken.dae pendulum.dae --output-dir out");
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("// from an earlier, good version\n", read("out/broken.cpp"));
  EXPECT_EQ((std::vector<std::string>{"broken.cpp", "pendulum.cpp"}), files("out"));
}

TEST_F(Batch, DiagnosticsOfParallelModelsDoNotInterleave) {
  write("broken.dae", kBadModel);
  write("sub/broken2.dae", kBadModel);
  copy_models({"coupled_pendulums.dae"});
  CommandResult r = daec("broken.dae coupled_pendulums.dae sub/broken2.dae --output-dir out -j 2");
  EXPECT_EQ(1, r.status);
  std::string first = kBrokenDiagnostics;
  std::string second = std::regex_replace(first, std::regex("broken\\.dae"), "sub/broken2.dae");
  EXPECT_TRUE(r.err == first + second || r.err == second + first) << r.err;
  std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(4u, lines.size()) << r.out;
  EXPECT_EQ("converted 1 of 3 models in T s; failed: broken.dae, sub/broken2.dae",
            mask_times(lines.back()));
}

TEST_F(Batch, SameBytesWithOneOrTwoJobs) {
  std::vector<std::string> models = bundled_models();
  ASSERT_GE(models.size(), 5u);
  copy_models(models);
  write("broken.dae", kBadModel);
  std::string inputs = "broken.dae";
  for (const std::string& model : models) inputs += " " + model;
  CommandResult one = daec(inputs + " --output-dir one -j 1");
  CommandResult two = daec(inputs + " --output-dir two -j 2");
  EXPECT_EQ(1, one.status) << one.err;
  EXPECT_EQ(1, two.status) << two.err;
  ASSERT_EQ(files("one"), files("two"));
  EXPECT_EQ(models.size(), files("one").size());
  for (const std::string& name : files("one")) {
    std::string a = read("one/" + name), b = read("two/" + name);
    EXPECT_TRUE(a == b) << name << " differs: " << first_difference(a, b);
  }
  // The same lines, perhaps in another order, apart from the counter and the directory.
  auto normalised = [](const CommandResult& r, const std::string& out_dir) {
    std::string text = std::regex_replace(mask_times(r.out), std::regex("\\[[0-9]+/"), "[");
    text = std::regex_replace(text, std::regex(out_dir + "/"), "DIR/");
    std::vector<std::string> lines = lines_of(text);
    std::sort(lines.begin(), lines.end());
    return lines;
  };
  EXPECT_EQ(normalised(one, "one"), normalised(two, "two"));
  EXPECT_EQ(one.err, two.err);
}

// The whole model library — every bundled model and pendulum chains of a few sizes, as
// scripts/library_run.sh converts it with larger chains — converted twice with -j 2 and once with
// -j 1: the same files, byte for byte, and the same progress lines apart from their order. The
// chain sizes keep the test within seconds in Release (and under a minute with the sanitizers).
TEST_F(Batch, ModelLibraryIsDeterministic) {
  std::vector<std::string> models = bundled_models();
  copy_models(models);
  // A library holds a model at several sizes as files of their own (-D would set one size for
  // all of them): models/pendulum_chain.dae with its `parameter N = 4` changed.
  std::string chain = daec::test::read_source_file("models/pendulum_chain.dae");
  size_t size = chain.find("parameter N = 4");
  ASSERT_NE(std::string::npos, size);
  for (int n : {2, 5, 12}) {
    std::string name = "pendulum_chain" + std::to_string(n) + ".dae";
    write(name, std::string(chain).replace(size, 15, "parameter N = " + std::to_string(n)));
    models.push_back(name);
  }
  std::string inputs;
  for (const std::string& model : models) inputs += " " + model;
  CommandResult a = daec(inputs + " --output-dir a -j 2");
  CommandResult b = daec(inputs + " --output-dir b -j 2");
  CommandResult c = daec(inputs + " --output-dir c -j 1");
  std::string total = std::to_string(models.size());
  for (const CommandResult* r : {&a, &b, &c}) {
    EXPECT_EQ(0, r->status) << r->err;
    EXPECT_EQ("", r->err);
    std::vector<std::string> lines = lines_of(mask_times(r->out));
    ASSERT_EQ(models.size() + 1, lines.size()) << r->out;
    EXPECT_EQ("converted " + total + " of " + total + " models in T s", lines.back());
    // One line per model, counted 1..N in the order they finished.
    static const std::regex progress(
        "\\[([0-9]+)/([0-9]+)\\] (\\S+) -> [abc]/(\\S+)\\.cpp "
        "\\(index [0-9]+, T s\\)");
    for (size_t i = 0; i + 1 < lines.size(); ++i) {
      std::smatch m;
      ASSERT_TRUE(std::regex_match(lines[i], m, progress)) << lines[i];
      EXPECT_EQ(std::to_string(i + 1), m[1].str());
      EXPECT_EQ(total, m[2].str());
      EXPECT_EQ(fs::path(m[3].str()).stem().string(), m[4].str());
    }
  }
  std::vector<std::string> written = files("a");
  EXPECT_EQ(models.size(), written.size());
  EXPECT_EQ(written, files("b"));
  EXPECT_EQ(written, files("c"));
  for (const std::string& name : written) {
    std::string first = read("a/" + name);
    EXPECT_FALSE(first.empty()) << name;
    for (const char* other : {"b/", "c/"}) {
      std::string second = read(other + name);
      EXPECT_TRUE(first == second)
          << other << name << " differs from a/" << name << ": " << first_difference(first, second);
    }
  }
  // The same progress lines in the three runs, but for the order, the counter and the directory.
  auto normalised = [](const CommandResult& r) {
    std::string text = std::regex_replace(mask_times(r.out), std::regex("\\[[0-9]+/"), "[");
    text = std::regex_replace(text, std::regex(" -> [abc]/"), " -> DIR/");
    std::vector<std::string> lines = lines_of(text);
    std::sort(lines.begin(), lines.end());
    return lines;
  };
  EXPECT_EQ(normalised(a), normalised(b));
  EXPECT_EQ(normalised(a), normalised(c));
}

// With too few file descriptors for N children at once, daec runs fewer at a time instead of
// failing models. The limit leaves room above the descriptors the shell already holds (the test
// runner's among them) for the pipes of one child (six while they are made) but not of two.
// Under AddressSanitizer the runtime needs descriptors of its own, so the test is left out.
#if !defined(__SANITIZE_ADDRESS__)
TEST_F(Batch, FewFileDescriptorsLimitTheParallelism) {
  copy_models({"pendulum.dae", "index_chain.dae", "exponential_ode.dae"});
  CommandResult r = daec::test::run_command(
      "cd '" + dir_.string() +
      "' && highest=$(ls /proc/$$/fd | sort -n | tail -n 1) && ulimit -n $((highest + 7)) && '" +
      daec::test::daec_binary() +
      "' pendulum.dae index_chain.dae exponential_ode.dae --output-dir out -j 3");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ("", r.err);
  EXPECT_EQ((std::vector<std::string>{"exponential_ode.cpp", "index_chain.cpp", "pendulum.cpp"}),
            files("out"));
}
#endif

// -D applies to every model of the batch; a model without that parameter fails like a model with
// an error (the others are converted).
TEST_F(Batch, DefinesApplyToEveryModel) {
  copy_models({"index_chain.dae", "pendulum.dae"});
  CommandResult r = daec("index_chain.dae pendulum.dae --output-dir out -D K=5");
  EXPECT_EQ(1, r.status);
  EXPECT_EQ(
      "[1/2] index_chain.dae -> out/index_chain.cpp (index 5, T s)\n"
      "[2/2] FAILED pendulum.dae\n"
      "converted 1 of 2 models in T s; failed: pendulum.dae\n",
      mask_times(r.out));
  EXPECT_EQ("daec: error: -D K=5: model 'pendulum' has no parameter 'K'\n", r.err);
  EXPECT_EQ((std::vector<std::string>{"index_chain.cpp"}), files("out"));
}

TEST_F(Batch, SimulatorsWithMain) {
  copy_models({"pendulum.dae", "exponential_ode.dae"});
  CommandResult r = daec("pendulum.dae exponential_ode.dae --output-dir sims --main");
  EXPECT_EQ(0, r.status) << r.err;
  for (const char* name : {"sims/pendulum.cpp", "sims/exponential_ode.cpp"}) {
    EXPECT_NE(std::string::npos, read(name).find("int main(")) << name;
  }
}

TEST_F(Batch, MissingOutputDirectoryIsCreated) {
  copy_models({"exponential_ode.dae"});
  CommandResult r = daec("exponential_ode.dae --output-dir deeper/still/out/");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ(
      "[1/1] exponential_ode.dae -> deeper/still/out/exponential_ode.cpp (index 0, T s)\n"
      "converted 1 of 1 model in T s\n",
      mask_times(r.out));
  EXPECT_TRUE(exists("deeper/still/out/exponential_ode.cpp"));
}

TEST_F(Batch, UnusableOutputDirectoryIsAnError) {
  copy_models({"exponential_ode.dae"});
  write("file", "");
  CommandResult is_file = daec("exponential_ode.dae --output-dir file");
  EXPECT_EQ(2, is_file.status);
  EXPECT_EQ("", is_file.out);
  EXPECT_EQ("daec: error: output directory 'file' exists and is not a directory\n", is_file.err);
  CommandResult under_file = daec("exponential_ode.dae --output-dir file/out");
  EXPECT_EQ(2, under_file.status);
  EXPECT_EQ("daec: error: cannot create output directory 'file/out': Not a directory\n",
            under_file.err);
  // Root may write anywhere the permissions say no; /proc refuses new files even to root.
  if (::geteuid() != 0) {
    fs::create_directory(dir_ / "readonly");
    fs::permissions(dir_ / "readonly", fs::perms::owner_read | fs::perms::owner_exec);
    CommandResult readonly = daec("exponential_ode.dae --output-dir readonly");
    EXPECT_EQ(2, readonly.status);
    EXPECT_EQ("daec: error: cannot write into output directory 'readonly': Permission denied\n",
              readonly.err);
  } else if (fs::is_directory("/proc/self")) {
    CommandResult proc = daec("exponential_ode.dae --output-dir /proc/self");
    EXPECT_EQ(2, proc.status);
    EXPECT_EQ(0u, proc.err.find("daec: error: cannot write into output directory '/proc/self': "))
        << proc.err;
  }
}

TEST_F(Batch, SameOutputNameIsAUsageError) {
  write("a.dae", kBadModel);
  write("sub/a.dae", kBadModel);
  CommandResult r = daec("a.dae sub/a.dae --output-dir out");
  EXPECT_EQ(2, r.status);
  EXPECT_EQ("", r.out);
  EXPECT_EQ(std::string("daec: error: 'a.dae' and 'sub/a.dae' would both be written to "
                        "'out/a.cpp'\n") +
                kTryHelp,
            r.err);
  // Found before any work: the directory was not even created.
  EXPECT_FALSE(exists("out"));
  CommandResult twice = daec("a.dae a.dae --output-dir out");
  EXPECT_EQ(2, twice.status);
  EXPECT_EQ(std::string("daec: error: 'a.dae' and 'a.dae' would both be written to "
                        "'out/a.cpp'\n") +
                kTryHelp,
            twice.err);
}

TEST_F(Batch, SplitWritesPartFilesForEveryModel) {
  copy_models({"pendulum.dae", "exponential_ode.dae"});
  CommandResult r = daec("pendulum.dae exponential_ode.dae --output-dir out --split 2");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ((std::vector<std::string>{"exponential_ode.cpp", "exponential_ode_1.cpp",
                                      "exponential_ode_2.cpp", "pendulum.cpp", "pendulum_1.cpp",
                                      "pendulum_2.cpp"}),
            files("out"));
  ASSERT_EQ(0, daec("pendulum.dae --split 2").status);  // what a single compilation writes
  EXPECT_EQ(read("pendulum_2.cpp"), read("out/pendulum_2.cpp"));
  // A model's part file would be another model's code.
  write("a.dae", kBadModel);
  write("a_1.dae", kBadModel);
  r = daec("a.dae a_1.dae --output-dir out2 --split 1");
  EXPECT_EQ(2, r.status);
  EXPECT_EQ(std::string("daec: error: --split and --output-dir would both write 'out2/a_1.cpp'\n") +
                kTryHelp,
            r.err);
}

TEST_F(Batch, OptionsThatDoNotApplyAreUsageErrors) {
  write("a.dae", kBadModel);
  write("b.dae", kBadModel);
  struct Case {
    const char* arguments;
    const char* message;
  };
  const Case cases[] = {
      {"a.dae --check --output-dir out",
       "--check generates no code; it cannot be combined with -o, --main, --python-module, "
       "--header or "
       "--output-dir"},
      {"a.dae b.dae --output-dir out --header x.h", "--header names one file, for one model"},
      {"- --output-dir out < a.dae",
       "standard input ('-') cannot be compiled with --output-dir: it has no file name to name "
       "the output after"},
      {"a.dae b.dae --output-dir out --report r.md",
       "--report names one report file, but 2 models were given (ask for reports one model at a "
       "time)"},
      {"a.dae b.dae --output-dir out --report-json r.json",
       "--report-json names one report file, but 2 models were given (ask for reports one model "
       "at a time)"},
      {"a.dae --output-dir out --header -",
       "--header - would mix its file into the progress lines of --output-dir (name a file)"},
      {"a.dae --output-dir out --report-json -",
       "--report-json - would mix its file into the progress lines of --output-dir (name a file)"},
      {"a.dae b.dae -o x.cpp --output-dir out",
       "-o names one output file, but 2 models were given (use --output-dir for several)"},
      {"a.dae --output-dir out -j 0", "--jobs must be at least 1"},
      {"a.dae --output-dir ''", "--output-dir needs a directory name"},
  };
  for (const Case& c : cases) expect_usage_error(c.arguments, c.message);
  EXPECT_EQ((std::vector<std::string>{"a.dae", "b.dae"}), files());
}

}  // namespace
