// Loops for the repeated assignments of a long straight-line function. A model of many equal
// bodies or grid points numbered by its structure (reduction/structural_order.h) fills the
// entries of its Jacobians in periods: the entries of one link, then the same entries of the
// next link with every index moved by the same amounts. Written out, those functions grow with
// the model until their code and the values they write no longer fit in the processor's caches
// (docs/generated-code.md, "Large models: parts and part files"); as a loop over the links they
// are a few lines, and write `values` in order.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "codegen/expression_code.h"
#include "codegen/function_generator.h"

namespace daec::function_code {

/// From this many assignments on, a function's repeated assignments become loops.
inline constexpr size_t kRolledMinimum = 2048;
/// The longest period looked for, in assignments.
inline constexpr size_t kRolledMaxPeriod = 128;
/// The fewest repetitions of a period that make a loop.
inline constexpr size_t kRolledMinRepeats = 8;

/// Assignments first .. first + period * count - 1: assignment first + j + period * k is
/// assignment first + j with every index (of the target and of each symbol) moved k times by
/// the same amount, for each symbol the same amount in all of the period's assignments.
struct RolledRun {
  size_t first = 0, period = 0, count = 0;
};

/// The runs of `list` (targets ARRAY[index], no prefixes), longest first at each place, none
/// overlapping; symbols read as ARRAY[index] (x[3], z[7], p[0]). Empty below kRolledMinimum.
std::vector<RolledRun> rolled_runs(const SymbolCode& symbols, const std::vector<Assignment>& list);

/// The statements computing `list`: each run of rolled_runs as a loop, the assignments between
/// them as assignment_statements writes them.
std::vector<std::string> rolled_statements(const SymbolCode& symbols,
                                           const std::vector<Assignment>& list);

}  // namespace daec::function_code
