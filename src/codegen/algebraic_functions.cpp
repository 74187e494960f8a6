// rhs and what it stands on: A and b evaluated, A factored and solved by the plan of its sparse
// LU (linear_solve.h), X' = F(X, Z, t), and the tables of the solve that the failure reports and
// algebraic_condition read.
#include "codegen/function_families.h"

#include <algorithm>

#include <fmt/format.h>

#include "codegen/code_tables.h"
#include "codegen/condition_code.h"

namespace daec::function_code {

namespace {

// The tables algebraic_condition reads: each position's diagonal entry in a, the first entry of
// its row inside its own block (the entries left of it belong to earlier blocks, which do not
// bear on the block's pivots), whether its pivot can vanish (not a nonzero number of A), and the
// column position of each stored entry.
std::string pivot_tables(const LinearSolvePlan& plan) {
  std::vector<int> diagonal, block_entry, can_vanish(static_cast<size_t>(plan.size), 1);
  for (int b = 0; b < plan.blocks.block_count(); ++b) {
    const int begin = plan.blocks.block_start[b], end = plan.blocks.block_start[b + 1];
    for (int k = begin; k < end; ++k) {
      diagonal.push_back(plan.index(k, k));
      auto first = std::lower_bound(plan.storage.begin(), plan.storage.end(), std::pair(k, begin));
      block_entry.push_back(static_cast<int>(first - plan.storage.begin()));
    }
  }
  for (const PivotStep& step : plan.steps)
    if (step.fixed_pivot) can_vanish[static_cast<size_t>(step.position)] = 0;
  std::vector<int> column_of;
  for (const auto& entry : plan.storage) column_of.push_back(entry.second);
  return constant_table("kDiagonalAt", diagonal) + constant_table("kBlockEntryStart", block_entry) +
         constant_table("kPivotCanVanish", can_vanish) + constant_table("kColumnAt", column_of);
}

}  // namespace

std::string evaluate_algebraic(Generator& gen, size_t& operations) {
  const LinearSolvePlan& plan = *gen.plan;
  std::vector<Assignment> list;
  for (size_t s = 0; s < plan.storage.size(); ++s) {
    const auto& [row, column] = plan.storage[s];
    list.push_back({fmt::format("a[{}]", s),
                    gen.system.A.at(plan.blocks.row_order[row], plan.blocks.col_order[column])});
  }
  for (size_t i = 0; i < gen.m; ++i) {
    list.push_back({fmt::format("r[{}]", i), gen.system.b[plan.blocks.row_order[i]],
                    "b of " + gen.system.constraints[plan.blocks.row_order[i]].label});
  }
  // Z is what this computes: a relation that compares algebraic unknowns reads its mode alone,
  // which solve_algebraic has settled (codegen/condition_code.h).
  SymbolCode settled = gen.symbols(false);
  add_condition_modes(gen.system, settled, true);
  std::string code = gen.parts.body({"evaluate_A_b",
                                     {kP, kT, kX, out("a"), out("r")},
                                     assignment_statements(settled, list, &operations)});
  return body(code, {"p", "t", "x"});
}

std::string factor(Generator& gen) {
  StraightLine steps{"factor_A", {out("a"), {"int*", "pivot"}}, factor_steps(*gen.plan)};
  std::string code = gen.parts.body(steps);
  if (code.find(kPartsNamespace) == std::string::npos) return factor_code(*gen.plan);
  return code + "  return 0;\n";
}

std::string solve(Generator& gen) {
  StraightLine lines{
      "solve_A", {in("a"), {"const int*", "pivot"}, out("r")}, solve_statements(*gen.plan)};
  std::string code = gen.parts.body(lines);
  return code.find(kPartsNamespace) == std::string::npos ? solve_code(*gen.plan) : code;
}

std::string rhs(Generator& gen, size_t& operations) {
  std::string code;
  if (gen.m > 0) code += solve_prologue(gen, "return status;");
  std::vector<Assignment> list;
  for (size_t i = 0; i < gen.n; ++i) {
    list.push_back({fmt::format("xdot[{}]", i), gen.system.differential[i].rhs,
                    gen.system.states[i].name + "'"});
  }
  std::vector<CodeParameter> parameters{kP, kT, kX, out("xdot")};
  if (gen.m > 0) parameters.insert(parameters.begin() + 3, in("r"));
  code += gen.parts.body(
      {"rhs", parameters, assignment_statements(gen.symbols(true), list, &operations)});
  if (gen.m > 0) {
    code += fmt::format(
        "  if (z != nullptr) {{\n    for (int k = 0; k < {}; ++k) z[kUnknownAt[k]] = r[k];\n  }}\n",
        gen.m);
  }
  code += "  return all_finite(xdot, num_states) ? 0 : 2;\n";
  return body(code, {"t", "x", "xdot", "z"});
}

void solver_tables(const Generator& gen, FunctionBodies& bodies) {
  const LinearSolvePlan& plan = *gen.plan;
  std::vector<int> starts, unknowns;
  size_t s = 0;
  for (size_t i = 0; i <= gen.m; ++i) {
    while (s < plan.storage.size() && plan.storage[s].first < static_cast<int>(i)) ++s;
    starts.push_back(static_cast<int>(s));
  }
  for (size_t i = 0; i < gen.m; ++i) unknowns.push_back(plan.blocks.col_order[i]);
  bodies.row_start = constant_table("kRowStart", starts);
  bodies.unknown_at = constant_table("kUnknownAt", unknowns);
  bodies.pivot_tables = pivot_tables(plan);
  bodies.rhs_failure =
      "  if (const int status = locate_algebraic_failure(p, t, x, index)) return status;\n";
}

}  // namespace daec::function_code
