// The dimensional check (docs/language.md, "Units"): the unit strings of the declarations are
// parsed (an unknown one is an error), and every equation, initial equation, output and parameter
// value is checked for dimensional consistency on the syntax tree, so that each mismatch is
// reported once, at the operator or subexpression where it is, even inside a loop.
#pragma once

#include "frontend/ast.h"
#include "model/model.h"
#include "support/diagnostics.h"

namespace daec {

/// --units=error|warn|off: how dimensional mismatches are reported.
enum class UnitCheckMode {
  Off,   ///< not checked (unit strings are still parsed: they go into the generated tables)
  Warn,  ///< warnings (the default)
  Error  ///< errors: the model is not compiled
};

/// Parses the unit strings of `syntax` (errors at the strings) and, unless `mode` is Off, checks
/// its equations, outputs and parameter values. `model` is the flattened model of `syntax`: its
/// parameter values give the exponents of powers such as `x^n`.
void check_units(const ModelSyntax& syntax, const Model& model, UnitCheckMode mode,
                 DiagnosticEngine& diags);

}  // namespace daec
