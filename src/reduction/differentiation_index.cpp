// The differentiation index from the orders of the reduced system's rows (spec §2.6).
#include "reduction/differentiation_index.h"

#include <algorithm>
#include <map>

namespace daec {

namespace {

// need[j]: the differentiations that determining algebraic unknown j takes: the highest order
// among the rows of its block and the unknowns of the earlier blocks those rows use.
std::vector<int> orders_of_unknowns(const std::vector<Constraint>& constraints,
                                    const ExpressionMatrix& A, const BlockTriangularForm& blocks) {
  std::vector<int> block_of(A.cols(), 0), need(A.cols(), 0);
  for (int b = 0; b < blocks.block_count(); ++b) {
    for (int i = blocks.block_start[b]; i < blocks.block_start[b + 1]; ++i)
      block_of[blocks.col_order[i]] = b;
  }
  for (int b = 0; b < blocks.block_count(); ++b) {
    int order = 0;
    for (int i = blocks.block_start[b]; i < blocks.block_start[b + 1]; ++i) {
      size_t row = blocks.row_order[i];
      order = std::max(order, constraints[row].order);
      for (const MatrixEntry& entry : A.row(row)) {
        if (block_of[entry.column] < b) order = std::max(order, need[entry.column]);
      }
    }
    for (int i = blocks.block_start[b]; i < blocks.block_start[b + 1]; ++i)
      need[blocks.col_order[i]] = order;
  }
  return need;
}

}  // namespace

DifferentiationIndex differentiation_index(const std::vector<Unknown>& states,
                                           const std::vector<StateEquation>& differential,
                                           const std::vector<Unknown>& algebraic,
                                           const std::vector<Constraint>& constraints,
                                           const ExpressionMatrix& A,
                                           const BlockTriangularForm& blocks) {
  DifferentiationIndex result;
  if (constraints.empty()) return result;
  std::vector<int> need = orders_of_unknowns(constraints, A, blocks);
  // A promoted state's value comes from the constraint whose derivative gives its rate.
  std::map<std::string, int> value_need;
  for (size_t j = 0; j < algebraic.size(); ++j) {
    if (algebraic[j].origin == UnknownOrigin::Nonlinear)
      value_need[algebraic[j].derivative_of] = std::max(0, need[j] - 1);
  }
  SymbolColumns algebraic_columns(algebraic), state_columns(states);
  auto need_of = [&](const GiNaC::ex& e) {
    int order = 0;
    for (int j : algebraic_columns.columns_in(e)) order = std::max(order, need[j]);
    for (int i : state_columns.columns_in(e)) {
      auto promoted = value_need.find(states[i].name);
      if (promoted != value_need.end()) order = std::max(order, promoted->second);
    }
    return order;
  };
  auto consider = [&result](int order, const std::string& variable) {
    if (order > result.index) result = {order, variable};
  };
  for (const StateEquation& equation : differential) {
    // A promoted dummy x_dot stands for x'; its own derivative is x'', which no definition asks
    // for (x' = x_dot, the equation of x, counts its value).
    const Unknown& state = states[equation.state];
    if (state.origin != UnknownOrigin::Dummy) consider(need_of(equation.rhs), state.name);
  }
  for (size_t j = 0; j < algebraic.size(); ++j) {
    if (algebraic[j].origin == UnknownOrigin::Variable) consider(need[j] + 1, algebraic[j].name);
  }
  return result;
}

}  // namespace daec
