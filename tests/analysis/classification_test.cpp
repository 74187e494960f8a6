// Tests of the classification (src/analysis/classification.cpp) and of the --check summary
// (src/report/check_summary.cpp): the differential/algebraic split and the dependency table for
// small hand-made models, and golden files for every bundled model.
//
// Golden files: tests/golden/<model>.check.txt holds format_check_summary(model, classify(model))
// for models/<model>.dae, which is what `daec models/<model>.dae --check` prints. After an
// intended change of the summary (or of a model), regenerate them and review the diff:
//   DAEC_UPDATE_GOLDEN=1 ./build/tests/daec_tests --gtest_filter='Classification.Golden*'
// The test then rewrites every golden file (and passes); without the variable it compares.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "analysis/classification.h"
#include "report/check_summary.h"
#include "test_util.h"

namespace {

using daec::Classification;
using daec::classify;
using daec::test::run;

// ---- helpers ----

struct Classified {
  std::unique_ptr<daec::test::FrontendRun> run;
  Classification classification;
  const daec::Model& model() const { return *run->model; }
};

Classified classify_text(const std::string& text) {
  Classified result{run(text), {}};
  EXPECT_TRUE(result.run->model) << result.run->diagnostics();
  if (result.run->model) result.classification = classify(*result.run->model);
  return result;
}

std::vector<std::string> names_of(const daec::Model& model, const std::vector<size_t>& indices) {
  std::vector<std::string> names;
  for (size_t i : indices) names.push_back(model.variables.at(i).name);
  return names;
}

std::vector<std::string> column_names(const Classification& c) {
  std::vector<std::string> names;
  for (const daec::DependencyColumn& column : c.columns) names.push_back(column.name);
  return names;
}

// A dependency row as a string of 0 and 1, one per column.
std::string row_bits(const Classification& c, size_t r) {
  std::string bits;
  for (size_t k = 0; k < c.columns.size(); ++k) bits += c.rows[r].contains(k) ? '1' : '0';
  return bits;
}

// The columns a row contains, by name.
std::vector<std::string> row_names(const Classification& c, const std::string& label) {
  std::vector<std::string> names;
  for (const daec::DependencyRow& row : c.rows) {
    if (row.label != label) continue;
    for (size_t k : row.columns) names.push_back(c.columns[k].name);
    return names;
  }
  ADD_FAILURE() << "no row labelled " << label;
  return names;
}

using Names = std::vector<std::string>;

// ---- hand-made models ----

TEST(Classification, PendulumSplitAndTable) {
  Classified c = classify_text(
      "model p;\n"
      "parameter g = 9.81;\n"
      "variable x, y, u, v, lambda;\n"
      "equation\n"
      "  x' = u;\n"
      "  y' = v;\n"
      "  u' = -lambda*x;\n"
      "  v' = -lambda*y - g;\n"
      "  rod: x^2 + y^2 = 1;\n"
      "end\n");
  ASSERT_TRUE(c.run->model);
  EXPECT_EQ((Names{"x", "y", "u", "v"}), names_of(c.model(), c.classification.differential));
  EXPECT_EQ((Names{"lambda"}), names_of(c.model(), c.classification.algebraic));
  EXPECT_EQ((Names{"x", "x'", "y", "y'", "u", "u'", "v", "v'", "lambda"}),
            column_names(c.classification));
  ASSERT_EQ(5u, c.classification.rows.size());
  const char* expected[][2] = {{"eq1", "010010000"},
                               {"eq2", "000100100"},
                               {"eq3", "100001001"},
                               {"eq4", "001000011"},
                               {"rod", "101000000"}};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(expected[i][0], c.classification.rows[i].label);
    EXPECT_EQ(expected[i][1], row_bits(c.classification, i)) << expected[i][0];
  }
}

TEST(Classification, ColumnsFollowDeclarationOrderNotEquationOrder) {
  Classified c = classify_text(
      "model m;\n"
      "variable z, b, a;\n"
      "equation\n"
      "  a' = b;\n"
      "  b' = z;\n"
      "  z = a;\n"
      "end\n");
  ASSERT_TRUE(c.run->model);
  EXPECT_EQ((Names{"z", "b", "b'", "a", "a'"}), column_names(c.classification));
  EXPECT_EQ((Names{"b", "a"}), names_of(c.model(), c.classification.differential));
  EXPECT_EQ((Names{"z"}), names_of(c.model(), c.classification.algebraic));
}

TEST(Classification, AllAlgebraic) {
  Classified c = classify_text(
      "model m;\n"
      "variable x, y;\n"
      "equation\n"
      "  x + y = t;\n"
      "  x - y = 1;\n"
      "end\n");
  ASSERT_TRUE(c.run->model);
  EXPECT_TRUE(c.classification.differential.empty());
  EXPECT_EQ((Names{"x", "y"}), names_of(c.model(), c.classification.algebraic));
  EXPECT_EQ((Names{"x", "y"}), column_names(c.classification));
  EXPECT_EQ("11", row_bits(c.classification, 0));
  EXPECT_EQ("11", row_bits(c.classification, 1));
}

TEST(Classification, SecondDerivativeGivesAllLowerColumns) {
  Classified c = classify_text(
      "model m;\n"
      "parameter k = 4;\n"
      "variable x, f;\n"
      "equation\n"
      "  x'' = -k*x + f;\n"
      "  force: f = sin(t);\n"
      "end\n");
  ASSERT_TRUE(c.run->model);
  EXPECT_EQ((Names{"x", "x'", "x''", "f"}), column_names(c.classification));
  EXPECT_EQ((Names{"x"}), names_of(c.model(), c.classification.differential));
  EXPECT_EQ((Names{"f"}), names_of(c.model(), c.classification.algebraic));
  // x' itself appears nowhere, but it has a column: x'' is its derivative.
  EXPECT_EQ((Names{"x", "x''", "f"}), row_names(c.classification, "eq1"));
  EXPECT_EQ((Names{"f"}), row_names(c.classification, "force"));
  const daec::DependencyColumn& second = c.classification.columns[2];
  EXPECT_EQ(0u, second.variable);
  EXPECT_EQ(2, second.order);
}

TEST(Classification, DerOperatorAndPrimeAgree) {
  Classified c = classify_text(
      "model m;\n"
      "variable x, y;\n"
      "equation\n"
      "  der(x) = y;\n"
      "  der(y, 2) + x' = -x;\n"
      "end\n");
  ASSERT_TRUE(c.run->model);
  EXPECT_EQ((Names{"x", "x'", "y", "y'", "y''"}), column_names(c.classification));
  EXPECT_EQ((Names{"x'", "y"}), row_names(c.classification, "eq1"));
  EXPECT_EQ((Names{"x", "x'", "y''"}), row_names(c.classification, "eq2"));
  EXPECT_EQ((Names{"x", "y"}), names_of(c.model(), c.classification.differential));
}

TEST(Classification, DerivativeThatCancelsMakesNoDifferentialVariable) {
  // x' cancels after simplification: x is algebraic, and there is no x' column.
  Classified c = classify_text(
      "model m;\n"
      "variable x, y;\n"
      "equation\n"
      "  x' + y = x' + 2*t;\n"
      "  x = y^2;\n"
      "end\n");
  ASSERT_TRUE(c.run->model);
  EXPECT_TRUE(c.classification.differential.empty());
  EXPECT_EQ((Names{"x", "y"}), names_of(c.model(), c.classification.algebraic));
  EXPECT_EQ((Names{"x", "y"}), column_names(c.classification));
  EXPECT_EQ((Names{"y"}), row_names(c.classification, "eq1"));
}

TEST(Classification, ParametersAndTimeAreNotColumns) {
  Classified c = classify_text(
      "model m;\n"
      "parameter a = 2, b = a^2;\n"
      "variable x;\n"
      "output twice = 2*x;\n"
      "equation\n"
      "  x' = a*x + b*t;\n"
      "end\n");
  ASSERT_TRUE(c.run->model);
  EXPECT_EQ((Names{"x", "x'"}), column_names(c.classification));
  EXPECT_EQ("11", row_bits(c.classification, 0));
}

TEST(Classification, RowsAreInSourceOrderWithLabels) {
  Classified c = classify_text(
      "model m;\n"
      "variable p, q, r;\n"
      "equation\n"
      "  first: p = 1;\n"
      "  q = p;\n"
      "  last: r' = q;\n"
      "end\n");
  ASSERT_TRUE(c.run->model);
  ASSERT_EQ(3u, c.classification.rows.size());
  EXPECT_EQ("first", c.classification.rows[0].label);
  EXPECT_EQ("eq2", c.classification.rows[1].label);
  EXPECT_EQ("last", c.classification.rows[2].label);
  for (const daec::DependencyRow& row : c.classification.rows) {
    EXPECT_TRUE(std::is_sorted(row.columns.begin(), row.columns.end()));
    EXPECT_LT(row.columns.back(), c.classification.columns.size());
  }
}

TEST(Classification, VariableInsideFunctionCounts) {
  Classified c = classify_text(
      "model m;\n"
      "variable x, y;\n"
      "equation\n"
      "  x' = exp(-y^2);\n"
      "  atan2(y, x) = t;\n"
      "end\n");
  ASSERT_TRUE(c.run->model);
  EXPECT_EQ((Names{"x'", "y"}), row_names(c.classification, "eq1"));
  EXPECT_EQ((Names{"x", "y"}), row_names(c.classification, "eq2"));
}

TEST(Classification, SummaryNamesCountsAndTable) {
  Classified c = classify_text(
      "model tiny \"A tiny model\";\n"
      "parameter k = 10 \"rate\";\n"
      "variable x(start = 1), z;\n"
      "output double_x = 2*x;\n"
      "equation\n"
      "  x' = -k*x + z;\n"
      "  algebraic_constraint: z = t;\n"
      "end\n");
  ASSERT_TRUE(c.run->model);
  EXPECT_EQ(
      "model tiny \"A tiny model\": 2 variables, 2 equations, 1 parameter, 1 output\n"
      "  differential variables (1): x\n"
      "  algebraic variables (1): z\n"
      "  parameters: k = 10\n"
      "  outputs: double_x\n"
      "\n"
      "equations:\n"
      "  eq1: x' = z - k*x\n"
      "  algebraic_constraint: z = t\n"
      "\n"
      "dependency table (1: the equation contains the unknown or derivative):\n"
      "  equation             | x x' z\n"
      "  ---------------------+-------\n"
      "  eq1                  | 1 1  1\n"
      "  algebraic_constraint | 0 0  1\n",
      daec::format_check_summary(c.model(), c.classification));
}

TEST(Classification, SummaryLeavesOutALargeDependencyTable) {
  // 24 pendulums of 5 variables: 120 equations x 216 columns (x, x', y, y', u, u', v, v' and z
  // of each), more than 10,000 cells, so a note stands for the table.
  std::string text = "model big;\n";
  for (int i = 1; i <= 24; ++i) {
    text += "variable x" + std::to_string(i) + ", y" + std::to_string(i) + ", u" +
            std::to_string(i) + ", v" + std::to_string(i) + ", z" + std::to_string(i) + ";\n";
  }
  text += "equation\n";
  for (int i = 1; i <= 24; ++i) {
    std::string k = std::to_string(i);
    text += "  x" + k + "' = u" + k + ";\n  y" + k + "' = v" + k + ";\n  u" + k + "' = -z" + k +
            "*x" + k + ";\n  v" + k + "' = -z" + k + "*y" + k + " - 1;\n  x" + k + "^2 + y" + k +
            "^2 = 1;\n";
  }
  Classified c = classify_text(text + "end\n");
  ASSERT_TRUE(c.run->model);
  std::string summary = daec::format_check_summary(c.model(), c.classification);
  EXPECT_NE(std::string::npos,
            summary.find("\ndependency table: 120 equations × 216 unknowns and derivatives, left "
                         "out (more than 10,000 cells; daec --report-json lists each round's "
                         "table row by row)\n"))
      << summary;
  EXPECT_EQ(std::string::npos, summary.find(" | "));
}

TEST(Classification, SummaryQuotesTheDescriptionAsTheModelFileDoes) {
  Classified c = classify_text(
      "model q \"say \\\"hi\\\" \\\\ bye\";\n"
      "variable x;\n"
      "equation\n"
      "  x = 1;\n"
      "end\n");
  ASSERT_TRUE(c.run->model);
  std::string summary = daec::format_check_summary(c.model(), c.classification);
  EXPECT_EQ(
      "model q \"say \\\"hi\\\" \\\\ bye\": 1 variable, 1 equation, 0 parameters, 0 outputs\n",
      summary.substr(0, summary.find('\n') + 1));
}

TEST(Classification, ShortestDouble) {
  EXPECT_EQ("0", daec::shortest_double(0));
  EXPECT_EQ("1", daec::shortest_double(1));
  EXPECT_EQ("10", daec::shortest_double(10));
  EXPECT_EQ("-2.5", daec::shortest_double(-2.5));
  EXPECT_EQ("9.81", daec::shortest_double(9.81));
  EXPECT_EQ("0.1", daec::shortest_double(0.1));
  EXPECT_EQ("0.0001", daec::shortest_double(1e-4));
  EXPECT_EQ("1e-07", daec::shortest_double(1e-7));
  EXPECT_EQ("1000000", daec::shortest_double(1e6));
  EXPECT_EQ("1e+20", daec::shortest_double(1e20));
  EXPECT_EQ("314.1592653589793", daec::shortest_double(100 * 3.141592653589793));
  EXPECT_EQ("0.3333333333333333", daec::shortest_double(1.0 / 3));
  EXPECT_EQ("123456789012", daec::shortest_double(123456789012.0));
  EXPECT_EQ("1.2345678901234568e+17", daec::shortest_double(123456789012345678.0));
  EXPECT_EQ("5e-324", daec::shortest_double(5e-324));
  EXPECT_EQ("1.7976931348623157e+308", daec::shortest_double(1.7976931348623157e308));
  for (double value : {0.1, 2.0 / 3, 6.02e23, 1e-300, 12345.678, -0.000123456789}) {
    EXPECT_EQ(value, std::strtod(daec::shortest_double(value).c_str(), nullptr)) << value;
  }
}

// ---- bundled models ----

std::vector<std::string> bundled_model_stems() {
  std::vector<std::string> stems;
  for (const auto& entry :
       std::filesystem::directory_iterator(daec::test::source_dir() + "/models")) {
    if (entry.path().extension() == ".dae") stems.push_back(entry.path().stem().string());
  }
  std::sort(stems.begin(), stems.end());
  return stems;
}

std::string check_summary_of_bundled(const std::string& stem, Classified& out) {
  std::string path = "models/" + stem + ".dae";
  out.run = run(daec::test::read_source_file(path), path);
  if (!out.run->model) {
    ADD_FAILURE() << path << " does not pass the front end:\n" << out.run->diagnostics();
    return {};
  }
  out.classification = classify(*out.run->model);
  return daec::format_check_summary(*out.run->model, out.classification);
}

bool updating_golden_files() {
  const char* update = std::getenv("DAEC_UPDATE_GOLDEN");
  return update && std::string(update) == "1";
}

TEST(Classification, GoldenCheckSummaries) {
  std::vector<std::string> stems = bundled_model_stems();
  ASSERT_FALSE(stems.empty());
  for (const std::string& stem : stems) {
    SCOPED_TRACE("models/" + stem + ".dae");
    Classified c;
    std::string summary = check_summary_of_bundled(stem, c);
    if (summary.empty()) continue;
    std::string golden = "tests/golden/" + stem + ".check.txt";
    if (updating_golden_files()) {
      std::ofstream(daec::test::source_dir() + "/" + golden, std::ios::binary) << summary;
      continue;
    }
    std::string expected;
    try {
      expected = daec::test::read_source_file(golden);
    } catch (const std::exception&) {
      ADD_FAILURE() << golden << " is missing; create it with DAEC_UPDATE_GOLDEN=1";
      continue;
    }
    EXPECT_EQ(expected, summary) << "to accept the new summary: DAEC_UPDATE_GOLDEN=1";
  }
}

TEST(Classification, GoldenFilesAllHaveAModel) {
  std::vector<std::string> stems = bundled_model_stems();
  for (const auto& entry :
       std::filesystem::directory_iterator(daec::test::source_dir() + "/tests/golden")) {
    std::string name = entry.path().filename().string();
    const std::string suffix = ".check.txt";
    if (name.size() <= suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
      continue;
    }
    std::string stem = name.substr(0, name.size() - suffix.size());
    EXPECT_NE(stems.end(), std::find(stems.begin(), stems.end(), stem))
        << "tests/golden/" << name << " has no models/" << stem << ".dae";
  }
}

// Whether daec's stderr holds an error or warning (a sanitizer build may add its own notes).
bool has_diagnostics(const std::string& err) {
  return err.find("error:") != std::string::npos || err.find("warning:") != std::string::npos;
}

TEST(Classification, GoldenSummaryIsWhatDaecCheckPrints) {
  // The golden text is the --check summary; the binary prints exactly it for one model.
  for (const std::string& stem : {std::string("pendulum"), std::string("coupled_pendulums")}) {
    Classified c;
    std::string summary = check_summary_of_bundled(stem, c);
    daec::test::CommandResult result =
        daec::test::run_command("'" + daec::test::daec_binary() + "' '" + daec::test::source_dir() +
                                "/models/" + stem + ".dae' --check");
    EXPECT_EQ(0, result.status) << result.err;
    EXPECT_FALSE(has_diagnostics(result.err)) << result.err;
    EXPECT_EQ(summary, result.out.substr(0, summary.size())) << stem;
  }
}

TEST(Classification, EveryBundledModelPassesDaecCheck) {
  for (const std::string& stem : bundled_model_stems()) {
    daec::test::CommandResult result =
        daec::test::run_command("'" + daec::test::daec_binary() + "' '" + daec::test::source_dir() +
                                "/models/" + stem + ".dae' --check");
    EXPECT_EQ(0, result.status) << stem << ":\n" << result.err;
    EXPECT_FALSE(has_diagnostics(result.err)) << stem << ":\n" << result.err;
  }
}

TEST(Classification, CheckOutputIsTheSameOnEveryRun) {
  // GiNaC's operand order changes from process to process (it hashes type_info addresses, which
  // move with address-space randomisation); the printed summary must not.
  for (const char* stem : {"coupled_pendulums", "double_pendulum", "ascher_petzold"}) {
    std::set<std::string> outputs;
    for (int i = 0; i < 6; ++i) {
      outputs.insert(daec::test::run_command("'" + daec::test::daec_binary() + "' '" +
                                             daec::test::source_dir() + "/models/" + stem +
                                             ".dae' --check")
                         .out);
    }
    EXPECT_EQ(1u, outputs.size()) << stem;
  }
}

TEST(Classification, CoupledPendulumsMatchSeedTables) {
  // The coupled pendulums of docs/method.md: x1..v2 differential, lambda1..3 algebraic, and the
  // first dependency table: the three constraints contain positions only, no multiplier (all zeros
  // against the lambdas).
  Classified c;
  ASSERT_FALSE(check_summary_of_bundled("coupled_pendulums", c).empty());
  EXPECT_EQ((Names{"x1", "y1", "x2", "y2", "u1", "v1", "u2", "v2"}),
            names_of(c.model(), c.classification.differential));
  EXPECT_EQ((Names{"lambda1", "lambda2", "lambda3"}),
            names_of(c.model(), c.classification.algebraic));
  EXPECT_EQ((Names{"x1", "y1"}), row_names(c.classification, "constraint1"));
  EXPECT_EQ((Names{"x2", "y2"}), row_names(c.classification, "constraint2"));
  EXPECT_EQ((Names{"x1", "y1", "x2", "y2"}), row_names(c.classification, "constraint3"));
  // The equations of motion hold the multipliers of the constraints on their mass.
  EXPECT_EQ((Names{"x1", "x2", "u1'", "lambda1", "lambda3"}), row_names(c.classification, "eq5"));
  EXPECT_EQ((Names{"y1", "y2", "v2'", "lambda2", "lambda3"}), row_names(c.classification, "eq8"));
}

TEST(Classification, SeedExample121) {
  Classified c;
  ASSERT_FALSE(check_summary_of_bundled("example_12_1", c).empty());
  EXPECT_EQ((Names{"x", "y", "u", "v"}), names_of(c.model(), c.classification.differential));
  EXPECT_EQ((Names{"lambda"}), names_of(c.model(), c.classification.algebraic));
  EXPECT_EQ((Names{"x", "u'", "v'", "lambda"}), row_names(c.classification, "eq3"));
  EXPECT_EQ((Names{"u'", "v'", "lambda"}), row_names(c.classification, "eq4"));
  EXPECT_EQ((Names{"x", "y"}), row_names(c.classification, "constraint"));
}

// ---- conditions ----

// The dependency table shows what an equation can be solved for: the unknowns of its branches,
// not those only in its conditions (their derivative is 0).
TEST(Classification, UnknownsOnlyInConditionsAreNotContained) {
  Classified c = classify_text(
      "model m;\n"
      "variable x, y, z;\n"
      "equation\n"
      "  x' = -x;\n"
      "  gate: y = if x > 0 and z < 1 then 1 else 2;\n"
      "  mix: z = if t > 1 then x else y;\n"
      "end\n");
  EXPECT_EQ((Names{"y"}), row_names(c.classification, "gate"));
  EXPECT_EQ((Names{"x", "y", "z"}), row_names(c.classification, "mix"));
}

// ---- the index-K chain at every size ----

// models/index_chain.dae with -D K=k: the same dependency structure as the chains the shell
// generator used to write, x[1] = sin(t) and x[i]' = x[i+1].
TEST(Classification, IndexChainAtEverySize) {
  std::string text = daec::test::read_source_file("models/index_chain.dae");
  for (int k : {1, 2, 4, 9, 12}) {
    SCOPED_TRACE("K = " + std::to_string(k));
    daec::FlattenOptions options;
    options.defines = {{"K", std::to_string(k)}};
    Classified c{run(text, "index_chain.dae", options), {}};
    ASSERT_TRUE(c.run->model) << c.run->diagnostics();
    c.classification = classify(c.model());
    ASSERT_EQ(static_cast<size_t>(k), c.model().variables.size());
    Names differential, algebraic;
    for (int i = 1; i <= k; ++i) {
      (i < k ? differential : algebraic).push_back("x[" + std::to_string(i) + "]");
    }
    EXPECT_EQ(differential, names_of(c.model(), c.classification.differential));
    EXPECT_EQ(algebraic, names_of(c.model(), c.classification.algebraic));
    EXPECT_EQ((Names{"x[1]"}), row_names(c.classification, "source"));
    if (k >= 2) {
      EXPECT_EQ((Names{"x[1]'", "x[2]"}), row_names(c.classification, "link[1]"));
    }
  }
}

}  // namespace

// The dependency table of n equations in n unknowns has n^2 cells but about n entries: it is kept
// sparse, so that --check costs what the rest of the pipeline does (a dense table made it
// quadratic: 200,000 equations did not finish in minutes). bench/check_cost.sh measures the
// large sizes; here 3,000 equations, each row holding its own two columns.
TEST(Classification, DependencyRowsAreSparse) {
  Classified c = classify_text(
      "model many;\nparameter N = 3000;\nvariable x[N](start = 1), y[N];\nequation\n"
      "  for i in 1:N loop\n    x[i]' = -y[i];\n    y[i] = 2*x[i];\n  end for;\nend\n");
  ASSERT_EQ(6000u, c.classification.rows.size());
  ASSERT_EQ(9000u, c.classification.columns.size());  // x, x' and y
  for (const daec::DependencyRow& row : c.classification.rows) {
    ASSERT_EQ(2u, row.columns.size()) << row.label;
    EXPECT_TRUE(row.contains(row.columns[0]) && row.contains(row.columns[1])) << row.label;
  }
  EXPECT_EQ((std::vector<std::string>{"x[1]'", "y[1]"}), row_names(c.classification, "eq1[1]"));
}
