// The structure of the generated derivatives in the parameters (docs/generated-code.md, "Parameter
// Jacobians"): which entries of d(xdot)/dp, dr/dp and dh/dp can be nonzero, the chains through the
// bindings of dependent parameters among them, and the members of a model without parameters.
// Their values are checked against finite differences on every bundled model
// (tests/data/check_generated_model.cpp).
#include <gtest/gtest.h>

#include <string>

#include "codegen/generate.h"
#include "reduction/pipeline.h"
#include "test_util.h"

namespace daec {
namespace {

std::string generated(const std::string& text) {
  auto run = test::run(text);
  EXPECT_TRUE(run->model.has_value()) << run->diagnostics();
  if (!run->model) return "";
  std::optional<ReducedSystem> system = reduce_model(*run->model, {}, run->diags);
  EXPECT_TRUE(system.has_value()) << run->diagnostics();
  return system ? generate_code(*system, CodegenOptions{}).source : "";
}

bool has(const std::string& code, const std::string& part) {
  return code.find(part) != std::string::npos;
}

// x' = z with a z = c + x (z through A Z = b), y' = b y, b = 2 a: the column of a holds what b
// reaches (row y of F, row 1 of r) besides what a reaches itself (z: row x of F, row 2 of r).
TEST(ParameterJacobian, ColumnsFollowTheSolveAndTheBindings) {
  std::string code = generated(R"(model s;
parameter a = 1, b = 2*a, c = 3;
variable x(start = 0), y(start = 1), z;
equation
  x' = z;
  y' = b*y;
  h: a*z = c + x;
end
)");
  EXPECT_TRUE(has(code, "static constexpr int rhs_parameter_jacobian_nnz = 4;")) << code;
  EXPECT_TRUE(has(code, "rhs_parameter_jacobian_colptr[] = {0, 2, 3, 4};"));
  EXPECT_TRUE(has(code, "rhs_parameter_jacobian_rowval[] = {0, 1, 1, 0};"));
  EXPECT_TRUE(has(code, "static constexpr int residual_parameter_jacobian_nnz = 4;"));
  EXPECT_TRUE(has(code, "residual_parameter_jacobian_colptr[] = {0, 2, 3, 4};"));
  EXPECT_TRUE(has(code, "residual_parameter_jacobian_rowval[] = {1, 2, 1, 2};"));
  EXPECT_TRUE(has(code, "static constexpr int invariants_parameter_jacobian_nnz = 0;"));
  EXPECT_TRUE(has(code, "invariants_parameter_jacobian_colptr[] = {0, 0, 0, 0};"));
  // b's binding 2*a reads a (entry 0, owned by b) and has the derivative 2 in it.
  EXPECT_TRUE(has(code, "constexpr int kBindingOwner[1] = {1};")) << code;
  EXPECT_TRUE(has(code, "constexpr int kFollowerStart[4] = {0, 1, 1, 1};"));
  EXPECT_TRUE(has(code, "constexpr int kFollowerEntry[1] = {0};"));
  EXPECT_TRUE(has(code, "  bp[0] = 2.0;\n"));
  EXPECT_TRUE(has(code, "int Model::rhs_parameter_jacobian(double t, const double* x, double* J)"));
}

// c = b + 1 with b = 2 a: a's chain holds c through b, and the column of a holds c's row although
// no equation reads a or b.
TEST(ParameterJacobian, ChainsFollowBindingsOfBindings) {
  std::string code = generated(R"(model s;
parameter a = 1, b = 2*a, c = b + 1;
variable x(start = 1);
equation
  x' = -c*x;
end
)");
  // The bindings b = 2*a (entry 0) and c = b + 1 (entry 1): a is read by entry 0, b by entry
  // 1; only the direct bindings are tabled, the chain a -> b -> c is followed at run time.
  EXPECT_TRUE(has(code, "constexpr int kFollowerStart[4] = {0, 1, 2, 2};")) << code;
  EXPECT_TRUE(has(code, "constexpr int kFollowerEntry[2] = {0, 1};"));
  EXPECT_TRUE(has(code, "constexpr int kBindingOwner[2] = {1, 2};"));
  EXPECT_TRUE(has(code, "rhs_parameter_jacobian_colptr[] = {0, 1, 2, 3};"));
}

// The invariants' columns: rod = x^2 + y^2 - L^2 holds L alone.
TEST(ParameterJacobian, InvariantsHoldTheParametersOfTheConstraints) {
  std::string code = generated(test::read_source_file("models/pendulum.dae"));
  EXPECT_TRUE(has(code, "invariants_parameter_jacobian_colptr[] = {0, 0, 1, 1};")) << code;
  EXPECT_TRUE(has(code, "invariants_parameter_jacobian_rowval[] = {0};"));
}

// Without parameters the members are there, empty, and read no table.
TEST(ParameterJacobian, ModelWithoutParameters) {
  std::string code = generated("model e;\nvariable x(start = 1);\nequation\n  x' = -x;\nend\n");
  EXPECT_TRUE(has(code, "static constexpr int rhs_parameter_jacobian_nnz = 0;")) << code;
  EXPECT_TRUE(has(code, "const int Model::rhs_parameter_jacobian_colptr[] = {0};"));
  EXPECT_TRUE(has(code, "const int Model::rhs_parameter_jacobian_rowval[] = {0};"));
  EXPECT_TRUE(has(code, "int Model::rhs_parameter_jacobian_values(double t, const double* x,"));
  EXPECT_FALSE(has(code, "kFollowerStart"));
  EXPECT_FALSE(has(code, "chain_columns("));
}

}  // namespace
}  // namespace daec
