// Tests of the resource limits (docs/limits.md): --max-expression-size and --time-limit stop a
// model whose expressions explode with a diagnostic naming the stage, exit status 1 and no output
// file, alone or in batch mode; the watchdog's backstop stops a process stuck inside one long
// operation; an out-of-memory condition is reported; the defaults leave every bundled model far
// below.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "command_fixture.h"
#include "reduction/limits.h"
#include "reduction/shared_expressions.h"
#include "support/text.h"
#include "support/watchdog.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using daec::test::CommandResult;

// An index-(N+1) chain: c holds x1 only, and x_i' = x_{i+1}*exp(sin(x_i)) brings in one more
// state per differentiation, z after N of them. Each derivative of c is about ten times larger
// as a tree (written out, the size counted) than the last, about 2.5 times in distinct
// subexpressions; its derivatives by the states, which code generation takes, larger again.
std::string exploding_chain(int n) {
  std::string text = "model boom;\nvariable ";
  for (int i = 1; i <= n; ++i) text += "x" + std::to_string(i) + "(start = 1), ";
  text += "z;\nequation\n";
  for (int i = 1; i < n; ++i) {
    text += "  x" + std::to_string(i) + "' = x" + std::to_string(i + 1) + "*exp(sin(x" +
            std::to_string(i) + "));\n";
  }
  return text + "  x" + std::to_string(n) + "' = z;\n  c: x1*exp(x1) = sin(t);\nend\n";
}

// The label of c differentiated `level` times, quoted: 'c''' for level 2.
std::string quoted_c(int level) {
  return "'c" + std::string(static_cast<size_t>(level), '\'') + "'";
}

// The error of the size limit exceeded on a derivative of c, which is on line `line` of boom.dae.
// The size reached is exact: the count does not depend on the order GiNaC gives terms, which
// changes from run to run.
std::string size_limit_error(int line, const std::string& stage, const std::string& reached,
                             const std::string& limit) {
  return "boom.dae:" + std::to_string(line) + ":3: error: expression size limit exceeded while " +
         stage + ": " + reached + " nodes, limit " + limit +
         " (raise it with --max-expression-size)\n"
         "  c: x1*exp(x1) = sin(t);\n"
         "  ^\n";
}

class Limits : public daec::test::DaecCommandTest {
 protected:
  // `daec -o` on the exploding chain of n states with `options` stops, writing nothing, while it
  // differentiates c differentiated n times for the Jacobian dg/dX: `reached` nodes past `limit`.
  void expect_stopped_at_the_jacobian(int n, const std::string& options, const std::string& reached,
                                      const std::string& limit) {
    write("boom.dae", exploding_chain(n));
    CommandResult r = daec("boom.dae -o boom.cpp --header boom.h" + options);
    EXPECT_EQ(1, r.status);
    EXPECT_EQ(size_limit_error(
                  n + 4, "differentiating equation " + quoted_c(n) + " for the Jacobian dg/dX",
                  reached, limit),
              r.err);
    EXPECT_EQ(std::vector<std::string>{"boom.dae"}, files());
  }
};

TEST_F(Limits, ExpressionSizeStopsTheDifferentiationOfAConstraint) {
  write("boom.dae", exploding_chain(7));
  CommandResult r = daec("boom.dae -o boom.cpp --max-expression-size 1000");
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("", r.out);
  EXPECT_EQ(size_limit_error(11, "differentiating constraint " + quoted_c(3) + " in round 4",
                             "1,353", "1,000"),
            r.err);
  EXPECT_EQ(std::vector<std::string>{"boom.dae"}, files());  // no output, no temporary
}

// The same command decides the same way every time: the count is the same in every run,
// whatever addresses the run's objects have.
TEST_F(Limits, TheCountIsTheSameInEveryRun) {
  write("boom.dae", exploding_chain(6));
  std::set<std::string> messages;
  for (int run = 0; run < 6; ++run) {
    CommandResult r = daec("boom.dae --check --max-expression-size 300");
    EXPECT_EQ(1, r.status);
    messages.insert(r.err);
  }
  EXPECT_EQ(1u, messages.size());
  EXPECT_NE(messages.begin()->find("779 nodes, limit 300"), std::string::npos) << *messages.begin();
}

// The N-pendulum of bench/high_index.sh at N = 4 (index 9): its combinations nest round after
// round, 1.9 million nodes as a tree, a few thousand distinct ones; within the default limits.
// The fast slice of bench/high_index.sh (which runs N = 2 ... 5; N = 4 takes about 25 s).
TEST_F(Limits, TheThreePendulumOfIndexSevenReducesWithinTheDefaultLimits) {
  CommandResult r = daec("'" + daec::test::source_dir() + "/tests/data/n_pendulum3.dae' --check");
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_NE(std::string::npos,
            r.out.find("reduction: index 7 (6 differentiation rounds + 1 for the algebraic "
                       "variable mu3)"))
      << r.out;
}

// Index 11: combinations of combinations would grow threefold a round; the reduction makes the
// unknowns they would eliminate states instead, and each round differentiates model equations.
TEST_F(Limits, TheFivePendulumOfIndexElevenReducesByMakingStatesNotNestedCombinations) {
  CommandResult r = daec("'" + daec::test::source_dir() + "/tests/data/n_pendulum5.dae' --check");
  EXPECT_EQ(0, r.status) << r.err;
  for (const char* line :
       {"reduction: index 11 (10 differentiation rounds + 1 for the algebraic variable mu5)\n"
        "  60 states, 11 algebraic unknowns, 54 dummy variables, 58 invariants\n",
        "  round 3: B 7x7, structural rank 6, rank 6: differentiated rod'', tie2, eq1, eq2; made "
        "states instead of combining: lam, x_dot_dot, y_dot_dot\n",
        "  round 11: B 11x11, structural rank 11, rank 11: nonsingular, index 1 reached\n"})
    EXPECT_NE(std::string::npos, r.out.find(line)) << line << "\nnot in\n" << r.out;
  EXPECT_EQ(std::string::npos, r.out.find("comb(")) << r.out;
}

TEST_F(Limits, ExpressionSizeStopsTheJacobiansOfCodeGeneration) {
  // N = 5 reduces within 20,000 nodes; the derivatives of its last derivative of c by the states
  // do not.
  write("boom.dae", exploding_chain(5));
  EXPECT_EQ(0, daec("boom.dae --check --max-expression-size 20000").status);
  expect_stopped_at_the_jacobian(5, " --max-expression-size 20000", "39,685", "20,000");
}

TEST_F(Limits, TimeLimitStopsAModelThatWouldTakeAMinute) {
  write("boom.dae", exploding_chain(12));
  auto start = std::chrono::steady_clock::now();
  CommandResult r = daec("boom.dae -o boom.cpp --time-limit 1 --max-expression-size 0");
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(1, r.status);
  EXPECT_LT(seconds, 1 + daec::kWatchdogGraceSeconds + 2.0);
  // Which round and stage are reached depends on the machine: differentiating c, or deciding the
  // rank of its derivatives (a stage of the whole file, at its start, 1:1). A checkpoint reports
  // with the source line and caret; the backstop, stopping daec inside one GiNaC call, with the
  // first line only.
  static const std::regex expected(
      "(boom\\.dae:16:3: error: time limit of 1 s exceeded while differentiating constraint "
      "'c'*' in round [0-9]+ \\(raise it with --time-limit\\)\n"
      "(  c: x1\\*exp\\(x1\\) = sin\\(t\\);\n  \\^\n)?|"
      "boom\\.dae:1:1: error: time limit of 1 s exceeded while computing the rank of the "
      "constraints in round [0-9]+ \\(raise it with --time-limit\\)\n(model boom;\n\\^\n)?)");
  EXPECT_TRUE(std::regex_match(r.err, expected)) << r.err;
  EXPECT_EQ(std::vector<std::string>{"boom.dae"}, files());
}

// The backstop on its own: a process that never reaches a checkpoint is ended a grace period
// after the limit, with the stage's message.
TEST(LimitsWatchdog, BackstopEndsAProcessStuckInOneOperation) {
  daec::SourceFile file("stuck.dae", "model stuck;\nvariable x;\nequation\n  e: x = 1;\nend\n");
  EXPECT_EXIT(
      {
        daec::arm_watchdog(file.name(), 1);
        daec::enter_stage(file.location_at(file.text().find("e:")), "computing something long");
        for (;;) ::pause();  // the first alarm returns from pause, the second ends the process
      },
      testing::ExitedWithCode(1),
      "^stuck\\.dae:4:3: error: time limit of 1 s exceeded while computing something long "
      "\\(raise it with --time-limit\\)\n$");
}

// A stage of the whole model (deciding a rank) has no equation: the backstop's line points at the
// start of the file, 1:1, as every other diagnostic has a line and column (docs/limits.md).
TEST(LimitsWatchdog, BackstopInAStageOfTheWholeModelPointsAtItsStart) {
  daec::SourceFile file("stuck.dae", "model stuck;\nvariable x;\nequation\n  e: x = 1;\nend\n");
  EXPECT_EXIT(
      {
        daec::arm_watchdog(file.name(), 1);
        daec::enter_stage(daec::SourceLocation{&file},
                          "computing the rank of the constraints in round 1");
        for (;;) ::pause();
      },
      testing::ExitedWithCode(1),
      "^stuck\\.dae:1:1: error: time limit of 1 s exceeded while computing the rank of the "
      "constraints in round 1 \\(raise it with --time-limit\\)\n$");
}

// A checkpoint in such a stage reports at 1:1 with the source line and caret, as the error of
// running out of memory does.
TEST(LimitsWatchdog, TimeLimitInAStageOfTheWholeModelIsReportedAtItsStart) {
  daec::SourceFile file("stuck.dae", "model stuck;\nvariable x;\nequation\n  e: x = 1;\nend\n");
  daec::arm_watchdog(file.name(), 1);
  daec::enter_stage(daec::SourceLocation{&file},
                    "computing the rank of the constraints in round 1");
  daec::LimitExceeded limit(daec::current_stage_location(), daec::time_limit_message());
  daec::disarm_watchdog();
  daec::DiagnosticEngine diags;
  daec::report_limit(limit, &file, diags);
  EXPECT_EQ(
      "stuck.dae:1:1: error: time limit of 1 s exceeded while computing the rank of the "
      "constraints in round 1 (raise it with --time-limit)\n"
      "model stuck;\n"
      "^\n",
      diags.str());
}

TEST_F(Limits, BatchReportsAnExplodingModelAmongGoodOnes) {
  write("boom.dae", exploding_chain(7));
  std::string models = daec::test::source_dir() + "/models/";
  CommandResult r = daec("'" + models + "pendulum.dae' boom.dae '" + models +
                         "rlc_circuit.dae' --output-dir out --max-expression-size 1000");
  EXPECT_EQ(1, r.status);
  EXPECT_NE(std::string::npos, r.out.find("] FAILED boom.dae\n")) << r.out;
  EXPECT_NE(std::string::npos, r.out.find("converted 2 of 3 models in ")) << r.out;
  EXPECT_EQ(size_limit_error(11, "differentiating constraint " + quoted_c(3) + " in round 4",
                             "1,353", "1,000"),
            r.err);
  EXPECT_EQ((std::vector<std::string>{"pendulum.cpp", "rlc_circuit.cpp"}), files("out"));
}

TEST_F(Limits, BatchAppliesTheTimeLimitToEachModel) {
  write("boom.dae", exploding_chain(12));
  std::string models = daec::test::source_dir() + "/models/";
  CommandResult r =
      daec("boom.dae '" + models +
           "pendulum.dae' --output-dir out -j 2 --time-limit 1 --max-expression-size 0");
  EXPECT_EQ(1, r.status);
  EXPECT_NE(std::string::npos, r.out.find("] FAILED boom.dae\n")) << r.out;
  EXPECT_NE(std::string::npos, r.out.find("converted 1 of 2 models in ")) << r.out;
  // The chain runs out of time while c is differentiated or while the rank of its derivatives is
  // decided (a stage of the whole file), as the machine's speed has it.
  EXPECT_TRUE(r.err.find("boom.dae:16:3: error: time limit of 1 s exceeded while ") == 0 ||
              r.err.find("boom.dae:1:1: error: time limit of 1 s exceeded while computing the "
                         "rank of the constraints in round ") == 0)
      << r.err;
  EXPECT_EQ(std::vector<std::string>{"pendulum.cpp"}, files("out"));
}

TEST_F(Limits, SizeLimitStopsAnExplosionEarly) {
  // Without a limit this model runs for minutes and takes gigabytes (each round multiplies the
  // written-out size of c's derivative by about ten); the default limit stops it in a second,
  // in round 8, as it stops N = 8 (docs/limits.md).
  write("boom.dae", exploding_chain(12));
  CommandResult r = daec("boom.dae -o boom.cpp");
  EXPECT_EQ(1, r.status);
  EXPECT_EQ(size_limit_error(16, "differentiating constraint " + quoted_c(7) + " in round 8",
                             "3,427,395", "1,000,000"),
            r.err);
  EXPECT_EQ(std::vector<std::string>{"boom.dae"}, files());
}

TEST_F(Limits, DefaultSizeLimitStopsTheCodeOfNSeven) {
  // N = 7 reduces within the default limit (c''''''' under a million nodes written out); the
  // derivatives of c''''''' by the states, which code generation takes, are not (docs/limits.md).
  expect_stopped_at_the_jacobian(7, "", "3,427,381", "1,000,000");
}

TEST_F(Limits, DefaultsAreFarAboveEveryBundledModel) {
  // A thousandth of the default size limit is still enough for every bundled model (their
  // largest expression has 65 nodes), in both ways of handling derivatives.
  std::string all;
  for (const std::string& name : daec::test::bundled_model_files())
    all += " '" + daec::test::source_dir() + "/models/" + name + "'";
  std::string small = std::to_string(daec::kDefaultMaxExpressionSize / 1000);
  for (const char* dummies : {"auto", "never"}) {
    CommandResult r = daec(all + " --output-dir out --dummies=" + std::string(dummies) +
                           " --max-expression-size " + small);
    EXPECT_EQ(0, r.status) << dummies << "\n" << r.out << r.err;
  }
  EXPECT_EQ(0, daec(all + " --output-dir defaults").status);
}

#ifndef DAEC_SANITIZE_GENERATED  // AddressSanitizer reserves far more address space than this
TEST_F(Limits, RunningOutOfMemoryIsReportedWithTheStage) {
  // Differentiating c of a 12-state chain with no size limit: each round multiplies the terms.
  write("bomb.dae", exploding_chain(12));
  // 25 MB of address space: enough to start daec (about 15 MB), not for the derivatives. Without
  // the handler, std::bad_alloc would abort daec (status 134).
  CommandResult r = daec::test::run_command("cd '" + dir_.string() + "' && ulimit -v 25000 && '" +
                                            daec::test::daec_binary() +
                                            "' bomb.dae -o bomb.cpp --max-expression-size 0");
  EXPECT_EQ(1, r.status);
  // Where the memory runs out depends on the C library and the allocator: differentiating c, or
  // deciding the rank of the derivatives (a stage of the whole file).
  static const std::regex expected(
      "bomb\\.dae:[0-9]+:[0-9]+: error: out of memory while (differentiating constraint 'c'+'|"
      "computing the rank of the constraints) in round [0-9]+ \\(a lower --max-expression-size "
      "stops such a model sooner\\)\n[\\s\\S]*");
  EXPECT_TRUE(std::regex_match(r.err, expected)) << r.err;
  EXPECT_EQ(std::vector<std::string>{"bomb.dae"}, files());
}

// Reading an endless input with too little memory for the input size limit is an error, not an
// abort (std::bad_alloc from the growing text was status 134).
TEST_F(Limits, RunningOutOfMemoryWhileReadingIsAnError) {
  CommandResult r = daec::test::run_command("cd '" + dir_.string() + "' && ulimit -v 40000 && '" +
                                            daec::test::daec_binary() + "' - --check < /dev/zero");
  EXPECT_EQ(2, r.status);
  EXPECT_EQ("daec: error: cannot read standard input: out of memory while reading it\n", r.err);
}
#endif

TEST_F(Limits, OptionsAreValidated) {
  write("boom.dae", exploding_chain(2));
  struct Case {
    const char* arguments;
    const char* error;
  } cases[] = {
      {"--max-expression-size -1", "--max-expression-size must not be negative (0: no limit)"},
      {"--time-limit -1", "--time-limit must not be negative (0: no limit)"},
      {"--time-limit 99999999", "--time-limit must be at most 31622400 seconds (a year)"},
      {"--time-limit soon", "the argument ('soon') for option '--time-limit' is invalid"},
      {"--max-expression-size 1e6",
       "the argument ('1e6') for option '--max-expression-size' is invalid"},
  };
  for (const Case& c : cases) {
    expect_usage_error(std::string(c.arguments) + " --check boom.dae", c.error);
  }
  EXPECT_EQ(0, daec("--max-expression-size 0 --time-limit 0 --check boom.dae").status);
}

TEST_F(Limits, HelpTeachesTheLimitsAndTheirDefaults) {
  CommandResult r = daec("--help");
  std::string help = std::regex_replace(r.out, std::regex("\\s+"), " ");
  EXPECT_NE(std::string::npos, help.find("--max-expression-size N stop with an error when an "
                                         "expression grows past N nodes"));
  EXPECT_NE(std::string::npos, help.find("(default 1000000, thousands of times"));
  EXPECT_NE(std::string::npos, help.find("--time-limit SECONDS stop with an error when one model "
                                         "has taken SECONDS seconds (default 600,"));
}

// GiNaC orders the terms of sums and products by hashes of addresses, which change from run to
// run, and the order decides which sum or product carries a sign: -(a - b)*c or (b - a)*c. The
// count leaves signs out, so that a limit is decided the same way in every run.
TEST(LimitsSize, SignsAndOrderDoNotCount) {
  GiNaC::realsymbol a("a"), b("b"), c("c");
  EXPECT_EQ(daec::written_size(a, 100), daec::written_size(-a, 100));
  EXPECT_EQ(daec::written_size((b - a) * c, 100), daec::written_size(-(a - b) * c, 100));
  EXPECT_EQ(daec::written_size(2 * a - 3 * b, 100), daec::written_size(3 * b - 2 * a, 100));
  EXPECT_EQ(3u, daec::written_size(-a * b, 100));  // the product, a and b
  // Symbols made in another order hash, and so sort, differently.
  GiNaC::realsymbol z("c"), y("b"), x("a");
  GiNaC::ex e = GiNaC::exp(a - b) * (c - a) - GiNaC::pow(b - c, 3) * a;
  GiNaC::ex f = GiNaC::exp(x - y) * (z - x) - GiNaC::pow(y - z, 3) * x;
  EXPECT_EQ(daec::written_size(e.diff(a), 1000), daec::written_size(f.diff(x), 1000));
}

// The size the limit counts: the tree written out, each path anew, counted from the graph.
TEST(LimitsSize, WrittenSizeIsTheTree) {
  GiNaC::realsymbol x("x"), y("y");
  GiNaC::ex s = x + y;
  // (x + y)^2 * sin(x + y): the product; the power, x + y (x, y) and 2; the sine and x + y again.
  EXPECT_EQ(10u, daec::written_size(GiNaC::pow(s, 2) * GiNaC::sin(s), 100));          // shared
  EXPECT_EQ(10u, daec::written_size(GiNaC::pow(x + y, 2) * GiNaC::sin(y + x), 100));  // copies
  EXPECT_EQ(1u, daec::written_size(x, 0));
  EXPECT_GT(daec::written_size(GiNaC::pow(s, 2) * GiNaC::sin(s), 3), 3u);  // stops above 3
  // Nested 40 times: the tree doubles with each level, 4 * 2^40 - 3 nodes; counted from the 121
  // distinct ones, and stopped above the bound.
  GiNaC::ex nested = x;
  for (int k = 0; k < 40; ++k) nested = GiNaC::sin(nested) + GiNaC::cos(nested);
  EXPECT_EQ(4 * (size_t{1} << 40) - 3, daec::written_size(nested, SIZE_MAX));
  EXPECT_GT(daec::written_size(nested, 1000000), 1000000u);
}

TEST(LimitsSize, NumbersAreGroupedForReading) {
  EXPECT_EQ("0", daec::grouped_digits(0));
  EXPECT_EQ("999", daec::grouped_digits(999));
  EXPECT_EQ("1,000", daec::grouped_digits(1000));
  EXPECT_EQ("2,345,678", daec::grouped_digits(2345678));
}

}  // namespace
