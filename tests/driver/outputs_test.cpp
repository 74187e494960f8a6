// Tests of what daec writes where (docs/command-line.md): outputs written atomically and all or
// none — a missing or read-only directory, a directory in the way, a model with errors leave every
// existing file byte-identical and no temporary behind; '-' for standard output and standard input.
//
// A read-only directory stops only an unprivileged user: as root (the usual case in containers)
// those tests run daec as the user nobody through setpriv(1).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "command_fixture.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using daec::test::CommandResult;
using daec::test::kBadModel;
using daec::test::kGoodModel;
using daec::test::kTryHelp;

const char kDecaySummary[] =
    "index 0; 1 state, 0 algebraic unknowns, 0 dummy variables, 0 invariants; wrote ";

const char kOld[] = "// an earlier output, to be kept\n";

class Outputs : public daec::test::DaecCommandTest {
 protected:
  void SetUp() override {
    DaecCommandTest::SetUp();
    write("decay.dae", kGoodModel);
  }

  // The code (or header) daec writes for decay.dae when all goes well.
  std::string expected(const std::string& arguments, const std::string& file) {
    CommandResult r = daec("decay.dae " + arguments);
    EXPECT_EQ(0, r.status) << r.err;
    std::string text = read(file);
    fs::remove(dir_ / file);
    return text;
  }

  // A directory that refuses new files to the user running daec as unprivileged().
  void make_read_only_dir(const std::string& name) {
    fs::create_directory(dir_ / name);
    fs::permissions(dir_ / name, fs::perms::owner_read | fs::perms::owner_exec |
                                     fs::perms::group_read | fs::perms::group_exec |
                                     fs::perms::others_read | fs::perms::others_exec);
  }

  // How to run daec so that permissions hold: as is for an ordinary user, as nobody for root.
  // Empty when root cannot drop its privileges here.
  std::string unprivileged() {
    if (::geteuid() != 0) return " ";
    // nobody must reach the test directory and be able to write to it where the test says so.
    fs::permissions(dir_, fs::perms::all);
    CommandResult probe =
        daec::test::run_command("setpriv --reuid=65534 --regid=65534 --clear-groups test -x '" +
                                daec::test::daec_binary() + "' -a -w '" + dir_.string() + "'");
    return probe.status == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
  }

  // Runs daec through `runner` (from unprivileged()).
  CommandResult daec_via(const std::string& runner, const std::string& arguments) {
    return daec::test::run_command("cd '" + dir_.string() + "' && " + runner + "'" +
                                   daec::test::daec_binary() + "' " + arguments);
  }
};

#define REQUIRE_UNPRIVILEGED(runner)                                                            \
  if ((runner).empty()) {                                                                       \
    GTEST_SKIP() << "running as root, and setpriv cannot run daec as nobody here: a read-only " \
                    "directory would not stop daec";                                            \
  }

TEST_F(Outputs, MissingDirectoryFailsForEveryOutput) {
  struct Case {
    const char* arguments;
    const char* err;
  };
  const Case cases[] = {
      {"-o missing/x.cpp",
       "daec: error: cannot write 'missing/x.cpp': No such file or directory\n"},
      {"--main -o missing/sim.cpp",
       "daec: error: cannot write 'missing/sim.cpp': No such file or directory\n"},
      {"-o x.cpp --header missing/x.h",
       "daec: error: cannot write 'missing/x.h': No such file or directory\n"},
      {"-o x.cpp --report missing/r.md",
       "daec: error: cannot write 'missing/r.spy.svg': No such file or directory\n"
       "daec: error: cannot write 'missing/r.md': No such file or directory\n"},
      {"-o x.cpp --report-json missing/r.json",
       "daec: error: cannot write 'missing/r.json': No such file or directory\n"},
  };
  for (const Case& c : cases) {
    CommandResult r = daec(std::string("decay.dae ") + c.arguments);
    EXPECT_EQ(1, r.status) << c.arguments;
    EXPECT_EQ("", r.out) << c.arguments;
    EXPECT_EQ(c.err, r.err) << c.arguments;
    // All or none: x.cpp, which could have been written, was not.
    EXPECT_EQ((std::vector<std::string>{"decay.dae"}), files()) << c.arguments;
  }
}

TEST_F(Outputs, ExistingFilesAreKeptWhenAnotherOutputFails) {
  write("x.cpp", kOld);
  write("r.json", kOld);
  CommandResult r = daec("decay.dae -o x.cpp --report-json r.json --header missing/x.h");
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("daec: error: cannot write 'missing/x.h': No such file or directory\n", r.err);
  EXPECT_EQ(kOld, read("x.cpp"));
  EXPECT_EQ(kOld, read("r.json"));
  EXPECT_EQ((std::vector<std::string>{"decay.dae", "r.json", "x.cpp"}), files());
}

TEST_F(Outputs, ModelWithErrorsKeepsEveryExistingOutput) {
  write("broken.dae", kBadModel);
  for (const char* name : {"x.cpp", "x.h", "r.md", "r.spy.svg", "r.json"}) write(name, kOld);
  CommandResult r =
      daec("broken.dae -o x.cpp --header x.h --report r.md --report-json r.json --main");
  EXPECT_EQ(1, r.status);
  EXPECT_EQ(
      "broken.dae:4:7: error: use of undeclared name 'y1'\n"
      "  x = y1;\n"
      "      ^\n",
      r.err);
  for (const char* name : {"x.cpp", "x.h", "r.md", "r.spy.svg", "r.json"}) {
    EXPECT_EQ(kOld, read(name)) << name;
  }
  EXPECT_EQ((std::vector<std::string>{"broken.dae", "decay.dae", "r.json", "r.md", "r.spy.svg",
                                      "x.cpp", "x.h"}),
            files());
}

TEST_F(Outputs, ReadOnlyDirectoryIsRefused) {
  std::string runner = unprivileged();
  REQUIRE_UNPRIVILEGED(runner);
  make_read_only_dir("ro");
  CommandResult r = daec_via(runner, "decay.dae -o ro/x.cpp");
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("", r.out);
  EXPECT_EQ("daec: error: cannot write 'ro/x.cpp': Permission denied\n", r.err);
  EXPECT_TRUE(files("ro").empty());
  CommandResult report = daec_via(runner, "decay.dae --report-json ro/r.json");
  EXPECT_EQ(1, report.status);
  EXPECT_EQ("daec: error: cannot write 'ro/r.json': Permission denied\n", report.err);
  EXPECT_TRUE(files("ro").empty());
}

TEST_F(Outputs, ExistingFileInAReadOnlyDirectoryIsKept) {
  std::string runner = unprivileged();
  REQUIRE_UNPRIVILEGED(runner);
  write("ro/x.cpp", kOld);
  make_read_only_dir("ro");
  CommandResult r = daec_via(runner, "decay.dae -o ro/x.cpp");
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("daec: error: cannot write 'ro/x.cpp': Permission denied\n", r.err);
  EXPECT_EQ(kOld, read("ro/x.cpp"));
  EXPECT_EQ((std::vector<std::string>{"x.cpp"}), files("ro"));
}

TEST_F(Outputs, ReadOnlyHeaderDirectoryKeepsTheCodeFileToo) {
  std::string runner = unprivileged();
  REQUIRE_UNPRIVILEGED(runner);
  write("x.cpp", kOld);
  make_read_only_dir("ro");
  CommandResult r = daec_via(runner, "decay.dae -o x.cpp --header ro/x.h");
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("daec: error: cannot write 'ro/x.h': Permission denied\n", r.err);
  EXPECT_EQ(kOld, read("x.cpp"));
  EXPECT_EQ((std::vector<std::string>{"decay.dae", "ro", "x.cpp"}), files());
  EXPECT_TRUE(files("ro").empty());
}

TEST_F(Outputs, DeviceIsWrittenInPlace) {
  // Renaming a temporary over /dev/null would replace the device by a file: as root that is
  // possible, so it is tried only without the privilege.
  std::string runner = unprivileged();
  REQUIRE_UNPRIVILEGED(runner);
  CommandResult r = daec_via(runner, "decay.dae -o /dev/null");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ(std::string("decay.dae: ") + kDecaySummary + "/dev/null (rhs: 1 operation)\n", r.out);
  EXPECT_EQ("", r.err);
}

TEST_F(Outputs, FifoIsWrittenInPlace) {
  std::string code = expected("-o x.cpp", "x.cpp");
  ASSERT_EQ(0, ::mkfifo((dir_ / "fifo").c_str(), 0644));
  CommandResult r =
      daec::test::run_command("cd '" + dir_.string() + "' && { timeout 60 cat fifo > got & } && '" +
                              daec::test::daec_binary() + "' decay.dae -o fifo && wait");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ(code, read("got"));
  EXPECT_TRUE(fs::is_fifo(dir_ / "fifo"));
}

// Interrupted while writing, daec removes its temporary files and ends by the signal. Here it
// waits in open(2) for a reader of the FIFO header, with the code's temporary already written.
// (A shell starts background commands with SIGINT ignored, which env --default-signal undoes.)
TEST_F(Outputs, InterruptRemovesTheTemporaries) {
  for (const char* signal_name : {"INT", "TERM", "HUP"}) {
    ASSERT_EQ(0, ::mkfifo((dir_ / "fifo.h").c_str(), 0644));
    CommandResult r = daec::test::run_command(
        "cd '" + dir_.string() + "' && { env --default-signal=INT '" + daec::test::daec_binary() +
        "' decay.dae -o x.cpp --header fifo.h & pid=$!; } && "
        "for i in $(seq 1000); do ls x.cpp.tmp.* >/dev/null 2>&1 && break; sleep 0.01; done && "
        "kill -" +
        signal_name + " $pid; wait $pid; echo \"status $?\"");
    EXPECT_EQ("status " +
                  std::to_string(128 + (signal_name[0] == 'I'   ? SIGINT
                                        : signal_name[0] == 'T' ? SIGTERM
                                                                : SIGHUP)) +
                  "\n",
              r.out)
        << signal_name << ": " << r.err;
    EXPECT_EQ((std::vector<std::string>{"decay.dae", "fifo.h"}), files()) << signal_name;
    fs::remove(dir_ / "fifo.h");
  }
}

TEST_F(Outputs, DirectoryAsOutputIsRefused) {
  fs::create_directory(dir_ / "sub");
  for (const char* path : {"sub", "sub/"}) {
    CommandResult r = daec(std::string("decay.dae -o ") + path);
    EXPECT_EQ(1, r.status);
    EXPECT_EQ(std::string("daec: error: cannot write '") + path + "': Is a directory\n", r.err);
    EXPECT_EQ((std::vector<std::string>{"decay.dae", "sub"}), files());
    EXPECT_TRUE(files("sub").empty());
  }
}

TEST_F(Outputs, ReadOnlyFileIsReplacedLikeAnyOther) {
  // As mv and compilers do: the permission bits of a file do not protect it from being replaced
  // in a writable directory. The new file gets the permissions of any new output.
  CommandResult fresh = daec("decay.dae -o fresh.cpp");
  ASSERT_EQ(0, fresh.status) << fresh.err;
  std::string code = read("fresh.cpp");
  write("x.cpp", kOld);
  fs::permissions(dir_ / "x.cpp", fs::perms::owner_read);
  CommandResult r = daec("decay.dae -o x.cpp");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ(code, read("x.cpp"));
  EXPECT_EQ(fs::status(dir_ / "fresh.cpp").permissions(), fs::status(dir_ / "x.cpp").permissions());
  EXPECT_EQ((std::vector<std::string>{"decay.dae", "fresh.cpp", "x.cpp"}), files());
}

TEST_F(Outputs, SymbolicLinkIsFollowed) {
  std::string code = expected("-o x.cpp", "x.cpp");
  write("real/x.cpp", kOld);
  fs::create_symlink("real/x.cpp", dir_ / "link.cpp");
  CommandResult r = daec("decay.dae -o link.cpp");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.cpp"));
  EXPECT_EQ(code, read("real/x.cpp"));
  EXPECT_EQ((std::vector<std::string>{"x.cpp"}), files("real"));
}

// A dangling link names the file to create: it is written there, through a temporary beside it,
// and the link stays. Where the link's directory is missing, the message names it, and nothing
// is written (the code that could have been, x.cpp, is not).
TEST_F(Outputs, DanglingSymbolicLinkIsFollowedAndKept) {
  std::string header = expected("-o x.cpp --header x.h", "x.h");
  fs::remove(dir_ / "x.cpp");
  fs::create_directory(dir_ / "real");
  fs::create_symlink("real/new.h", dir_ / "out.h");
  CommandResult r = daec("decay.dae -o x.cpp --header out.h");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir_ / "out.h"));
  EXPECT_EQ(header, read("real/new.h"));
  EXPECT_EQ((std::vector<std::string>{"new.h"}), files("real"));
  // A chain of links, relative to the directory of each.
  fs::create_symlink("../real/last.h", dir_ / "real/middle.h");
  fs::create_symlink("real/middle.h", dir_ / "first.h");
  r = daec("decay.dae -o x.cpp --header first.h");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ(header, read("real/last.h"));
  EXPECT_EQ((std::vector<std::string>{"last.h", "middle.h", "new.h"}), files("real"));

  fs::create_symlink("nodir/target.h", dir_ / "bad.h");
  r = daec("decay.dae -o y.cpp --header bad.h");
  EXPECT_EQ(1, r.status);
  EXPECT_EQ(
      "daec: error: cannot write 'bad.h': it is a symbolic link to 'nodir/target.h', whose "
      "directory 'nodir' does not exist\n",
      r.err);
  EXPECT_TRUE(fs::is_symlink(dir_ / "bad.h"));
  EXPECT_EQ((std::vector<std::string>{"bad.h", "decay.dae", "first.h", "out.h", "real", "x.cpp"}),
            files());
}

// Two outputs that end at one file through a link, even a dangling one whose target is the other
// output (which does not exist yet), are two outputs on one file.
TEST_F(Outputs, OutputsThatALinkMakesOneFileAreAUsageError) {
  fs::create_symlink("m.cpp", dir_ / "out.h");
  fs::create_directory(dir_ / "sub");
  fs::create_symlink("../m.cpp", dir_ / "sub/up.h");
  fs::create_symlink("sub/up.h", dir_ / "chain.h");
  expect_usage_error("decay.dae -o m.cpp --header out.h",
                     "-o and --header would both write 'out.h'");
  expect_usage_error("decay.dae -o ./m.cpp --header sub/up.h",
                     "-o and --header would both write 'sub/up.h'");
  expect_usage_error("decay.dae --header chain.h -o sub/../m.cpp",
                     "-o and --header would both write 'chain.h'");
  expect_usage_error("decay.dae -o x.cpp --report-json out.h --header m.cpp",
                     "--header and --report-json would both write 'out.h'");
  EXPECT_EQ((std::vector<std::string>{"chain.h", "decay.dae", "out.h", "sub"}), files());
}

TEST_F(Outputs, OutputOntoAnInputIsAUsageError) {
  fs::create_symlink("decay.dae", dir_ / "link.dae");
  struct Case {
    const char* arguments;
    const char* message;
  };
  const Case cases[] = {
      {"decay.dae -o decay.dae", "-o would overwrite the input model 'decay.dae'"},
      {"decay.dae -o ./decay.dae", "-o would overwrite the input model 'decay.dae'"},
      {"decay.dae -o link.dae", "-o would overwrite the input model 'decay.dae'"},
      {"decay.dae -o x.cpp --header decay.dae",
       "--header would overwrite the input model 'decay.dae'"},
      {"decay.dae --report-json decay.dae",
       "--report-json would overwrite the input model 'decay.dae'"},
  };
  for (const Case& c : cases) expect_usage_error(c.arguments, c.message);
  // A model whose default output is itself: decay.cpp -> decay.cpp, in batch mode too.
  write("sub/decay.cpp", kGoodModel);
  CommandResult itself = daec("sub/decay.cpp -o sub/decay.cpp");
  EXPECT_EQ(2, itself.status);
  EXPECT_EQ(
      std::string("daec: error: -o would overwrite the input model 'sub/decay.cpp'\n") + kTryHelp,
      itself.err);
  CommandResult batch = daec("sub/decay.cpp --output-dir sub");
  EXPECT_EQ(2, batch.status);
  EXPECT_EQ(std::string("daec: error: --output-dir would overwrite the input model "
                        "'sub/decay.cpp'\n") +
                kTryHelp,
            batch.err);
  EXPECT_EQ(kGoodModel, read("decay.dae"));
  EXPECT_EQ(kGoodModel, read("sub/decay.cpp"));
  EXPECT_EQ((std::vector<std::string>{"decay.dae", "link.dae", "sub"}), files());
}

TEST_F(Outputs, TwoOutputsOnOneFileAreAUsageError) {
  struct Case {
    const char* arguments;
    const char* message;
  };
  const Case cases[] = {
      {"decay.dae -o x.cpp --header x.cpp", "-o and --header would both write 'x.cpp'"},
      {"decay.dae -o x.cpp --header ./x.cpp", "-o and --header would both write './x.cpp'"},
      {"decay.dae --report r.md --report-json r.spy.svg",
       "the picture of --report and --report-json would both write 'r.spy.svg'"},
      {"decay.dae -o - --header -", "-o and --header would both write to standard output ('-')"},
      {"- --header - < decay.dae",
       "the code and --header would both write to standard output ('-')"},
      {"decay.dae --report -", "--report needs a file name: its picture is written beside it"},
  };
  for (const Case& c : cases) expect_usage_error(c.arguments, c.message);
  EXPECT_EQ((std::vector<std::string>{"decay.dae"}), files());
}

TEST_F(Outputs, SplitWritesNumberedPartFilesBesideTheCode) {
  CommandResult r = daec("decay.dae -o out/x.cpp --split 3");
  EXPECT_EQ(1, r.status);  // out/ is missing: no file at all
  EXPECT_EQ(
      "daec: error: cannot write 'out/x.cpp': No such file or directory\n"
      "daec: error: cannot write 'out/x_1.cpp': No such file or directory\n"
      "daec: error: cannot write 'out/x_2.cpp': No such file or directory\n"
      "daec: error: cannot write 'out/x_3.cpp': No such file or directory\n",
      r.err);
  r = daec("decay.dae -o x.cc --split 2");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ((std::vector<std::string>{"decay.dae", "x.cc", "x_1.cc", "x_2.cc"}), files());
  EXPECT_EQ(0u, read("x_2.cc").find("// generated by daec from decay.dae; edit the model"));
  EXPECT_NE(std::string::npos, read("x_2.cc").find("// Part 2 of 2 of x.cc:"));
  r = daec("decay.dae --split 1");  // the default name, and a name without an extension
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_TRUE(exists("decay_1.cpp"));
  EXPECT_EQ(0, daec("decay.dae -o plain --split 1").status);
  EXPECT_TRUE(exists("plain_1"));
}

TEST_F(Outputs, SplitPartFilesAreAllOrNoneWithTheRest) {
  // The code and its parts are written together with the header: a part that cannot be written
  // (a directory in its way) leaves every old file as it was.
  write("x.cpp", kOld);
  write("x.h", kOld);
  fs::create_directory(dir_ / "x_2.cpp");
  CommandResult r = daec("decay.dae -o x.cpp --header x.h --split 2");
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("daec: error: cannot write 'x_2.cpp': Is a directory\n", r.err);
  EXPECT_EQ(kOld, read("x.cpp"));
  EXPECT_EQ(kOld, read("x.h"));
  EXPECT_EQ((std::vector<std::string>{"decay.dae", "x.cpp", "x.h", "x_2.cpp"}), files());
}

TEST_F(Outputs, SplitUsageErrors) {
  write("x_1.cpp", kOld);
  expect_usage_error("decay.dae -o - --split 2",
                     "--split writes part files beside the code: name its file with -o, not '-'");
  expect_usage_error("decay.dae -o x.cpp --split 2 --header x_1.cpp",
                     "--split and --header would both write 'x_1.cpp'");
  expect_usage_error("decay.dae --split -1", "--split must be from 0 to 256");
  expect_usage_error("decay.dae --split 257", "--split must be from 0 to 256");
  EXPECT_EQ(kOld, read("x_1.cpp"));
}

TEST_F(Outputs, CodeToStandardOutputIsExactlyTheFile) {
  std::string code = expected("-o x.cpp", "x.cpp");
  CommandResult r = daec("decay.dae -o -");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ(code, r.out);
  EXPECT_EQ(std::string("decay.dae: ") + kDecaySummary + "<stdout> (rhs: 1 operation)\n", r.err);
  EXPECT_EQ((std::vector<std::string>{"decay.dae"}), files());
}

TEST_F(Outputs, HeaderToStandardOutput) {
  std::string header = expected("-o x.cpp --header x.h", "x.h");
  std::string code = read("x.cpp");
  CommandResult r = daec("decay.dae -o y.cpp --header -");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ(header, r.out);
  EXPECT_EQ(code, read("y.cpp"));
  EXPECT_EQ(std::string("decay.dae: ") + kDecaySummary + "y.cpp (rhs: 1 operation)\n", r.err);
}

TEST_F(Outputs, JsonReportToStandardOutput) {
  std::string json = expected("--report-json r.json", "r.json");
  CommandResult r = daec("decay.dae --report-json -");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ(json, r.out);
  EXPECT_EQ("", r.err);
  // --check prints its summary too: on stderr, out of the report's way.
  CommandResult check = daec("decay.dae --check --report-json -");
  EXPECT_EQ(0, check.status) << check.err;
  EXPECT_EQ(json, check.out);
  EXPECT_EQ(0u, check.err.find("model decay \"Exponential decay\": ")) << check.err;
}

TEST_F(Outputs, ModelFromStandardInputToAFile) {
  std::string code = expected("-o x.cpp --header x.h", "x.cpp");
  std::string header = read("x.h");
  CommandResult r = daec("- -o y.cpp --header y.h < decay.dae");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ(std::string("<stdin>: ") + kDecaySummary + "y.cpp (rhs: 1 operation)\n", r.out);
  EXPECT_EQ("", r.err);
  // The same bytes, but for the name of the source in the first line.
  const std::string from_file = "// generated by daec from decay.dae;";
  const std::string from_stdin = "// generated by daec from <stdin>;";
  ASSERT_EQ(0u, code.find(from_file));
  ASSERT_EQ(0u, header.find(from_file));
  EXPECT_EQ(from_stdin + code.substr(from_file.size()), read("y.cpp"));
  EXPECT_EQ(from_stdin + header.substr(from_file.size()), read("y.h"));
}

TEST_F(Outputs, ModelFromStandardInputToStandardOutput) {
  CommandResult file = daec("- -o x.cpp < decay.dae");
  ASSERT_EQ(0, file.status) << file.err;
  CommandResult r = daec("- < decay.dae");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ(read("x.cpp"), r.out);
  EXPECT_EQ(std::string("<stdin>: ") + kDecaySummary + "<stdout> (rhs: 1 operation)\n", r.err);
  EXPECT_EQ((std::vector<std::string>{"decay.dae", "x.cpp"}), files());
}

TEST_F(Outputs, BadModelOnStandardInput) {
  write("broken.dae", kBadModel);
  write("x.cpp", kOld);
  CommandResult r = daec("- -o x.cpp < broken.dae");
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("", r.out);
  EXPECT_EQ(
      "<stdin>:4:7: error: use of undeclared name 'y1'\n"
      "  x = y1;\n"
      "      ^\n",
      r.err);
  EXPECT_EQ(kOld, read("x.cpp"));
}

TEST_F(Outputs, EmptyOrUnreadableStandardInput) {
  CommandResult empty = daec("- -o x.cpp < /dev/null");
  EXPECT_EQ(1, empty.status);
  EXPECT_EQ(
      "<stdin>:1:1: error: expected 'model NAME;' at the start of the file, found end of file\n"
      "\n"
      "^\n",
      empty.err);
  CommandResult closed = daec("- -o x.cpp <&-");
  EXPECT_EQ(2, closed.status);
  EXPECT_EQ("daec: error: cannot read standard input: Bad file descriptor\n", closed.err);
  CommandResult directory = daec("- -o x.cpp < .");
  EXPECT_EQ(2, directory.status);
  EXPECT_EQ("daec: error: cannot read standard input: Is a directory\n", directory.err);
  EXPECT_EQ((std::vector<std::string>{"decay.dae"}), files());
}

TEST_F(Outputs, UnwritableStandardOutput) {
  CommandResult closed = daec("decay.dae -o - >&-");
  EXPECT_EQ(1, closed.status);
  EXPECT_EQ("daec: error: cannot write to standard output: Bad file descriptor\n", closed.err);
  CommandResult full = daec("decay.dae -o - > /dev/full");
  EXPECT_EQ(1, full.status);
  EXPECT_EQ("daec: error: cannot write to standard output: No space left on device\n", full.err);
  EXPECT_EQ((std::vector<std::string>{"decay.dae"}), files());
}

TEST_F(Outputs, ClosedStandardStreamsDoNotLeakIntoOutputs) {
  // With descriptor 1 or 2 closed, the output's temporary would otherwise become stdout or stderr.
  std::string code = expected("-o x.cpp", "x.cpp");
  CommandResult r = daec("decay.dae -o x.cpp >&- 2>&-");
  EXPECT_EQ(0, r.status);
  EXPECT_EQ(code, read("x.cpp"));
  EXPECT_EQ((std::vector<std::string>{"decay.dae", "x.cpp"}), files());
}

}  // namespace
