// Tests of the units carried to the output (docs/generated-code.md): the unit of a derivative
// as text (src/units/unit_text.cpp) and the unit tables of the generated code.
#include <gtest/gtest.h>

#include <string>

#include "codegen/generate.h"
#include "reduction/pipeline.h"
#include "test_util.h"
#include "units/unit_text.h"

namespace daec {
namespace {

TEST(UnitText, PerSecond) {
  EXPECT_EQ("", per_second(""));
  EXPECT_EQ("m/s", per_second("m"));
  EXPECT_EQ("m/s2", per_second("m/s"));
  EXPECT_EQ("m/s3", per_second("m/s2"));
  EXPECT_EQ("kg.m/s", per_second("kg.m"));
  EXPECT_EQ("(N/m)/s", per_second("N/m"));
  EXPECT_EQ("(m/sr)/s", per_second("m/sr"));
}

// The pendulum's tables: dummies u_dot, v_dot in m/s2; x'' gives a velocity x_dot in m/s.
TEST(UnitTables, GeneratedCodeHasTheUnits) {
  std::string text = test::read_source_file("models/pendulum.dae");
  auto result = test::run(text, "pendulum.dae");
  ASSERT_TRUE(result->model) << result->diagnostics();
  std::optional<ReducedSystem> reduced = reduce_model(*result->model, {}, result->diags);
  ASSERT_TRUE(reduced) << result->diagnostics();
  std::string code = generate_code(*reduced, CodegenOptions{}).source;
  for (const char* line : {
           "const char* const Model::state_units[] = {\"m\", \"m\", \"m/s\", \"m/s\"};",
           "const char* const Model::algebraic_units[] = {\"N/m\", \"m/s2\", \"m/s2\"};",
           "const char* const Model::parameter_units[] = {\"kg\", \"m\", \"m/s2\"};",
           "const char* const Model::output_units[] = {\"J\"};",
           "const char* const Model::variable_units[] = {\"m\", \"m\", \"m/s\", \"m/s\", \"N/m\"};",
       }) {
    EXPECT_NE(std::string::npos, code.find(line)) << line;
  }
  auto second_order =
      test::run("model m;\nvariable x(unit = \"m\"), f;\nequation\n  x'' = -x*f;\n  f = 1;\nend\n");
  ASSERT_TRUE(second_order->model) << second_order->diagnostics();
  reduced = reduce_model(*second_order->model, {}, second_order->diags);
  ASSERT_TRUE(reduced);
  code = generate_code(*reduced, CodegenOptions{}).source;
  EXPECT_NE(std::string::npos,
            code.find("const char* const Model::state_units[] = {\"m\", \"m/s\"};"))
      << code.substr(code.find("state_units"), 200);
  EXPECT_NE(std::string::npos, code.find("Model::algebraic_units[] = {\"\"};"));
}

}  // namespace
}  // namespace daec
