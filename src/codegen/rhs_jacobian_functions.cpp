// d(X')/dX = dF/dX + dF/dZ dZ/dX with A dZ/dX = -dg/dX: the namespace-scope tables and helpers
// that add one column at a time (solving only the blocks of A a state reaches), and the bodies
// of rhs_jacobian (dense) and rhs_jacobian_values (sparse) on top of them.
#include "codegen/function_families.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "codegen/code_tables.h"
#include "codegen/locality_order.h"

namespace daec::function_code {

using GiNaC::ex;

namespace {

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
  std::vector<int> block_of = block_of_positions(blocks);
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
    "  if constexpr (kGxEntries > 0 && kReachEntries > 0) {\n"
    "    if (kGxStart[j] == kGxStart[j + 1]) return;  // Z does not depend on x[j]\n"
    "    for (int k = kGxStart[j]; k < kGxStart[j + 1]; ++k) dz[kGxPosition[k]] = gx[k];\n"
    "%s"
    "  } else {  // Z depends on no state\n"
    "    (void)a, (void)pivot, (void)gx, (void)fz, (void)dz, (void)&solve_block;\n"
    "  }\n"
    "}\n";

// A row or block that more columns than this share links none of them (locality_order.h).
constexpr size_t kColumnHubLimit = 64;

// A column reads and writes a few blocks of A (their factors, solve operations, dz and dF/dZ)
// and a few rows of w. Visited in the states' numbering, which is the model's declaration order,
// consecutive columns of a shuffled model touch blocks far apart, and each block is fetched
// again for every column that reaches it: the column loop of a shuffled reaction-diffusion model
// cost 1.6 times that of the same model written as arrays (docs/generated-code.md, "Large
// models"). The columns are visited in locality order instead (locality_order.h): columns are
// neighbours when dF/dX writes a common row or -dg/dX a common block, so the blocks one column
// brings in are still at hand for the next. Each column is computed alone (w and dz are zero
// before and after it), so the order changes no value.
std::vector<int> column_order(const Generator& gen, const ColumnEntries& fx,
                              const ColumnEntries* gx) {
  std::vector<int> block_of;
  if (gx) block_of = block_of_positions(gen.plan->blocks);
  std::vector<std::vector<int>> uses(gen.n);
  for (size_t j = 0; j < gen.n; ++j) {
    for (int k = fx.start[j]; k < fx.start[j + 1]; ++k) uses[j].push_back(fx.row[k]);
    if (!gx) continue;
    for (int k = gx->start[j]; k < gx->start[j + 1]; ++k)
      uses[j].push_back(static_cast<int>(gen.n) + block_of[gx->row[k]]);
    std::sort(uses[j].begin(), uses[j].end());
    uses[j].erase(std::unique(uses[j].begin(), uses[j].end()), uses[j].end());
  }
  std::vector<int> order;
  for (size_t j : locality_order(uses, kColumnHubLimit)) order.push_back(static_cast<int>(j));
  return order;
}

std::string column_order_table(const Generator& gen, const ColumnEntries& fx,
                               const ColumnEntries* gx) {
  return "// The order in which the columns are computed: neighbours together, whatever the\n"
         "// order of the declarations\n" +
         constant_table("kColumnOrder", column_order(gen, fx, gx));
}

std::string replace_first(std::string text, const std::string& what, const std::string& with) {
  return text.replace(text.find(what), what.size(), with);
}

// The blocks each state reaches, in the loops of add_rhs_jacobian_column: kReach lists them one
// by one when the reach is exact, as runs [begin, end) of consecutive blocks otherwise (each
// state's run is every block from its first on, too many to list).
const char* const kEachReachedBlock =
    "    for (int e = kReachStart[j]; e < kReachStart[j + 1]; ++e)\n"
    "      solve_block(kReach[e], a, pivot, dz);\n"
    "    for (int e = kReachStart[j]; e < kReachStart[j + 1]; ++e) {\n"
    "      const int b = kReach[e];\n"
    "      for (int k = kFzBlockStart[b]; k < kFzBlockStart[b + 1]; ++k)\n"
    "        w[kFzRow[k]] += fz[k] * dz[kFzPosition[k]];\n"
    "      for (int i = kBlockStart[b]; i < kBlockStart[b + 1]; ++i) dz[i] = 0.0;\n"
    "    }\n";
const char* const kEachReachedRun =
    "    for (int e = kReachStart[j]; e < kReachStart[j + 1]; ++e) {\n"
    "      for (int b = kReach[e][0]; b < kReach[e][1]; ++b) solve_block(b, a, pivot, dz);\n"
    "    }\n"
    "    for (int e = kReachStart[j]; e < kReachStart[j + 1]; ++e) {\n"
    "      for (int b = kReach[e][0]; b < kReach[e][1]; ++b) {\n"
    "        for (int k = kFzBlockStart[b]; k < kFzBlockStart[b + 1]; ++k)\n"
    "          w[kFzRow[k]] += fz[k] * dz[kFzPosition[k]];\n"
    "        for (int i = kBlockStart[b]; i < kBlockStart[b + 1]; ++i) dz[i] = 0.0;\n"
    "      }\n"
    "    }\n";

// The tables of the blocks each state reaches (kReachStart, kReach, kReachEntries) and the loops
// that visit them. Listed one by one, the blocks cost one step each whatever their numbering;
// as runs, a state of a shuffled model whose three blocks are not consecutive costs three runs
// where the same state written as arrays costs one: a shuffled reaction-diffusion model spent
// 1.8 times the instructions of the array model in these loops (docs/generated-code.md, "Large
// models").
std::string reach_tables(const AlgebraicReach& reach, const char*& loops) {
  std::vector<int> reach_start{0};
  std::string table;
  if (reach.exact) {
    std::vector<int> blocks;
    for (const auto& column : reach.runs) {
      for (const auto& [begin, end] : column)
        for (int b = begin; b < end; ++b) blocks.push_back(b);
      reach_start.push_back(static_cast<int>(blocks.size()));
    }
    table = constant_table("kReach", blocks);
    loops = kEachReachedBlock;
  } else {
    std::vector<std::array<int, 2>> runs;
    for (const auto& column : reach.runs) {
      for (const auto& [begin, end] : column) runs.push_back({begin, end});
      reach_start.push_back(static_cast<int>(runs.size()));
    }
    table = constant_rows("kReach", runs);
    loops = kEachReachedRun;
  }
  return constant_table("kReachStart", reach_start) + table +
         fmt::format("constexpr int kReachEntries = {};\n", reach_start.back());
}

}  // namespace

std::string rhs_jacobian_support(Generator& gen, const AlgebraicReach* reach) {
  ColumnEntries fx = by_columns(gen.dF_dX);
  std::vector<Assignment> list = array_assignments("fx", fx.value);
  std::string tables = "// d(X')/dX: dF/dX by columns\n" + constant_table("kFxStart", fx.start) +
                       constant_table("kFxRow", fx.row) +
                       fmt::format("constexpr int kFxEntries = {};\n", fx.row.size());
  std::vector<CodeParameter> parameters{kP, kT, kX, out("fx")};
  std::string functions;
  if (gen.m == 0) {
    tables += column_order_table(gen, fx, nullptr);
    functions = std::string("// Adds column j of d(X')/dX = dF/dX to w.\n") +
                "void add_rhs_jacobian_column(int j, const double* fx, double* w) {\n" +
                kAddFxColumn + "}\n";
  } else {
    ColumnEntries gx = by_columns(gen.dg_dX, constraint_positions(gen), -1);
    BlockedEntries fz = dF_dZ_by_block(gen);
    for (const Assignment& a : array_assignments("gx", gx.value)) list.push_back(a);
    for (const Assignment& a : array_assignments("fz", fz.value)) list.push_back(a);
    parameters = {kP, kT, kX, in("r"), out("fx"), out("gx"), out("fz")};
    const char* reach_loops = nullptr;
    std::string reach_table = reach_tables(*reach, reach_loops);
    SolveOperations solve = solve_operations(*gen.plan);
    tables += "// -dg/dX by columns, rows by position in A's block triangular form\n" +
              constant_table("kGxStart", gx.start) + constant_table("kGxPosition", gx.row) +
              "// dF/dZ: (row of F, position of the unknown), grouped by block\n" +
              constant_table("kFzRow", fz.row) + constant_table("kFzPosition", fz.position) +
              constant_table("kFzBlockStart", fz.block_start) +
              "// The positions of each block; the blocks each state reaches\n" +
              constant_table("kBlockStart", gen.plan->blocks.block_start) + reach_table +
              "// solve_A by operations {i, e, j}: r[i] -= a[e] * r[j] (e >= 0),\n"
              "// swap r[i] and r[pivot[i]] (e == -1), r[i] *= a[-2 - e] (e <= -2)\n" +
              constant_table("kSolveOpStart", solve.block_start) +
              constant_rows("kSolveOp", solve.ops) +
              fmt::format("constexpr int kGxEntries = {};\nconstexpr int kSolveOps = {};\n",
                          gx.row.size(), solve.ops.size()) +
              column_order_table(gen, fx, &gx);
    functions = kSolveBlock + replace_first(replace_first(kAddColumnWithZ, "%s", kAddFxColumn),
                                            "%s", reach_loops);
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
  code += fmt::format(
      "  for (int c = 0; c < {}; ++c) {{\n    const int j = kColumnOrder[c];\n    {};\n{}  }}\n",
      gen.n, add_column, move);
  code += dense ? fmt::format("  return all_finite(J, {}) ? 0 : 2;\n", gen.n * gen.n)
                : "  return all_finite(values, rhs_jacobian_nnz) ? 0 : 2;\n";
  return body(code, {"t", "x", dense ? "J" : "values"});
}

}  // namespace daec::function_code
