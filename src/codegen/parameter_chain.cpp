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
  // readers[j]: the binding entries that read p[j], their owners increasing.
  std::vector<std::vector<int>> readers(count);
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
      readers[j].push_back(static_cast<int>(result.binding_parameter.size()));
      result.binding_parameter.push_back(j);
      result.binding_owner.push_back(q);
      result.binding_value.push_back(value);
    }
  }
  for (int c = 0; c < count; ++c) {
    result.follower_entry.insert(result.follower_entry.end(), readers[c].begin(), readers[c].end());
    result.follower_start.push_back(static_cast<int>(result.follower_entry.size()));
  }
  return result;
}

ColumnPattern chained_pattern(const ColumnPattern& partial, const ParameterChain& chain) {
  const int count = static_cast<int>(chain.follower_start.size()) - 1;
  std::vector<std::vector<int>> column(static_cast<size_t>(count));
  std::vector<int> seen(partial.rows, -1);
  for (int c = count - 1; c >= 0; --c) {  // the readers of c come after it
    std::vector<int>& rows = column[c];
    const auto add = [&](int row) {
      if (seen[row] != c) seen[row] = c, rows.push_back(row);
    };
    for (int k = partial.colptr[c]; k < partial.colptr[c + 1]; ++k) add(partial.rowval[k]);
    for (int f = chain.follower_start[c]; f < chain.follower_start[c + 1]; ++f) {
      for (int row : column[chain.binding_owner[chain.follower_entry[f]]]) add(row);
    }
    std::sort(rows.begin(), rows.end());
  }
  ColumnPattern result;
  result.rows = partial.rows;
  for (const std::vector<int>& rows : column) {
    result.rowval.insert(result.rowval.end(), rows.begin(), rows.end());
    result.colptr.push_back(result.nonzeros());
  }
  return result;
}

}  // namespace daec
