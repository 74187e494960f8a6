// The structural check of a model's start: its fixed starts and initial equations, together with
// the hidden constraints every consistent start satisfies, must leave the states some freedom.
// Each condition (a row) needs a state (a column) of its own that it can move; without such a
// matching the start is over-determined whatever the numbers, and the Dulmage–Mendelsohn
// decomposition names the conditions and states involved. (Fewer conditions than states is fine:
// the other starts are guesses.)
#pragma once

#include "reduction/reduce.h"
#include "structure/sparsity.h"
#include "support/diagnostics.h"

namespace daec {

/// The rows of the start's conditions against the states, with each row's name: the invariants,
/// the fixed states ("x (fixed)"), the fixed algebraic unknowns, the initial equations. A row
/// that depends on X' or Z (through the right-hand side) may hold any state.
struct StartPattern {
  SparsityPattern pattern;
  std::vector<std::string> row_names;
  std::vector<SourceLocation> row_locations;  ///< invalid for the fixed starts
};

StartPattern start_pattern(const ReducedSystem& system);

/// Warns where the start is over-determined structurally (more fixed starts, initial equations
/// and constraints on some states than those states): they must agree, which only the simulator
/// can tell with the values of a run (spec: surplus starts that agree run with a warning).
/// Returns true (the model is compiled).
bool check_start_conditions(const ReducedSystem& system, SourceLocation model_location,
                            DiagnosticEngine& diags);

}  // namespace daec
