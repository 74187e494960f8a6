// The flattening stage (docs/language.md): expands arrays and loops into the scalar model the
// reduction works on. Each array becomes its elements (`x[1]` ... `x[N]`, each a symbol of its
// own), each loop its iterations, each equation in a loop one equation per iteration (`rod[3]`, or
// `eqN[i]` when unlabelled); the expressions of a loop body are built once per iteration from the
// syntax tree, with the loop variables bound. Parameters that sizes, ranges or indices use are
// fixed here (-D NAME=VALUE overrides them first) and replaced by their values.
#pragma once

#include <string>
#include <vector>

#include "frontend/ast.h"
#include "frontend/declarations.h"
#include "frontend/expressions.h"
#include "model/model.h"
#include "support/diagnostics.h"
#include "units/unit_check.h"

namespace daec {

/// -D NAME=VALUE: the value (a number literal, optionally signed) replaces the parameter's.
struct Define {
  std::string name;
  std::string value;
};

struct FlattenOptions {
  std::vector<Define> defines;
  /// Array elements plus loop iterations a model may have (ElementBudget).
  size_t max_elements = kDefaultMaxElements;
  /// --units: how dimensional mismatches are reported (docs/language.md, "Units").
  UnitCheckMode units = UnitCheckMode::Warn;
};

/// Builds the scalar model of `syntax` whose names were entered in `declarations`. Reports
/// what goes wrong (sizes, values, indices, labels, ...) and leaves the erroneous parts out;
/// callers must check `diags.has_errors()`.
Model flatten(const ModelSyntax& syntax, Declarations& declarations, const FlattenOptions& options,
              DiagnosticEngine& diags);

}  // namespace daec
