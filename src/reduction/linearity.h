// Stage 4 (docs/method.md §4): an algebraic unknown
// is linear when f and g are affine in it (every second derivative with respect to algebraic
// unknowns vanishes) and it occurs in no condition (model/conditions.h), else nonlinear. Each
// nonlinear x_n becomes a state with a new algebraic
// unknown v_n and x_n' = v_n, so that afterwards f and g are affine in the algebraic unknowns.
#pragma once

#include <string>
#include <vector>

#include "reduction/system.h"

namespace daec {

/// The names of the algebraic unknowns that enter f or g nonlinearly, in unknown order.
std::vector<std::string> nonlinear_unknowns(const SemiExplicitSystem& system);

/// Promotes the nonlinear unknowns to states (docs/method.md §4); returns their names.
std::vector<std::string> promote_nonlinear(SemiExplicitSystem& system);

}  // namespace daec
