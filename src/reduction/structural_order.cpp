// Numbering a model's variables and equations by its structure (see the header).
#include "reduction/structural_order.h"

#include <algorithm>
#include <map>
#include <string>

#include "reduction/structural_check.h"
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
// adjacent to each variable whose symbol or derivative it holds, as the structural check sees
// them (incidence_pattern).
static std::vector<std::vector<int>> incidence_graph(const Model& model) {
  const size_t variables = model.variables.size();
  const SparsityPattern incidence = incidence_pattern(model);
  std::vector<std::vector<int>> neighbours(variables + model.equations.size());
  for (const auto& [equation, variable] : incidence.entries()) {
    neighbours[variables + static_cast<size_t>(equation)].push_back(variable);
    neighbours[static_cast<size_t>(variable)].push_back(static_cast<int>(variables) + equation);
  }
  for (std::vector<int>& list : neighbours) std::sort(list.begin(), list.end());
  return neighbours;
}

// The rank of each key among the distinct keys, in their sorted order: equal keys get equal
// ranks, and the ranks do not depend on the numbering.
template <typename Key>
static std::vector<long> ranks(const std::vector<Key>& keys) {
  std::map<Key, long> rank;
  for (const Key& key : keys) rank.emplace(key, 0);
  long next = 0;
  for (auto& entry : rank) entry.second = next++;
  std::vector<long> result;
  for (const Key& key : keys) result.push_back(rank[key]);
  return result;
}

// What each node is beyond the graph, as a label that does not depend on the numbering: an
// equation by the parameters it uses and its counts of variables and derivatives, a variable by
// its order and its equations' labels, then an equation again by its variables' labels. In a
// chain of bodies x and y are joined alike, but the equation of y'' holds g: they get different
// labels, and so do x' = u and y' = v, and every body is numbered alike. Labels are ranks, so
// that a variable in thousands of equations makes no key longer than its own list.
static std::vector<long> content_labels(const Model& model,
                                        const std::vector<std::vector<int>>& neighbours) {
  const size_t variables = model.variables.size(), equations = model.equations.size();
  // Nothing that depends on how GiNaC happens to arrange an expression (its sizes and orders
  // follow hash values that change from run to run): which symbols it holds.
  std::vector<std::string> contents;
  for (size_t e = 0; e < equations; ++e) {
    std::vector<std::string> parameters;
    size_t derivatives = 0;
    for (const GiNaC::ex& symbol : symbols_in(model.equations[e].residual())) {
      const std::string& name = GiNaC::ex_to<GiNaC::symbol>(symbol).get_name();
      if (model.find_parameter(name)) parameters.push_back(name);
      if (model.derivative_of(symbol)) ++derivatives;
    }
    std::sort(parameters.begin(), parameters.end());
    std::string key =
        std::to_string(neighbours[variables + e].size()) + "/" + std::to_string(derivatives);
    for (const std::string& name : parameters) key += "/" + name;
    contents.push_back(key);
  }
  const std::vector<long> equation_labels = ranks(contents);
  // keys[node]: the node's own label first, then its neighbours' labels sorted.
  auto around = [&](size_t node, long own, const std::vector<long>& label_of) {
    std::vector<long> key;
    for (int other : neighbours[node]) key.push_back(label_of[static_cast<size_t>(other)]);
    std::sort(key.begin(), key.end());
    key.insert(key.begin(), own);
    return key;
  };
  std::vector<long> label(variables + equations, 0);
  for (size_t e = 0; e < equations; ++e) label[variables + e] = equation_labels[e];
  std::vector<std::vector<long>> variable_keys;
  for (size_t v = 0; v < variables; ++v)
    variable_keys.push_back(around(v, model.variables[v].highest_order(), label));
  const std::vector<long> variable_labels = ranks(variable_keys);
  for (size_t v = 0; v < variables; ++v) label[v] = variable_labels[v];
  // The final labels: variables (0, their label), equations (1, their label and variables').
  std::vector<std::vector<long>> keys(variables + equations);
  for (size_t v = 0; v < variables; ++v) keys[v] = {0, variable_labels[v]};
  for (size_t e = 0; e < equations; ++e) {
    keys[variables + e] = around(variables + e, equation_labels[e], label);
    keys[variables + e].insert(keys[variables + e].begin(), 1);
  }
  return ranks(keys);
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
