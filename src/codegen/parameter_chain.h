// The chain rule through the dependent parameters, worked out when the code is generated
// (docs/generated-code.md, "Parameter Jacobians"). A parameter q whose default is written in
// terms of earlier parameters (`k = 1/tau`) follows them while parameter_bound[q] holds, so the
// total derivative of a function f in p[c] is its partial derivative plus, over the parameters q
// whose binding reads p[c], d binding_q / d p[c] times the total derivative in p[q]. A binding
// reads earlier parameters only, so the columns are made total from the last parameter to the
// first, each from the columns after it (reverse accumulation): the work is the edges of the
// bindings times the entries of the columns they reach, not the pairs of parameters one follows
// (a chain p[i] = p[i-1] + 1 of 10,000 parameters has 50 million such pairs, and tables of
// them made 318 MB of code). Which entries can be nonzero is known here; the weights
// d binding_q / d p[c] are computed at run time, from the bindings still bound.
#pragma once

#include <vector>

#include <ginac/ginac.h>

#include "codegen/jacobian_structure.h"
#include "reduction/system.h"

namespace daec {

struct ParameterChain {
  /// The partial derivatives of the bindings, one entry e for each parameter j a binding reads:
  /// binding_value[e] is d binding_q / d p[j] for q = binding_owner[e], j = binding_parameter[e]
  /// (by q, then j, increasing).
  std::vector<int> binding_parameter, binding_owner;
  std::vector<GiNaC::ex> binding_value;
  /// The bindings that read parameter c: the entries follower_entry[f] (into the binding
  /// tables above), f from follower_start[c] to follower_start[c + 1] - 1, their owners
  /// increasing.
  std::vector<int> follower_start{0}, follower_entry;
};

ParameterChain parameter_chain(const ModelContext& context);

/// The pattern of the total derivative in p: column c is column c of `partial` (a pattern by
/// parameters) and the total columns of the parameters whose bindings read c.
ColumnPattern chained_pattern(const ColumnPattern& partial, const ParameterChain& chain);

}  // namespace daec
