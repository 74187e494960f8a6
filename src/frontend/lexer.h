// The lexer: turns a source file into tokens, reporting malformed numbers, unterminated strings
// and comments, stray characters and non-text input.
#pragma once

#include <vector>

#include "frontend/token.h"
#include "support/diagnostics.h"
#include "support/source.h"

namespace daec {

/// Checks that `file` is text a model can be made of: no NUL bytes, well-formed UTF-8.
/// Reports what it finds and returns false if the file cannot be lexed.
bool check_encoding(const SourceFile& file, DiagnosticEngine& diags);

/// Splits `file` into tokens; the last token is always EndOfFile. Lexical errors are reported
/// and produce Invalid tokens, so the parser can keep going.
std::vector<Token> lex(const SourceFile& file, DiagnosticEngine& diags);

}  // namespace daec
