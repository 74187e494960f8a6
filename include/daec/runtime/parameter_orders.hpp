// Why a generated model refuses a parameter value (set_parameter returns -2): the value breaks the
// order of an interp table's breakpoints (docs/language.md, "Tables: interp";
// docs/generated-code.md, "Parameters"). The simulator's --set, the Python module and the MEX file
// say it in these words.
#pragma once

#include <string>

#include <daec/model_error.hpp>
#include <daec/runtime/system.hpp>

namespace daec::runtime {

/// "parameter 'ts[2]' = 3 would break the order of an interp table: ts[2] = 3 is not below
/// ts[3] = 2 (breakpoints must increase strictly)", for setting `name` (parameter `index` of
/// `model`, as it is before the refused call) to `value`. The pair named is the first that the
/// value breaks directly; one broken only through a parameter bound to it is not named.
inline std::string broken_order_message(const System& model, int index, double value) {
  const std::string name = model.parameter_names[index];
  const std::string head = "parameter '" + name + "' = " + text::format_number(value) +
                           " would break the order of an interp table";
  const std::string tail = " (breakpoints must increase strictly)";
  auto at = [&](int i) { return i == index ? value : model.p[i]; };
  for (int k = 0; k < model.num_parameter_orders; ++k) {
    const int lower = model.parameter_orders[2 * k], upper = model.parameter_orders[2 * k + 1];
    if (lower != index && upper != index) continue;
    if (at(lower) < at(upper)) continue;
    return head + ": " + model.parameter_names[lower] + " = " + text::format_number(at(lower)) +
           " is not below " + model.parameter_names[upper] + " = " +
           text::format_number(at(upper)) + tail;
  }
  return head + " through the parameters bound to it" + tail;
}

}  // namespace daec::runtime
