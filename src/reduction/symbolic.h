// Symbolic and numeric helpers the reduction stages share: zero tests, Jacobians, and the generic
// rank of a symbolic matrix (its rank at random points, which equals the symbolic rank with
// probability one).
#pragma once

#include <random>
#include <vector>

#include <ginac/ginac.h>

#include "model/model.h"
#include "reduction/expression_matrix.h"

namespace daec {

/// Whether `e` is zero as a function, trying cheap tests before expanding and normalising.
bool is_identically_zero(const GiNaC::ex& e);

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
class RandomPoints {
 public:
  /// `fixed` maps symbols that keep their value (parameters) to numbers.
  explicit RandomPoints(GiNaC::exmap fixed) : fixed_(std::move(fixed)) {}

  /// A point assigning `symbols` values in [0.5, 1.5] with random sign, plus the fixed values.
  GiNaC::exmap next(const std::vector<GiNaC::ex>& symbols);

 private:
  GiNaC::exmap fixed_;
  std::mt19937_64 generator_{20261202};
};

/// `e` evaluated at `point` as a double; nullopt if it is not a finite real number there.
std::optional<double> evaluate(const GiNaC::ex& e, const GiNaC::exmap& point);

/// The generic rank of `matrix` (entries in `symbols`): the largest numeric rank
/// (reduction/numeric_rank.h) over a few random points where every entry is finite. Returns -1
/// if no such point was found.
int generic_rank(const ExpressionMatrix& matrix, const std::vector<GiNaC::ex>& symbols,
                 RandomPoints& points);

}  // namespace daec
