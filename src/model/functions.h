// The built-in functions of the language (docs/language.md): names, arities and how each becomes a
// GiNaC expression. Also declares `sign`, which GiNaC does not have for real arguments; min and
// max are conditional expressions (model/conditions.h).
#pragma once

#include <string>
#include <vector>

#include <ginac/ginac.h>

namespace daec {

DECLARE_FUNCTION_1P(sign)

struct BuiltinFunction {
  const char* name;
  int arity;
  /// abs and sign have no derivative at 0, min and max none where a = b.
  bool smooth;
  GiNaC::ex (*build)(const GiNaC::exvector& arguments);
};

/// The built-in function called `name`, or nullptr.
const BuiltinFunction* find_function(const std::string& name);
/// All built-in function names, in the order docs/language.md lists them.
std::vector<std::string> function_names();

}  // namespace daec
