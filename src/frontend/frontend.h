// The whole front end in one call: encoding check, lexing, parsing, semantic analysis and
// flattening.
#pragma once

#include <optional>
#include <string>

#include "frontend/flatten.h"
#include "model/model.h"
#include "support/diagnostics.h"
#include "support/source.h"

namespace daec {

/// The checked, flattened model of `file`, or nullopt if any error was reported to `diags`.
/// `file` must outlive the diagnostics, which point into it. A -D that names no parameter of
/// the model is a usage error, not an error in the model: it is put in `usage_error` (if given;
/// else reported as an error of the file) and nullopt is returned.
std::optional<Model> run_frontend(const SourceFile& file, DiagnosticEngine& diags,
                                  const FlattenOptions& options = {},
                                  std::string* usage_error = nullptr);

/// Why `define` cannot apply to the parsed model `syntax` ("" if it can).
std::string check_define(const ModelSyntax& syntax, const Define& define);

}  // namespace daec
