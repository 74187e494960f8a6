// Ruiz equilibration by powers of two (see the header).
#include "reduction/equilibration.h"

#include <algorithm>
#include <cmath>

namespace daec {

namespace {

// Ruiz's iteration converges linearly; a few rounds bring every max within [1/2, 2].
constexpr int kMaxSweeps = 30;

// The power of two nearest to 1/sqrt(largest): the factor that halves the distance (in octaves)
// of a row's or column's largest magnitude from one. 1 for an empty (zero) row or column.
double half_step(double largest) {
  if (!(largest > 0) || !std::isfinite(largest)) return 1.0;
  int exponent = 0;
  std::frexp(largest, &exponent);  // largest = m * 2^exponent, m in [1/2, 1)
  return std::ldexp(1.0, static_cast<int>(std::ceil(-exponent / 2.0)));
}

bool balanced(const std::vector<double>& largest) {
  return std::all_of(largest.begin(), largest.end(),
                     [](double v) { return v == 0 || (v >= 0.5 && v <= 2.0); });
}

}  // namespace

void equilibrate(std::vector<NumericRow>& rows, size_t columns) {
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    std::vector<double> row_max(rows.size(), 0.0), column_max(columns, 0.0);
    for (size_t r = 0; r < rows.size(); ++r) {
      for (const auto& [c, v] : rows[r]) {
        row_max[r] = std::max(row_max[r], std::fabs(v));
        column_max[c] = std::max(column_max[c], std::fabs(v));
      }
    }
    if (balanced(row_max) && balanced(column_max)) return;
    for (size_t r = 0; r < rows.size(); ++r) {
      double row_factor = half_step(row_max[r]);
      for (auto& [c, v] : rows[r]) v *= row_factor * half_step(column_max[c]);
    }
  }
}

void equilibrate(std::vector<std::vector<double>>& dense) {
  size_t columns = dense.empty() ? 0 : dense[0].size();
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    std::vector<double> row_max(dense.size(), 0.0), column_max(columns, 0.0);
    for (size_t r = 0; r < dense.size(); ++r) {
      for (size_t c = 0; c < columns; ++c) {
        row_max[r] = std::max(row_max[r], std::fabs(dense[r][c]));
        column_max[c] = std::max(column_max[c], std::fabs(dense[r][c]));
      }
    }
    if (balanced(row_max) && balanced(column_max)) return;
    for (size_t r = 0; r < dense.size(); ++r) {
      double row_factor = half_step(row_max[r]);
      for (size_t c = 0; c < columns; ++c) dense[r][c] *= row_factor * half_step(column_max[c]);
    }
  }
}

bool has_tiny_entries(const std::vector<NumericRow>& rows, size_t columns) {
  std::vector<double> row_max(rows.size(), 0.0), column_max(columns, 0.0);
  for (size_t r = 0; r < rows.size(); ++r) {
    for (const auto& [c, v] : rows[r]) {
      row_max[r] = std::max(row_max[r], std::fabs(v));
      column_max[c] = std::max(column_max[c], std::fabs(v));
    }
  }
  for (size_t r = 0; r < rows.size(); ++r) {
    for (const auto& [c, v] : rows[r]) {
      double size = std::fabs(v);
      if (size != 0 && (size < kTinyEntry * row_max[r] || size < kTinyEntry * column_max[c]))
        return true;
    }
  }
  return false;
}

bool has_tiny_entries(const std::vector<std::vector<double>>& dense) {
  std::vector<NumericRow> rows(dense.size());
  for (size_t r = 0; r < dense.size(); ++r)
    for (size_t c = 0; c < dense[r].size(); ++c)
      if (dense[r][c] != 0) rows[r].push_back({static_cast<int>(c), dense[r][c]});
  return has_tiny_entries(rows, dense.empty() ? 0 : dense[0].size());
}

}  // namespace daec
