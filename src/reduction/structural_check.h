// The structural check of a model before reduction (docs/limits.md): equations against variables,
// an edge where an equation contains the variable or one of its derivatives. Without a perfect
// matching the model is structurally singular, whatever its index, and the Dulmage–Mendelsohn
// decomposition names the over- and under-determined parts.
#pragma once

#include "model/model.h"
#include "structure/sparsity.h"
#include "support/diagnostics.h"

namespace daec {

/// Equations (rows) against variables (columns) of `model`.
SparsityPattern incidence_pattern(const Model& model);

/// Reports a structurally singular model; returns false if it is one.
bool check_structure(const Model& model, DiagnosticEngine& diags);

}  // namespace daec
