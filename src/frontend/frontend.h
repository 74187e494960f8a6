// The whole front end in one call: encoding check, lexing, parsing and semantic analysis.
#pragma once

#include <optional>

#include "model/model.h"
#include "support/diagnostics.h"
#include "support/source.h"

namespace daec {

/// The checked model of `file`, or nullopt if any error was reported to `diags`. `file` must
/// outlive the diagnostics, which point into it.
std::optional<Model> run_frontend(const SourceFile& file, DiagnosticEngine& diags);

}  // namespace daec
