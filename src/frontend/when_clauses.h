// When clauses (docs/language.md, "When clauses and reinit"): `when C then reinit(x, E); ...
// end when;` lowered into the Model's WhenClause list, and the checks on them that need the
// whole model (which variables are differential, up to which derivative order).
#pragma once

#include "frontend/ast.h"
#include "frontend/expressions.h"
#include "model/model.h"
#include "support/diagnostics.h"

namespace daec {

/// Lowers `decl` with the loop bindings of `context` into model.when_clauses; reports a target
/// that is not a variable (undeclared, a parameter, an output, ...) and leaves the clause out.
void lower_when_clause(const WhenDecl& decl, Context context, ExpressionLowering& lowering,
                       Model& model);

/// Once the equations are known: each reinit target is a state (a differential variable, or
/// the velocity x' of a variable whose x'' appears), and each condition and value uses only what
/// has a value before the instant (t, parameters, states; values also algebraic variables and
/// the derivatives the equations use).
void check_when_clauses(const Model& model, DiagnosticEngine& diags);

}  // namespace daec
