// Running the reduction stages in order.
#include "reduction/pipeline.h"

#include "reduction/first_order.h"
#include "reduction/linearity.h"
#include "reduction/semi_explicit.h"
#include "reduction/structural_check.h"

namespace daec {

std::optional<ReducedSystem> reduce_model(const Model& model, const ReductionOptions& options,
                                          DiagnosticEngine& diags) {
  if (!check_structure(model, diags)) return std::nullopt;
  SemiExplicitSystem system = to_semi_explicit(to_first_order(model));
  std::vector<std::string> promoted = promote_nonlinear(system);
  std::optional<ReducedSystem> reduced = reduce(std::move(system), options, diags);
  if (reduced) reduced->promoted = std::move(promoted);
  return reduced;
}

}  // namespace daec
