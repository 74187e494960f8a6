// Telling contradicting constraints from redundant ones. Differentiated constraints lose their
// constant terms: x^2 + y^2 = 1 and x^2 + y^2 = 4 have the same derivatives, whose combination
// from the left null space reduces to 0 = 0 as for a constraint written twice. The same
// combination of the constraints as written decides: when its coefficients are constants, it
// is itself an invariant, and a nonzero constant there means that no state satisfies them all.
#pragma once

#include <optional>
#include <vector>

#include <ginac/ginac.h>

#include "reduction/expression_matrix.h"
#include "reduction/left_null_space.h"

namespace daec {

/// The constant that `dependency` with `weights` (dependency_weights: a combination of
/// constraints differentiated the same number of times, at least once) gives when applied to
/// `originals`, the same constraints as written
/// (residuals free of the algebraic unknowns), normalized so that the dependent row's
/// coefficient is 1. Returns it when the combination's coefficients and the result are numbers
/// and the result is not 0: then the constraints contradict one another. nullopt otherwise.
std::optional<GiNaC::numeric> contradicting_constant(const RowDependency& dependency,
                                                     const std::vector<GiNaC::ex>& weights,
                                                     const std::vector<GiNaC::ex>& originals);

}  // namespace daec
