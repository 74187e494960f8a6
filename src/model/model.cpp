// Lookups on the checked model and the derivative symbols of its variables.
#include "model/model.h"

#include "model/expression_walk.h"

namespace daec {

std::string derivative_name(const std::string& name, int order) {
  return name + std::string(static_cast<size_t>(order), '\'');
}

const Variable* Model::find_variable(const std::string& wanted) const {
  for (const Variable& v : variables) {
    if (v.name == wanted) return &v;
  }
  return nullptr;
}

const Parameter* Model::find_parameter(const std::string& wanted) const {
  for (const Parameter& p : parameters) {
    if (p.name == wanted) return &p;
  }
  return nullptr;
}

const GiNaC::realsymbol& Model::derivative(size_t index, int order) {
  Variable& variable = variables.at(index);
  while (variable.highest_order() < order) {
    int next = variable.highest_order() + 1;
    const GiNaC::realsymbol& symbol = symbols.get(derivative_name(variable.name, next));
    variable.derivatives.push_back(symbol);
    derivative_index_[symbol] = DerivativeOf{index, next};
  }
  return variable.derivatives[static_cast<size_t>(order - 1)];
}

void Model::truncate_derivatives(size_t index, int order) {
  Variable& variable = variables.at(index);
  while (variable.highest_order() > order) {
    derivative_index_.erase(variable.derivatives.back());
    variable.derivatives.pop_back();
  }
}

SymbolSet symbols_in(const GiNaC::ex& e) {
  SymbolSet found;
  for_each_node(e, [&](const GiNaC::basic& node) {
    if (!GiNaC::is_a<GiNaC::symbol>(node)) return true;
    found.insert(GiNaC::ex(node));
    return false;
  });
  return found;
}

std::optional<DerivativeOf> Model::derivative_of(const GiNaC::ex& symbol) const {
  auto it = derivative_index_.find(symbol);
  if (it == derivative_index_.end()) return std::nullopt;
  return it->second;
}

}  // namespace daec
