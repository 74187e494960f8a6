// The when-clause members of a generated Model (docs/generated-code.md, "When clauses"): the
// clauses' names, their conditions read through the modes of their relations, the values of
// their reinits at a state, the reset map that applies one clause, and the re-initialization that
// keeps the reset values. Models without when clauses get none of this.
#pragma once

#include <string>

#include "codegen/function_generator.h"

namespace daec {

/// The definitions of the when members (when_names, reinit_clause, reinit_target,
/// when_conditions, reinit_values, reinit, consistent_reinitialization); "" without clauses.
std::string when_members(function_code::Generator& gen);

/// The number of reinits of all clauses.
size_t reinit_count(const ReducedSystem& system);

}  // namespace daec
