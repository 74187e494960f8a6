// The fully implicit form for the DAE solvers: the residual r(t, X, X', Z) and its Jacobian
// dr/d(X, Z) + alpha dr/dX' in compressed columns, and the dense Jacobians from those values.
#include "codegen/function_families.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "codegen/code_tables.h"
#include "codegen/rolled_loops.h"

namespace daec::function_code {

using GiNaC::ex;

std::string residual(Generator& gen) {
  std::vector<Assignment> list;
  for (size_t i = 0; i < gen.n; ++i) {
    list.push_back({fmt::format("r[{}]", i), gen.system.differential[i].rhs, "",
                    fmt::format("xdot[{}] - ", i)});
  }
  for (size_t c = 0; c < gen.m; ++c) {
    list.push_back({fmt::format("r[{}]", gen.n + c), gen.system.constraints[c].residual,
                    gen.system.constraints[c].label});
  }
  std::string code = gen.parts.body({"residual",
                                     {kP, kT, kX, in("xdot"), in("z"), out("r")},
                                     assignment_statements(gen.symbols(false), list)});
  return body(code, {"t", "x", "xdot", "z", "r"});
}

std::string residual_jacobian_values(Generator& gen, const ColumnPattern& pattern) {
  struct Entry {
    int column, row;
    ex value;
  };
  std::vector<Entry> entries;
  int n = static_cast<int>(gen.n);
  for (int i = 0; i < n; ++i) {
    for (const MatrixEntry& e : gen.dF_dX.row(i)) entries.push_back({e.column, i, -e.value});
    for (const MatrixEntry& e : gen.dF_dZ.row(i)) entries.push_back({n + e.column, i, -e.value});
  }
  for (size_t c = 0; c < gen.m; ++c) {
    int row = n + static_cast<int>(c);
    for (const MatrixEntry& e : gen.dg_dX.row(c)) entries.push_back({e.column, row, e.value});
    for (const MatrixEntry& e : gen.system.A.row(c))
      entries.push_back({n + e.column, row, e.value});
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.column != b.column ? a.column < b.column : a.row < b.row;
  });
  // Canonical forms key symbols by name (canonical_form.cpp): a name no model can use, so that
  // a parameter named alpha stays p[k] and is not taken for this argument.
  GiNaC::realsymbol alpha("alpha (the argument)");
  SymbolCode symbols = gen.symbols(false);
  symbols[alpha] = "alpha";
  std::vector<Assignment> list;
  size_t next = 0;
  for (int j = 0; j < pattern.cols(); ++j) {
    for (int e = pattern.colptr[j]; e < pattern.colptr[j + 1]; ++e) {
      int row = pattern.rowval[e];
      ex value = 0;
      if (next < entries.size() && entries[next].column == j && entries[next].row == row)
        value = entries[next++].value;
      if (row == j && j < n) value += alpha;
      list.push_back({fmt::format("values[{}]", e), value});
    }
  }
  if (next != entries.size()) throw std::logic_error("residual Jacobian: entry outside pattern");
  // In the order of the columns: a model numbered by its structure repeats the entries of one
  // body or point from column to column, and those repetitions become loops (rolled_loops.h).
  std::string code = gen.parts.body({"residual_jacobian_values",
                                     {kP, kT, kX, in("z"), {"double", "alpha"}, out("values")},
                                     rolled_statements(symbols, list)});
  return body(code, {"t", "x", "xdot", "z", "alpha", "values"});
}

std::string dense_residual_jacobian(const Generator& gen, const ColumnPattern& pattern) {
  size_t rows = gen.n + gen.m;
  std::string code = local_array("double", "values", pattern.rowval.size()) +
                     "  residual_jacobian_values(t, x, xdot, z, 0.0, values);\n";
  for (const auto& [array, columns] :
       {std::pair<const char*, size_t>{"dr_dx", gen.n}, {"dr_dxdot", gen.n}, {"dr_dz", gen.m}}) {
    if (rows * columns > 0)
      code += fmt::format("  std::fill({0}, {0} + {1}, 0.0);\n", array, rows * columns);
  }
  code += fmt::format(
      "  for (int i = 0; i < {0}; ++i) dr_dxdot[i * {0} + i] = 1.0;\n"
      "  for (int j = 0; j < {0}; ++j) {{\n"
      "    for (int e = residual_jacobian_colptr[j]; e < residual_jacobian_colptr[j + 1]; ++e)\n"
      "      dr_dx[residual_jacobian_rowval[e] * {0} + j] = values[e];\n"
      "  }}\n"
      "  for (int j = 0; j < {1}; ++j) {{\n"
      "    for (int e = residual_jacobian_colptr[{0} + j]; e < residual_jacobian_colptr[{0} + j + "
      "1]; ++e)\n"
      "      dr_dz[residual_jacobian_rowval[e] * {1} + j] = values[e];\n"
      "  }}\n",
      gen.n, gen.m);
  return body(code, {"t", "x", "xdot", "z", "dr_dx", "dr_dxdot", "dr_dz"});
}

}  // namespace daec::function_code
