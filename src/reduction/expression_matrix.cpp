// Sparse expression matrices and the symbol-to-column map.
#include "reduction/expression_matrix.h"

#include <algorithm>
#include <stdexcept>

#include "support/work_counters.h"

namespace daec {

size_t ExpressionMatrix::nonzeros() const {
  size_t count = 0;
  for (const auto& row : rows_) count += row.size();
  return count;
}

void ExpressionMatrix::add_row(std::vector<MatrixEntry> entries) {
  entries.erase(std::remove_if(entries.begin(), entries.end(),
                               [](const MatrixEntry& e) { return e.value.is_zero(); }),
                entries.end());
  std::sort(entries.begin(), entries.end(),
            [](const MatrixEntry& a, const MatrixEntry& b) { return a.column < b.column; });
  for (size_t k = 0; k < entries.size(); ++k) {
    if (entries[k].column < 0 || static_cast<size_t>(entries[k].column) >= columns_ ||
        (k > 0 && entries[k].column == entries[k - 1].column)) {
      throw std::invalid_argument("ExpressionMatrix: column out of range or repeated");
    }
  }
  rows_.push_back(std::move(entries));
}

GiNaC::ex ExpressionMatrix::at(size_t r, size_t c) const {
  const std::vector<MatrixEntry>& row = rows_.at(r);
  auto it = std::lower_bound(row.begin(), row.end(), static_cast<int>(c),
                             [](const MatrixEntry& e, int column) { return e.column < column; });
  return it != row.end() && it->column == static_cast<int>(c) ? it->value : GiNaC::ex(0);
}

SparsityPattern ExpressionMatrix::pattern() const {
  std::vector<std::vector<int>> row_columns;
  row_columns.reserve(rows_.size());
  for (const auto& row : rows_) {
    std::vector<int> columns;
    columns.reserve(row.size());
    for (const MatrixEntry& e : row) columns.push_back(e.column);
    row_columns.push_back(std::move(columns));
  }
  return SparsityPattern::from_rows(static_cast<int>(columns_), row_columns);
}

std::vector<std::vector<GiNaC::ex>> ExpressionMatrix::to_dense() const {
  std::vector<std::vector<GiNaC::ex>> dense(rows_.size(), std::vector<GiNaC::ex>(columns_));
  for (size_t r = 0; r < rows_.size(); ++r) {
    for (const MatrixEntry& e : rows_[r]) dense[r][e.column] = e.value;
  }
  return dense;
}

SymbolColumns::SymbolColumns(const std::vector<Unknown>& unknowns) {
  for (size_t c = 0; c < unknowns.size(); ++c) column_[unknowns[c].symbol] = static_cast<int>(c);
  count_work(WorkKind::Entries, unknowns.size());
}

int SymbolColumns::column(const GiNaC::ex& symbol) const {
  auto it = column_.find(symbol);
  return it == column_.end() ? -1 : it->second;
}

// Walks the distinct subexpressions of `e` (reduction/shared_expressions.h) and calls `found`
// with the column of each symbol that is an unknown, until it returns false.
template <typename Found>
static void for_each_column(const std::unordered_map<GiNaC::ex, int, SymbolColumns::Hasher,
                                                     SymbolColumns::Equality>& column_of,
                            const GiNaC::ex& e, Found found) {
  for_each_symbol(e, [&](const GiNaC::ex& symbol) {
    auto c = column_of.find(symbol);
    return c == column_of.end() || found(c->second);
  });
}

std::vector<int> SymbolColumns::columns_in(const GiNaC::ex& e) const {
  std::vector<int> columns;
  for_each_column(column_, e, [&](int c) {
    columns.push_back(c);
    return true;
  });
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  return columns;
}

bool SymbolColumns::occurs_in(const GiNaC::ex& e) const {
  bool found = false;
  for_each_column(column_, e, [&](int) { return !(found = true); });
  return found;
}

std::vector<GiNaC::ex> residuals_of(const std::vector<Constraint>& constraints) {
  std::vector<GiNaC::ex> residuals;
  residuals.reserve(constraints.size());
  for (const Constraint& c : constraints) residuals.push_back(c.residual);
  return residuals;
}

}  // namespace daec
