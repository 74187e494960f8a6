// The lines `daec MODEL --check` prints about the reduction, after the classification: the index
// and why, the counts of states, algebraic unknowns, dummy variables and invariants
// (docs/command-line.md), one line per round of the reduction loop and the hidden constraints by
// label.
#pragma once

#include <string>

#include "reduction/reduce.h"

namespace daec {

/// The summary, every line ending in a newline and none blank (the caller separates it from what
/// precedes). Example, for the pendulum:
///
///     reduction: index 3 (2 differentiation rounds + 1 for the algebraic variable lambda)
///       4 states, 3 algebraic unknowns, 2 dummy variables, 2 invariants
///       dummy variables: u_dot = u', v_dot = v'
///       round 1: B 3x3, structural rank 2, rank 2: differentiated rod
///       round 2: B 3x3, structural rank 2, rank 2: differentiated rod'
///       round 3: B 3x3, structural rank 3, rank 3: nonsingular, index 1 reached
///       hidden constraints: rod, rod'
std::string format_reduction_summary(const ReducedSystem& system);

/// "4 states, 3 algebraic unknowns, 2 dummy variables, 2 invariants"
std::string format_counts(const ReducedSystem& system);

}  // namespace daec
