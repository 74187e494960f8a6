// The reduction pipeline of docs/method.md, stage after stage: structural check, first order,
// semi-explicit form, linearity preprocessing and the reduction loop.
#pragma once

#include <optional>

#include "model/model.h"
#include "reduction/reduce.h"
#include "support/diagnostics.h"

namespace daec {

/// Reduces `model`; reports failures, an exceeded resource limit (reduction/limits.h) included,
/// to `diags` and returns nullopt.
std::optional<ReducedSystem> reduce_model(const Model& model, const ReductionOptions& options,
                                          DiagnosticEngine& diags);

}  // namespace daec
