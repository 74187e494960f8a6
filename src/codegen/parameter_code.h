// The dependent parameters of a generated Model. A parameter whose default is written in terms of
// earlier parameters (`parameter tau = 2, k = 1/tau;`) keeps that expression, its binding, in the
// generated code: update_dependent_parameters() recomputes every parameter still bound, in
// declaration order, and set_parameter cuts the binding of the parameter it sets (as a Modelica
// modifier overrides a binding) before updating the others, so that `k` follows `tau` until `k`
// itself is set. A default that is a number (`2`, `2*pi`) is no binding.
#pragma once

#include <string>

#include "model/model.h"
#include "reduction/system.h"

namespace daec {

/// Whether `parameter`'s default uses another parameter.
bool has_binding(const Parameter& parameter);

/// The binding as the model's syntax writes it ("1/tau"), or "" for a number.
std::string binding_text(const Parameter& parameter);

struct ParameterCode {
  std::string bound_initializer;  ///< {false, true}: parameter_bound, one flag per parameter
  std::string bindings;           ///< {"", "1/tau"}: parameter_bindings, escaped
  std::string update;             ///< the body of update_dependent_parameters()
  /// The orders of the interp tables' breakpoints (Model::parameter_orders): their number and
  /// {lower, upper, ...}, parameter_orders.
  size_t num_orders = 0;
  std::string orders;
};

ParameterCode parameter_code(const ModelContext& context);

}  // namespace daec
