// Row dependencies of B found numerically, combinations built symbolically (see the header).
#include "reduction/left_null_space.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>

#include "reduction/numeric_rank.h"

namespace daec {

namespace {

using Dense = std::vector<std::vector<double>>;

// Rows of B that share columns, transitively: dependencies never cross these blocks.
std::vector<std::vector<size_t>> connected_rows(const ExpressionMatrix& B) {
  std::vector<size_t> parent(B.rows());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&parent](size_t r) {
    while (parent[r] != r) r = parent[r] = parent[parent[r]];
    return r;
  };
  std::vector<std::optional<size_t>> owner(B.cols());
  for (size_t r = 0; r < B.rows(); ++r) {
    for (const MatrixEntry& entry : B.row(r)) {
      std::optional<size_t>& first = owner[entry.column];
      if (first)
        parent[find(r)] = find(*first);
      else
        first = r;
    }
  }
  std::vector<std::vector<size_t>> blocks(B.rows());
  for (size_t r = 0; r < B.rows(); ++r) blocks[find(r)].push_back(r);
  blocks.erase(std::remove_if(blocks.begin(), blocks.end(),
                              [](const std::vector<size_t>& b) { return b.size() < 2; }),
               blocks.end());
  return blocks;
}

// The columns that `rows` of B use, in increasing order.
std::vector<int> columns_of(const ExpressionMatrix& B, const std::vector<size_t>& rows) {
  std::vector<int> columns;
  for (size_t r : rows)
    for (const MatrixEntry& entry : B.row(r)) columns.push_back(entry.column);
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  return columns;
}

// B[rows, columns] at `point`, dense; nullopt if an entry is not finite there.
std::optional<Dense> values_at(const ExpressionMatrix& B, const std::vector<size_t>& rows,
                               const std::vector<int>& columns, const GiNaC::exmap& point) {
  Dense values(rows.size(), std::vector<double>(columns.size(), 0.0));
  for (size_t i = 0; i < rows.size(); ++i) {
    for (const MatrixEntry& entry : B.row(rows[i])) {
      std::optional<double> value = evaluate(entry.value, point);
      if (!value) return std::nullopt;
      auto at = std::lower_bound(columns.begin(), columns.end(), entry.column);
      values[i][at - columns.begin()] = *value;
    }
  }
  return values;
}

double largest(const Dense& values) {
  double scale = 0;
  for (const auto& row : values)
    for (double v : row) scale = std::max(scale, std::fabs(v));
  return scale;
}

// Rows (positions in `values`) in order: each is reduced against the independent ones before it
// (partial pivoting), tracking the combination; a row that reduces to zero is dependent and its
// combination names the earlier rows that span it.
std::vector<std::pair<size_t, std::vector<size_t>>> dependent_rows(const Dense& values) {
  size_t m = values.size(), n = m ? values[0].size() : 0;
  double tolerance =
      1e-10 * std::max(largest(values), 1e-300) * static_cast<double>(std::max(m, n));
  struct Pivot {
    size_t column;
    std::vector<double> reduced, combination;  // reduced = sum combination[k] * values[k]
  };
  std::vector<Pivot> pivots;
  std::vector<std::pair<size_t, std::vector<size_t>>> dependent;
  for (size_t i = 0; i < m; ++i) {
    std::vector<double> w = values[i], t(m, 0.0);
    t[i] = 1;
    for (const Pivot& p : pivots) {
      double factor = w[p.column] / p.reduced[p.column];
      if (factor == 0) continue;
      for (size_t c = 0; c < n; ++c) w[c] -= factor * p.reduced[c];
      for (size_t k = 0; k < m; ++k) t[k] -= factor * p.combination[k];
    }
    size_t best = 0;
    for (size_t c = 0; c < n; ++c)
      if (std::fabs(w[c]) > std::fabs(w[best])) best = c;
    if (n > 0 && std::fabs(w[best]) > tolerance) {
      pivots.push_back({best, std::move(w), std::move(t)});
      continue;
    }
    double size = 0;
    for (size_t k = 0; k < i; ++k) size = std::max(size, std::fabs(t[k]));
    std::vector<size_t> basis;
    for (size_t k = 0; k < i; ++k)
      if (std::fabs(t[k]) > 1e-9 * size) basis.push_back(k);
    dependent.push_back({i, std::move(basis)});
  }
  return dependent;
}

// |basis| columns of the block's rows `basis` that make the square matrix nonsingular (complete
// pivoting), as positions into `values`' columns.
std::vector<int> independent_columns(const Dense& values, const std::vector<size_t>& basis) {
  Dense rows;
  for (size_t k : basis) rows.push_back(values[k]);
  std::vector<int> columns;
  std::vector<bool> used_row(rows.size(), false);
  for (size_t step = 0; step < rows.size(); ++step) {
    size_t pr = 0, pc = 0;
    double best = -1;
    for (size_t r = 0; r < rows.size(); ++r) {
      if (used_row[r]) continue;
      for (size_t c = 0; c < rows[r].size(); ++c) {
        if (std::fabs(rows[r][c]) > best) best = std::fabs(rows[r][c]), pr = r, pc = c;
      }
    }
    used_row[pr] = true;
    columns.push_back(static_cast<int>(pc));
    for (size_t r = 0; r < rows.size(); ++r) {
      if (used_row[r] || rows[r][pc] == 0) continue;
      double factor = rows[r][pc] / rows[pr][pc];
      for (size_t c = 0; c < rows[r].size(); ++c) rows[r][c] -= factor * rows[pr][c];
    }
  }
  std::sort(columns.begin(), columns.end());
  return columns;
}

int rank_of(const Dense& values, const std::vector<size_t>& rows, const std::vector<int>& columns) {
  std::vector<NumericRow> numeric;
  for (size_t r : rows) {
    NumericRow row;
    for (size_t c = 0; c < columns.size(); ++c)
      row.push_back({static_cast<int>(c), values[r][columns[c]]});
    numeric.push_back(std::move(row));
  }
  return numeric_rank(numeric, columns.size());
}

// Whether at a second point rows `basis` still span `row` through `columns`: B[basis, columns]
// nonsingular and B[basis + row, all columns] of the same rank.
bool holds_at(const Dense& values, const std::vector<int>& columns,
              const std::vector<size_t>& local_basis, size_t local_row) {
  std::vector<int> all(values.empty() ? 0 : values[0].size());
  std::iota(all.begin(), all.end(), 0);
  std::vector<size_t> with_row = local_basis;
  with_row.push_back(local_row);
  int k = static_cast<int>(local_basis.size());
  return rank_of(values, local_basis, columns) == k && rank_of(values, with_row, all) == k;
}

std::optional<std::vector<RowDependency>> dependencies_at(const ExpressionMatrix& B,
                                                          const std::vector<size_t>& rows,
                                                          const GiNaC::exmap& point,
                                                          const GiNaC::exmap& check) {
  std::vector<int> columns = columns_of(B, rows);
  std::optional<Dense> values = values_at(B, rows, columns, point);
  std::optional<Dense> other = values_at(B, rows, columns, check);
  if (!values || !other) return std::nullopt;
  std::vector<RowDependency> found;
  for (auto& [local_row, local_basis] : dependent_rows(*values)) {
    std::vector<int> local_columns = independent_columns(*values, local_basis);
    // A coefficient taken for zero that was not shows at the second point: try other points.
    if (!holds_at(*other, local_columns, local_basis, local_row)) return std::nullopt;
    RowDependency d;
    d.row = rows[local_row];
    for (size_t k : local_basis) d.basis.push_back(rows[k]);
    for (int c : local_columns) d.columns.push_back(columns[c]);
    found.push_back(std::move(d));
  }
  return found;
}

}  // namespace

std::vector<RowDependency> row_dependencies(const ExpressionMatrix& B,
                                            const std::vector<GiNaC::ex>& symbols,
                                            RandomPoints& points) {
  std::vector<RowDependency> all;
  for (const std::vector<size_t>& block : connected_rows(B)) {
    std::optional<std::vector<RowDependency>> found;
    for (int attempt = 0; attempt < 5 && !found; ++attempt)
      found = dependencies_at(B, block, points.next(symbols), points.next(symbols));
    if (found) all.insert(all.end(), found->begin(), found->end());
  }
  std::sort(all.begin(), all.end(),
            [](const RowDependency& a, const RowDependency& b) { return a.row < b.row; });
  return all;
}

namespace {

// Minors of the rows `rows` of B restricted to `columns`, by Laplace expansion along the last
// column with memoised sub-minors over row subsets (bit masks over `rows`). Products and sums
// are formed, never expanded: GiNaC's determinant normalises non-polynomial entries, which costs
// more than the whole reduction on the oracle's models.
class Minors {
 public:
  Minors(const ExpressionMatrix& B, const std::vector<size_t>& rows,
         const std::vector<int>& columns)
      : B_(B), rows_(rows), columns_(columns) {}

  // The determinant of the rows in `mask` (ascending) and the first popcount(mask) columns.
  GiNaC::ex of(unsigned long mask) {
    if (mask == 0) return 1;
    auto known = memo_.find(mask);
    if (known != memo_.end()) return known->second;
    size_t size = static_cast<size_t>(__builtin_popcountl(mask));
    int column = columns_[size - 1];
    GiNaC::ex sum = 0;
    size_t position = 0;
    for (size_t i = 0; i < rows_.size(); ++i) {
      if (!(mask >> i & 1UL)) continue;
      GiNaC::ex entry = B_.at(rows_[i], column);
      if (!entry.is_zero()) {
        GiNaC::ex minor = of(mask & ~(1UL << i));
        if (!minor.is_zero()) sum += ((position + size - 1) % 2 ? -1 : 1) * entry * minor;
      }
      ++position;
    }
    return memo_[mask] = sum;
  }

 private:
  const ExpressionMatrix& B_;
  const std::vector<size_t>& rows_;
  const std::vector<int>& columns_;
  std::map<unsigned long, GiNaC::ex> memo_;
};

}  // namespace

GiNaC::ex dependency_combination(const ExpressionMatrix& B, const RowDependency& dependency,
                                 const std::vector<GiNaC::ex>& residuals) {
  std::vector<size_t> rows = dependency.basis;
  rows.push_back(dependency.row);
  size_t k = dependency.basis.size();
  if (rows.size() >= 8 * sizeof(unsigned long)) {  // too many for the bit masks (never seen)
    GiNaC::matrix bordered(k + 1, k + 1);
    for (size_t i = 0; i <= k; ++i) {
      for (size_t j = 0; j < k; ++j) bordered(i, j) = B.at(rows[i], dependency.columns[j]);
      bordered(i, k) = residuals[rows[i]];
    }
    return bordered.determinant();
  }
  // Expansion along the residual column: sum over rows i of (-1)^(i+k) g_i det(B[rows \ i, C]).
  Minors minors(B, rows, dependency.columns);
  unsigned long all = (1UL << rows.size()) - 1;
  GiNaC::ex combination = 0;
  for (size_t i = 0; i <= k; ++i) {
    GiNaC::ex cofactor = minors.of(all & ~(1UL << i));
    if (!cofactor.is_zero()) combination += ((i + k) % 2 ? -1 : 1) * cofactor * residuals[rows[i]];
  }
  return combination;
}

}  // namespace daec
