// Names of token kinds for diagnostics, and the keyword table.
#include "frontend/token.h"

#include <utility>

namespace daec {

namespace {
const std::pair<const char*, TokenKind> kKeywords[] = {
    {"model", TokenKind::KwModel},
    {"parameter", TokenKind::KwParameter},
    {"variable", TokenKind::KwVariable},
    {"output", TokenKind::KwOutput},
    {"equation", TokenKind::KwEquation},
    {"end", TokenKind::KwEnd},
    {"der", TokenKind::KwDer},
    {"start", TokenKind::KwStart},
    {"fixed", TokenKind::KwFixed},
    {"unit", TokenKind::KwUnit},
    {"true", TokenKind::KwTrue},
    {"false", TokenKind::KwFalse},
    {"for", TokenKind::KwFor},
    {"in", TokenKind::KwIn},
    {"loop", TokenKind::KwLoop},
    {"if", TokenKind::KwIf},
    {"then", TokenKind::KwThen},
    {"else", TokenKind::KwElse},
    {"elseif", TokenKind::KwElseif},
    {"and", TokenKind::KwAnd},
    {"or", TokenKind::KwOr},
    {"not", TokenKind::KwNot},
    {"sum", TokenKind::KwSum},
    {"product", TokenKind::KwProduct},
    {"when", TokenKind::KwWhen},
    {"reinit", TokenKind::KwReinit},
};
}  // namespace

TokenKind keyword_kind(std::string_view word) {
  for (const auto& [spelling, kind] : kKeywords) {
    if (word == spelling) return kind;
  }
  return TokenKind::Identifier;
}

std::string describe(TokenKind kind) {
  switch (kind) {
    case TokenKind::EndOfFile:
      return "end of file";
    case TokenKind::Identifier:
      return "a name";
    case TokenKind::Number:
      return "a number";
    case TokenKind::String:
      return "a string";
    case TokenKind::LeftParen:
      return "'('";
    case TokenKind::RightParen:
      return "')'";
    case TokenKind::Comma:
      return "','";
    case TokenKind::Semicolon:
      return "';'";
    case TokenKind::Colon:
      return "':'";
    case TokenKind::Equals:
      return "'='";
    case TokenKind::Prime:
      return "'''";
    case TokenKind::Plus:
      return "'+'";
    case TokenKind::Minus:
      return "'-'";
    case TokenKind::Star:
      return "'*'";
    case TokenKind::Slash:
      return "'/'";
    case TokenKind::Caret:
      return "'^'";
    case TokenKind::LeftBracket:
      return "'['";
    case TokenKind::RightBracket:
      return "']'";
    case TokenKind::LeftBrace:
      return "'{'";
    case TokenKind::RightBrace:
      return "'}'";
    case TokenKind::Less:
      return "'<'";
    case TokenKind::LessEqual:
      return "'<='";
    case TokenKind::Greater:
      return "'>'";
    case TokenKind::GreaterEqual:
      return "'>='";
    case TokenKind::EqualEqual:
      return "'=='";
    case TokenKind::NotEqual:
      return "'<>'";
    case TokenKind::Invalid:
      return "an invalid token";
    default:
      break;
  }
  for (const auto& [spelling, keyword] : kKeywords) {
    if (keyword == kind) return std::string("'") + spelling + "'";
  }
  return "a token";
}

std::string describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::Identifier:
    case TokenKind::Number:
      return "'" + token.text + "'";
    case TokenKind::String:
      return "a string";
    default:
      return describe(token.kind);
  }
}

}  // namespace daec
