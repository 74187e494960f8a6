// The invariants h(t, X) (the hidden constraints the projection restores), their Jacobian dh/dX
// in compressed columns and dense.
#include "codegen/function_families.h"

#include <fmt/format.h>

#include "codegen/code_tables.h"

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

}  // namespace daec::function_code
