// Symbolic and numeric helpers the reduction stages share: zero tests, Jacobians, and the generic
// rank of a symbolic matrix (its rank at random points, which equals the symbolic rank with
// probability one).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include <ginac/ginac.h>

#include "model/evaluation.h"
#include "model/model.h"
#include "reduction/expression_matrix.h"

namespace daec {

/// Whether `e` is zero as a function, trying cheap tests before expanding and normalising.
bool is_identically_zero(const GiNaC::ex& e);

/// Whether `e` is nonzero for every real value of its symbols, as its form shows: a nonzero
/// number, an exponential, a product or integer power of such, or a sum of terms of one sign
/// (a number times even powers of symbols, exponentials, or even powers of such sums) with a
/// number among them: 7*u^2 + 20, -(q^2 + 4)*exp(t). False where the form shows nothing (x,
/// cos(x), x^2 + y^2, x^2 - 1), so a caller that needs a weight nonzero everywhere can rely on it.
bool never_vanishes(const GiNaC::ex& e);

/// The number of nodes of `e` as a tree (a measure of expression swell; shared subexpressions
/// count every time they occur).
size_t expression_size(const GiNaC::ex& e);

/// `e` with the symbols that are keys of `values` replaced by their values, simultaneously. Unlike
/// GiNaC's plain subs, which scans the whole map at every sum and product of `e` (a search for
/// product patterns), this costs a map lookup per node: linear in `e` whatever the size of the map.
GiNaC::ex substitute_symbols(const GiNaC::ex& e, const GiNaC::exmap& values);

/// d e / d symbol.
GiNaC::ex derivative(const GiNaC::ex& e, const GiNaC::ex& symbol);

/// Random evaluation points for the symbols of a system. The generator is seeded with a fixed
/// value, so every decision taken on random points is the same from run to run.
///
/// A symbol with a nonzero start value (its "center") is drawn as the start value times a
/// factor in [0.5, 1.5]: with its sign and its magnitude, so inside the domain of sqrt, log and
/// pow (a flow law with 1/sqrt(lambda) and lambda > 0) and at the magnitudes the model's units
/// give, yet far enough from the start (often a consistent point) to be generic. Other symbols
/// are drawn in [0.5, 1.5], with random sign on even attempts and positive on odd ones (a retry
/// after an evaluation outside the domain).
class RandomPoints {
 public:
  /// `fixed` maps symbols that keep their value (parameters) to numbers; `centers` maps symbols
  /// to their start values (numbers).
  explicit RandomPoints(GiNaC::exmap fixed,
                        std::map<GiNaC::ex, double, GiNaC::ex_is_less> centers = {})
      : fixed_(std::move(fixed)), centers_(std::move(centers)) {}

  /// A point assigning `symbols` values as above, plus the fixed values, then moved by the
  /// projection if one is set.
  GiNaC::exmap next(const std::vector<GiNaC::ex>& symbols, int attempt = 0);

  /// Moves each point drawn (onto the constraints known so far, reduction/manifold_points.h);
  /// returns false, leaving the point, where it cannot. An empty function: no projection.
  void set_projection(std::function<bool(GiNaC::exmap&)> projection) {
    projection_ = std::move(projection);
  }

 private:
  std::function<bool(GiNaC::exmap&)> projection_;
  GiNaC::exmap fixed_;
  std::map<GiNaC::ex, double, GiNaC::ex_is_less> centers_;
  std::mt19937_64 generator_{20261202};
};

/// The size of expressions' terms at one point: |e| for anything but a sum, a product or an
/// integer power, the sum of the terms' sizes for a sum, the product of the factors' for a
/// product (the power of the base's for a power): what e would be without cancellation. Memoized
/// (expressions share their subexpressions); nullopt where a part cannot be evaluated there.
class TermSizes {
 public:
  explicit TermSizes(BoundedEvaluator& at_point) : at_point_(at_point) {}
  std::optional<double> operator()(const GiNaC::ex& e);

 private:
  BoundedEvaluator& at_point_;
  std::map<GiNaC::ex, std::optional<double>, GiNaC::ex_is_less> sizes_;
};

/// Whether e, whose value in doubles at the point of `term_size` is `value`, cancels to rounding:
/// |value| within 1e-12 of the size of its terms (sin(x)^2 + cos(x)^2 - 1, 1e-17 next to terms
/// of 1): a rank decision on it is a close call, to be taken with many digits.
bool cancels_to_rounding(const GiNaC::ex& e, double value, TermSizes& term_size);

/// Whether e, whose value to kPreciseDigits digits is `value`, is a cancellation to 0: within
/// 1e-40 of the size of its terms (in doubles, at the point of `term_size`).
bool cancels_to_zero(const GiNaC::ex& e, const GiNaC::numeric& value, TermSizes& term_size);

/// `e` evaluated at `point` as a double; nullopt if it is not a finite real number there.
std::optional<double> evaluate(const GiNaC::ex& e, const GiNaC::exmap& point);

/// evaluate(e, point) with the evaluator of a point (model/evaluation.h): expressions evaluated
/// at the same point share the values of their common subexpressions.
std::optional<double> evaluate(const GiNaC::ex& e, BoundedEvaluator& at_point);

/// Decimal digits of the evaluations that settle rank decisions too close to call in doubles.
constexpr int kPreciseDigits = 60;

/// `point` with each floating-point value replaced by the exact rational it stands for, so that
/// evaluate_precisely works to its full precision.
GiNaC::exmap exact_point(const GiNaC::exmap& point);

/// `e` evaluated at an exact point to kPreciseDigits digits; nullopt if it is not a finite real
/// number there.
std::optional<GiNaC::numeric> evaluate_precisely(const GiNaC::ex& e, const GiNaC::exmap& exact);

/// evaluate_precisely(e, exact) with the evaluator of an exact point, used only for this.
std::optional<GiNaC::numeric> evaluate_precisely(const GiNaC::ex& e, BoundedEvaluator& at_exact);

/// The generic rank of `matrix` (entries in `symbols`): the largest numeric rank
/// (reduction/numeric_rank.h) over a few random points where every entry is finite; where a
/// pivot is too close to call in doubles, the rank at that point is taken again to
/// kPreciseDigits digits (precise_rank). Returns -1 if no such point was found.
/// The rank of `matrix` at an exact point (exact_point), its entries evaluated to kPreciseDigits
/// digits; nullopt if an entry is not finite there.
std::optional<int> precise_rank_at(const ExpressionMatrix& matrix, const GiNaC::exmap& exact);

int generic_rank(const ExpressionMatrix& matrix, const std::vector<GiNaC::ex>& symbols,
                 RandomPoints& points);

}  // namespace daec
