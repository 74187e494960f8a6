// Row dependencies of B found numerically, combinations built symbolically (see the header).
#include "reduction/left_null_space.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <type_traits>

#include "reduction/equilibration.h"
#include "reduction/numeric_rank.h"
#include "reduction/ties.h"

namespace daec {

namespace {

template <typename T>
using DenseOf = std::vector<std::vector<T>>;
using Dense = DenseOf<double>;

// The dense decisions' thresholds, as fractions of the largest entry times the dimension: below
// `zero` a reduced row is zero; in doubles a value between `close_zero` and `sure` is a close
// call, settled again with many digits (reduction/numeric_rank.h).
struct Thresholds {
  double zero, close_zero, sure;
  bool has_close_calls;
};
constexpr Thresholds kInDoubles{1e-10, 1e-14, 1e-6, true};
constexpr Thresholds kWithManyDigits{1e-40, 0.0, 0.0, false};

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
  // A row alone is a dependency only where every entry cancels to 0 (sin(x)^2 + cos(x)^2 - 1):
  // each must hold a sum.
  const auto holds_sum = [](const GiNaC::ex& e) {
    for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it)
      if (GiNaC::is_exactly_a<GiNaC::add>(*it)) return true;
    return false;
  };
  const auto may_vanish = [&B, &holds_sum](size_t r) {
    if (B.row(r).empty()) return false;  // a zero row: the caller's (reduce.cpp)
    for (const MatrixEntry& entry : B.row(r))
      if (!holds_sum(entry.value)) return false;
    return true;
  };
  blocks.erase(std::remove_if(blocks.begin(), blocks.end(),
                              [&](const std::vector<size_t>& b) {
                                return b.empty() || (b.size() == 1 && !may_vanish(b[0]));
                              }),
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

// B[rows, columns] evaluated entry by entry with `value_of` (an optional<T> of an expression),
// dense; nullopt if an entry is not finite there.
template <typename T, typename ValueOf>
std::optional<DenseOf<T>> values_at(const ExpressionMatrix& B, const std::vector<size_t>& rows,
                                    const std::vector<int>& columns, ValueOf value_of) {
  DenseOf<T> values(rows.size(), std::vector<T>(columns.size(), T(0)));
  for (size_t i = 0; i < rows.size(); ++i) {
    for (const MatrixEntry& entry : B.row(rows[i])) {
      std::optional<T> value = value_of(entry.value);
      if (!value) return std::nullopt;
      auto at = std::lower_bound(columns.begin(), columns.end(), entry.column);
      values[i][at - columns.begin()] = *value;
    }
  }
  return values;
}

template <typename T>
T largest(const DenseOf<T>& values) {
  T scale = 0;
  for (const auto& row : values)
    for (const T& v : row)
      if (magnitude(v) > scale) scale = magnitude(v);
  return scale;
}

// Rows (positions in `values`) in order: each is reduced against the independent ones before it
// (partial pivoting), tracking the combination; a row that reduces to zero is dependent and its
// combination names the earlier rows that span it. Sets `close_call` when a decision lay between
// the thresholds' `close_zero` and `sure`.
template <typename T>
std::vector<std::pair<size_t, std::vector<size_t>>> dependent_rows(const DenseOf<T>& values,
                                                                   const Thresholds& thresholds,
                                                                   bool& close_call) {
  size_t m = values.size(), n = m ? values[0].size() : 0;
  T scale = largest(values);
  if (!(scale > 0)) scale = 1;
  T size = scale * T(static_cast<double>(std::max(m, n)));
  T tolerance = T(thresholds.zero) * size;
  auto is_close = [&](const T& v) {
    return thresholds.has_close_calls && magnitude(v) > T(thresholds.close_zero) * size &&
           magnitude(v) < T(thresholds.sure) * scale;
  };
  struct Pivot {
    size_t column;
    std::vector<T> reduced, combination;  // reduced = sum combination[k] * values[k]
  };
  std::vector<Pivot> pivots;
  std::vector<std::pair<size_t, std::vector<size_t>>> dependent;
  for (size_t i = 0; i < m; ++i) {
    std::vector<T> w = values[i], t(m, T(0));
    t[i] = 1;
    for (const Pivot& p : pivots) {
      T factor = w[p.column] / p.reduced[p.column];
      if (factor == 0) continue;
      for (size_t c = 0; c < n; ++c) w[c] -= factor * p.reduced[c];
      for (size_t k = 0; k < m; ++k) t[k] -= factor * p.combination[k];
    }
    size_t best = first_of_largest(w);  // not by rounding (reduction/ties.h)
    if (n > 0 && is_close(w[best])) close_call = true;
    if (n > 0 && magnitude(w[best]) > tolerance) {
      pivots.push_back({best, std::move(w), std::move(t)});
      continue;
    }
    // A row zero by itself, its entries a cancellation's rounding (which differs from run to
    // run: reduction/ties.h), would reduce with weights that are rounding too: it is a
    // dependency without a basis.
    if (n == 0 || magnitude(values[i][first_of_largest(values[i])]) <= tolerance) {
      dependent.push_back({i, {}});
      continue;
    }
    T weight = 0;
    for (size_t k = 0; k < i; ++k)
      if (magnitude(t[k]) > weight) weight = magnitude(t[k]);
    std::vector<size_t> basis;
    for (size_t k = 0; k < i; ++k)
      if (magnitude(t[k]) > T(1e-9) * weight) basis.push_back(k);
    dependent.push_back({i, std::move(basis)});
  }
  return dependent;
}

// Which entries of B[rows, columns] are numbers (the same at every point, so never zero where
// the solution goes), dense like the values.
using ConstantMask = std::vector<std::vector<bool>>;

ConstantMask constant_entries(const ExpressionMatrix& B, const std::vector<size_t>& rows,
                              const std::vector<int>& columns) {
  ConstantMask mask(rows.size(), std::vector<bool>(columns.size(), false));
  for (size_t i = 0; i < rows.size(); ++i) {
    for (const MatrixEntry& entry : B.row(rows[i])) {
      auto at = std::lower_bound(columns.begin(), columns.end(), entry.column);
      mask[i][at - columns.begin()] = GiNaC::is_exactly_a<GiNaC::numeric>(entry.value);
    }
  }
  return mask;
}

// A constant pivot is taken over a larger one varying with the point, down to this fraction of
// it: the combination's weights are minors of B[basis, columns], and a minor that is a number
// never vanishes along the solution, where a varying one may (leaving A singular there).
constexpr double kConstantPreference = 1e-3;

// The pivot of one step of independent_columns among the rows not `used`: the largest entry
// that stays a number if one is there down to kConstantPreference of the largest varying one,
// else the largest varying one; among entries of that kind tied up to rounding, the first in row
// then column order (reduction/ties.h). Entries below `negligible` are zero. {row, column}, or
// nullopt if all are zero.
template <typename T>
std::optional<std::pair<size_t, size_t>> pivot_of(const DenseOf<T>& rows, const ConstantMask& fixed,
                                                  const std::vector<bool>& used,
                                                  const T& negligible) {
  T largest_fixed = 0, largest_varying = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (used[r]) continue;
    for (size_t c = 0; c < rows[r].size(); ++c) {
      T size = magnitude(rows[r][c]);
      T& largest = fixed[r][c] ? largest_fixed : largest_varying;
      if (size > negligible && size > largest) largest = size;
    }
  }
  bool want_fixed = largest_fixed > T(kConstantPreference) * largest_varying;
  T largest = want_fixed ? largest_fixed : largest_varying;
  if (!(largest > 0)) return std::nullopt;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (used[r]) continue;
    for (size_t c = 0; c < rows[r].size(); ++c)
      if (fixed[r][c] == want_fixed && ties_with_largest(magnitude(rows[r][c]), largest))
        return std::make_pair(r, c);
  }
  return std::nullopt;  // not reached: the largest is among them
}

// |basis| columns of the block's rows `basis` that make the square matrix nonsingular (complete
// pivoting, preferring entries that stay numbers), as positions into `values`' columns.
template <typename T>
std::vector<int> independent_columns(const DenseOf<T>& values, const ConstantMask& constant,
                                     const std::vector<size_t>& basis) {
  DenseOf<T> rows;
  ConstantMask fixed;
  for (size_t k : basis) rows.push_back(values[k]), fixed.push_back(constant[k]);
  // What elimination leaves of an entry that cancels is rounding, never a pivot.
  T negligible = tie_fraction<T>() * largest(rows);
  std::vector<int> columns;
  std::vector<bool> used_row(rows.size(), false);
  for (size_t step = 0; step < rows.size(); ++step) {
    auto pivot = pivot_of(rows, fixed, used_row, negligible);
    if (!pivot) break;  // cannot happen for a basis of independent rows
    auto [pr, pc] = *pivot;
    used_row[pr] = true;
    columns.push_back(static_cast<int>(pc));
    for (size_t r = 0; r < rows.size(); ++r) {
      if (used_row[r] || rows[r][pc] == 0) continue;
      T factor = rows[r][pc] / rows[pr][pc];
      bool factor_fixed = fixed[r][pc] && fixed[pr][pc];
      for (size_t c = 0; c < rows[r].size(); ++c) {
        rows[r][c] -= factor * rows[pr][c];
        fixed[r][c] = fixed[r][c] && (rows[pr][c] == 0 || (factor_fixed && fixed[pr][c]));
      }
    }
  }
  std::sort(columns.begin(), columns.end());
  return columns;
}

// values[rows, columns] as sparse rows over the positions of `columns`.
template <typename T>
std::vector<std::vector<std::pair<int, T>>> submatrix(const DenseOf<T>& values,
                                                      const std::vector<size_t>& rows,
                                                      const std::vector<int>& columns) {
  std::vector<std::vector<std::pair<int, T>>> out;
  for (size_t r : rows) {
    std::vector<std::pair<int, T>> row;
    for (size_t c = 0; c < columns.size(); ++c)
      row.push_back({static_cast<int>(c), values[r][columns[c]]});
    out.push_back(std::move(row));
  }
  return out;
}

// The rank of values[rows, columns]; a close call in doubles is reported through `close_call`.
int rank_of(const Dense& values, const std::vector<size_t>& rows, const std::vector<int>& columns,
            bool& close_call) {
  RankDecision decision = decide_rank(submatrix(values, rows, columns), columns.size());
  close_call = close_call || decision.close_call;
  return decision.rank;
}

int rank_of(const DenseOf<GiNaC::numeric>& values, const std::vector<size_t>& rows,
            const std::vector<int>& columns, bool&) {
  return precise_rank(submatrix(values, rows, columns), columns.size());
}

// Whether at a second point rows `basis` still span `row` through `columns`: B[basis, columns]
// nonsingular and B[basis + row, all columns] of the same rank. A row that is zero by itself
// (no basis) is zero there next to the block's largest entry (at most `zero`): the rank of the
// row alone would take the rounding of a cancellation for its scale.
template <typename T>
bool holds_at(const DenseOf<T>& values, const std::vector<int>& columns,
              const std::vector<size_t>& local_basis, size_t local_row, const T& zero,
              bool& close_call) {
  if (local_basis.empty()) {
    for (const T& v : values[local_row])
      if (magnitude(v) > zero) return false;
    return true;
  }
  std::vector<int> all(values.empty() ? 0 : values[0].size());
  std::iota(all.begin(), all.end(), 0);
  std::vector<size_t> with_row = local_basis;
  with_row.push_back(local_row);
  int k = static_cast<int>(local_basis.size());
  return rank_of(values, local_basis, columns, close_call) == k &&
         rank_of(values, with_row, all, close_call) == k;
}

// The dependencies of block `rows` from the values at a point and at a check point; nullopt if
// the check fails or, in doubles, if a decision was a close call (`close_call` set).
template <typename T>
std::optional<std::vector<RowDependency>> dependencies_from(
    const std::vector<size_t>& rows, const std::vector<int>& columns, const ConstantMask& constant,
    DenseOf<T> values, const DenseOf<T>& other, const Thresholds& thresholds, bool& close_call) {
  std::vector<RowDependency> found;
  size_t dimension = std::max(other.size(), other.empty() ? 0 : other[0].size());
  T zero = T(thresholds.zero) * largest(other) * T(static_cast<double>(dimension));
  for (auto& [local_row, local_basis] : dependent_rows(values, thresholds, close_call)) {
    std::vector<int> local_columns = independent_columns(values, constant, local_basis);
    // A coefficient taken for zero that was not shows at the second point: try other points.
    if (!holds_at(other, local_columns, local_basis, local_row, zero, close_call))
      return std::nullopt;
    RowDependency d;
    d.row = rows[local_row];
    for (size_t k : local_basis) d.basis.push_back(rows[k]);
    for (int c : local_columns) d.columns.push_back(columns[c]);
    found.push_back(std::move(d));
  }
  if (close_call) return std::nullopt;
  return found;
}

// Whether every entry of row `r` of B is a number.
bool is_constant_row(const ExpressionMatrix& B, size_t r) {
  const auto& entries = B.row(r);
  return std::all_of(entries.begin(), entries.end(), [](const MatrixEntry& entry) {
    return GiNaC::is_exactly_a<GiNaC::numeric>(entry.value);
  });
}

// `rows` with the rows whose entries are all numbers first, each group in its own order.
std::vector<size_t> constant_rows_first(const ExpressionMatrix& B, std::vector<size_t> rows) {
  std::stable_partition(rows.begin(), rows.end(), [&B](size_t r) { return is_constant_row(B, r); });
  return rows;
}

// In doubles first (scaled, reduction/equilibration.h); where a decision is a close call, again
// with many digits at the same (exact) points.
std::optional<std::vector<RowDependency>> dependencies_at(const ExpressionMatrix& B,
                                                          const std::vector<size_t>& rows,
                                                          const GiNaC::exmap& point,
                                                          const GiNaC::exmap& check) {
  std::vector<int> columns = columns_of(B, rows);
  ConstantMask constant = constant_entries(B, rows, columns);
  BoundedEvaluator at_point(point), at_check(check);
  TermSizes sizes_at_point(at_point), sizes_at_check(at_check);
  bool cancelled = false;  // an entry cancelled to rounding (symbolic.h, cancels_to_rounding)
  auto in_doubles = [&cancelled](BoundedEvaluator& at, TermSizes& sizes) {
    return [&at, &sizes, &cancelled](const GiNaC::ex& e) {
      std::optional<double> v = evaluate(e, at);
      if (v && cancels_to_rounding(e, *v, sizes)) cancelled = true;
      return v;
    };
  };
  std::optional<Dense> values =
      values_at<double>(B, rows, columns, in_doubles(at_point, sizes_at_point));
  std::optional<Dense> other =
      values_at<double>(B, rows, columns, in_doubles(at_check, sizes_at_check));
  if (!values || !other) return std::nullopt;
  // An entry far below the others of its row or column may be a coefficient of other units or
  // the rounding left of a cancellation, which scaling would make as large as any: many digits
  // tell them apart. So does an entry that cancels to rounding alone in its row and column.
  bool close_call = cancelled || has_tiny_entries(*values) || has_tiny_entries(*other);
  equilibrate(*values);  // decisions independent of the units (the second point: decide_rank)
  if (!close_call) {
    auto found =
        dependencies_from(rows, columns, constant, *values, *other, kInDoubles, close_call);
    if (!close_call) return found;
  }
  GiNaC::exmap exact = exact_point(point), exact_check = exact_point(check);
  BoundedEvaluator at_exact(exact), at_exact_check(exact_check);
  // A cancellation to 1e-40 of its terms is a 0 (symbolic.h, cancels_to_zero).
  auto precisely = [](BoundedEvaluator& at, TermSizes& sizes) {
    return [&at, &sizes](const GiNaC::ex& e) -> std::optional<GiNaC::numeric> {
      std::optional<GiNaC::numeric> v = evaluate_precisely(e, at);
      if (v && cancels_to_zero(e, *v, sizes)) return GiNaC::numeric(0);
      return v;
    };
  };
  auto precise = values_at<GiNaC::numeric>(B, rows, columns, precisely(at_exact, sizes_at_point));
  auto precise_other =
      values_at<GiNaC::numeric>(B, rows, columns, precisely(at_exact_check, sizes_at_check));
  if (!precise || !precise_other) return std::nullopt;
  bool ignored = false;
  return dependencies_from(rows, columns, constant, *precise, *precise_other, kWithManyDigits,
                           ignored);
}

// Beyond this many nodes in an entry of a block of B, the weights of its dependencies are not
// computed to choose an order of its rows: they are minors of the block, and on the nested
// combinations of a high-index model (entries of thousands of nodes) each costs minutes.
constexpr size_t kLargestEntryToWeigh = 400;

// The most nodes of an entry of B in `rows`.
size_t largest_entry(const ExpressionMatrix& B, const std::vector<size_t>& rows) {
  size_t largest = 0;
  for (size_t r : rows)
    for (const MatrixEntry& entry : B.row(r))
      largest = std::max(largest, expression_size(entry.value));
  return largest;
}

// Whether each combination of `dependencies` has a row to replace whose weight never vanishes
// (replaced_row). Reduced in the rows' order, the oracle's seed 49100185 wrote two dependent rows
// through one row holding `108*q1*q3'/125`: both combinations took weights of q1 on their own
// rows, neither could replace that shared row, and at q1 = 0 both reduced to it, so dh/dX lost
// rank on the solution. With the rows of numbers first (the definition of q3', `48*q3'/25 =
// u3`), every weight on a replaced row is a number. Not every model gains by that order (its
// combinations are other ones, and in seed 49100056 they vanish together on the solution where
// the rows' own order does not), so it is taken only where it gives this guarantee.
bool every_row_replaced_steadily(const ExpressionMatrix& B,
                                 const std::vector<RowDependency>& dependencies);

}  // namespace

std::vector<RowDependency> row_dependencies(const ExpressionMatrix& B,
                                            const std::vector<GiNaC::ex>& symbols,
                                            RandomPoints& points, bool for_combinations) {
  std::vector<RowDependency> all;
  for (const std::vector<size_t>& block : connected_rows(B)) {
    std::vector<size_t> numbers_first = constant_rows_first(B, block);
    std::optional<std::vector<RowDependency>> found;
    for (int attempt = 0; attempt < 5 && !found; ++attempt) {
      GiNaC::exmap point = points.next(symbols, attempt), check = points.next(symbols, attempt);
      found = dependencies_at(B, block, point, check);
      if (!found || !for_combinations || numbers_first == block ||
          largest_entry(B, block) > kLargestEntryToWeigh || every_row_replaced_steadily(B, *found))
        continue;
      auto other = dependencies_at(B, numbers_first, point, check);
      if (other && every_row_replaced_steadily(B, *other)) found = std::move(other);
    }
    if (found) all.insert(all.end(), found->begin(), found->end());
  }
  std::sort(all.begin(), all.end(),
            [](const RowDependency& a, const RowDependency& b) { return a.row < b.row; });
  return all;
}

namespace {

// `e` as a polynomial with rational coefficients in its symbols and in new symbols that stand
// for its other parts (functions, non-integer powers, inverses: 1/(1 + q^2) is a symbol), the
// same part as the same symbol throughout (`parts`, new symbol -> part). GiNaC's to_polynomial
// would make symbols of the rational coefficients too, and no gcd would be found through them.
GiNaC::ex as_polynomial(const GiNaC::ex& e, GiNaC::exmap& parts) {
  struct Inverses : GiNaC::map_function {
    GiNaC::exmap& parts;
    explicit Inverses(GiNaC::exmap& p) : parts(p) {}
    GiNaC::ex operator()(const GiNaC::ex& e) override {
      if (GiNaC::is_exactly_a<GiNaC::power>(e) && e.op(1).info(GiNaC::info_flags::negint)) {
        // In the model's terms: the base may hold symbols of to_rational's parts.
        GiNaC::ex inverse = GiNaC::pow(e.op(0), -1).subs(parts);
        for (const auto& [symbol, part] : parts) {
          if (part.is_equal(inverse)) return GiNaC::pow(symbol, -e.op(1));
        }
        GiNaC::symbol symbol;
        parts[symbol] = inverse;
        return GiNaC::pow(symbol, -e.op(1));
      }
      return e.map(*this);
    }
  };
  Inverses inverses(parts);
  return inverses(e.to_rational(parts));
}

// The sign of `e` at a point where each symbol has a value fixed by its name, 0 if `e` is not a
// nonzero real number there.
int sign_at_fixed_point(const GiNaC::ex& e) {
  GiNaC::exmap point;
  for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it) {
    if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
    unsigned hash = 2166136261u;  // FNV-1a of the name: the same in every run
    for (char c : GiNaC::ex_to<GiNaC::symbol>(*it).get_name())
      hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
    point[*it] = GiNaC::numeric(617 + static_cast<int>(hash % 1000), 1000);  // in [0.617, 1.617)
  }
  GiNaC::ex value = e.subs(point).evalf();
  if (!GiNaC::is_a<GiNaC::numeric>(value)) return 0;
  const GiNaC::numeric& number = GiNaC::ex_to<GiNaC::numeric>(value);
  if (!number.is_real() || number.is_zero()) return 0;
  return number.is_positive() ? 1 : -1;
}

// Whether `e` holds a floating-point number, with which a gcd is a rounded guess, not a factor.
bool has_float(const GiNaC::ex& e) {
  if (GiNaC::is_exactly_a<GiNaC::numeric>(e))
    return !GiNaC::ex_to<GiNaC::numeric>(e).is_cinteger() &&
           !GiNaC::ex_to<GiNaC::numeric>(e).is_crational();
  for (size_t i = 0; i < e.nops(); ++i) {
    if (has_float(e.op(i))) return true;
  }
  return false;
}

// `values` divided by their common polynomial factor (zeros skipped; as_polynomial), unchanged
// if they have none or if one of them has more than `largest` nodes: gcds of large expanded
// polynomials cost more than the reduction, and a factor left in costs only a weight that may
// vanish. Unchanged too where a value holds a floating-point number.
std::vector<GiNaC::ex> without_common_factor(const std::vector<GiNaC::ex>& values, size_t largest) {
  GiNaC::exmap parts;
  std::vector<GiNaC::ex> polynomials(values.size());
  GiNaC::ex factor;
  bool first = true;
  try {
    for (size_t i = 0; i < values.size(); ++i) {
      if (values[i].is_zero()) continue;
      if (expression_size(values[i]) > largest || has_float(values[i])) return values;
      polynomials[i] = as_polynomial(values[i], parts);
      factor = first ? polynomials[i] : GiNaC::gcd(factor, polynomials[i]);
      first = false;
      if (GiNaC::is_exactly_a<GiNaC::numeric>(factor)) return values;
    }
    if (first) return values;
    // Only the factor's variable part: its numbers (1/48828125000 for a gcd of weights with
    // such denominators) would rescale the whole combination by their inverse.
    factor = factor.expand();
    factor = (factor / factor.integer_content()).expand();
    // gcd's sign follows GiNaC's order of terms, which follows hashes that move from run to run
    // (reduction/ties.h): fixed at a point, or the combination would change sign between runs.
    int sign = sign_at_fixed_point(factor.subs(parts));
    if (sign == 0) return values;
    if (sign < 0) factor = -factor;
    std::vector<GiNaC::ex> divided = values;
    for (size_t i = 0; i < values.size(); ++i) {
      GiNaC::ex quotient;
      if (values[i].is_zero() || !GiNaC::divide(polynomials[i], factor, quotient, false))
        return values;
      divided[i] = quotient.expand().subs(parts);  // expanded: the same form in every run
    }
    return divided;
  } catch (const std::exception&) {
    return values;  // not a polynomial over the rationals after all (e.g. floating coefficients)
  }
}

// Beyond this many nodes an entry of B is not searched for a common factor of its column.
constexpr size_t kLargestEntry = 400;
// Beyond this many nodes a weight is not searched for a common factor of all the weights.
constexpr size_t kLargestWeight = 4000;

// B[rows, columns] with each column divided by the common factor of its entries. Every minor
// of all the columns carries each column's factor, so the combination would carry their product:
// a weight that vanishes where a factor does (u1 in the column of u1' for u1*u1' terms) while
// the model is regular there, leaving a combination that says nothing at such points and an
// A singular on the solution. Divided out, the combination is the same up to that factor.
DenseOf<GiNaC::ex> without_column_factors(const ExpressionMatrix& B,
                                          const std::vector<size_t>& rows,
                                          const std::vector<int>& columns) {
  DenseOf<GiNaC::ex> entries(rows.size(), std::vector<GiNaC::ex>(columns.size()));
  for (size_t j = 0; j < columns.size(); ++j) {
    std::vector<GiNaC::ex> column;
    for (size_t r : rows) column.push_back(B.at(r, static_cast<size_t>(columns[j])));
    column = without_common_factor(column, kLargestEntry);
    for (size_t i = 0; i < rows.size(); ++i) entries[i][j] = column[i];
  }
  return entries;
}

// Minors of a matrix's rows by Laplace expansion along the last column with memoised sub-minors
// over row subsets (bit masks over the rows). Products and sums are formed, never expanded:
// GiNaC's determinant normalises non-polynomial entries, which costs more than the whole
// reduction on the oracle's models.
class Minors {
 public:
  explicit Minors(const DenseOf<GiNaC::ex>& entries) : entries_(entries) {}

  // The determinant of the rows in `mask` (ascending) and the first popcount(mask) columns.
  GiNaC::ex of(unsigned long mask) {
    if (mask == 0) return 1;
    auto known = memo_.find(mask);
    if (known != memo_.end()) return known->second;
    size_t size = static_cast<size_t>(__builtin_popcountl(mask));
    GiNaC::ex sum = 0;
    size_t position = 0;
    for (size_t i = 0; i < entries_.size(); ++i) {
      if (!(mask >> i & 1UL)) continue;
      const GiNaC::ex& entry = entries_[i][size - 1];
      if (!entry.is_zero()) {
        GiNaC::ex minor = of(mask & ~(1UL << i));
        if (!minor.is_zero()) sum += ((position + size - 1) % 2 ? -1 : 1) * entry * minor;
      }
      ++position;
    }
    return memo_[mask] = sum;
  }

 private:
  const DenseOf<GiNaC::ex>& entries_;
  std::map<unsigned long, GiNaC::ex> memo_;
};

}  // namespace

std::vector<GiNaC::ex> dependency_weights(const ExpressionMatrix& B,
                                          const RowDependency& dependency) {
  std::vector<size_t> rows = dependency.basis;
  rows.push_back(dependency.row);
  size_t k = dependency.basis.size();
  DenseOf<GiNaC::ex> entries = without_column_factors(B, rows, dependency.columns);
  // The expansion of the bordered determinant along its residual column: row i's weight is
  // (-1)^(i+k) det(B[rows \ i, columns]).
  std::vector<GiNaC::ex> weights(k + 1);
  if (rows.size() >= 8 * sizeof(unsigned long)) {  // too many for the bit masks (never seen)
    for (size_t i = 0; i <= k; ++i) {
      GiNaC::matrix minor(k, k);
      for (size_t r = 0, m = 0; r <= k; ++r) {
        if (r == i) continue;
        for (size_t j = 0; j < k; ++j) minor(m, j) = entries[r][j];
        ++m;
      }
      weights[i] = ((i + k) % 2 ? -1 : 1) * minor.determinant();
    }
    return weights;
  }
  Minors minors(entries);
  unsigned long all = (1UL << rows.size()) - 1;
  for (size_t i = 0; i <= k; ++i)
    weights[i] = ((i + k) % 2 ? -1 : 1) * minors.of(all & ~(1UL << i));
  // A factor of every weight that no column holds (149*q1 + 34*u1 in each minor of a mechanism's
  // rows) vanishes somewhere as well, and with it the whole combination.
  return without_common_factor(weights, kLargestWeight);
}

GiNaC::ex combination_of(const RowDependency& dependency, const std::vector<GiNaC::ex>& weights,
                         const std::vector<GiNaC::ex>& residuals) {
  GiNaC::ex combination = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    size_t row = i < dependency.basis.size() ? dependency.basis[i] : dependency.row;
    if (!weights[i].is_zero()) combination += weights[i] * residuals[row];
  }
  return combination;
}

GiNaC::ex dependency_combination(const ExpressionMatrix& B, const RowDependency& dependency,
                                 const std::vector<GiNaC::ex>& residuals) {
  return combination_of(dependency, dependency_weights(B, dependency), residuals);
}

size_t replaced_row(const RowDependency& dependency, const std::vector<GiNaC::ex>& weights,
                    const std::vector<RowDependency>& all, bool* steady) {
  if (steady) *steady = true;
  size_t last = weights.size() - 1;
  if (never_vanishes(weights[last])) return dependency.row;
  std::set<size_t> held_elsewhere;
  for (const RowDependency& other : all) {
    if (other.row == dependency.row) continue;
    held_elsewhere.insert(other.row);
    held_elsewhere.insert(other.basis.begin(), other.basis.end());
  }
  for (size_t i = last; i-- > 0;) {
    size_t row = dependency.basis[i];
    if (!held_elsewhere.count(row) && never_vanishes(weights[i])) return row;
  }
  if (steady) *steady = false;
  return dependency.row;
}

namespace {

bool every_row_replaced_steadily(const ExpressionMatrix& B,
                                 const std::vector<RowDependency>& dependencies) {
  for (const RowDependency& dependency : dependencies) {
    bool steady = false;
    replaced_row(dependency, dependency_weights(B, dependency), dependencies, &steady);
    if (!steady) return false;
  }
  return true;
}

}  // namespace

}  // namespace daec
