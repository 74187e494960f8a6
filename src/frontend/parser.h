// The recursive-descent parser: tokens to a ModelSyntax, one function per rule of grammar/dae.ebnf.
#pragma once

#include <vector>

#include "frontend/ast.h"
#include "frontend/token.h"
#include "support/diagnostics.h"

namespace daec {

/// Nesting deeper than this (parentheses, unary operators, powers, calls) is reported as
/// "nested too deeply" instead of recursing further.
constexpr int kMaxExpressionNesting = 256;

/// `for` loops nested deeper than this are reported instead of parsed.
constexpr int kMaxLoopNesting = 64;

/// Derivative orders (x''...', der(x, n)) above this are reported as out of range.
constexpr int kMaxDerivativeOrder = 100;

/// Parses a whole model file. Syntax errors are reported to `diags`; the parser recovers at the
/// next `;` (or statement keyword) so that every error of the file is reported. The result holds
/// whatever was parsed successfully.
ModelSyntax parse(const std::vector<Token>& tokens, DiagnosticEngine& diags);

}  // namespace daec
