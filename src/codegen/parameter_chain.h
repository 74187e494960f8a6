// The chain rule through the dependent parameters, worked out when the code is generated
// (docs/generated-code.md, "Parameter Jacobians"). A parameter q whose default is written in
// terms of earlier parameters (`k = 1/tau`) follows them while parameter_bound[q] holds, so the
// derivative of a function f in p[c] is the sum over the parameters q that follow c, directly or
// through others, of dp_q/dp_c times the partial derivative df/dp_q. Which parameters those are
// (c's chain) and which entries of the total derivative can be nonzero is known here; the weights
// dp_q/dp_c are computed at run time, from the bindings still bound.
#pragma once

#include <vector>

#include <ginac/ginac.h>

#include "codegen/jacobian_structure.h"
#include "reduction/system.h"

namespace daec {

struct ParameterChain {
  /// Column c's chain: chain[start[c]] is c itself, then every parameter bound to c directly or
  /// through others, increasing (a binding uses earlier parameters only).
  std::vector<int> start{0}, chain;
  /// The partial derivatives of the bindings: for parameter q, d binding_q / d p[j] for
  /// j = binding_parameter[e], e from binding_start[q] to binding_start[q + 1] - 1.
  std::vector<int> binding_start{0}, binding_parameter;
  std::vector<GiNaC::ex> binding_value;
};

ParameterChain parameter_chain(const ModelContext& context);

/// The pattern of the total derivative in p: column c is the union of the columns of `partial`
/// (a pattern by parameters) over c's chain.
ColumnPattern chained_pattern(const ColumnPattern& partial, const ParameterChain& chain);

}  // namespace daec
