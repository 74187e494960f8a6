// Numbering a model's variables and equations by its structure (see the header).
#include "reduction/structural_order.h"

#include <algorithm>
#include <map>

#include "structure/breadth_first_order.h"

namespace daec {

bool numbers_by_structure(const Model& model, UnknownOrder order) {
  switch (order) {
    case UnknownOrder::Declared:
      return false;
    case UnknownOrder::Structural:
      return true;
    case UnknownOrder::Automatic:
      break;
  }
  return model.variables.size() >= kStructuralOrderVariables;
}

// The graph of variables (nodes 0 .. V - 1) and equations (V .. V + E - 1): an equation is
// adjacent to each variable whose symbol or derivative it holds.
static std::vector<std::vector<int>> incidence_graph(const Model& model) {
  const size_t variables = model.variables.size();
  std::map<GiNaC::ex, int, GiNaC::ex_is_less> variable_of;
  for (size_t v = 0; v < variables; ++v) {
    variable_of.emplace(model.variables[v].symbol, static_cast<int>(v));
    for (const GiNaC::realsymbol& d : model.variables[v].derivatives)
      variable_of.emplace(d, static_cast<int>(v));
  }
  std::vector<std::vector<int>> neighbours(variables + model.equations.size());
  for (size_t e = 0; e < model.equations.size(); ++e) {
    const int node = static_cast<int>(variables + e);
    for (const GiNaC::ex& symbol : symbols_in(model.equations[e].residual())) {
      auto it = variable_of.find(symbol);
      if (it == variable_of.end()) continue;  // a parameter or t
      neighbours[static_cast<size_t>(node)].push_back(it->second);
      neighbours[static_cast<size_t>(it->second)].push_back(node);
    }
  }
  for (std::vector<int>& list : neighbours) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  return neighbours;
}

ModelOrder model_order(const Model& model, UnknownOrder order) {
  const size_t variables = model.variables.size();
  ModelOrder result;
  if (!numbers_by_structure(model, order)) {
    for (size_t v = 0; v < variables; ++v) result.variables.push_back(v);
    for (size_t e = 0; e < model.equations.size(); ++e) result.equations.push_back(e);
    return result;
  }
  for (int node : breadth_first_order(incidence_graph(model))) {
    const size_t n = static_cast<size_t>(node);
    if (n < variables)
      result.variables.push_back(n);
    else
      result.equations.push_back(n - variables);
  }
  return result;
}

}  // namespace daec
