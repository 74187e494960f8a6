// The conditions of a generated Model (docs/language.md, "Conditions"): every relation `a < b` (<=, >, >=,
// ==, <>) of the reduced system is condition k, watched through its switching function
// g_k = a - b and taken, inside every generated function, from its mode: p[num_parameters + k]
// holds -1 (follow the live value, the default), 0 (false) or 1 (true). An integrator freezes the
// modes between events (set_modes), so that it sees a smooth right-hand side within a step, and
// locates each change of a relation by root finding on g. Keeping the modes in p, after the
// parameters, lets every function and every part read them without another argument.
// Models without relations get none of this: their code is what it was before conditions.
#pragma once

#include <string>

#include "codegen/expression_code.h"
#include "reduction/reduce.h"

namespace daec {

/// Adds to `symbols` the code of each relation's mode, p[num_parameters + k].
void add_condition_modes(const ReducedSystem& system, SymbolCode& symbols);

struct ConditionCode {
  std::string declarations;           ///< members of the Model declaration; empty without relations
  std::string definitions;            ///< condition_names, conditions(), set_modes(); empty without
  std::string parameter_array_size;   ///< the size of p
  std::string parameter_initializer;  ///< defaults of p, then -1 for each mode
};

/// `parameter_initializer`: the braced default values of the parameters.
ConditionCode condition_code(const ReducedSystem& system, const std::string& parameter_initializer);

/// "drive: t < 1": the label of the first equation relation `k` occurs in and the relation as
/// written.
std::string condition_name(const ReducedSystem& system, size_t k);

}  // namespace daec
