// The differentiation index from the orders of the reduced system's rows (docs/method.md §6).
#include "reduction/differentiation_index.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "reduction/equilibration.h"

namespace daec {

namespace {

// Blocks larger than this keep the block's highest order for all its unknowns (an upper bound)
// rather than the dense elimination that tells which rows each unknown really needs.
constexpr size_t kLargestRefinedBlock = 300;

// Which of `columns` the rows `rows` of `values` determine: the pivot columns whose reduced row
// vanishes on every free column (e_j lies in the row space), by Gauss-Jordan elimination with
// partial pivoting on the dense block.
std::vector<bool> determined_columns(const std::vector<std::vector<double>>& rows) {
  size_t n = rows.empty() ? 0 : rows[0].size();
  std::vector<std::vector<double>> m = rows;
  equilibrate(m);  // a column is determined whatever the units of the rows and columns
  double scale = 0;
  for (const auto& row : m)
    for (double v : row) scale = std::max(scale, std::fabs(v));
  double tolerance = 1e-10 * std::max(scale, 1e-300) * static_cast<double>(std::max(m.size(), n));
  std::vector<int> pivot_row(n, -1);
  size_t next = 0;
  for (size_t c = 0; c < n && next < m.size(); ++c) {
    size_t best = next;
    for (size_t r = next; r < m.size(); ++r)
      if (std::fabs(m[r][c]) > std::fabs(m[best][c])) best = r;
    if (std::fabs(m[best][c]) <= tolerance) continue;
    std::swap(m[best], m[next]);
    for (size_t r = 0; r < m.size(); ++r) {
      if (r == next || m[r][c] == 0) continue;
      double factor = m[r][c] / m[next][c];
      for (size_t k = 0; k < n; ++k) m[r][k] -= factor * m[next][k];
    }
    pivot_row[c] = static_cast<int>(next++);
  }
  std::vector<bool> determined(n, false);
  for (size_t c = 0; c < n; ++c) {
    if (pivot_row[c] < 0) continue;
    const std::vector<double>& row = m[pivot_row[c]];
    double size = std::fabs(row[c]);
    determined[c] = true;
    for (size_t k = 0; k < n; ++k) {
      if (pivot_row[k] < 0 && std::fabs(row[k]) > 1e-9 * size) determined[c] = false;
    }
  }
  return determined;
}

// The rows of order at most `level`, in groups that share no column (connected components of
// their bipartite graph with the columns).
std::vector<std::vector<size_t>> row_groups(const std::vector<Constraint>& constraints,
                                            const std::vector<NumericRow>& values, int level,
                                            size_t columns) {
  std::vector<size_t> parent(constraints.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&parent](size_t r) {
    while (parent[r] != r) r = parent[r] = parent[parent[r]];
    return r;
  };
  std::vector<long> owner(columns, -1);
  for (size_t r = 0; r < constraints.size(); ++r) {
    if (constraints[r].order > level) continue;
    for (const auto& [column, value] : values[r]) {
      if (owner[column] < 0)
        owner[column] = static_cast<long>(r);
      else
        parent[find(r)] = find(static_cast<size_t>(owner[column]));
    }
  }
  std::vector<std::vector<size_t>> groups(constraints.size());
  for (size_t r = 0; r < constraints.size(); ++r)
    if (constraints[r].order <= level) groups[find(r)].push_back(r);
  groups.erase(std::remove_if(groups.begin(), groups.end(),
                              [](const std::vector<size_t>& g) { return g.empty(); }),
               groups.end());
  return groups;
}

// direct[j]: the lowest order L such that the rows of order at most L alone determine unknown j
// (e_j lies in their row space), or INT_MAX. Unlike the block-by-block count below, this sees
// combinations that cancel unknowns the rows share with other blocks: in x2' + x3' + x1 = cos t,
// x2' + x3' + x2 = cos t the difference gives x1 = x2 with no differentiation, although each row
// holds x2' and x3', which need one. Groups larger than kLargestRefinedBlock are left out.
std::vector<int> directly_determined(const std::vector<Constraint>& constraints, size_t columns,
                                     const std::vector<NumericRow>& values) {
  std::vector<int> direct(columns, std::numeric_limits<int>::max());
  if (values.size() != constraints.size()) return direct;
  std::vector<int> levels;
  for (const Constraint& c : constraints) levels.push_back(c.order);
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  for (int level : levels) {
    for (const std::vector<size_t>& group : row_groups(constraints, values, level, columns)) {
      std::vector<int> used;
      for (size_t r : group)
        for (const auto& [column, value] : values[r]) used.push_back(column);
      std::sort(used.begin(), used.end());
      used.erase(std::unique(used.begin(), used.end()), used.end());
      if (group.size() > kLargestRefinedBlock || used.size() > kLargestRefinedBlock) continue;
      std::vector<std::vector<double>> rows;
      for (size_t r : group) {
        std::vector<double> dense(used.size(), 0.0);
        for (const auto& [column, value] : values[r])
          dense[std::lower_bound(used.begin(), used.end(), column) - used.begin()] = value;
        rows.push_back(std::move(dense));
      }
      std::vector<bool> determined = determined_columns(rows);
      for (size_t c = 0; c < used.size(); ++c)
        if (determined[c]) direct[used[c]] = std::min(direct[used[c]], level);
    }
  }
  return direct;
}

// need[j]: the differentiations that determining algebraic unknown j takes. A block of the
// block-triangular form determines its unknowns from its rows, each row counting with its order
// and the needs of the earlier blocks' unknowns it uses; an unknown needs the lowest such order
// L for which the block's rows up to L determine it (at the random point `values`), at most the
// block's highest, and at most what the rows determine directly (directly_determined).
std::vector<int> orders_of_unknowns(const std::vector<Constraint>& constraints,
                                    const ExpressionMatrix& A, const BlockTriangularForm& blocks,
                                    const std::vector<NumericRow>& values) {
  std::vector<int> block_of(A.cols(), 0), need(A.cols(), 0);
  std::vector<int> direct = directly_determined(constraints, A.cols(), values);
  for (int b = 0; b < blocks.block_count(); ++b) {
    for (int i = blocks.block_start[b]; i < blocks.block_start[b + 1]; ++i)
      block_of[blocks.col_order[i]] = b;
  }
  for (int b = 0; b < blocks.block_count(); ++b) {
    size_t first = blocks.block_start[b], size = blocks.block_size(b);
    std::vector<int> row_order(size, 0), position(A.cols(), -1);
    for (size_t i = 0; i < size; ++i) position[blocks.col_order[first + i]] = static_cast<int>(i);
    for (size_t i = 0; i < size; ++i) {
      size_t row = blocks.row_order[first + i];
      row_order[i] = constraints[row].order;
      for (const MatrixEntry& entry : A.row(row)) {
        if (block_of[entry.column] < b) row_order[i] = std::max(row_order[i], need[entry.column]);
      }
    }
    int highest = *std::max_element(row_order.begin(), row_order.end());
    std::vector<int> block_need(size, highest);
    if (!values.empty() && size <= kLargestRefinedBlock) {
      std::vector<int> levels(row_order.begin(), row_order.end());
      std::sort(levels.begin(), levels.end());
      levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
      for (auto level = levels.rbegin() + 1; level < levels.rend(); ++level) {
        std::vector<std::vector<double>> rows;
        for (size_t i = 0; i < size; ++i) {
          if (row_order[i] > *level) continue;
          std::vector<double> dense(size, 0.0);
          for (const auto& [column, value] : values[blocks.row_order[first + i]])
            if (position[column] >= 0) dense[position[column]] = value;
          rows.push_back(std::move(dense));
        }
        std::vector<bool> determined = determined_columns(rows);
        for (size_t c = 0; c < size; ++c)
          if (determined[c]) block_need[c] = *level;
      }
    }
    for (size_t i = 0; i < size; ++i) {
      int column = blocks.col_order[first + i];
      need[column] = std::min(block_need[i], direct[column]);
    }
  }
  return need;
}

}  // namespace

DifferentiationIndex differentiation_index(const std::vector<Unknown>& states,
                                           const std::vector<StateEquation>& differential,
                                           const std::vector<Unknown>& algebraic,
                                           const std::vector<Constraint>& constraints,
                                           const ExpressionMatrix& A,
                                           const BlockTriangularForm& blocks,
                                           const std::vector<NumericRow>& values) {
  DifferentiationIndex result;
  if (constraints.empty()) return result;
  std::vector<int> need = orders_of_unknowns(constraints, A, blocks, values);
  // A promoted state's value comes from the constraint whose derivative gives its rate.
  std::map<std::string, int> value_need;
  for (size_t j = 0; j < algebraic.size(); ++j) {
    if (algebraic[j].origin == UnknownOrigin::Nonlinear)
      value_need[algebraic[j].derivative_of] = std::max(0, need[j] - 1);
  }
  // A rate made a state in turn (w, w_dot, w_dot_dot, ...: reduction/reduce.h) passes its need
  // down the chain; later states are the later rates.
  for (size_t i = states.size(); i-- > 0;) {
    auto rate = value_need.find(states[i].name);
    if (states[i].origin == UnknownOrigin::Nonlinear && rate != value_need.end())
      value_need[states[i].derivative_of] = std::max(0, rate->second - 1);
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
    // A promoted dummy x_dot stands for x', and a rate w_dot made a state (a nonlinear unknown's,
    // or an unknown promoted in place of a combination) for w': their own derivatives are x''
    // and w'', which no definition asks for (x' = x_dot, the equation of x, counts its value).
    const Unknown& state = states[equation.state];
    if (state.origin != UnknownOrigin::Dummy && state.origin != UnknownOrigin::Nonlinear)
      consider(need_of(equation.rhs), state.name);
  }
  for (size_t j = 0; j < algebraic.size(); ++j) {
    if (algebraic[j].origin == UnknownOrigin::Variable) consider(need[j] + 1, algebraic[j].name);
  }
  return result;
}

}  // namespace daec
