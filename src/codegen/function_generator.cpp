// The common ground of the function generators (see the header).
#include "codegen/function_generator.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "codegen/code_tables.h"
#include "codegen/condition_code.h"
#include "codegen/locality_order.h"
#include "model/expression_walk.h"
#include "support/work_counters.h"

namespace daec::function_code {

using GiNaC::ex;

Generator::Generator(const ReducedSystem& s, const std::optional<LinearSolvePlan>& p,
                     FunctionParts& f)
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

SymbolCode Generator::symbols(bool z_by_position) const {
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

namespace {

// Below this many assignments a function is computed in the order of its targets: it is short
// enough to read that way, and too short to be cut into parts.
constexpr size_t kLocalityMinimum = 256;
// An unknown read by more assignments than this links none of them (locality_order.h).
constexpr size_t kLocalityHubLimit = 64;

// The unknowns (states x[i] and algebraic unknowns z[c] or r[position], numbered by their code)
// that each assignment reads.
std::vector<std::vector<int>> unknowns_read(const SymbolCode& symbols,
                                            const std::vector<Assignment>& list) {
  // Numbered by their code, not by the symbols' order, which follows the order in which GiNaC
  // made them and may differ from run to run.
  std::vector<std::pair<std::string, ex>> unknowns;
  for (const auto& [symbol, code] : symbols) {
    if (code.rfind("x[", 0) == 0 || code.rfind("z[", 0) == 0 || code.rfind("r[", 0) == 0)
      unknowns.push_back({code, symbol});
  }
  std::sort(unknowns.begin(), unknowns.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  SymbolColumns number({});
  for (size_t c = 0; c < unknowns.size(); ++c) number.add(unknowns[c].second, static_cast<int>(c));
  // Each distinct node's columns once for the whole list, from its operands' (a post-order walk
  // on an explicit stack, as model/expression_walk.h walks): the values of a list share
  // subexpressions (outputs that use earlier outputs), and walking each value whole made the code
  // of 10,000 chained outputs quadratic. The values hold the nodes alive while the table lives.
  std::unordered_map<const GiNaC::basic*, std::vector<int>> columns;
  std::vector<std::vector<int>> uses;
  uses.reserve(list.size());
  std::vector<std::pair<const GiNaC::basic*, bool>> pending;  // node, operands done
  std::vector<int> merged;
  for (const Assignment& a : list) {
    pending.assign(1, {node_of(a.value), false});
    while (!pending.empty()) {
      auto [node, operands_done] = pending.back();
      pending.pop_back();
      if (columns.count(node)) continue;
      count_work(WorkKind::Nodes);
      if (GiNaC::is_a<GiNaC::symbol>(*node)) {
        int c = number.column(ex(*node));
        columns.emplace(node, c < 0 ? std::vector<int>{} : std::vector<int>{c});
        continue;
      }
      if (!operands_done) {
        pending.push_back({node, true});
        for_each_stored_operand(*node, [&](const GiNaC::basic* operand) {
          if (!columns.count(operand)) pending.push_back({operand, false});
        });
        continue;
      }
      merged.clear();
      for_each_stored_operand(*node, [&](const GiNaC::basic* operand) {
        const std::vector<int>& own = columns.at(operand);
        merged.insert(merged.end(), own.begin(), own.end());
      });
      std::sort(merged.begin(), merged.end());
      merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
      columns.emplace(node, merged);
    }
    uses.push_back(columns.at(node_of(a.value)));
  }
  return uses;
}

}  // namespace

// The statements that compute every assignment, their expressions compiled together (common
// subexpressions once); each assignment comes right after the last temporary it needs, so that
// the temporaries of a long function are mostly used where they are made (function_parts.h). A
// long list is computed in locality order (locality_order.h); the targets say where each value
// goes, so the order of computation is free.
std::vector<std::string> assignment_statements(const SymbolCode& symbols,
                                               const std::vector<Assignment>& list,
                                               size_t* operations) {
  std::vector<size_t> order(list.size());
  std::iota(order.begin(), order.end(), size_t{0});
  if (list.size() >= kLocalityMinimum)
    order = locality_order(unknowns_read(symbols, list), kLocalityHubLimit);
  ExpressionCompiler compiler(symbols);
  std::vector<size_t> handles;
  for (size_t i : order) {
    const Assignment& a = list[i];
    handles.push_back(a.value.is_zero() ? SIZE_MAX : compiler.add(a.value));
  }
  std::vector<std::string> temporaries = compiler.statements();
  if (operations) *operations += compiler.operation_count();
  std::vector<std::string> statements;
  size_t emitted = 0, needed = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const Assignment& a = list[order[i]];
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
std::string solve_prologue(const Generator& gen, const std::string& on_failure, bool zero_pivot) {
  return local_array("double", "a", gen.plan->storage.size()) +
         local_array("int", "pivot", gen.m, zero_pivot) + local_array("double", "r", gen.m) +
         fmt::format("  if (const int status = solve_algebraic(p, t, x, a, pivot, r)) {}\n",
                     on_failure);
}

ColumnEntries by_columns(const ExpressionMatrix& matrix, const std::vector<int>& row_of, int sign) {
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

std::vector<int> constraint_positions(const Generator& gen) {
  std::vector<int> position(gen.m);
  for (size_t i = 0; i < gen.m; ++i) position[gen.plan->blocks.row_order[i]] = static_cast<int>(i);
  return position;
}

std::vector<Assignment> array_assignments(const char* array, const std::vector<ex>& values) {
  std::vector<Assignment> list;
  for (size_t i = 0; i < values.size(); ++i)
    list.push_back({fmt::format("{}[{}]", array, i), values[i]});
  return list;
}

}  // namespace daec::function_code
