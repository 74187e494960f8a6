// The work counters (src/support/work_counters.h) and the guard they make: each stage's counts
// on families of models of N and 8 N elements must grow at most as N^1.15 (bench/SCALE.md), so
// that a step that turns quadratic fails here the day it is written. Counts, not seconds: they
// are the same on every machine and under any load.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "driver/options.h"
#include "driver/process_model.h"
#include "model/expression_walk.h"
#include "model/functions.h"
#include "model/model.h"
#include "support/source.h"
#include "support/work_counters.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using daec::WorkCounts;
using daec::WorkKind;
using daec::WorkStage;

TEST(WorkCounters, ChargedToTheStageInScope) {
  daec::reset_work_counts();
  daec::count_work(WorkKind::Nodes, 2);
  {
    daec::WorkStageScope reduction(WorkStage::Reduction);
    daec::count_work(WorkKind::Nodes, 5);
    {
      daec::WorkStageScope index(WorkStage::Index);
      daec::count_work(WorkKind::Entries, 3);
    }
    daec::count_work(WorkKind::Entries);
  }
  WorkCounts counts = daec::work_counts();
  auto at = [&](WorkStage s, WorkKind k) {
    return counts[static_cast<size_t>(s)][static_cast<size_t>(k)];
  };
  EXPECT_EQ(2u, at(WorkStage::Other, WorkKind::Nodes));
  EXPECT_EQ(5u, at(WorkStage::Reduction, WorkKind::Nodes));
  EXPECT_EQ(1u, at(WorkStage::Reduction, WorkKind::Entries));
  EXPECT_EQ(3u, at(WorkStage::Index, WorkKind::Entries));
  EXPECT_EQ(0u, at(WorkStage::Index, WorkKind::Nodes));
  std::string text = daec::format_work_counts(counts);
  EXPECT_NE(std::string::npos, text.find("work: reduction: 5 nodes, 1 entries, ")) << text;
  EXPECT_EQ(std::string::npos, text.find("code generation")) << text;
  daec::reset_work_counts();
  EXPECT_EQ(0u, daec::work_counts()[static_cast<size_t>(WorkStage::Reduction)][0]);
}

TEST(WorkCounters, AllocationsCounted) {
  if (!daec::allocation_counting()) GTEST_SKIP() << "the sanitizers count allocations themselves";
  daec::reset_work_counts();
  { std::vector<int> v(100); }
  EXPECT_GE(daec::work_counts()[0][static_cast<size_t>(WorkKind::Allocations)], 1u);
}

// o1 = x, o_k = o_{k-1}*(o_{k-1} + 1): a graph of a few nodes a level, a tree that doubles with
// each.
GiNaC::ex doubling_chain(const GiNaC::symbol& x, int levels) {
  GiNaC::ex o = x;
  for (int k = 1; k < levels; ++k) o = o * (o + 1);
  return o;
}

TEST(ExpressionWalk, EachNodeOnce) {
  GiNaC::symbol x("x");
  GiNaC::ex o = doubling_chain(x, 24);  // 2^24 paths (GiNaC itself walks some of them)
  size_t nodes = 0, symbols = 0;
  daec::for_each_node(o, [&](const GiNaC::basic& node) {
    ++nodes;
    if (GiNaC::is_a<GiNaC::symbol>(node)) ++symbols;
    return true;
  });
  EXPECT_EQ(1u, symbols);
  EXPECT_LE(nodes, 4u * 24);
  EXPECT_TRUE(daec::symbols_in(o).count(x));
}

TEST(ExpressionExtent, DepthAndTree) {
  GiNaC::symbol x("x");
  daec::ExpressionExtent extents;
  EXPECT_EQ(1u, extents.of(x).depth);
  ASSERT_TRUE(daec::find_function("sin"));  // GiNaC told that functions commute (functions.cpp)
  GiNaC::ex o = x;
  for (int k = 0; k < 30000; ++k) o = GiNaC::sin(o);  // deeper than any recursion may go
  daec::ExpressionExtent::Extent deep = extents.of(o);
  EXPECT_EQ(30001u, deep.depth);
  EXPECT_EQ(30001u, deep.tree);
  // Written out, the doubling chain's tree doubles with each level.
  daec::ExpressionExtent::Extent doubling = extents.of(doubling_chain(x, 24));
  EXPECT_GE(doubling.depth, 24u);
  EXPECT_GT(doubling.tree, uint64_t{1} << 23);
  EXPECT_LT(extents.of(doubling_chain(x, 3)).tree, 20u);
}

// ---- the growth guard ----

std::string chain_by_bodies(int n) {
  // bench/ordering/write_model.py's `bodies` form of models/pendulum_chain.dae.
  std::string text = "model chain_bodies;\nparameter m = 1, L = 1, g = 9.81;\n";
  std::string equations;
  for (int i = 1; i <= n; ++i) {
    text += fmt::format(
        "variable x{0}(start = {0}), y{0}(start = 0), u{0}(start = 0), v{0}(start = 0), "
        "l{0}(start = 0);\n",
        i);
    std::string px = i == 1 ? "0" : fmt::format("x{}", i - 1);
    std::string py = i == 1 ? "0" : fmt::format("y{}", i - 1);
    std::string nx = i < n ? fmt::format(" + l{0}*(x{0} - x{1})", i + 1, i) : "";
    std::string ny = i < n ? fmt::format(" + l{0}*(y{0} - y{1})", i + 1, i) : "";
    equations += fmt::format(
        "  x{0}' = u{0};\n  y{0}' = v{0};\n  u{0}' = (-l{0}*(x{0} - {1}){2})/m;\n"
        "  v{0}' = (-l{0}*(y{0} - {3}){4})/m - g;\n  rod{0}: (x{0} - {1})^2 + (y{0} - {3})^2 = "
        "L^2;\n",
        i, px, nx, py, ny);
  }
  return text + "equation\n" + equations + "end chain_bodies;\n";
}

std::string sine_outputs(int n) {
  std::string text = "model sines;\nvariable x(start = 1);\noutput o1 = x";
  for (int i = 2; i <= n; ++i) text += fmt::format(", o{} = sin(o{})", i, i - 1);
  return text + ";\nequation\n  x' = -x;\nend sines;\n";
}

std::string chained_parameters(int n) {
  std::string text = "model parameters;\nparameter p1 = 1";
  for (int i = 2; i <= n; ++i) text += fmt::format(", p{} = p{} + 1", i, i - 1);
  return text +
         fmt::format(";\nvariable x(start = 1);\nequation\n  x' = -p{}*x;\nend parameters;\n", n);
}

struct Family {
  const char* name;
  std::string (*text)(int n);  ///< the model of size n, or nullptr: `file` with -D N=n
  const char* file;
  int n;            ///< the smaller size (the larger is 8 n)
  bool code;        ///< generate code too (else --check only)
  double exponent;  ///< the largest growth exponent allowed
};

WorkCounts counts_of(const Family& family, int n, const fs::path& dir) {
  std::string text = family.text ? family.text(n) : daec::test::read_source_file(family.file);
  daec::SourceFile file(std::string(family.name) + ".dae", text);
  std::vector<std::string> args{"daec", "model.dae"};
  if (!family.text) args.push_back(fmt::format("-DN={}", n));
  if (family.code) {
    args.push_back("-o");
    args.push_back((dir / "model.cpp").string());
  } else {
    args.push_back("--check");
  }
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::string error;
  std::optional<daec::Options> options =
      daec::parse_options(static_cast<int>(argv.size()), argv.data(), error);
  EXPECT_TRUE(options) << error;
  std::ostringstream out, err;
  EXPECT_TRUE(daec::process_model(file, *options, out, err)) << err.str();
  return daec::work_counts();  // process_model counts from its start
}

// One family: every count of every stage at n and 8 n, their growth exponent at most the
// family's. Counts below a floor are constant work (a few allocations outside the stages) and
// are not fitted.
void expect_linear(const Family& family) {
  fs::path dir =
      fs::temp_directory_path() / fmt::format("daec_work_{}_{}", family.name, ::getpid());
  fs::create_directories(dir);
  WorkCounts small = counts_of(family, family.n, dir);
  WorkCounts large = counts_of(family, 8 * family.n, dir);
  fs::remove_all(dir);
  for (size_t s = 0; s < daec::kWorkStages; ++s) {
    for (size_t k = 0; k < daec::kWorkKinds; ++k) {
      if (large[s][k] < 1000) continue;
      double exponent = std::log(static_cast<double>(large[s][k]) /
                                 std::max<double>(1.0, static_cast<double>(small[s][k]))) /
                        std::log(8.0);
      EXPECT_LE(exponent, family.exponent)
          << family.name << ", " << daec::work_stage_name(static_cast<WorkStage>(s)) << ", "
          << daec::work_kind_name(static_cast<WorkKind>(k)) << ": " << small[s][k]
          << " at N = " << family.n << ", " << large[s][k] << " at N = " << 8 * family.n;
    }
  }
}

// The chain from 64 links: below 256 scalar variables (51 links) daec keeps the declaration order
// and numbers the model by its structure only above (bench/ordering/README.md), a step of work
// that is not growth.
TEST(WorkGrowth, ChainAsArrays) {
  expect_linear({"chain", nullptr, "models/pendulum_chain.dae", 64, false, 1.15});
}

TEST(WorkGrowth, ChainBodyByBody) {
  expect_linear({"chain_bodies", chain_by_bodies, nullptr, 64, false, 1.15});
}

TEST(WorkGrowth, ChainCode) {
  expect_linear({"chain_code", nullptr, "models/pendulum_chain.dae", 64, true, 1.15});
}

TEST(WorkGrowth, ReactionDiffusion) {
  expect_linear({"rd", nullptr, "models/reaction_diffusion.dae", 200, false, 1.15});
}

TEST(WorkGrowth, ReactionDiffusionCode) {
  expect_linear({"rd_code", nullptr, "models/reaction_diffusion.dae", 100, true, 1.15});
}

TEST(WorkGrowth, OutputChain) {
  expect_linear({"sines", sine_outputs, nullptr, 1000, true, 1.05});
}

TEST(WorkGrowth, ParameterChain) {
  expect_linear({"parameters", chained_parameters, nullptr, 1000, false, 1.05});
}

// The code of the chain: the parameter Jacobian's tables once held every pair of parameters one
// follows (N^2 / 2), and each binding's code a copy of every parameter's name.
TEST(WorkGrowth, ParameterChainCode) {
  expect_linear({"parameters_code", chained_parameters, nullptr, 250, true, 1.05});
}

// ---- outputs past the limits of docs/limits.md ("Outputs") ----

std::string doubling_outputs(int n) {
  std::string text = "model doubling;\nvariable x(start = 1);\noutput o1 = x";
  for (int i = 2; i <= n; ++i) text += fmt::format(", o{0} = o{1}*(o{1} + 1)", i, i - 1);
  return text + ";\nequation\n  x' = -x;\nend doubling;\n";
}

// The model's error output with `--check`.
std::string check_errors(const std::string& name, const std::string& text) {
  daec::SourceFile file(name, text);
  const char* argv[] = {"daec", "model.dae", "--check"};
  std::string error;
  std::optional<daec::Options> options = daec::parse_options(3, argv, error);
  EXPECT_TRUE(options) << error;
  std::ostringstream out, err;
  EXPECT_FALSE(daec::process_model(file, *options, out, err)) << out.str();
  return err.str();
}

TEST(OutputLimits, TooDeepIsALocatedError) {
  // 30,000 outputs each the sine of the last: the first past 20,000 levels is the error, at its
  // declaration, before anything recurses through it.
  std::string err = check_errors("sines.dae", sine_outputs(30000));
  EXPECT_EQ(0u, err.find("sines.dae:3:")) << err.substr(0, 300);
  EXPECT_NE(std::string::npos,
            err.find("error: output 'o20001' nests its expression 20,001 levels deep, past the "
                     "limit of 20,000 (see docs/limits.md)"))
      << err.substr(0, 300);
}

TEST(OutputLimits, TooLargeWrittenOutIsALocatedError) {
  std::string err = check_errors("doubling.dae", doubling_outputs(10000));
  EXPECT_EQ(0u, err.find("doubling.dae:3:")) << err.substr(0, 300);
  EXPECT_NE(std::string::npos, err.find("error: output 'o27' written out has "))
      << err.substr(0, 300);
  EXPECT_NE(std::string::npos,
            err.find("nodes, past the limit of 100,000,000 (see docs/limits.md)"))
      << err.substr(0, 300);
}

TEST(OutputLimits, WithinTheLimitsCompiles) {
  daec::SourceFile file("doubling.dae", doubling_outputs(20));
  const char* argv[] = {"daec", "model.dae", "--check"};
  std::string error;
  std::optional<daec::Options> options = daec::parse_options(3, argv, error);
  ASSERT_TRUE(options) << error;
  std::ostringstream out, err;
  EXPECT_TRUE(daec::process_model(file, *options, out, err)) << err.str();
}

}  // namespace
