// Helpers of the reduction data structures.
#include "reduction/system.h"

#include "model/evaluation.h"

namespace daec {

GiNaC::realsymbol ModelContext::fresh_symbol(const std::string& base) {
  return symbols.get(symbols.unique_name(base));
}

GiNaC::exmap ModelContext::parameter_values() const {
  GiNaC::exmap values;
  for (const Parameter& p : parameters) values[p.symbol] = from_double(p.value);
  return values;
}

std::string level_label(const std::string& base, int level) {
  return base + std::string(static_cast<size_t>(level), '\'');
}

}  // namespace daec
