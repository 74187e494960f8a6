// The chains of the dependent parameters (see the header).
#include "codegen/parameter_chain.h"

#include <algorithm>
#include <map>

#include "reduction/shared_expressions.h"

namespace daec {

ParameterChain parameter_chain(const ModelContext& context) {
  const std::vector<Parameter>& parameters = context.parameters;
  int count = static_cast<int>(parameters.size());
  ParameterChain result;
  // followers[j]: the parameters whose binding reads p[j].
  std::vector<std::vector<int>> followers(count);
  std::map<GiNaC::ex, int, GiNaC::ex_is_less> index;
  for (int j = 0; j < count; ++j) index.emplace(parameters[j].symbol, j);
  for (int q = 0; q < count; ++q) {
    std::vector<int> read;
    for (const GiNaC::ex& symbol : symbols_in(parameters[q].default_value)) {
      auto found = index.find(symbol);
      if (found != index.end()) read.push_back(found->second);
    }
    std::sort(read.begin(), read.end());
    for (int j : read) {
      GiNaC::ex value = shared_derivative(parameters[q].default_value,
                                          GiNaC::ex_to<GiNaC::symbol>(parameters[j].symbol));
      if (value.is_zero()) continue;
      result.binding_parameter.push_back(j);
      result.binding_value.push_back(value);
      followers[j].push_back(q);
    }
    result.binding_start.push_back(static_cast<int>(result.binding_parameter.size()));
  }
  std::vector<int> seen(count, -1);
  for (int c = 0; c < count; ++c) {
    std::vector<int> reached{c};
    seen[c] = c;
    for (size_t head = 0; head < reached.size(); ++head) {
      for (int q : followers[reached[head]]) {
        if (seen[q] != c) seen[q] = c, reached.push_back(q);
      }
    }
    std::sort(reached.begin() + 1, reached.end());
    result.chain.insert(result.chain.end(), reached.begin(), reached.end());
    result.start.push_back(static_cast<int>(result.chain.size()));
  }
  return result;
}

ColumnPattern chained_pattern(const ColumnPattern& partial, const ParameterChain& chain) {
  ColumnPattern result;
  result.rows = partial.rows;
  std::vector<int> seen(partial.rows, -1);
  for (int c = 0; c + 1 < static_cast<int>(chain.start.size()); ++c) {
    std::vector<int> rows;
    for (int e = chain.start[c]; e < chain.start[c + 1]; ++e) {
      int q = chain.chain[e];
      for (int k = partial.colptr[q]; k < partial.colptr[q + 1]; ++k) {
        int row = partial.rowval[k];
        if (seen[row] != c) seen[row] = c, rows.push_back(row);
      }
    }
    std::sort(rows.begin(), rows.end());
    result.rowval.insert(result.rowval.end(), rows.begin(), rows.end());
    result.colptr.push_back(result.nonzeros());
  }
  return result;
}

}  // namespace daec
