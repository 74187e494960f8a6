// The combination of constraints as written that their derivatives' dependency gives.
#include "reduction/contradiction.h"

namespace daec {

// The rational function `e` simplified, or nullopt if GiNaC cannot (a division by zero).
static std::optional<GiNaC::ex> normalized(const GiNaC::ex& e) {
  try {
    return e.normal();
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<GiNaC::numeric> contradicting_constant(const RowDependency& dependency,
                                                     const std::vector<GiNaC::ex>& weights,
                                                     const std::vector<GiNaC::ex>& originals) {
  GiNaC::ex scale = weights.back();  // the dependent row's
  if (scale.is_zero()) return std::nullopt;
  for (size_t i = 0; i < dependency.basis.size(); ++i) {
    std::optional<GiNaC::ex> ratio = normalized(weights[i] / scale);
    if (!ratio || !GiNaC::is_exactly_a<GiNaC::numeric>(*ratio)) return std::nullopt;
  }
  std::optional<GiNaC::ex> value =
      normalized(combination_of(dependency, weights, originals) / scale);
  if (!value || !GiNaC::is_exactly_a<GiNaC::numeric>(*value) || value->is_zero())
    return std::nullopt;
  return GiNaC::ex_to<GiNaC::numeric>(*value);
}

}  // namespace daec
