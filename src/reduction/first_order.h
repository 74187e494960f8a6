// Stage 2 (docs/method.md §2): rewrites higher derivatives as first-order ones. For x'' a velocity
// state x_dot is introduced with x' = x_dot, and x'' becomes x_dot'.
#pragma once

#include "model/model.h"
#include "reduction/structural_order.h"
#include "reduction/system.h"

namespace daec {

/// The unknowns and equations follow `order` (reduction/structural_order.h); the context keeps
/// the model's declaration order.
FirstOrderSystem to_first_order(const Model& model, UnknownOrder order = UnknownOrder::Declared);

/// The name of the state standing for the `order`-th derivative of `name`: x_dot, x_ddot, ...
std::string velocity_name(const std::string& name, int order);

}  // namespace daec
