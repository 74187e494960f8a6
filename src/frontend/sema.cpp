// Semantic analysis of a .dae model: declarations, flattening, and the checks on the whole model.
#include "frontend/sema.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "frontend/declarations.h"
#include "frontend/when_clauses.h"
#include "structure/dulmage_mendelsohn.h"
#include "support/text.h"

namespace daec {

namespace {

// Which variables (or their derivatives) each equation contains after simplification, and which
// of them it holds differentiated; derivative orders that cancelled out everywhere are dropped
// from the model.
struct Incidence {
  std::vector<std::set<size_t>> used, differentiated;
};
Incidence variables_per_equation(Model& model) {
  std::map<GiNaC::ex, size_t, GiNaC::ex_is_less> variable_index;
  for (size_t v = 0; v < model.variables.size(); ++v) variable_index[model.variables[v].symbol] = v;
  Incidence incidence{std::vector<std::set<size_t>>(model.equations.size()),
                      std::vector<std::set<size_t>>(model.equations.size())};
  std::vector<int> highest(model.variables.size(), 0);
  for (size_t i = 0; i < model.equations.size(); ++i) {
    for (const GiNaC::ex& symbol : symbols_in(model.equations[i].residual())) {
      if (auto derivative = model.derivative_of(symbol)) {
        incidence.used[i].insert(derivative->variable);
        incidence.differentiated[i].insert(derivative->variable);
        highest[derivative->variable] = std::max(highest[derivative->variable], derivative->order);
      } else if (auto it = variable_index.find(symbol); it != variable_index.end()) {
        incidence.used[i].insert(it->second);
      }
    }
  }
  for (size_t v = 0; v < model.variables.size(); ++v) model.truncate_derivatives(v, highest[v]);
  return incidence;
}

// The most names a note lists; the rest are counted.
constexpr size_t kNamesListed = 12;

// "'a', 'b'", or "'a', 'b', ... and 5 more" past kNamesListed.
std::string listed_names(const std::vector<int>& indices,
                         const std::function<std::string(int)>& name) {
  std::string text;
  for (size_t k = 0; k < indices.size() && k < kNamesListed; ++k)
    text += (k == 0 ? "'" : ", '") + name(indices[k]) + "'";
  if (indices.size() > kNamesListed)
    text += " and " + std::to_string(indices.size() - kNamesListed) + " more";
  return text;
}

// A maximum matching of the equations (rows) to the variables (columns) that gives each equation
// first the variable it holds differentiated, then any free one, then augments along alternating
// paths: so that a variable left without an equation is the one a modeller would miss (the
// multiplier of a missing constraint, not a position whose x' = u is there), and an equation
// left without a variable the repeated one.
Matching count_matching(const Incidence& incidence, size_t variables) {
  const size_t equations = incidence.used.size();
  Matching m{std::vector<int>(equations, kUnmatched), std::vector<int>(variables, kUnmatched), 0};
  auto take = [&](size_t row, size_t col) {
    m.row_to_col[row] = static_cast<int>(col);
    m.col_to_row[col] = static_cast<int>(row);
  };
  for (const auto* choice : {&incidence.differentiated, &incidence.used}) {
    for (size_t row = 0; row < equations; ++row) {
      if (m.row_to_col[row] != kUnmatched) continue;
      for (size_t col : (*choice)[row]) {
        if (m.col_to_row[col] != kUnmatched) continue;
        take(row, col);
        break;
      }
    }
  }
  // Augmenting paths from each free row, depth first with an explicit stack (long chains).
  for (size_t free_row = 0; free_row < equations; ++free_row) {
    if (m.row_to_col[free_row] != kUnmatched) continue;
    std::vector<bool> visited(variables, false);
    std::vector<std::pair<size_t, std::set<size_t>::const_iterator>> stack{
        {free_row, incidence.used[free_row].begin()}};
    std::vector<size_t> path_cols;
    while (!stack.empty()) {
      auto& [row, next] = stack.back();
      if (next == incidence.used[row].end()) {
        stack.pop_back();
        if (!path_cols.empty()) path_cols.pop_back();
        continue;
      }
      const size_t col = *next++;
      if (visited[col]) continue;
      visited[col] = true;
      path_cols.push_back(col);
      if (m.col_to_row[col] == kUnmatched) {  // the path ends: flip it
        for (size_t k = 0; k < stack.size(); ++k) take(stack[k].first, path_cols[k]);
        break;
      }
      const auto matched = static_cast<size_t>(m.col_to_row[col]);
      stack.emplace_back(matched, incidence.used[matched].begin());
    }
  }
  for (int col : m.row_to_col) m.size += col != kUnmatched ? 1 : 0;
  return m;
}

// After a count mismatch, where it lies: the variables a maximum matching leaves without an
// equation, or the equations it leaves without a variable (count_matching), each with the others
// that could take its place: its part of the Dulmage–Mendelsohn decomposition, which no choice of
// matching changes (as for a structurally singular model, reduction/structural_check.cpp).
void locate_count_mismatch(const Model& model, const Incidence& incidence,
                           DiagnosticEngine& diags) {
  const size_t variables = model.variables.size();
  const Matching matching = count_matching(incidence, variables);
  std::vector<std::vector<int>> rows;
  for (const std::set<size_t>& used : incidence.used) rows.emplace_back(used.begin(), used.end());
  const DulmageMendelsohn dm =
      dulmage_mendelsohn(SparsityPattern::from_rows(static_cast<int>(variables), rows), matching);
  auto equation = [&](int i) { return model.equations[static_cast<size_t>(i)].label; };
  auto variable = [&](int i) { return model.variables[static_cast<size_t>(i)].name; };
  std::vector<int> free_cols, free_rows, other_cols, other_rows;
  for (int col : dm.under_cols)
    (matching.col_to_row[static_cast<size_t>(col)] == kUnmatched ? free_cols : other_cols)
        .push_back(col);
  for (int row : dm.over_rows)
    (matching.row_to_col[static_cast<size_t>(row)] == kUnmatched ? free_rows : other_rows)
        .push_back(row);
  const char* const matched =
      " when each equation determines one variable (first the one whose derivative it holds)";
  if (!free_cols.empty()) {
    const bool one = free_cols.size() == 1;
    std::string text =
        "under-determined: no equation is left for " + listed_names(free_cols, variable) + matched;
    if (!other_cols.empty())
      text += "; " + std::string(one ? "it shares its" : "they share their") + " equations with " +
              count_of(other_cols.size(), "other variable") + " (" +
              listed_names(other_cols, variable) + "), any of which could be " +
              (one ? "the one" : "among those") + " without";
    diags.note(model.variables[static_cast<size_t>(free_cols.front())].location, text);
  }
  if (!free_rows.empty()) {
    const bool one = free_rows.size() == 1;
    std::string text =
        "over-determined: no variable is left for " + listed_names(free_rows, equation) + matched;
    if (!other_rows.empty())
      text += "; " + std::string(one ? "it shares its" : "they share their") + " variables with " +
              count_of(other_rows.size(), "other equation") + " (" +
              listed_names(other_rows, equation) + "), any of which could be " +
              (one ? "the surplus one" : "among the surplus ones");
    diags.note(model.equations[static_cast<size_t>(free_rows.front())].location, text);
  }
}

// Counting only makes sense for a model whose statements were all understood: after an error the
// numbers would mislead.
void check_counts(const Model& model, const Incidence& incidence, DiagnosticEngine& diags) {
  if (diags.has_errors()) return;
  size_t equations = model.equations.size();
  size_t variables = model.variables.size();
  if (variables == 0) {
    diags.error(model.location, "model '" + model.name + "' declares no variables");
    return;
  }
  std::vector<bool> used(variables, false);
  for (const std::set<size_t>& set : incidence.used) {
    for (size_t v : set) used[v] = true;
  }
  if (equations != variables) {
    diags.error(model.location,
                "model '" + model.name + "' has " + std::to_string(equations) + " equation" +
                    (equations == 1 ? "" : "s") + " for " + std::to_string(variables) +
                    " variable" + (variables == 1 ? "" : "s") +
                    (equations < variables ? " (underdetermined)" : " (overdetermined)"));
    locate_count_mismatch(model, incidence, diags);
  }
  for (size_t v = 0; v < variables; ++v) {
    if (used[v]) continue;
    diags.error(model.variables[v].location,
                "variable '" + model.variables[v].name +
                    "' appears in no equation, so nothing determines it");
  }
}

void check_model(Model& model, DiagnosticEngine& diags) {
  const Incidence incidence = variables_per_equation(model);
  std::set<size_t> reported;  // an equation of a loop is reported once, not per iteration
  for (size_t i = 0; i < model.equations.size(); ++i) {
    const Equation& equation = model.equations[i];
    if (!incidence.used[i].empty() || !reported.insert(equation.location.offset).second) {
      continue;
    }
    diags.error(equation.location,
                "equation '" + equation.label +
                    "' contains no variables: it is either always true or contradictory, and "
                    "determines nothing");
  }
  check_counts(model, incidence, diags);
  check_when_clauses(model, diags);
}

}  // namespace

Model analyze(const ModelSyntax& syntax, DiagnosticEngine& diags, const FlattenOptions& options) {
  // The checks run step by step (declarations, parameters, ..., equations); the reader wants the
  // errors in the order of the file.
  size_t first = diags.diagnostics().size();
  Declarations declarations(syntax, diags);
  Model model = flatten(syntax, declarations, options, diags);
  check_model(model, diags);
  diags.sort_by_location(first);
  return model;
}

}  // namespace daec
