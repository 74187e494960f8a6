// Stage 4 (docs/method.md §4): an algebraic unknown
// is linear when f and g are affine in it, branch by branch: in every branch of every `if`, with
// the relations (which are piecewise constant) counting as constants. An unknown inside a
// relation stays linear then: i = if v > 0.7 then (v - 0.7)/R1 else v/R2 is affine in v and i
// for each value of the relation, and the generated code settles the relation's mode together
// with Z (docs/reduction.md). Each nonlinear x_n becomes a state with a new algebraic unknown v_n
// and x_n' = v_n, so that afterwards f and g are affine in the algebraic unknowns.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "reduction/system.h"

namespace daec {

/// How an algebraic unknown inside a relation is classified.
enum class ConditionUnknowns {
  Branchwise,  ///< by its branches: a relation is a constant (the default)
  Nonlinear,   ///< nonlinear, so that every relation is a function of X and t: for a model whose
               ///< hidden constraints would otherwise hold Z in a relation (AlgebraicInCondition)
};

/// The names of the algebraic unknowns that enter f or g nonlinearly, in unknown order.
std::vector<std::string> nonlinear_unknowns(
    const SemiExplicitSystem& system, ConditionUnknowns conditions = ConditionUnknowns::Branchwise);

/// Makes the algebraic unknowns j with promote[j] states w, each with its rate w' = v a new
/// algebraic unknown named rate_name(w) (placed after the unknowns kept); returns their names.
std::vector<std::string> promote_to_states(
    SemiExplicitSystem& system, const std::vector<bool>& promote,
    const std::function<std::string(const Unknown&)>& rate_name);

/// Promotes the nonlinear unknowns to states (docs/method.md §4); returns their names.
std::vector<std::string> promote_nonlinear(
    SemiExplicitSystem& system, ConditionUnknowns conditions = ConditionUnknowns::Branchwise);

}  // namespace daec
