// Running the reduction stages in order.
#include "reduction/pipeline.h"

#include <new>

#include "reduction/first_order.h"
#include "reduction/limits.h"
#include "reduction/linearity.h"
#include "reduction/semi_explicit.h"
#include "reduction/start_conditions.h"
#include "reduction/structural_check.h"

namespace daec {

static std::optional<ReducedSystem> run_stages(const Model& model, const ReductionOptions& options,
                                               DiagnosticEngine& diags) {
  SourceLocation whole_model{model.location.file};
  checkpoint(whole_model, "checking the structure of the model");
  if (!check_structure(model, diags)) return std::nullopt;
  checkpoint(whole_model, "bringing the model to semi-explicit form");
  SemiExplicitSystem system = to_semi_explicit(to_first_order(model));
  checkpoint(whole_model, "classifying the algebraic variables");
  std::vector<std::string> promoted = promote_nonlinear(system);
  std::optional<ReducedSystem> reduced = reduce(std::move(system), options, diags);
  if (!reduced) return std::nullopt;
  reduced->promoted = std::move(promoted);
  checkpoint(whole_model, "checking the conditions on the start");
  if (!check_start_conditions(*reduced, model.location, diags)) return std::nullopt;
  return reduced;
}

std::optional<ReducedSystem> reduce_model(const Model& model, const ReductionOptions& options,
                                          DiagnosticEngine& diags) {
  try {
    return run_stages(model, options, diags);
  } catch (const LimitExceeded& e) {
    report_limit(e, model.location.file, diags);
    return std::nullopt;
  } catch (const std::bad_alloc&) {
    throw;  // reported by the driver, naming the stage
  } catch (const std::exception& e) {
    report_expression_failure(e, model.location, diags);
    return std::nullopt;
  }
}

}  // namespace daec
