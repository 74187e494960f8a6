// The text `daec MODEL --check` prints: the model's declarations, its equations and the
// dependency table of equations against unknowns and derivatives (docs/method.md: the coupled
// pendulums).
#pragma once

#include <string>

#include "analysis/classification.h"
#include "model/model.h"

namespace daec {

std::string format_check_summary(const Model& model, const Classification& classification);

/// The shortest decimal form of `value` that reads back as the same double.
std::string shortest_double(double value);

}  // namespace daec
