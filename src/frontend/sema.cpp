// Semantic analysis of a .dae model: declarations, flattening, and the checks on the whole model.
#include "frontend/sema.h"

#include <algorithm>
#include <map>
#include <set>

#include "frontend/declarations.h"
#include "frontend/when_clauses.h"

namespace daec {

namespace {

// Which variables (or their derivatives) each equation contains after simplification; derivative
// orders that cancelled out everywhere are dropped from the model.
std::vector<std::set<size_t>> variables_per_equation(Model& model) {
  std::map<GiNaC::ex, size_t, GiNaC::ex_is_less> variable_index;
  for (size_t v = 0; v < model.variables.size(); ++v) variable_index[model.variables[v].symbol] = v;
  std::vector<std::set<size_t>> used(model.equations.size());
  std::vector<int> highest(model.variables.size(), 0);
  for (size_t i = 0; i < model.equations.size(); ++i) {
    for (const GiNaC::ex& symbol : symbols_in(model.equations[i].residual())) {
      if (auto derivative = model.derivative_of(symbol)) {
        used[i].insert(derivative->variable);
        highest[derivative->variable] = std::max(highest[derivative->variable], derivative->order);
      } else if (auto it = variable_index.find(symbol); it != variable_index.end()) {
        used[i].insert(it->second);
      }
    }
  }
  for (size_t v = 0; v < model.variables.size(); ++v) model.truncate_derivatives(v, highest[v]);
  return used;
}

// Counting only makes sense for a model whose statements were all understood: after an error the
// numbers would mislead.
void check_counts(const Model& model, const std::vector<std::set<size_t>>& used_per_equation,
                  DiagnosticEngine& diags) {
  if (diags.has_errors()) return;
  size_t equations = model.equations.size();
  size_t variables = model.variables.size();
  if (variables == 0) {
    diags.error(model.location, "model '" + model.name + "' declares no variables");
    return;
  }
  std::vector<bool> used(variables, false);
  for (const std::set<size_t>& set : used_per_equation) {
    for (size_t v : set) used[v] = true;
  }
  if (equations != variables) {
    diags.error(model.location,
                "model '" + model.name + "' has " + std::to_string(equations) + " equation" +
                    (equations == 1 ? "" : "s") + " for " + std::to_string(variables) +
                    " variable" + (variables == 1 ? "" : "s") +
                    (equations < variables ? " (underdetermined)" : " (overdetermined)"));
  }
  for (size_t v = 0; v < variables; ++v) {
    if (used[v]) continue;
    diags.error(model.variables[v].location,
                "variable '" + model.variables[v].name +
                    "' appears in no equation, so nothing determines it");
  }
}

void check_model(Model& model, DiagnosticEngine& diags) {
  std::vector<std::set<size_t>> used_per_equation = variables_per_equation(model);
  std::set<size_t> reported;  // an equation of a loop is reported once, not per iteration
  for (size_t i = 0; i < model.equations.size(); ++i) {
    const Equation& equation = model.equations[i];
    if (!used_per_equation[i].empty() || !reported.insert(equation.location.offset).second) {
      continue;
    }
    diags.error(equation.location,
                "equation '" + equation.label +
                    "' contains no variables: it is either always true or contradictory, and "
                    "determines nothing");
  }
  check_counts(model, used_per_equation, diags);
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
