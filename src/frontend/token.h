// Tokens of the .dae language, each with the location where it starts.
#pragma once

#include <string>
#include <string_view>

#include "support/source.h"

namespace daec {

enum class TokenKind {
  EndOfFile,
  Identifier,
  Number,
  String,  ///< text holds the unescaped contents, without the quotes
  // keywords
  KwModel,
  KwParameter,
  KwVariable,
  KwOutput,
  KwEquation,
  KwEnd,
  KwDer,
  KwStart,
  KwFixed,
  KwUnit,
  KwTrue,
  KwFalse,
  KwFor,
  KwIn,
  KwLoop,
  KwIf,
  KwThen,
  KwElse,
  KwElseif,
  KwAnd,
  KwOr,
  KwNot,
  KwSum,
  KwProduct,
  KwWhen,
  KwReinit,
  // punctuation
  LeftParen,
  RightParen,
  Comma,
  Semicolon,
  Colon,
  Equals,
  Prime,
  Plus,
  Minus,
  Star,
  Slash,
  Caret,
  LeftBracket,
  RightBracket,
  LeftBrace,
  RightBrace,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  EqualEqual,
  NotEqual,  ///< <>
  Invalid,   ///< a character or literal the lexer already reported
};

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  std::string text;  ///< spelling (unescaped contents for strings)
  SourceLocation location;
};

/// How a token kind is named in diagnostics: `';'`, `'parameter'`, `a name`, `end of file`.
std::string describe(TokenKind kind);
/// How a particular token is named in diagnostics: `'x'`, `'2.5'`, `';'`.
std::string describe(const Token& token);

/// The keyword token kind for `word`, or Identifier.
TokenKind keyword_kind(std::string_view word);

}  // namespace daec
