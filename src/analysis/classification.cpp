// Building the classification and the dependency table.
#include "analysis/classification.h"

#include <algorithm>
#include <map>
#include <set>

#include "model/conditions.h"

namespace daec {

Classification classify(const Model& model) {
  Classification result;
  for (size_t v = 0; v < model.variables.size(); ++v) {
    const Variable& variable = model.variables[v];
    (variable.is_differential() ? result.differential : result.algebraic).push_back(v);
    result.columns.push_back(DependencyColumn{variable.name, variable.symbol, v, 0});
    for (int order = 1; order <= variable.highest_order(); ++order) {
      result.columns.push_back(DependencyColumn{derivative_name(variable.name, order),
                                                variable.derivatives[order - 1], v, order});
    }
  }
  std::map<GiNaC::ex, size_t, GiNaC::ex_is_less> column_of;
  for (size_t k = 0; k < result.columns.size(); ++k) column_of[result.columns[k].symbol] = k;
  for (const Equation& equation : model.equations) {
    // An unknown that occurs only in a condition (y = if x > 0 then 1 else 2) is not contained:
    // the equation's incidence is the union of its branches.
    DependencyRow row{equation.label, {}};
    for (const GiNaC::ex& symbol : value_symbols(equation.residual())) {
      auto column = column_of.find(symbol);
      if (column != column_of.end()) {
        row.columns.push_back(column->second);
      }
    }
    std::sort(row.columns.begin(), row.columns.end());
    result.rows.push_back(std::move(row));
  }
  return result;
}

}  // namespace daec
