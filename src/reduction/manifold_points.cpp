// Gauss-Newton onto the invariants, in doubles and then with many digits (see the header).
#include "reduction/manifold_points.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>

#include "reduction/shared_expressions.h"
#include "reduction/symbolic.h"
#include "reduction/ties.h"

namespace daec {

namespace {

// Iterations in doubles, and with many digits after them (each doubles the correct digits).
constexpr int kDoubleIterations = 40, kPreciseIterations = 4;
// Converged in doubles when max |h| is below this times the scale of the states.
constexpr double kDoubleTolerance = 1e-12;
// Given up in doubles after this many iterations without a smaller residual.
constexpr int kStalledIterations = 4;

bool is_finite(double v) {
  return std::isfinite(v);
}
bool is_finite(const GiNaC::numeric&) {
  return true;
}  // CLN throws rather than make a NaN

// Solves the symmetric positive semidefinite system M y = r (M = J J^T) by symmetric Gaussian
// elimination with diagonal pivoting; a pivot below `zero` times the largest diagonal entry
// (a dependent invariant: J J^T singular) leaves its component of y at zero, which still gives
// a least-squares step for consistent invariants.
template <typename T>
void solve(std::vector<std::vector<T>> m, std::vector<T>& r, double zero) {
  size_t n = r.size();
  T largest = 0;
  for (size_t i = 0; i < n; ++i)
    if (magnitude(m[i][i]) > largest) largest = magnitude(m[i][i]);
  T tolerance = T(zero) * largest;
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::vector<bool> used(n, false), dropped(n, false);
  for (size_t step = 0; step < n; ++step) {
    // The largest diagonal entry left, the first of those tied up to rounding
    // (reduction/ties.h): which one leads decides which digits the point keeps.
    std::vector<T> diagonal(n);
    std::vector<bool> open(n);
    for (size_t i = 0; i < n; ++i) {
      diagonal[i] = m[i][i];
      open[i] = !used[i];
    }
    size_t k = first_of_largest(diagonal, open);
    used[k] = true;
    order[step] = k;
    if (!(magnitude(m[k][k]) > tolerance)) {
      dropped[k] = true;
      continue;
    }
    for (size_t i = 0; i < n; ++i) {
      if (used[i] || m[i][k] == T(0)) continue;
      T factor = m[i][k] / m[k][k];
      for (size_t j = 0; j < n; ++j) m[i][j] -= factor * m[k][j];
      r[i] -= factor * r[k];
    }
  }
  for (size_t step = n; step-- > 0;) {
    size_t k = order[step];
    if (dropped[k]) {
      r[k] = 0;
      continue;
    }
    for (size_t later = step + 1; later < n; ++later) r[k] -= m[k][order[later]] * r[order[later]];
    r[k] /= m[k][k];
  }
}

}  // namespace

ManifoldProjection::ManifoldProjection(std::vector<GiNaC::ex> invariants,
                                       std::vector<GiNaC::ex> states)
    : invariants_(std::move(invariants)), states_(std::move(states)) {
  for (const GiNaC::ex& h : invariants_) {
    std::vector<std::pair<size_t, GiNaC::ex>> row;
    GiNaC::exset symbols;
    for_each_symbol(h, [&](const GiNaC::ex& s) { return symbols.insert(s), true; });
    for (size_t j = 0; j < states_.size(); ++j) {
      if (!symbols.count(states_[j])) continue;
      GiNaC::ex d = derivative(h, states_[j]);
      if (!d.is_zero()) row.push_back({j, d});
    }
    jacobian_.push_back(std::move(row));
  }
}

// One minimum-norm Gauss-Newton step x -= J^T (J J^T)^-1 h in the arithmetic of T, with `value`
// evaluating an expression with the evaluator of `point` (one for h and J: they share most of
// their subexpressions); false if something is not finite or J J^T is singular.
template <typename T, typename Value>
static bool step(const std::vector<GiNaC::ex>& invariants,
                 const std::vector<std::vector<std::pair<size_t, GiNaC::ex>>>& jacobian,
                 const std::vector<GiNaC::ex>& states, GiNaC::exmap& point, Value value,
                 T& residual) {
  size_t m = invariants.size();
  std::vector<T> h(m);
  std::vector<std::vector<std::pair<size_t, T>>> J(m);
  residual = T(0);
  BoundedEvaluator at_point(point);
  for (size_t i = 0; i < m; ++i) {
    std::optional<T> v = value(invariants[i], at_point);
    if (!v) return false;
    h[i] = *v;
    if (magnitude(h[i]) > residual) residual = magnitude(h[i]);
    for (const auto& [j, d] : jacobian[i]) {
      std::optional<T> dv = value(d, at_point);
      if (!dv) return false;
      J[i].push_back({j, *dv});
    }
  }
  std::vector<std::vector<T>> JJt(m, std::vector<T>(m, T(0)));
  std::vector<T> dense(states.size(), T(0));
  for (size_t i = 0; i < m; ++i) {
    for (const auto& [j, v] : J[i]) dense[j] = v;
    for (size_t k = 0; k < m; ++k)
      for (const auto& [j, v] : J[k]) JJt[i][k] += dense[j] * v;
    for (const auto& [j, v] : J[i]) dense[j] = T(0);
  }
  std::vector<T> y = h;
  solve(JJt, y, std::is_same_v<T, double> ? 1e-13 : 1e-50);
  std::vector<T> dx(states.size(), T(0));
  for (size_t i = 0; i < m; ++i)
    for (const auto& [j, v] : J[i]) dx[j] += v * y[i];
  for (const T& d : dx)
    if (!is_finite(d)) return false;
  for (size_t j = 0; j < states.size(); ++j) {
    if (dx[j] == T(0)) continue;
    GiNaC::ex& x = point[states[j]];
    x = GiNaC::ex(x) - GiNaC::ex(dx[j]);
  }
  return true;
}

bool ManifoldProjection::project(GiNaC::exmap& point) const {
  try {
    return try_project(point);
  } catch (const std::exception&) {  // CLN on a NaN or an overflow: no projection
    return false;
  }
}

bool ManifoldProjection::try_project(GiNaC::exmap& point) const {
  if (invariants_.empty()) return true;
  GiNaC::exmap moved = point;
  // In doubles: the states as doubles first.
  for (const GiNaC::ex& s : states_) {
    std::optional<double> v = evaluate(moved[s], {});
    if (!v) return false;
    moved[s] = *v;
  }
  double scale = 1.0;
  for (const GiNaC::ex& s : states_) scale = std::max(scale, std::fabs(*evaluate(moved[s], {})));
  auto in_doubles = [](const GiNaC::ex& e, BoundedEvaluator& at) { return evaluate(e, at); };
  bool converged = false;
  double best = HUGE_VAL;
  for (int k = 0, stalled = 0; k < kDoubleIterations && !converged; ++k) {
    double residual = 0;
    if (!step<double>(invariants_, jacobian_, states_, moved, in_doubles, residual)) return false;
    converged = residual <= kDoubleTolerance * scale;
    // Rounding, not the tolerance, bounds the residual of large invariants: once it has stopped
    // decreasing, further steps only cost time.
    stalled = residual < best ? 0 : stalled + 1;
    best = std::min(best, residual);
    if (!converged && stalled >= kStalledIterations) return false;
  }
  if (!converged) return false;
  // With many digits, from the exact value of the double solution.
  GiNaC::exmap precise = exact_point(moved);
  auto with_digits = [](const GiNaC::ex& e, BoundedEvaluator& at) {
    return evaluate_precisely(e, at);
  };
  for (int k = 0; k < kPreciseIterations; ++k) {
    GiNaC::numeric residual = 0;
    if (!step<GiNaC::numeric>(invariants_, jacobian_, states_, precise, with_digits, residual))
      return false;
  }
  point = exact_point(precise);
  return true;
}

}  // namespace daec
