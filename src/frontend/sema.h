// Semantic analysis: checks a parsed ModelSyntax and builds the Model of GiNaC expressions.
// Reports undeclared and duplicate names, reserved words, misplaced derivatives, arities,
// parameter ordering and cycles, non-constant parameters and starts, and count mismatches.
#pragma once

#include "frontend/ast.h"
#include "model/model.h"
#include "support/diagnostics.h"

namespace daec {

/// Builds the model. Returns it even when errors were reported (with the erroneous parts left
/// out); callers must check `diags.has_errors()` before passing it on. Its diagnostics are added
/// in source order.
Model analyze(const ModelSyntax& syntax, DiagnosticEngine& diags);

/// Names a model may not declare: keywords, `t`, `pi` and the built-in function names.
bool is_reserved_name(const std::string& name);

}  // namespace daec
