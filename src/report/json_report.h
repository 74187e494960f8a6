// The machine-readable report of a reduction (`daec MODEL --report-json FILE`,
// docs/command-line.md): the index, the unknowns, the dummy variables, the hidden constraints,
// every round of the reduction loop with its dependency table, and the final system with the
// structure of A.
#pragma once

#include <string>
#include <string_view>

#include "model/model.h"
#include "reduction/reduce.h"

namespace daec {

/// The report as one JSON object, pretty-printed with two-space indentation, keys in a fixed
/// order, arrays of plain values on one line. Starts with the keys docs/command-line.md requires:
/// "model", "index", "states", "algebraic", "dummies" (names), "invariants" ([{"name",
/// "expression"}]) and "rounds" ([{"number", "rows", "columns", "pattern", "structural_rank",
/// "rank", "nonsingular", "null_space", "differentiated", "dummies"}]); then details
/// (parameters, declared variables, every unknown's origin, X' = F, the constraints, A and b,
/// and the block lower-triangular form of A). Expressions are strings in .dae syntax; a
/// constraint's or invariant's "expression" is its residual, the constraint being
/// "expression = 0". Ends with a newline.
std::string json_report(const Model& model, const ReducedSystem& system);

/// `text` as a JSON string literal, quotes included: `"` and `\` are escaped, control characters
/// become \n, \t, ... or \u00XX, other characters stay as they are (UTF-8). Bytes that are not
/// well-formed UTF-8 become \ufffd, so the result is always valid JSON.
std::string json_string(std::string_view text);

}  // namespace daec
