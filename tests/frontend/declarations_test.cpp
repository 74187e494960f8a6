// Tests of the declarations (src/frontend/declarations.cpp): the words of §1.1 are reserved, and
// which parameters are fixed at compile time (structural) because a size, a range, an index or a
// label's index uses them, directly or through other parameters.
#include "frontend/declarations.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "frontend/lexer.h"
#include "frontend/parser.h"
#include "support/diagnostics.h"
#include "support/source.h"
#include "test_util.h"

namespace daec {
namespace {

struct Declared {
  std::unique_ptr<SourceFile> file;
  DiagnosticEngine diags;
  ModelSyntax syntax;
  std::unique_ptr<Declarations> declarations;

  bool structural(const std::string& name) const {
    const Declaration* decl = declarations->lookup(name);
    EXPECT_NE(decl, nullptr) << name;
    return decl && decl->structural;
  }
};

std::unique_ptr<Declared> declare(const std::string& text) {
  auto result = std::make_unique<Declared>();
  result->file = std::make_unique<SourceFile>("test.dae", text);
  result->syntax = parse(lex(*result->file, result->diags), result->diags);
  result->declarations = std::make_unique<Declarations>(result->syntax, result->diags);
  return result;
}

TEST(Declarations, WordsOfLoopsAndConditionsAreReserved) {
  for (const char* name : {"for", "in", "loop", "if", "then", "else", "elseif", "and", "or", "not",
                           "sum", "product", "min", "max"}) {
    EXPECT_TRUE(is_reserved_name(name)) << name;
  }
  EXPECT_EQ(reserved_because("loop"), "it is a keyword");
  EXPECT_EQ(reserved_because("max"), "it is a built-in function");
  EXPECT_EQ(reserved_because("N"), "");
  for (const char* name : {"i", "N", "sums", "format", "minimum"}) {
    EXPECT_FALSE(is_reserved_name(name)) << name;
  }
}

TEST(Declarations, MinAndMaxCannotBeDeclared) {
  EXPECT_EQ(test::run("model m;\nparameter min = 1;\nvariable x;\nequation\nx = 1;\nend\n")
                ->diagnostics(),
            "test.dae:2:11: error: 'min' is reserved and cannot be declared: it is a built-in "
            "function\n"
            "parameter min = 1;\n"
            "          ^\n");
}

TEST(Declarations, ParametersUsedAsSizesRangesOrIndicesAreStructural) {
  auto d = declare(
      "model m;\n"
      "parameter N = 4, K = 2, first = 1, g = 9.81, h = 0.5, M = 2/h, unused = 3;\n"
      "parameter L[N] = 1;\n"
      "variable x[M], y;\n"
      "equation\n"
      "  for i in first:N loop\n"
      "    e[K]: x[i] = g*L[i];\n"
      "  end for;\n"
      "  y = unused;\n"
      "end\n");
  EXPECT_EQ(d->diags.str(), "");
  EXPECT_TRUE(d->structural("N"));      // a size and a range
  EXPECT_TRUE(d->structural("K"));      // a label's index
  EXPECT_TRUE(d->structural("first"));  // a range
  EXPECT_TRUE(d->structural("M"));      // a size
  EXPECT_TRUE(d->structural("h"));      // in the value of M
  EXPECT_FALSE(d->structural("g"));     // only a value
  EXPECT_FALSE(d->structural("L"));     // indexed, but not inside an index
  EXPECT_FALSE(d->structural("unused"));
}

TEST(Declarations, IndicesInsideExpressionsMakeParametersStructural) {
  auto d = declare(
      "model m;\n"
      "parameter k = 2, c = 1, s = 3;\n"
      "variable x[3];\n"
      "output o = x[k] + sum(x[j] for j in 1:s) + c;\n"
      "equation\n"
      "  x[1] = t; x[2] = t; x[3] = t;\n"
      "end\n");
  EXPECT_TRUE(d->structural("k"));
  EXPECT_TRUE(d->structural("s"));
  EXPECT_FALSE(d->structural("c"));
}

TEST(Declarations, StructuralParametersBecomeConstants) {
  auto run = test::run(
      "model m;\n"
      "parameter N = 3 \"links\", g = 9.81;\n"
      "variable x[N];\n"
      "equation\n"
      "  for i in 1:N loop\n"
      "    x[i] = N*g*t;\n"
      "  end for;\n"
      "end\n");
  ASSERT_TRUE(run->model) << run->diagnostics();
  const Model& model = *run->model;
  ASSERT_EQ(model.constants.size(), 1u);
  EXPECT_EQ(model.constants[0].name, "N");
  EXPECT_EQ(model.constants[0].value, 3);
  EXPECT_EQ(model.constants[0].description, "links");
  ASSERT_EQ(model.parameters.size(), 1u);  // only g is a parameter of the generated code
  EXPECT_EQ(model.parameters[0].name, "g");
  EXPECT_FALSE(model.symbols.contains("N"));  // its uses hold its value
}

TEST(Declarations, ElementNames) {
  EXPECT_EQ(element_name("x", {3}), "x[3]");
  EXPECT_EQ(element_name("A", {1, 12}), "A[1,12]");
}

}  // namespace
}  // namespace daec
