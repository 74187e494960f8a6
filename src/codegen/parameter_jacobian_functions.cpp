// The derivatives in the parameters (docs/generated-code.md, "Parameter Jacobians"): dr/dp of the
// residual and dh/dp of the invariants from their partial derivatives in p, made total at run time
// through the bindings still bound (parameter_chain.h); d(X')/dp from dr/dp through the solve of
// A Z = b, dZ/dp = -A^-1 dg/dp with the factors rhs makes. By columns, and dense as scatters of
// those values. Only the partial derivatives are new expressions: d(X')/dp reuses dr/dp and the
// iteration matrix (its dF/dZ), so that the generated code grows by little.
#include <fmt/format.h>

#include "codegen/code_tables.h"
#include "codegen/function_families.h"
#include "codegen/parameter_chain.h"
#include "reduction/limits.h"

namespace daec::function_code {

using GiNaC::ex;

namespace {

// Column c of a derivative in p made total: column c of the partial derivative plus, over the
// bindings that read p[c] (of parameters q after c), d binding_q / d p[c] times column q made
// total, from the last parameter to the first. The weights follow parameter_bound, so a binding
// that set_parameter has cut contributes nothing.
const char* const kChainColumns =
    R"(// d binding_q / d p[j] for each binding entry (q = kBindingOwner[entry]).
void binding_derivatives(const double* p, double* bp) {
%s}

// The columns of a derivative in p, total through the bindings still bound, from the partial
// derivative d (its entries d[k] in rows row[k], k from start[c] to start[c + 1] - 1) into the
// entries (colptr, rowval) of values: column c is column c of d plus, for each binding b that
// reads p[c] (kFollowerEntry) whose owner q = kBindingOwner[b] is still bound, d binding_q /
// d p[c] times column q of values, made total before c (q > c).
void chain_columns(const double* p, const bool* bound, const int* start, const int* row,
                   const double* d, const int* colptr, const int* rowval, int rows,
                   double* values) {
  (void)bound;
  std::vector<double> bp(kBindingEntries > 0 ? kBindingEntries : 1),
      w(static_cast<size_t>(rows));
  binding_derivatives(p, bp.data());
  for (int c = Model::num_parameters - 1; c >= 0; --c) {
    if (colptr[c] == colptr[c + 1]) continue;  // no entry of the column can be nonzero
    for (int k = start[c]; k < start[c + 1]; ++k) w[row[k]] += d[k];
    if constexpr (kBindingEntries > 0) {  // (g++ -O2 warns about reading an empty table)
      for (int f = kFollowerStart[c]; f < kFollowerStart[c + 1]; ++f) {
        const int b = kFollowerEntry[f], q = kBindingOwner[b];
        if (!bound[q]) continue;
        for (int e = colptr[q]; e < colptr[q + 1]; ++e) w[rowval[e]] += bp[b] * values[e];
      }
    }
    for (int e = colptr[c]; e < colptr[c + 1]; ++e) {
      values[e] = w[rowval[e]];
      w[rowval[e]] = 0.0;
    }
  }
}

)";

// d(X')/dp from dr/dp = [-dF/dp; dg/dp] and, for dF/dZ, the iteration matrix at alpha = 0.
const char* const kRhsParameterColumns =
    R"(// The constraint of A Z = b solved at each position, inverted: the position of each constraint.
%s
// d(X')/dp by columns: dZ/dp = -A^-1 dg/dp solved with the factors of A (a, pivot), then
// d(X')/dp = dF/dp + dF/dZ dZ/dp; rp holds dr/dp = [-dF/dp; dg/dp] and jv the iteration matrix
// at alpha = 0, whose rows of F in the columns of Z are -dF/dZ.
void rhs_parameter_columns(const double* a, const int* pivot, const double* rp, const double* jv,
                           double* values) {
  constexpr int n = Model::num_states, m = Model::num_algebraic;
  std::vector<double> w(n > 0 ? n : 1), dz(m);
  for (int c = 0; c < Model::num_parameters; ++c) {
    if (Model::rhs_parameter_jacobian_colptr[c] == Model::rhs_parameter_jacobian_colptr[c + 1])
      continue;
    std::fill(w.begin(), w.end(), 0.0);
    bool solve = false;
    for (int e = Model::residual_parameter_jacobian_colptr[c];
         e < Model::residual_parameter_jacobian_colptr[c + 1]; ++e) {
      const int i = Model::residual_parameter_jacobian_rowval[e];
      if (i < n) {
        w[i] = 0.0 - rp[e];  // (not -rp[e]: no -0.0 in the results)
      } else {
        dz[kConstraintPosition[i - n]] = -rp[e];
        solve = true;
      }
    }
    if (solve) {
      solve_A(a, pivot, dz.data());
      for (int k = 0; k < m; ++k) {
        const int column = n + kUnknownAt[k];
        for (int e = Model::residual_jacobian_colptr[column];
             e < Model::residual_jacobian_colptr[column + 1] &&
             Model::residual_jacobian_rowval[e] < n;
             ++e)
          w[Model::residual_jacobian_rowval[e]] -= jv[e] * dz[k];
      }
      std::fill(dz.begin(), dz.end(), 0.0);
    }
    for (int e = Model::rhs_parameter_jacobian_colptr[c];
         e < Model::rhs_parameter_jacobian_colptr[c + 1]; ++e)
      values[e] = w[Model::rhs_parameter_jacobian_rowval[e]];
  }
}

)";

std::vector<Unknown> parameter_unknowns(const ReducedSystem& system) {
  std::vector<Unknown> unknowns;
  for (const Parameter& parameter : system.context.parameters) {
    Unknown u;
    u.name = parameter.name;
    u.symbol = parameter.symbol;
    unknowns.push_back(u);
  }
  return unknowns;
}

// The partial derivatives of `rows` in p by columns, checked against the limits.
ColumnEntries partials_in_p(const Generator& gen, const char* name, const std::vector<ex>& rows) {
  ExpressionMatrix matrix = jacobian_matrix(
      rows, parameter_unknowns(gen.system),
      [&](size_t) {
        checkpoint(SourceLocation{}, fmt::format("differentiating the {} in the parameters", name));
      },
      [&](const ex& value) { check_expression(value, gen.max_expression_size); });
  return by_columns(matrix);
}

ColumnPattern pattern_of(const ColumnEntries& entries, size_t rows) {
  ColumnPattern pattern;
  pattern.rows = static_cast<int>(rows);
  pattern.colptr = entries.start;
  pattern.rowval = entries.row;
  return pattern;
}

// A chained derivative's values (the body of NAME_values): its partial derivatives evaluated into
// d, then made total by chain_columns. Its tables (kNAMEStart, kNAMERow) go to `tables`.
std::string chained_values(Generator& gen, const std::string& name, const std::string& table,
                           const ColumnEntries& partial, const ColumnPattern& total,
                           std::vector<CodeParameter> parameters, std::string& tables) {
  if (total.nonzeros() == 0) return "";
  tables += constant_table("k" + table + "Start", partial.start) +
            constant_table("k" + table + "Row", partial.row);
  parameters.push_back(out("d"));
  std::string code = local_array("double", "d", partial.row.size()) +
                     gen.parts.body({name + "_values", parameters,
                                     assignment_statements(gen.symbols(false),
                                                           array_assignments("d", partial.value))});
  return code + fmt::format(
                    "  chain_columns(p, parameter_bound, k{0}Start, k{0}Row, d,\n"
                    "                {1}_colptr, {1}_rowval, {2}, values);\n",
                    table, name, total.rows);
}

// The dense form of NAME (rows x num_parameters, row-major) from NAME_values; `call` is the
// call's arguments before `values`.
std::string dense_scatter(const std::string& name, const std::string& call, size_t rows,
                          size_t parameters, size_t nonzeros, const char* matrix,
                          bool returns_status) {
  std::string code = local_array("double", "values", nonzeros, true) +
                     (returns_status ? "  const int status = " : "  ") + name + "_values(" + call +
                     "values);\n";
  if (rows * parameters > 0)
    code += fmt::format("  std::fill({0}, {0} + {1}, 0.0);\n", matrix, rows * parameters);
  code += fmt::format(
      "  const int *colptr = {1}_colptr, *rowval = {1}_rowval;\n"
      "  for (int j = 0; j < {0}; ++j) {{\n"
      "    for (int e = colptr[j]; e < colptr[j + 1]; ++e) {2}[rowval[e] * {0} + j] = values[e];\n"
      "  }}\n",
      parameters, name, matrix);
  return code + (returns_status ? "  return status;\n" : "");
}

// The body of rhs_parameter_jacobian_values: Z solved (its status returned on failure), dr/dp
// and the iteration matrix at that Z, then rhs_parameter_columns; without algebraic unknowns
// d(X')/dp is -dr/dp.
std::string rhs_parameter_values(const Generator& gen, const FunctionBodies& bodies) {
  size_t nonzeros = bodies.rhs_parameter_pattern.rowval.size();
  std::string code;
  if (gen.m > 0) code += solve_prologue(gen, "return status;", true);
  if (nonzeros == 0) return body(code + "  return 0;\n", {"t", "x", "values"});
  if (gen.m == 0) {
    code +=
        "  residual_parameter_jacobian_values(t, x, nullptr, nullptr, values);\n"
        "  for (int e = 0; e < rhs_parameter_jacobian_nnz; ++e) values[e] = 0.0 - values[e];\n";
  } else {
    code += local_array("double", "z", gen.m) +
            fmt::format("  for (int k = 0; k < {}; ++k) z[kUnknownAt[k]] = r[k];\n", gen.m) +
            local_array("double", "rp", bodies.residual_parameter_pattern.rowval.size()) +
            local_array("double", "jv", bodies.residual_pattern.rowval.size()) +
            "  residual_parameter_jacobian_values(t, x, nullptr, z, rp);\n"
            "  residual_jacobian_values(t, x, nullptr, z, 0.0, jv);\n"
            "  rhs_parameter_columns(a, pivot, rp, jv, values);\n";
  }
  return body(code + "  return all_finite(values, rhs_parameter_jacobian_nnz) ? 0 : 2;\n",
              {"t", "x", "values"});
}

// The pattern of d(X')/dp: dF/dp, and the rows of F that read the blocks of A which dg/dp
// reaches (rhs_jacobian_pattern with the columns of p).
ColumnPattern rhs_parameter_pattern(const Generator& gen, const ColumnPattern& residual) {
  if (gen.m == 0) return residual;
  std::vector<std::pair<int, int>> f_entries, g_entries;
  int n = static_cast<int>(gen.n);
  for (int c = 0; c < residual.cols(); ++c) {
    for (int e = residual.colptr[c]; e < residual.colptr[c + 1]; ++e) {
      int row = residual.rowval[e];
      (row < n ? f_entries : g_entries).push_back({row < n ? row : row - n, c});
    }
  }
  SystemPatterns patterns = gen.patterns();
  patterns.F_X = SparsityPattern::from_entries(n, residual.cols(), f_entries);
  patterns.g_X = SparsityPattern::from_entries(static_cast<int>(gen.m), residual.cols(), g_entries);
  AlgebraicReach reach = algebraic_reach(patterns, *gen.plan, kMaxReachWork);
  return *rhs_jacobian_pattern(patterns, &*gen.plan, &reach, SIZE_MAX);
}

// The namespace-scope tables of the chains and the functions that use them.
std::string chain_support(Generator& gen, const ParameterChain& chain) {
  std::string statements;
  for (const std::string& s :
       assignment_statements(gen.symbols(false), array_assignments("bp", chain.binding_value)))
    statements += s;
  if (chain.binding_value.empty()) statements = "  (void)p;\n  (void)bp;\n";
  std::string functions = kChainColumns;
  functions.replace(functions.find("%s"), 2, statements);
  return "// The bindings of the parameters (docs/generated-code.md, \"Parameter Jacobians\"): "
         "the\n// bindings that read p[c] are the entries kFollowerEntry[f], f from "
         "kFollowerStart[c] to\n// kFollowerStart[c + 1] - 1, each the binding of parameter "
         "kBindingOwner[entry]\n" +
         constant_table("kBindingOwner", chain.binding_owner) +
         constant_table("kFollowerStart", chain.follower_start) +
         constant_table("kFollowerEntry", chain.follower_entry) +
         fmt::format("constexpr int kBindingEntries = {};\n", chain.binding_parameter.size()) +
         "\n" + functions;
}

}  // namespace

void parameter_jacobians(Generator& gen, FunctionBodies& bodies) {
  const ReducedSystem& system = gen.system;
  std::vector<ex> residual_rows, invariant_rows;
  for (const StateEquation& f : system.differential) residual_rows.push_back(-f.rhs);
  for (const Constraint& g : system.constraints) residual_rows.push_back(g.residual);
  for (const Constraint& h : system.invariants) invariant_rows.push_back(h.residual);
  ColumnEntries dr_dp = partials_in_p(gen, "residual", residual_rows);
  ColumnEntries dh_dp = partials_in_p(gen, "invariants", invariant_rows);
  ParameterChain chain = parameter_chain(system.context);
  bodies.residual_parameter_pattern = chained_pattern(pattern_of(dr_dp, gen.n + gen.m), chain);
  bodies.invariants_parameter_pattern = chained_pattern(pattern_of(dh_dp, gen.k), chain);
  bodies.rhs_parameter_pattern = rhs_parameter_pattern(gen, bodies.residual_parameter_pattern);

  std::string tables;
  bodies.residual_parameter_jacobian_values =
      body(chained_values(gen, "residual_parameter_jacobian", "ResidualP", dr_dp,
                          bodies.residual_parameter_pattern, {kP, kT, kX, in("z")}, tables),
           {"t", "x", "xdot", "z", "values"});
  bodies.invariants_parameter_jacobian_values =
      body(chained_values(gen, "invariants_parameter_jacobian", "InvariantsP", dh_dp,
                          bodies.invariants_parameter_pattern, {kP, kT, kX}, tables),
           {"t", "x", "values"});
  bodies.rhs_parameter_jacobian_values = rhs_parameter_values(gen, bodies);
  if (!tables.empty()) {
    bodies.parameter_jacobian_support =
        "// The partial derivatives in p by columns (parameters): dr/dp, dh/dp\n" + tables +
        chain_support(gen, chain);
  }
  if (gen.m > 0 && bodies.rhs_parameter_pattern.nonzeros() > 0) {
    std::string columns = kRhsParameterColumns;
    columns.replace(columns.find("%s"), 2,
                    constant_table("kConstraintPosition", constraint_positions(gen)));
    bodies.parameter_jacobian_support += columns;
  }
  if (!bodies.dense_jacobians) return;
  size_t parameters = system.context.parameters.size();
  bodies.rhs_parameter_jacobian =
      body(dense_scatter("rhs_parameter_jacobian", "t, x, ", gen.n, parameters,
                         bodies.rhs_parameter_pattern.rowval.size(), "J", true),
           {"t", "x", "J"});
  bodies.residual_parameter_jacobian =
      body(dense_scatter("residual_parameter_jacobian", "t, x, xdot, z, ", gen.n + gen.m,
                         parameters, bodies.residual_parameter_pattern.rowval.size(), "J", false),
           {"t", "x", "xdot", "z", "J"});
  bodies.invariants_parameter_jacobian =
      body(dense_scatter("invariants_parameter_jacobian", "t, x, ", gen.k, parameters,
                         bodies.invariants_parameter_pattern.rowval.size(), "J", false),
           {"t", "x", "J"});
}

}  // namespace daec::function_code
