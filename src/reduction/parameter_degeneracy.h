// Naming the parameters whose values make the constraints singular (docs/language.md section 5):
// with `c: b*z + x = y` and b = 0 the coefficient of z vanishes, the reduction follows the value
// given (it differentiates c), and the generated code is right only for that value. The
// reduction warns and names the parameter instead of leaving the user to guess why the index
// went up.
#pragma once

#include <string>
#include <vector>

#include <ginac/ginac.h>

#include "reduction/expression_matrix.h"
#include "reduction/system.h"

namespace daec {

/// A parameter whose value lowers the rank of a matrix, and the first row that holds it.
struct RankLoweringParameter {
  const Parameter* parameter;
  size_t row;
  int free_rank;  ///< the generic rank when the parameter takes random values
};

/// The parameters of `context` occurring in `matrix` (entries in `symbols`) whose values lower its
/// generic rank below what it has when that parameter alone takes random values; `rank` is the
/// rank at the parameters' values. In the order of the parameters' declarations.
std::vector<RankLoweringParameter> rank_lowering_parameters(const ExpressionMatrix& matrix,
                                                            const std::vector<GiNaC::ex>& symbols,
                                                            const ModelContext& context, int rank);

}  // namespace daec
