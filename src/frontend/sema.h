// Semantic analysis: checks a parsed ModelSyntax and builds the Model of GiNaC expressions, in
// three steps of their own: the declarations (frontend/declarations.h: reserved and duplicate
// names, the parameters fixed at compile time), the flattening of arrays and loops with the
// lowering of every expression (frontend/flatten.h, frontend/expressions.h), and the checks on
// the whole model made here: equations without variables, variables in no equation, and the
// count of equations against variables.
#pragma once

#include "frontend/ast.h"
#include "frontend/flatten.h"
#include "model/model.h"
#include "support/diagnostics.h"

namespace daec {

/// Builds the model. Returns it even when errors were reported (with the erroneous parts left
/// out); callers must check `diags.has_errors()` before passing it on. Its diagnostics are added
/// in source order.
Model analyze(const ModelSyntax& syntax, DiagnosticEngine& diags,
              const FlattenOptions& options = {});

}  // namespace daec
