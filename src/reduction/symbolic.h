// Symbolic and numeric helpers the reduction stages share: zero tests, Jacobians, and the generic
// rank of a symbolic matrix (its rank at random points, which equals the symbolic rank with
// probability one).
#pragma once

#include <random>
#include <vector>

#include <ginac/ginac.h>

#include "model/model.h"

namespace daec {

/// Whether `e` is zero as a function, trying cheap tests before expanding and normalising.
bool is_identically_zero(const GiNaC::ex& e);

/// The number of nodes of `e` as a tree (a measure of expression swell; shared subexpressions
/// count every time they occur).
size_t expression_size(const GiNaC::ex& e);

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

/// The numerical rank of a dense matrix (Gaussian elimination with partial pivoting and a
/// relative tolerance); `rows` may be empty.
int numeric_rank(std::vector<std::vector<double>> rows, size_t columns);

/// The generic rank of `matrix` (entries in `symbols`): the largest numeric rank over a few
/// random points where every entry is finite. Returns -1 if no such point was found.
int generic_rank(const std::vector<std::vector<GiNaC::ex>>& matrix, size_t columns,
                 const std::vector<GiNaC::ex>& symbols, RandomPoints& points);

}  // namespace daec
