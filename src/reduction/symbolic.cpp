// Zero tests, derivatives and generic ranks.
#include "reduction/symbolic.h"

#include <algorithm>
#include <cmath>

#include "model/evaluation.h"

namespace daec {

bool is_identically_zero(const GiNaC::ex& e) {
  if (e.is_zero()) return true;
  if (GiNaC::is_a<GiNaC::numeric>(e) || GiNaC::is_a<GiNaC::symbol>(e)) return false;
  try {
    return e.expand().is_zero() || e.normal().is_zero();
  } catch (const std::exception&) {
    return false;  // e.g. a division by zero met while normalising: not identically zero
  }
}

size_t expression_size(const GiNaC::ex& e) {
  size_t size = 1;
  for (size_t i = 0; i < e.nops(); ++i) size += expression_size(e.op(i));
  return size;
}

GiNaC::ex derivative(const GiNaC::ex& e, const GiNaC::ex& symbol) {
  return e.diff(GiNaC::ex_to<GiNaC::symbol>(symbol));
}

GiNaC::exmap RandomPoints::next(const std::vector<GiNaC::ex>& symbols) {
  std::uniform_real_distribution<double> magnitude(0.5, 1.5);
  std::bernoulli_distribution negative(0.3);
  GiNaC::exmap point = fixed_;
  for (const GiNaC::ex& s : symbols) {
    if (point.count(s)) continue;
    double value = magnitude(generator_);
    point[s] = negative(generator_) ? -value : value;
  }
  return point;
}

std::optional<double> evaluate(const GiNaC::ex& e, const GiNaC::exmap& point) {
  try {
    // Not e.subs(point).evalf(): GiNaC leaks memory when its evaluation throws (a division by
    // zero at start values), and CLN can take seconds and gigabytes on exp(exp(exp(x))).
    GiNaC::ex value = evaluate_bounded(e, point);
    if (!GiNaC::is_a<GiNaC::numeric>(value)) return std::nullopt;
    const GiNaC::numeric& number = GiNaC::ex_to<GiNaC::numeric>(value);
    if (!number.is_real()) return std::nullopt;
    double d = number.to_double();
    if (!std::isfinite(d)) return std::nullopt;
    return d;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

int numeric_rank(std::vector<std::vector<double>> a, size_t columns) {
  double scale = 0;
  for (const auto& row : a) {
    for (double v : row) scale = std::max(scale, std::fabs(v));
  }
  if (scale == 0) return 0;
  const double tolerance = 1e-10 * scale * static_cast<double>(std::max(a.size(), columns));
  int rank = 0;
  size_t pivot_row = 0;
  for (size_t c = 0; c < columns && pivot_row < a.size(); ++c) {
    size_t best = pivot_row;
    for (size_t r = pivot_row + 1; r < a.size(); ++r) {
      if (std::fabs(a[r][c]) > std::fabs(a[best][c])) best = r;
    }
    if (std::fabs(a[best][c]) <= tolerance) continue;
    std::swap(a[best], a[pivot_row]);
    for (size_t r = pivot_row + 1; r < a.size(); ++r) {
      double factor = a[r][c] / a[pivot_row][c];
      if (factor == 0) continue;
      for (size_t k = c; k < columns; ++k) a[r][k] -= factor * a[pivot_row][k];
    }
    ++pivot_row;
    ++rank;
  }
  return rank;
}

int generic_rank(const std::vector<std::vector<GiNaC::ex>>& matrix, size_t columns,
                 const std::vector<GiNaC::ex>& symbols, RandomPoints& points) {
  constexpr int kPoints = 3, kAttempts = 20;
  int best = -1, found = 0;
  for (int attempt = 0; attempt < kAttempts && found < kPoints; ++attempt) {
    GiNaC::exmap point = points.next(symbols);
    std::vector<std::vector<double>> values(matrix.size(), std::vector<double>(columns, 0.0));
    bool finite = true;
    for (size_t r = 0; r < matrix.size() && finite; ++r) {
      for (size_t c = 0; c < columns && finite; ++c) {
        if (matrix[r][c].is_zero()) continue;
        std::optional<double> v = evaluate(matrix[r][c], point);
        finite = v.has_value();
        if (finite) values[r][c] = *v;
      }
    }
    if (!finite) continue;
    ++found;
    best = std::max(best, numeric_rank(std::move(values), columns));
  }
  return best;
}

}  // namespace daec
