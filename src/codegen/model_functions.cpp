// Generating the function bodies of the Model struct: the derivative blocks once, then each
// family of functions in turn (function_families.h).
#include "codegen/model_functions.h"

#include <algorithm>

#include <fmt/format.h>

#include "codegen/function_families.h"
#include "codegen/gram_cholesky.h"
#include "codegen/when_code.h"
#include "reduction/limits.h"
#include "reduction/symbolic.h"

namespace daec {

using GiNaC::ex;
using namespace function_code;

namespace {

// d row / d unknown for the unknowns each row holds, checked against the limits. `Row` is
// StateEquation (expression rhs) or Constraint (residual).
template <typename Row>
ExpressionMatrix jacobian_of(const Generator& gen, const char* name, const std::vector<Row>& rows,
                             ex Row::*expression, const std::vector<Unknown>& unknowns) {
  std::vector<ex> expressions;
  for (const Row& row : rows) expressions.push_back(row.*expression);
  return jacobian_matrix(
      expressions, unknowns,
      [&](size_t i) {
        checkpoint(
            rows[i].location,
            fmt::format("differentiating equation '{}' for the Jacobian {}", rows[i].label, name));
      },
      [&](const ex& value) { check_expression(value, gen.max_expression_size); });
}

}  // namespace

// Before each function: the stage, for the messages of the time limit (codegen concerns the
// model as a whole; the caller names the file).
static void generating(const char* function) {
  checkpoint(SourceLocation{}, fmt::format("generating the code of {}", function));
}

FunctionBodies function_bodies(const ReducedSystem& system,
                               const std::optional<LinearSolvePlan>& plan,
                               size_t max_expression_size, FunctionParts& parts) {
  Generator gen(system, plan, parts);
  gen.max_expression_size = max_expression_size;
  gen.dF_dX = jacobian_of(gen, "dF/dX", system.differential, &StateEquation::rhs, system.states);
  gen.dF_dZ = jacobian_of(gen, "dF/dZ", system.differential, &StateEquation::rhs, system.algebraic);
  gen.dg_dX = jacobian_of(gen, "dg/dX", system.constraints, &Constraint::residual, system.states);
  gen.dh_dX = jacobian_of(gen, "dh/dX", system.invariants, &Constraint::residual, system.states);
  FunctionBodies bodies;
  size_t n = gen.n, m = gen.m, k = gen.k;
  bodies.dense_jacobians =
      (n + m) * (n + m) <= kMaxDenseJacobianEntries && k * n <= kMaxDenseJacobianEntries;
  generating("initial_state");
  bodies.initial_state = unknown_values(gen, "initial_state", "x", system.states, &Unknown::start);
  bodies.initial_algebraic =
      unknown_values(gen, "initial_algebraic", "z", system.algebraic, &Unknown::start);
  bodies.state_nominal =
      unknown_values(gen, "state_nominal", "s", system.states, &Unknown::nominal);
  generating("initial_equations");
  bodies.initial_equations = initial_equations(gen);
  generating("rhs");
  if (plan) {
    bodies.evaluate_algebraic = evaluate_algebraic(gen, bodies.rhs_operations);
    bodies.factor = factor(gen);
    bodies.solve = solve(gen);
    solver_tables(gen, bodies);
  }
  bodies.rhs = rhs(gen, bodies.rhs_operations);
  generating("residual");
  bodies.residual = residual(gen);
  generating("residual_jacobian_values");
  SystemPatterns patterns = gen.patterns();
  bodies.residual_pattern = residual_iteration_pattern(patterns);
  bodies.residual_jacobian_values = residual_jacobian_values(gen, bodies.residual_pattern);
  if (bodies.dense_jacobians)
    bodies.residual_jacobian = dense_residual_jacobian(gen, bodies.residual_pattern);
  generating("rhs_jacobian");
  std::optional<AlgebraicReach> reach;
  if (plan) reach = algebraic_reach(patterns, *plan, kMaxReachWork);
  size_t rhs_limit =
      std::max<size_t>(kMaxSparseRhsJacobianEntries, bodies.residual_pattern.rowval.size());
  bodies.rhs_pattern =
      rhs_jacobian_pattern(patterns, plan ? &*plan : nullptr, reach ? &*reach : nullptr, rhs_limit);
  if (bodies.rhs_pattern || bodies.dense_jacobians)
    bodies.rhs_jacobian_support = rhs_jacobian_support(gen, reach ? &*reach : nullptr);
  if (bodies.rhs_pattern) bodies.rhs_jacobian_values = rhs_jacobian_body(gen, false);
  if (bodies.dense_jacobians) bodies.rhs_jacobian = rhs_jacobian_body(gen, true);
  generating("invariants");
  bodies.invariants = invariants(gen);
  generating("invariants_jacobian_values");
  bodies.invariants_jacobian_values = invariants_jacobian_values(gen, bodies.invariants_pattern);
  if (bodies.dense_jacobians)
    bodies.invariants_jacobian = dense_invariants_jacobian(gen, bodies.invariants_pattern);
  bodies.gram_cholesky = gram_cholesky_code(plan_gram_cholesky(bodies.invariants_pattern));
  generating("the parameter Jacobians");
  parameter_jacobians(gen, bodies);
  generating("outputs");
  bodies.outputs = outputs(gen);
  generating("when clauses");
  bodies.when_members = when_members(gen);
  return bodies;
}

}  // namespace daec
