// Generating the function bodies of the Model struct.
#include "codegen/model_functions.h"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>

#include "codegen/expression_code.h"
#include "reduction/limits.h"
#include "reduction/symbolic.h"

namespace daec {

using GiNaC::ex;

namespace {

using Matrix = std::vector<std::vector<ex>>;

struct Generator {
  const ReducedSystem& system;
  const std::optional<LinearSolvePlan>& plan;
  std::vector<int> position;  ///< Z index -> position in the block triangular form
  size_t n, m;
  size_t max_expression_size = 0;  ///< of a derivative; 0: no limit
  /// dF/dX, dF/dZ and dg/dX, which rhs_jacobian and residual_jacobian both need: computed once.
  Matrix dF_dX, dF_dZ, dg_dX;

  Generator(const ReducedSystem& s, const std::optional<LinearSolvePlan>& p)
      : system(s), plan(p), n(s.states.size()), m(s.algebraic.size()) {
    if (plan) {
      position.resize(m);
      for (size_t k = 0; k < m; ++k) position[plan->blocks.col_order[k]] = static_cast<int>(k);
    }
  }

  /// t, p[k] and x[i]; Z as `z[c]` (by_position false) or as `r[position]` (true).
  SymbolCode symbols(bool z_by_position) const {
    SymbolCode code;
    code[system.context.time] = "t";
    for (size_t k = 0; k < system.context.parameters.size(); ++k) {
      code[system.context.parameters[k].symbol] = fmt::format("p[{}]", k);
    }
    for (size_t i = 0; i < n; ++i) code[system.states[i].symbol] = fmt::format("x[{}]", i);
    for (size_t c = 0; c < m; ++c) {
      code[system.algebraic[c].symbol] =
          z_by_position ? fmt::format("r[{}]", position[c]) : fmt::format("z[{}]", c);
    }
    return code;
  }

  ex F(size_t i) const { return system.differential[i].rhs; }
  ex g(size_t k) const { return system.constraints[k].residual; }
  ex h(size_t k) const { return system.invariants[k].residual; }
  const GiNaC::realsymbol& X(size_t j) const { return system.states[j].symbol; }
  const GiNaC::realsymbol& Z(size_t c) const { return system.algebraic[c].symbol; }
};

std::string statements_of(ExpressionCompiler& compiler) {
  std::string code;
  for (const std::string& s : compiler.statements()) code += "  " + s + "\n";
  return code;
}

// The identifiers the code uses, comments left out.
std::set<std::string> identifiers_in(const std::string& code) {
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::set<std::string> names;
  for (size_t pos = 0; pos < code.size();) {
    if (code.compare(pos, 2, "//") == 0) {
      pos = code.find('\n', pos);
      if (pos == std::string::npos) break;
    } else if (is_word(code[pos])) {
      size_t end = pos;
      while (end < code.size() && is_word(code[end])) ++end;
      names.insert(code.substr(pos, end - pos));
      pos = end;
    } else {
      ++pos;
    }
  }
  return names;
}

// The body with `(void)name;` for each parameter it does not use: a model without algebraic
// unknowns or invariants must not make the generated code warn about unused parameters.
std::string body(const std::string& code, std::initializer_list<const char*> parameters) {
  std::set<std::string> used = identifiers_in(code);
  std::string unused;
  for (const char* name : parameters) {
    if (used.count(name) == 0) unused += fmt::format("  (void){};\n", name);
  }
  std::string text = unused + code;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::string zero(const std::string& array, size_t count) {
  if (count == 0) return "";
  return fmt::format("  std::fill({0}, {0} + {1}, 0.0);\n", array, count);
}

// The locals and the call that compute Z (by position, into r) at the top of a function.
std::string solve_prologue(const Generator& gen, const std::string& on_failure) {
  return fmt::format(
      "  double a[kLuEntries];\n  int pivot[{0}];\n  double r[{0}];\n"
      "  if (const int status = solve_algebraic(p, t, x, a, pivot, r)) {1}\n",
      gen.m, on_failure);
}

std::string initial_state(const Generator& gen) {
  ExpressionCompiler compiler(gen.symbols(false));
  std::vector<size_t> handles;
  for (const Unknown& u : gen.system.states) handles.push_back(compiler.add(u.start));
  std::string code = statements_of(compiler);
  for (size_t i = 0; i < gen.n; ++i) {
    code += fmt::format("  x[{}] = {};  // {}\n", i, compiler.code_for(handles[i]),
                        gen.system.states[i].name);
  }
  return body(code, {"x"});
}

std::string evaluate_algebraic(const Generator& gen, size_t& operations) {
  const LinearSolvePlan& plan = *gen.plan;
  ExpressionCompiler compiler(gen.symbols(false));
  std::vector<size_t> a_handles, b_handles;
  for (const auto& [row, column] : plan.storage) {
    const ex& value = gen.system.A[plan.blocks.row_order[row]][plan.blocks.col_order[column]];
    a_handles.push_back(value.is_zero() ? SIZE_MAX : compiler.add(value));
  }
  for (size_t k = 0; k < gen.m; ++k) {
    b_handles.push_back(compiler.add(gen.system.b[plan.blocks.row_order[k]]));
  }
  std::string code = statements_of(compiler);
  for (size_t s = 0; s < plan.storage.size(); ++s) {
    std::string value = a_handles[s] == SIZE_MAX ? "0.0" : compiler.code_for(a_handles[s]);
    code += fmt::format("  a[{}] = {};\n", s, value);
  }
  for (size_t k = 0; k < gen.m; ++k) {
    code += fmt::format("  r[{}] = {};  // b of {}\n", k, compiler.code_for(b_handles[k]),
                        gen.system.constraints[plan.blocks.row_order[k]].label);
  }
  operations += compiler.operation_count();
  return body(code, {"p", "t", "x"});
}

std::string rhs(const Generator& gen, size_t& operations) {
  std::string code;
  if (gen.m > 0) code += solve_prologue(gen, "return status;");
  ExpressionCompiler compiler(gen.symbols(true));
  std::vector<size_t> handles;
  for (size_t i = 0; i < gen.n; ++i) handles.push_back(compiler.add(gen.F(i)));
  code += statements_of(compiler);
  operations += compiler.operation_count();
  for (size_t i = 0; i < gen.n; ++i) {
    code += fmt::format("  xdot[{}] = {};  // {}'\n", i, compiler.code_for(handles[i]),
                        gen.system.states[i].name);
  }
  if (gen.m > 0) {
    code += "  if (z != nullptr) {\n";
    for (size_t c = 0; c < gen.m; ++c) {
      code += fmt::format("    z[{}] = r[{}];  // {}\n", c, gen.position[c],
                          gen.system.algebraic[c].name);
    }
    code += "  }\n";
  }
  code += "  return all_finite(xdot, num_states) ? 0 : 2;\n";
  return body(code, {"t", "x", "xdot", "z"});
}

// d(row i)/d(unknown j), differentiating only by the symbols a row holds: rows of a large model
// hold few of its unknowns, and differentiating by the others would cost O(N^2) tree walks.
// `Row` is StateEquation (expression rhs) or Constraint (residual); each derivative is checked
// against the size limit, naming the row's equation and `name`, the Jacobian.
template <typename Row>
Matrix jacobian_of(const Generator& gen, const char* name, const std::vector<Row>& rows,
                   ex Row::*expression, const std::vector<Unknown>& unknowns) {
  Matrix J(rows.size(), std::vector<ex>(unknowns.size()));
  for (size_t i = 0; i < rows.size(); ++i) {
    checkpoint(rows[i].location, fmt::format("differentiating equation '{}' for the Jacobian {}",
                                             rows[i].label, name));
    const ex& e = rows[i].*expression;
    SymbolSet present = symbols_in(e);
    for (size_t j = 0; j < unknowns.size(); ++j) {
      if (!present.count(unknowns[j].symbol)) continue;
      J[i][j] = derivative(e, unknowns[j].symbol);
      check_expression(J[i][j], gen.max_expression_size);
    }
  }
  return J;
}

// Handles of the nonzero entries of `matrix` (SIZE_MAX for zeros), scaled by `sign`.
std::vector<std::vector<size_t>> add_matrix(ExpressionCompiler& compiler, const Matrix& matrix,
                                            int sign = 1) {
  std::vector<std::vector<size_t>> handles;
  for (const auto& row : matrix) {
    handles.emplace_back();
    for (const ex& e : row)
      handles.back().push_back(e.is_zero() ? SIZE_MAX : compiler.add(sign * e));
  }
  return handles;
}

// `items` as a braced list, wrapped to a width that keeps long tables readable. An empty
// list holds one unused element: C++ has no zero-length arrays.
std::string braced(const std::vector<std::string>& items, const std::string& empty) {
  if (items.empty()) return "{" + empty + "}";
  std::string text = "{", line;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string item = items[i] + (i + 1 < items.size() ? "," : "");
    if (!line.empty() && line.size() + item.size() > 90) {
      text += line + "\n     ";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + item;
  }
  return text + line + "}";
}

std::string int_table(const char* name, const std::vector<int>& values) {
  std::vector<std::string> items;
  for (int v : values) items.push_back(std::to_string(v));
  return fmt::format("  static constexpr int {}[{}] = {};\n", name,
                     std::max<size_t>(1, values.size()), braced(items, "0"));
}

std::string value_table(const char* name, const std::vector<std::string>& values) {
  return fmt::format("  const double {}[{}] = {};\n", name, std::max<size_t>(1, values.size()),
                     braced(values, "0.0"));
}

// The tables locate_algebraic_failure reads: the storage of A is sorted by row position, so
// that each position's row is one range of a.
void solver_tables(const Generator& gen, FunctionBodies& bodies) {
  const LinearSolvePlan& plan = *gen.plan;
  std::vector<std::string> starts, unknowns;
  size_t s = 0;
  for (size_t k = 0; k <= gen.m; ++k) {
    while (s < plan.storage.size() && plan.storage[s].first < static_cast<int>(k)) ++s;
    starts.push_back(std::to_string(s));
  }
  for (size_t k = 0; k < gen.m; ++k) unknowns.push_back(std::to_string(plan.blocks.col_order[k]));
  bodies.row_start =
      fmt::format("constexpr int kRowStart[{}] = {};", starts.size(), braced(starts, "0"));
  bodies.unknown_at =
      fmt::format("constexpr int kUnknownAt[{}] = {};", unknowns.size(), braced(unknowns, "0"));
  bodies.rhs_failure =
      "  if (const int status = locate_algebraic_failure(p, t, x, index)) return status;\n";
}

// The nonzeros of a Jacobian, column by column (compressed sparse columns).
struct SparseColumns {
  std::vector<int> start{0}, row;
  std::vector<std::string> value;
};

SparseColumns by_columns(const ExpressionCompiler& compiler,
                         const std::vector<std::vector<size_t>>& handles, size_t columns,
                         const std::vector<int>& row_of) {
  SparseColumns sparse;
  for (size_t j = 0; j < columns; ++j) {
    for (size_t pos = 0; pos < handles.size(); ++pos) {
      size_t handle = handles[row_of.empty() ? pos : row_of[pos]][j];
      if (handle == SIZE_MAX) continue;
      sparse.row.push_back(static_cast<int>(pos));
      sparse.value.push_back(compiler.code_for(handle));
    }
    sparse.start.push_back(static_cast<int>(sparse.row.size()));
  }
  return sparse;
}

// J = dF/dX + dF/dZ dZ/dX with dZ/dX = -A^-1 dg/dX (g = A Z - b), one column at a time from the
// factorisation of A. Table-driven, so that the code grows with the nonzeros of the Jacobians,
// not with the (dense) size of J.
std::string rhs_jacobian(const Generator& gen) {
  ExpressionCompiler compiler(gen.symbols(true));
  auto fx = add_matrix(compiler, gen.dF_dX);
  auto fz = add_matrix(compiler, gen.dF_dZ);
  auto gx = add_matrix(compiler, gen.dg_dX, -1);
  std::string code;
  if (gen.m > 0) code += solve_prologue(gen, "return status;");
  code += statements_of(compiler);
  SparseColumns dfdx = by_columns(compiler, fx, gen.n, {});
  code += "  // dF/dX by columns\n" + int_table("kFxStart", dfdx.start) +
          int_table("kFxRow", dfdx.row) + value_table("fx", dfdx.value);
  std::string loop = fmt::format(
      "  for (int j = 0; j < {0}; ++j) {{\n"
      "    for (int k = kFxStart[j]; k < kFxStart[j + 1]; ++k) J[kFxRow[k] * {0} + j] = fx[k];\n",
      gen.n);
  if (gen.m > 0) {
    SparseColumns dgdx = by_columns(compiler, gx, gen.n, gen.plan->blocks.row_order);
    std::vector<int> fz_row, fz_position;
    std::vector<std::string> fz_value;
    for (size_t i = 0; i < gen.n; ++i) {
      for (size_t cz = 0; cz < gen.m; ++cz) {
        if (fz[i][cz] == SIZE_MAX) continue;
        fz_row.push_back(static_cast<int>(i));
        fz_position.push_back(gen.position[cz]);
        fz_value.push_back(compiler.code_for(fz[i][cz]));
      }
    }
    code += "  // -dg/dX by columns, rows by position in the solve\n" +
            int_table("kGxStart", dgdx.start) + int_table("kGxPosition", dgdx.row) +
            value_table("gx", dgdx.value) + "  // dF/dZ by entries\n" +
            int_table("kFzRow", fz_row) + int_table("kFzPosition", fz_position) +
            value_table("fz", fz_value) + fmt::format("  double dz[{}];\n", gen.m);
    loop += fmt::format(
        "    if (kGxStart[j] == kGxStart[j + 1]) continue;  // Z does not depend on x[j]\n"
        "    std::fill(dz, dz + {0}, 0.0);\n"
        "    for (int k = kGxStart[j]; k < kGxStart[j + 1]; ++k) dz[kGxPosition[k]] = gx[k];\n"
        "    solve_A(a, pivot, dz);\n"
        "    for (int k = 0; k < {1}; ++k) J[kFzRow[k] * {2} + j] += fz[k] * dz[kFzPosition[k]];\n",
        gen.m, fz_value.size(), gen.n);
  }
  code += zero("J", gen.n * gen.n) + loop + "  }\n";
  code += fmt::format("  return all_finite(J, {}) ? 0 : 2;\n", gen.n * gen.n);
  return body(code, {"t", "x", "J"});
}

std::string residual(const Generator& gen) {
  ExpressionCompiler compiler(gen.symbols(false));
  std::vector<size_t> f, g;
  for (size_t i = 0; i < gen.n; ++i) f.push_back(compiler.add(gen.F(i)));
  for (size_t k = 0; k < gen.m; ++k) g.push_back(compiler.add(gen.g(k)));
  std::string code = statements_of(compiler);
  for (size_t i = 0; i < gen.n; ++i) {
    const std::string& value = compiler.code_for(f[i]);
    bool simple = value.find(' ') == std::string::npos && value[0] != '-';
    code += fmt::format("  r[{0}] = xdot[{0}] - {1};\n", i, simple ? value : "(" + value + ")");
  }
  for (size_t k = 0; k < gen.m; ++k) {
    code += fmt::format("  r[{}] = {};  // {}\n", gen.n + k, compiler.code_for(g[k]),
                        gen.system.constraints[k].label);
  }
  return body(code, {"t", "x", "xdot", "z", "r"});
}

std::string assign_matrix(ExpressionCompiler& compiler, const std::string& array,
                          const std::vector<std::vector<size_t>>& handles, size_t first_row,
                          size_t columns) {
  std::string code;
  for (size_t i = 0; i < handles.size(); ++i) {
    for (size_t j = 0; j < handles[i].size(); ++j) {
      if (handles[i][j] == SIZE_MAX) continue;
      code += fmt::format("  {}[{}] = {};\n", array, (first_row + i) * columns + j,
                          compiler.code_for(handles[i][j]));
    }
  }
  return code;
}

std::string residual_jacobian(const Generator& gen) {
  size_t rows = gen.n + gen.m;
  ExpressionCompiler compiler(gen.symbols(false));
  auto fx = add_matrix(compiler, gen.dF_dX, -1);
  auto gx = add_matrix(compiler, gen.dg_dX);
  auto fz = add_matrix(compiler, gen.dF_dZ, -1);
  auto gz = add_matrix(compiler, jacobian_of(gen, "dg/dZ", gen.system.constraints,
                                             &Constraint::residual, gen.system.algebraic));
  std::string code = statements_of(compiler);
  code +=
      zero("dr_dx", rows * gen.n) + zero("dr_dxdot", rows * gen.n) + zero("dr_dz", rows * gen.m);
  for (size_t i = 0; i < gen.n; ++i) code += fmt::format("  dr_dxdot[{}] = 1.0;\n", i * gen.n + i);
  code += assign_matrix(compiler, "dr_dx", fx, 0, gen.n) +
          assign_matrix(compiler, "dr_dx", gx, gen.n, gen.n) +
          assign_matrix(compiler, "dr_dz", fz, 0, gen.m) +
          assign_matrix(compiler, "dr_dz", gz, gen.n, gen.m);
  return body(code, {"t", "x", "xdot", "z", "dr_dx", "dr_dxdot", "dr_dz"});
}

std::string invariants(const Generator& gen) {
  ExpressionCompiler compiler(gen.symbols(false));
  std::vector<size_t> handles;
  for (size_t k = 0; k < gen.system.invariants.size(); ++k)
    handles.push_back(compiler.add(gen.h(k)));
  std::string code = statements_of(compiler);
  for (size_t k = 0; k < handles.size(); ++k) {
    code += fmt::format("  h[{}] = {};  // {}\n", k, compiler.code_for(handles[k]),
                        gen.system.invariants[k].label);
  }
  return body(code, {"t", "x", "h"});
}

std::string invariants_jacobian(const Generator& gen) {
  size_t k = gen.system.invariants.size();
  ExpressionCompiler compiler(gen.symbols(false));
  auto H = add_matrix(compiler, jacobian_of(gen, "dh/dX", gen.system.invariants,
                                            &Constraint::residual, gen.system.states));
  std::string code = statements_of(compiler) + zero("H", k * gen.n);
  code += assign_matrix(compiler, "H", H, 0, gen.n);
  return body(code, {"t", "x", "H"});
}

std::string outputs(const Generator& gen) {
  const auto& list = gen.system.context.outputs;
  bool needs_z = false;
  for (const Output& o : list) {
    for (size_t c = 0; c < gen.m; ++c) needs_z = needs_z || o.value.has(gen.Z(c));
  }
  std::string code;
  if (needs_z) {
    code += solve_prologue(
        gen, fmt::format("{{\n    std::fill(y, y + {}, std::numeric_limits<double>::quiet_NaN());"
                         "\n    return;\n  }}",
                         list.size()));
  }
  ExpressionCompiler compiler(gen.symbols(true));
  std::vector<size_t> handles;
  for (const Output& o : list) handles.push_back(compiler.add(o.value));
  code += statements_of(compiler);
  for (size_t q = 0; q < list.size(); ++q) {
    code += fmt::format("  y[{}] = {};  // {}\n", q, compiler.code_for(handles[q]), list[q].name);
  }
  return body(code, {"t", "x", "y"});
}

}  // namespace

// Before each function: the stage, for the messages of the time limit (codegen concerns the
// model as a whole; the caller names the file).
static void generating(const char* function) {
  checkpoint(SourceLocation{}, fmt::format("generating the code of {}", function));
}

FunctionBodies function_bodies(const ReducedSystem& system,
                               const std::optional<LinearSolvePlan>& plan,
                               size_t max_expression_size) {
  Generator gen(system, plan);
  gen.max_expression_size = max_expression_size;
  gen.dF_dX = jacobian_of(gen, "dF/dX", system.differential, &StateEquation::rhs, system.states);
  gen.dF_dZ = jacobian_of(gen, "dF/dZ", system.differential, &StateEquation::rhs, system.algebraic);
  gen.dg_dX = jacobian_of(gen, "dg/dX", system.constraints, &Constraint::residual, system.states);
  FunctionBodies bodies;
  generating("initial_state");
  bodies.initial_state = initial_state(gen);
  generating("rhs");
  if (plan) {
    bodies.evaluate_algebraic = evaluate_algebraic(gen, bodies.rhs_operations);
    solver_tables(gen, bodies);
  }
  bodies.rhs = rhs(gen, bodies.rhs_operations);
  generating("rhs_jacobian");
  bodies.rhs_jacobian = rhs_jacobian(gen);
  generating("residual");
  bodies.residual = residual(gen);
  generating("residual_jacobian");
  bodies.residual_jacobian = residual_jacobian(gen);
  generating("invariants");
  bodies.invariants = invariants(gen);
  generating("invariants_jacobian");
  bodies.invariants_jacobian = invariants_jacobian(gen);
  generating("outputs");
  bodies.outputs = outputs(gen);
  return bodies;
}

}  // namespace daec
