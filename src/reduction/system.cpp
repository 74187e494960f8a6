// Helpers of the reduction data structures.
#include "reduction/system.h"

#include "model/evaluation.h"
#include "support/work_counters.h"

namespace daec {

GiNaC::realsymbol ModelContext::fresh_symbol(const std::string& base) {
  return symbols.get(symbols.unique_name(base));
}

GiNaC::exmap ModelContext::parameter_values() const {
  GiNaC::exmap values;
  for (const Parameter& p : parameters) values[p.symbol] = from_double(p.value);
  count_work(WorkKind::Entries, parameters.size());
  return values;
}

const OriginWords& origin_words(UnknownOrigin origin) {
  static const OriginWords variable{"variable", "variable", "variable"};
  static const OriginWords velocity{"velocity", "velocity", "velocity"};
  static const OriginWords dummy{"dummy", "dummy derivative", "dummy for"};
  static const OriginWords nonlinear{"nonlinear_dummy",
                                     "derivative of a nonlinear algebraic variable", "dummy for"};
  switch (origin) {
    case UnknownOrigin::Variable:
      return variable;
    case UnknownOrigin::Velocity:
      return velocity;
    case UnknownOrigin::Dummy:
      return dummy;
    case UnknownOrigin::Nonlinear:
      return nonlinear;
  }
  return variable;
}

std::string level_label(const std::string& base, int level) {
  return base + std::string(static_cast<size_t>(level), '\'');
}

}  // namespace daec
