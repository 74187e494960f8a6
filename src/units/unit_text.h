// Units as text, for the tables and reports (docs/generated-code.md): the unit of a derivative
// written from the unit of what it differentiates, without the unit database.
#pragma once

#include <string>

namespace daec {

/// The unit of the time derivative of a quantity in `unit`: "m" -> "m/s", "m/s" -> "m/s2",
/// "m/s2" -> "m/s3", "N/m" -> "(N/m)/s"; "" (no unit) stays "".
std::string per_second(const std::string& unit);

}  // namespace daec
