// Tests of the flattening stage (src/frontend/flatten.cpp): arrays become their elements x[1] ...,
// loops their iterations, unlabelled equations of loops eqN[i]; sizes, ranges, array values,
// labels, -D and the element budget, with every diagnostic by its exact text; and the array
// form of the bundled chain and Fekete models generates the same code as their scalar form.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <regex>
#include <string>
#include <vector>

#include "codegen/generate.h"
#include "model/expression_printer.h"
#include "reduction/pipeline.h"
#include "test_util.h"

namespace daec {
namespace {

using test::run;

std::string diagnostics_of(const std::string& text, const FlattenOptions& options = {}) {
  return run(text, "test.dae", options)->diagnostics();
}

template <typename Item>
std::vector<std::string> names(const std::vector<Item>& items) {
  std::vector<std::string> out;
  for (const Item& item : items) out.push_back(item.name);
  return out;
}

std::vector<std::string> labels(const Model& model) {
  std::vector<std::string> out;
  for (const Equation& e : model.equations) out.push_back(e.label);
  return out;
}

using Names = std::vector<std::string>;

// ---- elements ----

TEST(Flatten, ArraysBecomeTheirElementsInDeclarationOrder) {
  auto result = run(
      "model m;\n"
      "parameter N = 2, w[3] = {0.5, 1, 2} \"weights\";\n"
      "variable x[N](start = {i for i in 1:N}, fixed = true), A[2, 2](start = {{1, 2}, {3, 4}});\n"
      "output o[N] = {x[i]^2 for i in 1:N};\n"
      "equation\n"
      "  for i in 1:N loop\n"
      "    x[i] = w[i]*t;\n"
      "    for j in 1:2 loop\n"
      "      A[i, j] = i + j*t;\n"
      "    end for;\n"
      "  end for;\n"
      "end\n");
  ASSERT_TRUE(result->model) << result->diagnostics();
  const Model& model = *result->model;
  EXPECT_EQ(names(model.parameters), (Names{"w[1]", "w[2]", "w[3]"}));
  EXPECT_EQ(model.parameters[2].value, 2);
  EXPECT_EQ(model.parameters[2].description, "weights");
  EXPECT_EQ(model.parameters[1].element.index, (std::vector<long>{2}));
  EXPECT_EQ(names(model.variables),
            (Names{"x[1]", "x[2]", "A[1,1]", "A[1,2]", "A[2,1]", "A[2,2]"}));
  EXPECT_EQ(to_dae(model.variables[1].start), "2");
  EXPECT_TRUE(model.variables[1].fixed);
  EXPECT_EQ(to_dae(model.variables[4].start), "3");  // row-major: A[2,1] is the third
  EXPECT_EQ(model.variables[4].element.shape, (std::vector<long>{2, 2}));
  EXPECT_EQ(names(model.outputs), (Names{"o[1]", "o[2]"}));
  EXPECT_EQ(to_dae(model.outputs[1].value), "x[2]^2");
  EXPECT_EQ(labels(model),
            (Names{"eq1[1]", "eq2[1,1]", "eq2[1,2]", "eq1[2]", "eq2[2,1]", "eq2[2,2]"}));
}

TEST(Flatten, LabelsOfEquationsInLoops) {
  auto result =
      run("model m;\n"
          "variable x[3], y;\n"
          "equation\n"
          "  y = t;\n"
          "  first[1]: x[1] = y;\n"
          "  for i in 2:3 loop\n"
          "    link[i - 1]: x[i] = x[i - 1]';\n"
          "  end for;\n"
          "end\n");
  ASSERT_TRUE(result->model) << result->diagnostics();
  EXPECT_EQ(labels(*result->model), (Names{"eq1", "first[1]", "link[1]", "link[2]"}));
  EXPECT_TRUE(result->model->equations[2].labelled);
  EXPECT_FALSE(result->model->equations[0].labelled);
}

TEST(Flatten, EmptyAndReversedRangesGiveNoEquations) {
  auto result =
      run("model m;\n"
          "parameter N = 0;\n"
          "variable x, z[N];\n"
          "equation\n"
          "  x = t;\n"
          "  for i in 1:N loop\n"
          "    z[i] = undeclared;\n"
          "  end for;\n"
          "  for i in 3:1 loop\n"
          "    x = 2;\n"
          "  end for;\n"
          "end\n");
  ASSERT_TRUE(result->model) << result->diagnostics();
  EXPECT_EQ(result->model->variables.size(), 1u);  // z has no elements
  EXPECT_EQ(labels(*result->model), (Names{"eq1"}));
}

TEST(Flatten, ScalarValueFillsTheArray) {
  auto result =
      run("model m;\nparameter L[3] = 2.5;\nvariable x[2](start = L[3]);\n"
          "equation\n  x[1] = L[1]; x[2] = L[2];\nend\n");
  ASSERT_TRUE(result->model) << result->diagnostics();
  EXPECT_EQ(result->model->parameters[1].value, 2.5);
  EXPECT_EQ(to_dae(result->model->variables[1].start), "L[3]");
}

// ---- sizes ----

TEST(Flatten, SizesMustBeConstantWholeNumbers) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "parameter h = 0.5, L[2/h + 0.5] = 1;\n"
                           "variable x[-1], y, z[y];\n"
                           "equation\n"
                           "  y = 1;\n"
                           "end\n"),
            "test.dae:2:22: error: the size of 'L' must be a whole number, but is 9/2\n"
            "parameter h = 0.5, L[2/h + 0.5] = 1;\n"
            "                     ^\n"
            "test.dae:3:12: error: the size of 'x' must not be negative, but is -1\n"
            "variable x[-1], y, z[y];\n"
            "           ^\n"
            "test.dae:3:22: error: the size of 'z' must be constant, but uses variable 'y'\n"
            "variable x[-1], y, z[y];\n"
            "                     ^\n");
}

TEST(Flatten, AtMostTwoDimensions) {
  EXPECT_EQ(diagnostics_of("model m;\nvariable x[2, 2, 2];\nequation\nend\n"),
            "test.dae:2:18: error: 'x' has 3 dimensions; arrays have one or two\n"
            "variable x[2, 2, 2];\n"
            "                 ^\n");
}

TEST(Flatten, SizeOfAParameterUsesOnlyEarlierParameters) {
  EXPECT_EQ(diagnostics_of("model m;\nparameter L[N] = 1, N = 2;\nvariable x;\nequation\nx = 1;\n"
                           "end\n"),
            "test.dae:2:13: error: parameter 'N' is used before its declaration (a parameter may "
            "use only parameters declared earlier)\n"
            "parameter L[N] = 1, N = 2;\n"
            "            ^\n"
            "test.dae:2:21: note: 'N' is declared here\n"
            "parameter L[N] = 1, N = 2;\n"
            "                    ^\n");
}

// ---- array values ----

TEST(Flatten, ArrayValuesOfTheWrongLength) {
  EXPECT_EQ(
      diagnostics_of("model m;\n"
                     "parameter w[3] = {1, 2}, k = {1};\n"
                     "variable x[2](start = {i for i in 1:3}), A[2, 2](start = {{1, 2}, {3}});\n"
                     "variable y[2](start = {{1, 2}, {3, 4}});\n"
                     "equation\n"
                     "  x[1] = 1; x[2] = 1; A[1, 1] = 1; A[1, 2] = 1; A[2, 1] = 1; A[2, 2] = "
                     "1;\n"
                     "end\n"),
      "test.dae:2:18: error: array value has 2 elements, but 'w' has 3\n"
      "parameter w[3] = {1, 2}, k = {1};\n"
      "                 ^\n"
      "test.dae:2:30: error: 'k' is not an array, so its value cannot be an array\n"
      "parameter w[3] = {1, 2}, k = {1};\n"
      "                             ^\n"
      "test.dae:3:23: error: array value has 3 elements, but 'x' has 2\n"
      "variable x[2](start = {i for i in 1:3}), A[2, 2](start = {{1, 2}, {3}});\n"
      "                      ^\n"
      "test.dae:3:67: error: array value has 1 element, but dimension 2 of 'A' has 2\n"
      "variable x[2](start = {i for i in 1:3}), A[2, 2](start = {{1, 2}, {3}});\n"
      "                                                                  ^\n"
      "test.dae:4:24: error: array value nested deeper than the 1 dimension of 'y'\n"
      "variable y[2](start = {{1, 2}, {3, 4}});\n"
      "                       ^\n"
      "test.dae:4:32: error: array value nested deeper than the 1 dimension of 'y'\n"
      "variable y[2](start = {{1, 2}, {3, 4}});\n"
      "                               ^\n");
}

// ---- labels ----

TEST(Flatten, UnindexedLabelInALoop) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "variable x[3];\n"
                           "equation\n"
                           "  for i in 1:3 loop\n"
                           "    rod: x[i] = i;\n"
                           "  end for;\n"
                           "end\n"),
            "test.dae:5:5: error: label 'rod' names the equation of more than one iteration of "
            "the loop; index it with the loop variable (rod[i])\n"
            "    rod: x[i] = i;\n"
            "    ^\n");
}

TEST(Flatten, DuplicateElementLabels) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "variable x[2];\n"
                           "equation\n"
                           "  r[1]: x[1] = 1;\n"
                           "  for i in 1:2 loop\n"
                           "    r[i]: x[i] = t;\n"
                           "  end for;\n"
                           "  eq2[2]: x[2] = 2;\n"
                           "end\n"),
            "test.dae:6:5: error: duplicate equation label 'r[1]'\n"
            "    r[i]: x[i] = t;\n"
            "    ^\n"
            "test.dae:4:3: note: label 'r[1]' is first used here\n"
            "  r[1]: x[1] = 1;\n"
            "  ^\n");
}

TEST(Flatten, LabelClashingWithAnAutomaticLoopName) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "variable x[2];\n"
                           "equation\n"
                           "  for i in 1:2 loop\n"
                           "    x[i] = t;\n"
                           "  end for;\n"
                           "  eq1[2]: x[2] = 2;\n"
                           "end\n"),
            "test.dae:7:3: error: label 'eq1[2]' clashes with the automatic name of unlabelled "
            "equation 1\n"
            "  eq1[2]: x[2] = 2;\n"
            "  ^\n"
            "test.dae:5:5: note: equation 1 is here\n"
            "    x[i] = t;\n"
            "    ^\n");
}

TEST(Flatten, LabelIndexMustBeAWholeNumber) {
  EXPECT_EQ(diagnostics_of("model m;\nvariable x;\nequation\n  r[x]: x = 1;\nend\n"),
            "test.dae:4:5: error: the index of label 'r' must be constant, but uses variable 'x'\n"
            "  r[x]: x = 1;\n"
            "    ^\n");
}

// ---- -D ----

TEST(Flatten, DefineReplacesAParameterBeforeSizesAreComputed) {
  FlattenOptions options;
  options.defines = {{"N", "5"}, {"L", "2.5"}};
  auto result =
      run("model m;\nparameter N = 2, L[N] = 1, M = 2*N;\nvariable x[M];\nequation\n"
          "  for i in 1:M loop\n    x[i] = t;\n  end for;\nend\n",
          "test.dae", options);
  ASSERT_TRUE(result->model) << result->diagnostics();
  EXPECT_EQ(result->model->variables.size(), 10u);
  EXPECT_EQ(names(result->model->parameters), (Names{"L[1]", "L[2]", "L[3]", "L[4]", "L[5]"}));
  EXPECT_EQ(result->model->parameters[4].value, 2.5);
  EXPECT_EQ(to_dae(result->model->parameters[4].default_value), "5/2");
  EXPECT_EQ(names(result->model->constants), (Names{"N", "M"}));
}

TEST(Flatten, DefineNamingNoParameterIsAUsageError) {
  FlattenOptions options;
  options.defines = {{"K", "3"}};
  auto file =
      std::make_unique<SourceFile>("m.dae", "model m;\nvariable K;\nequation K = 1;\nend\n");
  DiagnosticEngine diags;
  std::string usage;
  EXPECT_FALSE(run_frontend(*file, diags, options, &usage));
  EXPECT_EQ(usage,
            "-D K=3: 'K' is a variable of model 'm'; -D sets parameters (give start "
            "values with the simulator's --set)");
  EXPECT_EQ(diags.str(), "");
  options.defines = {{"N", "3"}};
  EXPECT_FALSE(run_frontend(*file, diags, options, &usage));
  EXPECT_EQ(usage, "-D N=3: model 'm' has no parameter 'N'");
}

// ---- the element budget ----

TEST(Flatten, AbsurdSizesAreAnErrorNotAnAllocation) {
  EXPECT_EQ(diagnostics_of("model m;\nvariable x[10^9], y[1000, 100000];\nequation\nend\n"),
            "test.dae:2:10: error: array 'x' of 1,000,000,000 elements takes the model past the "
            "limit of 1,000,000 array elements and loop iterations (see docs/limits.md)\n"
            "variable x[10^9], y[1000, 100000];\n"
            "         ^\n");
}

TEST(Flatten, AbsurdLoopsAreAnErrorNotAHang) {
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "variable x;\n"
                           "equation\n"
                           "  x = sum(1 for i in 1:10^12);\n"
                           "  for i in 1:10^9 loop\n"
                           "    x = 1;\n"
                           "  end for;\n"
                           "end\n"),
            "test.dae:4:7: error: the loop over i in 1:1000000000000 takes the model past the "
            "limit of 1,000,000 array elements and loop iterations (see docs/limits.md)\n"
            "  x = sum(1 for i in 1:10^12);\n"
            "      ^\n");
}

TEST(Flatten, NestedLoopsCountEveryIteration) {
  // x, 40 outer and 40 inner iterations each time: past the limit of 1,000 at the 24th inner loop.
  FlattenOptions options;
  options.max_elements = 1000;
  EXPECT_EQ(diagnostics_of("model m;\n"
                           "variable x;\n"
                           "equation\n"
                           "  for i in 1:40 loop\n"
                           "    for j in 1:40 loop\n"
                           "      x = i*j*t;\n"
                           "    end for;\n"
                           "  end for;\n"
                           "end\n",
                           options),
            "test.dae:5:5: error: the loop over j in 1:40 (at i = 24) takes the model past the "
            "limit of 1,000 array elements and loop iterations (see docs/limits.md)\n"
            "    for j in 1:40 loop\n"
            "    ^\n");
}

TEST(Flatten, BudgetIsAnOption) {
  FlattenOptions options;
  options.max_elements = 10;
  EXPECT_EQ(diagnostics_of("model m;\nvariable x[4], y[7];\nequation\nend\n", options),
            "test.dae:2:16: error: array 'y' of 7 elements takes the model past the limit of 10 "
            "array elements and loop iterations (see docs/limits.md)\n"
            "variable x[4], y[7];\n"
            "               ^\n");
}

// A scalar that passes the limit reached by the arrays before it is named as one element, not
// as an array of an empty count.
TEST(Flatten, ScalarPastTheBudgetIsOneElement) {
  FlattenOptions options;
  options.max_elements = 10;
  EXPECT_EQ(diagnostics_of("model m;\nvariable x[10], y;\nequation\nend\n", options),
            "test.dae:2:17: error: 'y' (one element) takes the model past the limit of 10 "
            "array elements and loop iterations (see docs/limits.md)\n"
            "variable x[10], y;\n"
            "                ^\n");
}

// ---- the array models against their scalar form ----

// The generated code of `text` (with `options`), as the daec command writes it for `source`.
std::string code_of(const std::string& text, const FlattenOptions& options = {}) {
  auto result = run(text, "model.dae", options);
  EXPECT_TRUE(result->model) << result->diagnostics();
  if (!result->model) return "";
  std::optional<ReducedSystem> reduced = reduce_model(*result->model, {}, result->diags);
  EXPECT_TRUE(reduced) << result->diagnostics();
  if (!reduced) return "";
  CodegenOptions codegen;
  codegen.source_name = "model.dae";
  // One function per body: where a long body is cut into parts depends on the length of its
  // lines, comments included, and `// eq5[1]` is longer than `// eq5_1`.
  codegen.part_cost = 0;
  return generate_code(*reduced, codegen).source;
}

// The generated code of the scalar chain with its names, in string literals and comments,
// written as the array model's elements: x3 as x[3], eq2_3 as eq2[3], rod3' as rod[3]',
// u3_dot as u[3]_dot. (The other way round would be ambiguous: in the comment `x[2] x[3]` the
// first is the C++ state array.)
std::string element_names(const std::string& code, const std::string& arrays) {
  static const std::regex loop_label(R"(\beq([0-9]+)_([0-9]+)\b)");
  const std::regex element("\\b(" + arrays + ")([0-9]+)");
  static const std::regex quoted(R"("(?:[^"\\]|\\.)*")");
  auto rename = [&](const std::string& text) {
    return std::regex_replace(std::regex_replace(text, loop_label, "eq$1[$2]"), element, "$1[$2]");
  };
  std::string out;
  size_t line_start = 0;
  while (line_start < code.size()) {
    size_t end = code.find('\n', line_start);
    std::string line = code.substr(line_start, end - line_start);
    size_t comment = line.find("//");
    std::string text = line.substr(0, comment);
    std::string mapped;
    auto last = text.cbegin();
    for (std::sregex_iterator it(text.begin(), text.end(), quoted), none; it != none; ++it) {
      mapped.append(last, (*it)[0].first);
      mapped += rename(it->str());
      last = (*it)[0].second;
    }
    mapped.append(last, text.cend());
    if (comment != std::string::npos) mapped += rename(line.substr(comment));
    out += mapped + "\n";
    if (end == std::string::npos) break;
    line_start = end + 1;
  }
  return out;
}

// The pendulum chain as the former bench/make_pendulum_chain.sh wrote it, with its variables
// declared in the array model's order (x1 ... xN, then y, u, v, l) and its equations labelled as
// the array model's are named (eq1_i for eq1[i]).
std::string scalar_chain(int n) {
  std::string text =
      "model pendulum_chain \"N-link planar pendulum chain in Cartesian coordinates\";\n"
      "parameter m(unit = \"kg\") = 1 \"mass of each link\", L(unit = \"m\") = 1 \"length of "
      "each rod\";\n"
      "parameter g(unit = \"m/s2\") = 9.81 \"gravity\";\n";
  const std::string unit_of[] = {"m", "m", "m/s", "m/s", "N/m"};
  int kind = 0;
  for (const char* v : {"x", "y", "u", "v", "l"}) {
    text += "variable ";
    const std::string& unit = unit_of[kind++];
    for (int i = 1; i <= n; ++i) {
      text += std::string(i > 1 ? ", " : "") + v + std::to_string(i) +
              "(start = " + (std::string(v) == "x" ? std::to_string(i) : "0") + ", unit = \"" +
              unit + "\")" + (std::string(v) == "l" ? " \"force per unit length in rod i\"" : "");
    }
    text += ";\n";
  }
  text += "equation\n";
  for (int i = 1; i <= n; ++i) {
    std::string k = std::to_string(i), p = std::to_string(i - 1), q = std::to_string(i + 1);
    std::string dx = i == 1 ? "x1" : "(x" + k + " - x" + p + ")";
    std::string dy = i == 1 ? "y1" : "(y" + k + " - y" + p + ")";
    std::string fx = i < n ? " + l" + q + "*(x" + q + " - x" + k + ")" : "";
    std::string fy = i < n ? " + l" + q + "*(y" + q + " - y" + k + ")" : "";
    text += "  eq1_" + k + ": x" + k + "' = u" + k + ";\n";
    text += "  eq2_" + k + ": y" + k + "' = v" + k + ";\n";
    text += "  eq3_" + k + ": u" + k + "' = (-l" + k + "*" + dx + fx + ")/m;\n";
    text += "  eq4_" + k + ": v" + k + "' = (-l" + k + "*" + dy + fy + ")/m - g;\n";
    text += "  rod" + k + ": " + dx + "^2 + " + dy + "^2 = L^2;\n";
  }
  return text + "end pendulum_chain;\n";
}

TEST(Flatten, ArrayChainGeneratesTheScalarChainsCodeUpToTheNames) {
  // N = 12: names with two-digit indices (x[10] sorts after x[9], as x10 after x9).
  for (int n : {3, 12}) {
    SCOPED_TRACE("N = " + std::to_string(n));
    FlattenOptions options;
    options.defines = {{"N", std::to_string(n)}};
    std::string array = code_of(test::read_source_file("models/pendulum_chain.dae"), options);
    std::string scalar = code_of(scalar_chain(n));
    ASSERT_FALSE(array.empty());
    EXPECT_EQ(element_names(scalar, "x|y|u|v|l|rod"), array);
    EXPECT_NE(scalar, array);  // the names do differ: x[1] against x1
  }
}

// models/fekete.dae as the former bench/make_fekete.sh wrote it (start values as awk printed them),
// with its variables in the array model's order and its equations labelled as the array model's are
// named.
std::string scalar_fekete(int n) {
  auto number = [](double value) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    return std::string(buffer);
  };
  std::string text =
      "model fekete \"N points on the unit sphere repelling each other\";\n"
      "parameter alpha(unit = \"1/s\") = 0.5 \"damping\";\n";
  const double golden = 3.14159265358979324 * (3 - std::sqrt(5.0));
  for (const char* c : {"x", "y", "z"}) {
    text += "variable ";
    for (int i = 1; i <= n; ++i) {
      double z = 1 - (2.0 * i - 1) / n, r = std::sqrt(1 - z * z);
      double value = c[0] == 'x'   ? r * std::cos(i * golden)
                     : c[0] == 'y' ? r * std::sin(i * golden)
                                   : z;
      text += std::string(i > 1 ? ", " : "") + c + std::to_string(i) + "(start = " + number(value) +
              ")";
    }
    text += ";\n";
  }
  for (const char* c : {"u", "v", "w", "mu"}) {
    text += "variable ";
    for (int i = 1; i <= n; ++i) {
      text += std::string(i > 1 ? ", " : "") + c + std::to_string(i) + "(start = 0)" +
              (c[0] == 'm' ? " \"normal force per unit length\"" : "");
    }
    text += ";\n";
  }
  text += "equation\n";
  const char* position[] = {"x", "y", "z"};
  const char* velocity[] = {"u", "v", "w"};
  for (int i = 1; i <= n; ++i) {
    std::string k = std::to_string(i);
    for (int a = 0; a < 3; ++a) {
      text += "  eq" + std::to_string(a + 1) + "_" + k + ": " + position[a] + k +
              "' = " + velocity[a] + k + ";\n";
    }
    for (int a = 0; a < 3; ++a) {
      text += "  eq" + std::to_string(a + 4) + "_" + k + ": " + velocity[a] + k + "' = -alpha*" +
              velocity[a] + k + " - mu" + k + "*" + position[a] + k;
      for (int j = 1; j <= n; ++j) {
        if (j == i) continue;
        std::string l = std::to_string(j);
        text += " + (" + std::string(position[a]) + k + " - " + position[a] + l + ")/((x" + k +
                " - x" + l + ")^2 + (y" + k + " - y" + l + ")^2 + (z" + k + " - z" + l + ")^2)^1.5";
      }
      text += ";\n";
    }
    text += "  sphere" + k + ": x" + k + "^2 + y" + k + "^2 + z" + k + "^2 = 1;\n";
  }
  return text + "end fekete;\n";
}

// The code without Model::initial_state, the one function where the two forms differ: the array
// model computes its spiral start values from the formula, the scalar one held them rounded to
// 17 digits.
std::string without_initial_state(const std::string& code) {
  size_t begin = code.find("void Model::initial_state(double* x) const {");
  size_t end = code.find("\n}\n", begin);
  if (begin == std::string::npos || end == std::string::npos) return code;
  return code.substr(0, begin) + code.substr(end + 3);
}

TEST(Flatten, ArrayFeketeGeneratesTheScalarFeketesCodeUpToNamesAndStartValues) {
  for (int n : {4}) {
    SCOPED_TRACE("N = " + std::to_string(n));
    FlattenOptions options;
    options.defines = {{"N", std::to_string(n)}};
    std::string array = code_of(test::read_source_file("models/fekete.dae"), options);
    std::string scalar = code_of(scalar_fekete(n));
    ASSERT_FALSE(array.empty());
    EXPECT_EQ(without_initial_state(element_names(scalar, "x|y|z|u|v|w|mu|sphere")),
              without_initial_state(array));
    EXPECT_NE(scalar, array);
  }
}

}  // namespace
}  // namespace daec
