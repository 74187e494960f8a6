// Generating the function bodies of the Model struct.
#include "codegen/model_functions.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "codegen/code_tables.h"
#include "codegen/condition_code.h"
#include "codegen/expression_code.h"
#include "codegen/gram_cholesky.h"
#include "reduction/limits.h"
#include "reduction/symbolic.h"

namespace daec {

using GiNaC::ex;

namespace {

// The parameters the generated functions pass to their parts.
const CodeParameter kP{"const double*", "p"}, kT{"double", "t"}, kX{"const double*", "x"};

CodeParameter in(const char* name) {
  return {"const double*", name};
}
CodeParameter out(const char* name) {
  return {"double*", name};
}

struct Generator {
  const ReducedSystem& system;
  const std::optional<LinearSolvePlan>& plan;
  FunctionParts& parts;
  std::vector<int> position;  ///< Z index -> position in the block triangular form
  size_t n, m, k;
  size_t max_expression_size = 0;  ///< of a derivative; 0: no limit
  /// The derivative blocks every Jacobian is made of (dg/dZ is system.A): computed once.
  ExpressionMatrix dF_dX, dF_dZ, dg_dX, dh_dX;

  Generator(const ReducedSystem& s, const std::optional<LinearSolvePlan>& p, FunctionParts& f)
      : system(s),
        plan(p),
        parts(f),
        n(s.states.size()),
        m(s.algebraic.size()),
        k(s.invariants.size()) {
    if (plan) {
      position.resize(m);
      for (size_t c = 0; c < m; ++c) position[plan->blocks.col_order[c]] = static_cast<int>(c);
    }
  }

  /// t, p[k] and x[i]; Z as `z[c]` (by_position false) or as `r[position]` (true); the
  /// relations as their modes (condition_code.h).
  SymbolCode symbols(bool z_by_position) const {
    SymbolCode code;
    code[system.context.time] = "t";
    for (size_t i = 0; i < system.context.parameters.size(); ++i) {
      code[system.context.parameters[i].symbol] = fmt::format("p[{}]", i);
    }
    for (size_t i = 0; i < n; ++i) code[system.states[i].symbol] = fmt::format("x[{}]", i);
    for (size_t c = 0; c < m; ++c) {
      code[system.algebraic[c].symbol] =
          z_by_position ? fmt::format("r[{}]", position[c]) : fmt::format("z[{}]", c);
    }
    add_condition_modes(system, code);
    return code;
  }

  SystemPatterns patterns() const {
    return {dF_dX.pattern(), dF_dZ.pattern(), dg_dX.pattern(), system.A.pattern(), dh_dX.pattern()};
  }
};

// `target = prefix (value)`, with a comment; the value 0 is not compiled.
struct Assignment {
  std::string target;
  ex value;
  std::string comment = "";
  std::string prefix = "";  ///< e.g. "xdot[3] - "
};

// The statements that compute every assignment, their expressions compiled together (common
// subexpressions once); each assignment comes right after the last temporary it needs, so that
// the temporaries of a long function are mostly used where they are made (function_parts.h).
std::vector<std::string> assignment_statements(const SymbolCode& symbols,
                                               const std::vector<Assignment>& list,
                                               size_t* operations = nullptr) {
  ExpressionCompiler compiler(symbols);
  std::vector<size_t> handles;
  for (const Assignment& a : list)
    handles.push_back(a.value.is_zero() ? SIZE_MAX : compiler.add(a.value));
  std::vector<std::string> temporaries = compiler.statements();
  if (operations) *operations += compiler.operation_count();
  std::vector<std::string> statements;
  size_t emitted = 0, needed = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const Assignment& a = list[i];
    std::string code = handles[i] == SIZE_MAX ? "0.0" : compiler.code_for(handles[i]);
    for (long w : temporaries_in(code)) needed = std::max(needed, static_cast<size_t>(w) + 1);
    for (; emitted < needed; ++emitted) statements.push_back("  " + temporaries[emitted] + "\n");
    if (!a.prefix.empty()) {
      bool simple = code.find(' ') == std::string::npos && code[0] != '-';
      code = a.prefix + (simple ? code : "(" + code + ")");
    }
    std::string comment = a.comment.empty() ? "" : "  // " + a.comment;
    statements.push_back(fmt::format("  {} = {};{}\n", a.target, code, comment));
  }
  for (; emitted < temporaries.size(); ++emitted)
    statements.push_back("  " + temporaries[emitted] + "\n");
  return statements;
}

// The body with `(void)name;` for each parameter it does not use: a model without algebraic
// unknowns or invariants must not make the generated code warn about unused parameters.
std::string body(const std::string& code, std::initializer_list<const char*> parameters) {
  std::string unused;
  for (const char* name : parameters) {
    if (!uses_name(code, name)) unused += fmt::format("  (void){};\n", name);
  }
  std::string text = unused + code;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// The locals and the call that compute Z (by position, into r) at the top of a function.
// `pivot` is zeroed when the function hands it on (factor_A leaves it unset when no block needs
// row exchanges, and compilers warn about passing it on so).
std::string solve_prologue(const Generator& gen, const std::string& on_failure,
                           bool zero_pivot = false) {
  return local_array("double", "a", gen.plan->storage.size()) +
         local_array("int", "pivot", gen.m, zero_pivot) + local_array("double", "r", gen.m) +
         fmt::format("  if (const int status = solve_algebraic(p, t, x, a, pivot, r)) {}\n",
                     on_failure);
}

// `target[i] = value` of each unknown, in terms of the parameters: the start values of X
// (initial_state) and of Z (initial_algebraic: the dummies' are 0; the values that fixed
// algebraic unknowns must take), the nominal values of X (state_nominal: 0 where none is given).
std::string unknown_values(Generator& gen, const char* function, const char* target,
                           const std::vector<Unknown>& unknowns, ex Unknown::*value) {
  std::vector<Assignment> list;
  for (size_t i = 0; i < unknowns.size(); ++i)
    list.push_back({fmt::format("{}[{}]", target, i), unknowns[i].*value, unknowns[i].name});
  std::string code = gen.parts.body(
      {function, {kP, out(target)}, assignment_statements(gen.symbols(false), list)});
  return body(code, {target});
}

// The model's derivative symbols (x', x'') as the generated functions have them: the velocity
// state x[i] where the first-order stage made one, else xdot[i] of the state it is the
// derivative of. Returns the symbols mapped to xdot (a function using them computes rhs first).
SymbolSet add_model_derivatives(const ReducedSystem& system, SymbolCode& code) {
  std::map<std::string, size_t> state_at, velocity_of;  // by state name
  for (size_t i = 0; i < system.states.size(); ++i) {
    const Unknown& u = system.states[i];
    state_at[u.name] = i;
    if (u.origin == UnknownOrigin::Velocity) velocity_of[u.derivative_of] = i;
  }
  SymbolSet from_xdot;
  for (const ModelDerivative& d : system.context.derivatives) {
    auto it = state_at.find(d.variable);
    if (it == state_at.end()) continue;  // not a state: the front end lets no function use it
    size_t u = it->second;
    bool found = true;
    for (int k = 1; k < d.order && found; ++k) {
      auto next = velocity_of.find(system.states[u].name);
      found = next != velocity_of.end();
      if (found) u = next->second;
    }
    if (!found) continue;
    auto velocity = velocity_of.find(system.states[u].name);
    if (velocity != velocity_of.end()) {
      code[d.symbol] = fmt::format("x[{}]", velocity->second);
    } else {
      code[d.symbol] = fmt::format("xdot[{}]", u);
      from_xdot.insert(d.symbol);
    }
  }
  return from_xdot;
}

bool holds_any(const GiNaC::ex& e, const SymbolSet& symbols) {
  if (symbols.empty()) return false;
  for (const GiNaC::ex& symbol : symbols_in(e))
    if (symbols.count(symbol)) return true;
  return false;
}

// The residuals lhs - rhs of the initial equations at (t, X) with X' and Z given.
std::string initial_equations(Generator& gen) {
  SymbolCode symbols = gen.symbols(false);
  add_model_derivatives(gen.system, symbols);
  std::vector<Assignment> list;
  const std::vector<Equation>& equations = gen.system.context.initial_equations;
  for (size_t i = 0; i < equations.size(); ++i)
    list.push_back({fmt::format("r[{}]", i), equations[i].residual(), equations[i].label});
  std::string code = gen.parts.body({"initial_equations",
                                     {kP, kT, kX, in("xdot"), in("z"), out("r")},
                                     assignment_statements(symbols, list)});
  return body(code, {"t", "x", "xdot", "z", "r"});
}

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

// The tables locate_algebraic_failure and rhs read: the storage of A is sorted by row
// position, so that each position's row is one range of a.
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

// The entries of `matrix` column by column, each with its row (mapped through `row_of` if it
// is not empty) and value times `sign`, rows increasing within a column.
struct ColumnEntries {
  std::vector<int> start{0}, row;
  std::vector<ex> value;
};

ColumnEntries by_columns(const ExpressionMatrix& matrix, const std::vector<int>& row_of = {},
                         int sign = 1) {
  std::vector<std::vector<std::pair<int, ex>>> columns(matrix.cols());
  for (size_t i = 0; i < matrix.rows(); ++i) {
    int row = row_of.empty() ? static_cast<int>(i) : row_of[i];
    for (const MatrixEntry& e : matrix.row(i)) columns[e.column].push_back({row, sign * e.value});
  }
  ColumnEntries result;
  for (auto& column : columns) {
    std::stable_sort(column.begin(), column.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [row, value] : column) {
      result.row.push_back(row);
      result.value.push_back(value);
    }
    result.start.push_back(static_cast<int>(result.row.size()));
  }
  return result;
}

std::vector<Assignment> array_assignments(const char* array, const std::vector<ex>& values) {
  std::vector<Assignment> list;
  for (size_t i = 0; i < values.size(); ++i)
    list.push_back({fmt::format("{}[{}]", array, i), values[i]});
  return list;
}

// The positions (in A's block triangular order) of the constraints.
std::vector<int> constraint_positions(const Generator& gen) {
  std::vector<int> position(gen.m);
  for (size_t i = 0; i < gen.m; ++i) position[gen.plan->blocks.row_order[i]] = static_cast<int>(i);
  return position;
}

// The entries of dF/dZ grouped by the block of A their unknown is solved in: (row of F,
// position of the unknown) and the value, with the start of each block's group.
struct BlockedEntries {
  std::vector<int> row, position, block_start{0};
  std::vector<ex> value;
};

BlockedEntries dF_dZ_by_block(const Generator& gen) {
  const BlockTriangularForm& blocks = gen.plan->blocks;
  std::vector<std::vector<std::array<int, 2>>> groups(blocks.block_count());
  std::vector<std::vector<ex>> values(blocks.block_count());
  std::vector<int> block_of(gen.m);
  for (int b = 0; b < blocks.block_count(); ++b) {
    for (int i = blocks.block_start[b]; i < blocks.block_start[b + 1]; ++i) block_of[i] = b;
  }
  for (size_t i = 0; i < gen.n; ++i) {
    for (const MatrixEntry& e : gen.dF_dZ.row(i)) {
      int pos = gen.position[e.column];
      groups[block_of[pos]].push_back({static_cast<int>(i), pos});
      values[block_of[pos]].push_back(e.value);
    }
  }
  BlockedEntries result;
  for (size_t b = 0; b < groups.size(); ++b) {
    for (size_t e = 0; e < groups[b].size(); ++e) {
      result.row.push_back(groups[b][e][0]);
      result.position.push_back(groups[b][e][1]);
      result.value.push_back(values[b][e]);
    }
    result.block_start.push_back(static_cast<int>(result.row.size()));
  }
  return result;
}

// The code that adds column j of d(X')/dX to w when A Z = b is empty: dF/dX alone.
// Loops over a table that is empty (its one placeholder entry) are discarded by `if constexpr`:
// g++ -O2 otherwise warns (-Warray-bounds) about the indices they would read.
const char* const kAddFxColumn =
    "  (void)j;\n"
    "  (void)w;\n"
    "  if constexpr (kFxEntries > 0) {\n"
    "    for (int k = kFxStart[j]; k < kFxStart[j + 1]; ++k) w[kFxRow[k]] += fx[k];\n"
    "  } else {\n"
    "    (void)fx;\n"
    "  }\n";

// solve_A restricted to one block, by the table of its operations (see SolveOperations).
const char* const kSolveBlock =
    "// solve_A restricted to block b, by the table of its operations.\n"
    "void solve_block(int b, const double* a, const int* pivot, double* r) {\n"
    "  if constexpr (kSolveOps > 0) {\n"
    "    for (int o = kSolveOpStart[b]; o < kSolveOpStart[b + 1]; ++o) {\n"
    "      const int i = kSolveOp[o][0], e = kSolveOp[o][1], j = kSolveOp[o][2];\n"
    "      if (e >= 0) {\n"
    "        r[i] -= a[e] * r[j];\n"
    "      } else if (e == -1) {\n"
    "        std::swap(r[i], r[pivot[i]]);\n"
    "      } else {\n"
    "        r[i] *= a[-2 - e];\n"
    "      }\n"
    "    }\n"
    "  } else {\n"
    "    (void)b, (void)a, (void)pivot, (void)r;\n"
    "  }\n"
    "}\n\n";

const char* const kAddColumnWithZ =
    "// Adds column j of d(X')/dX to w: dF/dX, and dF/dZ dZ/dx[j] with A dZ/dx[j] = -dg/dx[j]\n"
    "// solved only in the blocks of A that x[j] reaches (dz is 0 on entry and on return).\n"
    "void add_rhs_jacobian_column(int j, const double* a, const int* pivot, const double* fx,\n"
    "                             const double* gx, const double* fz, double* dz, double* w) {\n"
    "%s"
    "  if constexpr (kGxEntries > 0 && kReachRuns > 0) {\n"
    "    if (kGxStart[j] == kGxStart[j + 1]) return;  // Z does not depend on x[j]\n"
    "    for (int k = kGxStart[j]; k < kGxStart[j + 1]; ++k) dz[kGxPosition[k]] = gx[k];\n"
    "    for (int e = kReachStart[j]; e < kReachStart[j + 1]; ++e) {\n"
    "      for (int b = kReach[e][0]; b < kReach[e][1]; ++b) solve_block(b, a, pivot, dz);\n"
    "    }\n"
    "    for (int e = kReachStart[j]; e < kReachStart[j + 1]; ++e) {\n"
    "      for (int b = kReach[e][0]; b < kReach[e][1]; ++b) {\n"
    "        for (int k = kFzBlockStart[b]; k < kFzBlockStart[b + 1]; ++k)\n"
    "          w[kFzRow[k]] += fz[k] * dz[kFzPosition[k]];\n"
    "        for (int i = kBlockStart[b]; i < kBlockStart[b + 1]; ++i) dz[i] = 0.0;\n"
    "      }\n"
    "    }\n"
    "  } else {  // Z depends on no state\n"
    "    (void)a, (void)pivot, (void)gx, (void)fz, (void)dz, (void)&solve_block;\n"
    "  }\n"
    "}\n";

std::string replace_first(std::string text, const std::string& what, const std::string& with) {
  return text.replace(text.find(what), what.size(), with);
}

// The namespace-scope code of d(X')/dX = dF/dX + dF/dZ dZ/dX, dZ/dX = -A^-1 dg/dX: the entries
// of dF/dX, -dg/dX and dF/dZ located by tables (rhs_jacobian_entries computes their values),
// and add_rhs_jacobian_column, which adds one column of d(X')/dX to a dense vector.
std::string rhs_jacobian_support(Generator& gen, const AlgebraicReach* reach) {
  ColumnEntries fx = by_columns(gen.dF_dX);
  std::vector<Assignment> list = array_assignments("fx", fx.value);
  std::string tables = "// d(X')/dX: dF/dX by columns\n" + constant_table("kFxStart", fx.start) +
                       constant_table("kFxRow", fx.row) +
                       fmt::format("constexpr int kFxEntries = {};\n", fx.row.size());
  std::vector<CodeParameter> parameters{kP, kT, kX, out("fx")};
  std::string functions;
  if (gen.m == 0) {
    functions = std::string("// Adds column j of d(X')/dX = dF/dX to w.\n") +
                "void add_rhs_jacobian_column(int j, const double* fx, double* w) {\n" +
                kAddFxColumn + "}\n";
  } else {
    ColumnEntries gx = by_columns(gen.dg_dX, constraint_positions(gen), -1);
    BlockedEntries fz = dF_dZ_by_block(gen);
    for (const Assignment& a : array_assignments("gx", gx.value)) list.push_back(a);
    for (const Assignment& a : array_assignments("fz", fz.value)) list.push_back(a);
    parameters = {kP, kT, kX, in("r"), out("fx"), out("gx"), out("fz")};
    std::vector<int> reach_start{0};
    std::vector<std::array<int, 2>> runs;
    for (const auto& column : reach->runs) {
      for (const auto& [begin, end] : column) runs.push_back({begin, end});
      reach_start.push_back(static_cast<int>(runs.size()));
    }
    SolveOperations solve = solve_operations(*gen.plan);
    tables += "// -dg/dX by columns, rows by position in A's block triangular form\n" +
              constant_table("kGxStart", gx.start) + constant_table("kGxPosition", gx.row) +
              "// dF/dZ: (row of F, position of the unknown), grouped by block\n" +
              constant_table("kFzRow", fz.row) + constant_table("kFzPosition", fz.position) +
              constant_table("kFzBlockStart", fz.block_start) +
              "// The positions of each block; the runs of blocks each state reaches\n" +
              constant_table("kBlockStart", gen.plan->blocks.block_start) +
              constant_table("kReachStart", reach_start) + constant_rows("kReach", runs) +
              "// solve_A by operations {i, e, j}: r[i] -= a[e] * r[j] (e >= 0),\n"
              "// swap r[i] and r[pivot[i]] (e == -1), r[i] *= a[-2 - e] (e <= -2)\n" +
              constant_table("kSolveOpStart", solve.block_start) +
              constant_rows("kSolveOp", solve.ops) +
              fmt::format(
                  "constexpr int kGxEntries = {};\nconstexpr int kReachRuns = {};\n"
                  "constexpr int kSolveOps = {};\n",
                  gx.row.size(), runs.size(), solve.ops.size());
    functions = kSolveBlock + replace_first(kAddColumnWithZ, "%s", kAddFxColumn);
  }
  std::string entries = gen.parts.body(
      {"rhs_jacobian_entries", parameters, assignment_statements(gen.symbols(true), list)});
  std::string signature = "void rhs_jacobian_entries(";
  for (const CodeParameter& p : parameters)
    signature += (&p == &parameters.front() ? "" : ", ") + p.type + " " + p.name;
  std::string unused;
  for (const CodeParameter& p : parameters) {
    if (!uses_name(entries, p.name)) unused += "  (void)" + p.name + ";\n";
  }
  return tables + "\n// The values of the entries the tables above locate.\n" + signature +
         ") {\n" + unused + entries + "}\n\n" + functions;
}

// The start of rhs_jacobian and rhs_jacobian_values: Z solved, the entries evaluated, w (a
// column of d(X')/dX) and dz (a column of dZ/dX) zeroed; then the call that adds column j to w.
std::string rhs_jacobian_prologue(const Generator& gen, size_t fx_count, std::string& add_column) {
  std::string code;
  if (gen.m == 0) {
    code += local_array("double", "fx", fx_count) + "  rhs_jacobian_entries(p, t, x, fx);\n";
    add_column = "add_rhs_jacobian_column(j, fx, w)";
  } else {
    size_t gx_count = gen.dg_dX.nonzeros(), fz_count = gen.dF_dZ.nonzeros();
    code += solve_prologue(gen, "return status;", true) + local_array("double", "fx", fx_count) +
            local_array("double", "gx", gx_count) + local_array("double", "fz", fz_count) +
            "  rhs_jacobian_entries(p, t, x, r, fx, gx, fz);\n" +
            local_array("double", "dz", gen.m, true);
    add_column = "add_rhs_jacobian_column(j, a, pivot, fx, gx, fz, dz, w)";
  }
  return code + local_array("double", "w", gen.n, true);
}

// The body of rhs_jacobian (`dense`: J, row-major) or of rhs_jacobian_values: each column of
// d(xdot)/dx is added into w, then moved from w into its place.
std::string rhs_jacobian_body(const Generator& gen, bool dense) {
  std::string add_column;
  std::string code = rhs_jacobian_prologue(gen, gen.dF_dX.nonzeros(), add_column);
  std::string move =
      dense ? fmt::format(
                  "    for (int i = 0; i < {0}; ++i) {{\n"
                  "      J[i * {0} + j] = w[i];\n"
                  "      w[i] = 0.0;\n"
                  "    }}\n",
                  gen.n)
            : "    for (int e = rhs_jacobian_colptr[j]; e < rhs_jacobian_colptr[j + 1]; ++e) {\n"
              "      values[e] = w[rhs_jacobian_rowval[e]];\n"
              "      w[rhs_jacobian_rowval[e]] = 0.0;\n"
              "    }\n";
  code +=
      fmt::format("  for (int j = 0; j < {}; ++j) {{\n    {};\n{}  }}\n", gen.n, add_column, move);
  code += dense ? fmt::format("  return all_finite(J, {}) ? 0 : 2;\n", gen.n * gen.n)
                : "  return all_finite(values, rhs_jacobian_nnz) ? 0 : 2;\n";
  return body(code, {"t", "x", dense ? "J" : "values"});
}

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

// dr/d(X, Z) + alpha dr/dX' in the order of `pattern` (residual_iteration_pattern).
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
  std::string code = gen.parts.body({"residual_jacobian_values",
                                     {kP, kT, kX, in("z"), {"double", "alpha"}, out("values")},
                                     assignment_statements(symbols, list)});
  return body(code, {"t", "x", "xdot", "z", "alpha", "values"});
}

// The dense residual_jacobian from the sparse values (alpha = 0), and dr/dX' = [I; 0].
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

// The tables of the projection's sparse Gram factorisation (gram_cholesky.h).
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

std::string outputs(Generator& gen) {
  const auto& list = gen.system.context.outputs;
  SymbolColumns algebraic(gen.system.algebraic);
  SymbolCode symbols = gen.symbols(true);
  SymbolSet from_xdot = add_model_derivatives(gen.system, symbols);
  bool needs_z = false, needs_xdot = false;
  for (const Output& o : list) {
    needs_z = needs_z || algebraic.occurs_in(o.value);
    needs_xdot = needs_xdot || holds_any(o.value, from_xdot);
  }
  std::string not_available = fmt::format(
      "{{\n    std::fill(y, y + {}, std::numeric_limits<double>::quiet_NaN());\n    return;\n  }}",
      list.size());
  std::string code;
  if (needs_xdot) {  // first derivatives (theta'): from rhs, which solves for Z as well
    code += local_array("double", "xdot", gen.n) +
            fmt::format("  if (rhs(t, x, xdot, nullptr) != 0) {}\n", not_available);
  }
  if (needs_z) {
    code += solve_prologue(
        gen, fmt::format("{{\n    std::fill(y, y + {}, std::numeric_limits<double>::quiet_NaN());"
                         "\n    return;\n  }}",
                         list.size()));
  }
  std::vector<Assignment> assignments;
  for (size_t q = 0; q < list.size(); ++q)
    assignments.push_back({fmt::format("y[{}]", q), list[q].value, list[q].name});
  std::vector<CodeParameter> parameters{kP, kT, kX, out("y")};
  if (needs_z) parameters.insert(parameters.begin() + 3, in("r"));
  if (needs_xdot) parameters.insert(parameters.begin() + 3, in("xdot"));
  code += gen.parts.body({"outputs", parameters, assignment_statements(symbols, assignments)});
  return body(code, {"t", "x", "y"});
}

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
  if (plan) reach = algebraic_reach(patterns, *plan, 4'000'000);
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
  bodies.projection_tables = projection_tables(bodies.invariants_pattern);
  generating("outputs");
  bodies.outputs = outputs(gen);
  return bodies;
}

}  // namespace daec
