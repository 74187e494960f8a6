// Printing a whole model back in .dae syntax, declarations grouped into the arrays they were
// written as: the round-trip tests rely on its output parsing back to the same model.
#pragma once

#include <string>

#include "model/model.h"

namespace daec {

/// The whole model as a .dae file that parses back to the same model.
std::string print_model(const Model& model);

}  // namespace daec
