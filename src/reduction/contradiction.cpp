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

std::optional<GiNaC::numeric> contradicting_constant(const ExpressionMatrix& B,
                                                     const RowDependency& dependency,
                                                     const std::vector<GiNaC::ex>& originals) {
  // The bordered determinant is linear in the residuals: its value at the unit vector of a row is
  // that row's coefficient.
  auto coefficient = [&](size_t row) {
    std::vector<GiNaC::ex> unit(originals.size(), 0);
    unit[row] = 1;
    return dependency_combination(B, dependency, unit);
  };
  GiNaC::ex scale = coefficient(dependency.row);
  if (scale.is_zero()) return std::nullopt;
  for (size_t row : dependency.basis) {
    std::optional<GiNaC::ex> ratio = normalized(coefficient(row) / scale);
    if (!ratio || !GiNaC::is_exactly_a<GiNaC::numeric>(*ratio)) return std::nullopt;
  }
  std::optional<GiNaC::ex> value =
      normalized(dependency_combination(B, dependency, originals) / scale);
  if (!value || !GiNaC::is_exactly_a<GiNaC::numeric>(*value) || value->is_zero())
    return std::nullopt;
  return GiNaC::ex_to<GiNaC::numeric>(*value);
}

}  // namespace daec
