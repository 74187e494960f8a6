// Numbering a model's variables and equations by its structure (see the header).
#include "reduction/structural_order.h"

#include <algorithm>
#include <map>
#include <string>

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

// What each node is beyond the graph, as a label that does not depend on the numbering: an
// equation by the parameters it uses, its variables and derivatives counted, then by its
// variables' labels; a variable by its order and its equations' (first) labels. In a chain of
// bodies x and y are joined alike, but the equation of y'' holds g: they get different labels, and
// every body is numbered x before y.
static std::vector<long> content_labels(const Model& model,
                                        const std::vector<std::vector<int>>& neighbours) {
  const size_t variables = model.variables.size();
  std::vector<std::string> keys(neighbours.size());
  for (size_t e = 0; e < model.equations.size(); ++e) {
    std::vector<std::string> parameters;
    size_t derivatives = 0;
    for (const GiNaC::ex& symbol : symbols_in(model.equations[e].residual())) {
      if (const Parameter* p = model.find_parameter(GiNaC::ex_to<GiNaC::symbol>(symbol).get_name()))
        parameters.push_back(p->name);
      if (model.derivative_of(symbol)) ++derivatives;
    }
    std::sort(parameters.begin(), parameters.end());
    // Nothing that depends on how GiNaC happens to arrange the expression (its sizes and orders
    // follow hash values that change from run to run): which symbols it holds.
    std::string key =
        "e" + std::to_string(neighbours[variables + e].size()) + "/" + std::to_string(derivatives);
    for (const std::string& name : parameters) key += "/" + name;
    keys[variables + e] = key;
  }
  for (size_t v = 0; v < variables; ++v) {
    std::vector<std::string> around;
    for (int node : neighbours[v]) around.push_back(keys[static_cast<size_t>(node)]);
    std::sort(around.begin(), around.end());
    std::string key = "v" + std::to_string(model.variables[v].highest_order());
    for (const std::string& equation : around) key += "|" + equation;
    keys[v] = key;
  }
  // One round more for the equations: their variables' keys, so that x' = u and y' = v, alike
  // in themselves, differ as x and y do.
  for (size_t e = 0; e < model.equations.size(); ++e) {
    std::vector<std::string> around;
    for (int node : neighbours[variables + e]) around.push_back(keys[static_cast<size_t>(node)]);
    std::sort(around.begin(), around.end());
    for (const std::string& variable : around) keys[variables + e] += "|" + variable;
  }
  std::vector<std::string> distinct = keys;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::vector<long> labels;
  for (const std::string& key : keys)
    labels.push_back(std::lower_bound(distinct.begin(), distinct.end(), key) - distinct.begin());
  return labels;
}

ModelOrder model_order(const Model& model, UnknownOrder order) {
  const size_t variables = model.variables.size();
  ModelOrder result;
  if (!numbers_by_structure(model, order)) {
    for (size_t v = 0; v < variables; ++v) result.variables.push_back(v);
    for (size_t e = 0; e < model.equations.size(); ++e) result.equations.push_back(e);
    return result;
  }
  const std::vector<std::vector<int>> graph = incidence_graph(model);
  for (int node : breadth_first_order(graph, content_labels(model, graph))) {
    const size_t n = static_cast<size_t>(node);
    if (n < variables)
      result.variables.push_back(n);
    else
      result.equations.push_back(n - variables);
  }
  return result;
}

}  // namespace daec
