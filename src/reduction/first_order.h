// Stage 2 (docs/method.md §2): rewrites higher derivatives as first-order ones. For x'' a velocity
// state x_dot is introduced with x' = x_dot, and x'' becomes x_dot'.
#pragma once

#include "model/model.h"
#include "reduction/system.h"

namespace daec {

FirstOrderSystem to_first_order(const Model& model);

/// The name of the state standing for the `order`-th derivative of `name`: x_dot, x_ddot, ...
std::string velocity_name(const std::string& name, int order);

}  // namespace daec
