// The invariants h(t, X) (the hidden constraints the projection restores), their Jacobian dh/dX
// in compressed columns and dense, and the tables of the projection's Gram factorisation.
#include "codegen/function_families.h"

#include <fmt/format.h>

#include "codegen/code_tables.h"
#include "codegen/gram_cholesky.h"

namespace daec::function_code {

std::string invariants(Generator& gen) {
  std::vector<Assignment> list;
  for (size_t i = 0; i < gen.k; ++i) {
    list.push_back({fmt::format("h[{}]", i), gen.system.invariants[i].residual,
                    gen.system.invariants[i].label});
  }
  std::string code = gen.parts.body(
      {"invariants", {kP, kT, kX, out("h")}, assignment_statements(gen.symbols(false), list)});
  return body(code, {"t", "x", "h"});
}

std::string invariants_jacobian_values(Generator& gen, ColumnPattern& pattern) {
  ColumnEntries H = by_columns(gen.dh_dX);
  pattern.rows = static_cast<int>(gen.k);
  pattern.colptr = H.start;
  pattern.rowval = H.row;
  std::string code = gen.parts.body(
      {"invariants_jacobian_values",
       {kP, kT, kX, out("values")},
       assignment_statements(gen.symbols(false), array_assignments("values", H.value))});
  return body(code, {"t", "x", "values"});
}

std::string dense_invariants_jacobian(const Generator& gen, const ColumnPattern& pattern) {
  std::string code = local_array("double", "values", pattern.rowval.size()) +
                     "  invariants_jacobian_values(t, x, values);\n";
  if (gen.k * gen.n > 0) code += fmt::format("  std::fill(H, H + {}, 0.0);\n", gen.k * gen.n);
  code += fmt::format(
      "  for (int j = 0; j < {0}; ++j) {{\n"
      "    for (int e = invariants_jacobian_colptr[j]; e < invariants_jacobian_colptr[j + 1]; "
      "++e)\n"
      "      H[invariants_jacobian_rowval[e] * {0} + j] = values[e];\n"
      "  }}\n",
      gen.n);
  return body(code, {"t", "x", "H"});
}

std::string projection_tables(const ColumnPattern& h) {
  GramPlan plan = plan_gram_cholesky(h);
  std::vector<int> order(plan.order.begin(), plan.order.end());
  return "// The projection's Gram matrix G = H H^T (H = dh/dX), permuted to keep its Cholesky\n"
         "// factor L sparse: kGramOrder[i] is the constraint in place i; L by columns "
         "(kGramStart,\n"
         "// kGramRow, the diagonal first); the products of entries of H that make up G, as\n"
         "// {entry of L, entry of H, entry of H}; and each row of L left of the diagonal as\n"
         "// {entry of L, end of its column}.\n" +
         constant_table("kGramOrder", order) + constant_table("kGramStart", plan.factor.colptr) +
         constant_table("kGramRow", plan.factor.rowval) +
         fmt::format("constexpr int kGramEntries = {};\nconstexpr int kGramProducts = {};\n",
                     plan.factor.nonzeros(), plan.products.size()) +
         constant_rows("kGramProduct", plan.products) +
         constant_table("kGramRowStart", plan.row_start) +
         constant_rows("kGramRowEntry", plan.row_entries) +
         fmt::format("constexpr int kGramRowEntries = {};\n", plan.row_entries.size());
}

}  // namespace daec::function_code
