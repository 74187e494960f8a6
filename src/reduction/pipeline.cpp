// Running the reduction stages in order.
#include "reduction/pipeline.h"

#include <new>

#include "reduction/first_order.h"
#include "reduction/limits.h"
#include "reduction/linearity.h"
#include "reduction/semi_explicit.h"
#include "reduction/start_conditions.h"
#include "reduction/structural_check.h"
#include "support/work_counters.h"

namespace daec {

static void replay(const DiagnosticEngine& from, DiagnosticEngine& to) {
  for (const Diagnostic& d : from.diagnostics()) {
    if (d.severity == Severity::Error) to.error(d.location, d.message);
    if (d.severity == Severity::Warning) to.warning(d.location, d.message);
    if (d.severity == Severity::Note) to.note(d.location, d.message);
  }
}

// High index (or --combinations promote): combinations of combinations would grow each round, so
// the unknowns of structural dependencies are made states instead (docs/reduction.md, "High
// index"). Where that does not reduce the model, the combinations nest as deep as they must.
static std::optional<ReducedSystem> reduce_high_index(SemiExplicitSystem system,
                                                      const ReductionOptions& options,
                                                      DiagnosticEngine& diags) {
  ReductionOptions promoting = options;
  promoting.combinations = CombinationPolicy::PromoteStructural;
  DiagnosticEngine attempt;
  std::optional<ReducedSystem> reduced = reduce(system, promoting, attempt);
  if (reduced) {
    diags = std::move(attempt);
    return reduced;
  }
  ReductionOptions nesting = options;
  nesting.combinations = CombinationPolicy::NestFreely;
  diags = DiagnosticEngine();
  return reduce(std::move(system), nesting, diags);
}

static std::optional<ReducedSystem> run_stages(const Model& model, const ReductionOptions& options,
                                               DiagnosticEngine& diags) {
  SourceLocation whole_model{model.location.file};
  std::optional<WorkStageScope> stage;
  stage.emplace(WorkStage::Structure);
  checkpoint(whole_model, "checking the structure of the model");
  if (!check_structure(model, diags)) return std::nullopt;
  checkpoint(whole_model, "bringing the model to semi-explicit form");
  const SemiExplicitSystem semi_explicit =
      to_semi_explicit(to_first_order(model, options.unknown_order));
  stage.reset();
  stage.emplace(WorkStage::Reduction);
  std::optional<ReducedSystem> reduced;
  std::vector<std::string> promoted;
  // An unknown inside a relation is first classified by its branches. Where that leaves a
  // constraint to differentiate that holds Z only in a relation, the reduction starts again
  // with such unknowns made states (reduction/linearity.h).
  for (ConditionUnknowns conditions :
       {ConditionUnknowns::Branchwise, ConditionUnknowns::Nonlinear}) {
    SemiExplicitSystem system = semi_explicit;
    checkpoint(whole_model, "classifying the algebraic variables");
    promoted = promote_nonlinear(system, conditions);
    DiagnosticEngine attempt;  // an abandoned attempt's warnings are not reported
    try {
      if (options.combinations == CombinationPolicy::PromoteStructural) {
        reduced = reduce_high_index(std::move(system), options, attempt);
      } else {
        try {
          reduced = reduce(system, options, attempt);
        } catch (const NestedCombinations&) {
          reduced = reduce_high_index(std::move(system), options, attempt);
        }
      }
    } catch (const AlgebraicInCondition&) {
      if (conditions == ConditionUnknowns::Nonlinear) throw;
      continue;
    } catch (...) {  // a limit: what the attempt reported before it stays
      replay(attempt, diags);
      throw;
    }
    replay(attempt, diags);
    break;
  }
  if (!reduced) return std::nullopt;
  for (const ReductionRound& round : reduced->rounds)
    promoted.insert(promoted.end(), round.promoted.begin(), round.promoted.end());
  reduced->promoted = std::move(promoted);
  stage.reset();
  stage.emplace(WorkStage::Index);
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
