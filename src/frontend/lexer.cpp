// The lexer of the .dae language (docs/language.md): comments, names, keywords, numbers, strings,
// operators and brackets.
#include "frontend/lexer.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "support/text.h"

namespace daec {

bool check_encoding(const SourceFile& file, DiagnosticEngine& diags) {
  const std::string& text = file.text();
  size_t nul = text.find('\0');
  if (nul != std::string::npos) {
    diags.error(file.location_at(nul),
                "file contains a NUL byte: it looks binary, not a .dae model");
    return false;
  }
  constexpr size_t kMaxReported = 10;
  std::vector<size_t> invalid = find_invalid_utf8(text, kMaxReported);
  for (size_t offset : invalid) {
    diags.error(file.location_at(offset), "invalid UTF-8 byte sequence (the file must be UTF-8)");
  }
  return invalid.empty();
}

namespace {

bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_name_char(char c) {
  return is_name_start(c) || is_digit(c);
}

class Lexer {
 public:
  Lexer(const SourceFile& file, DiagnosticEngine& diags)
      : file_(file), text_(file.text()), diags_(diags) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    for (;;) {
      skip_whitespace_and_comments();
      Token token = next();
      bool end = token.kind == TokenKind::EndOfFile;
      tokens.push_back(std::move(token));
      if (end) return tokens;
    }
  }

 private:
  char peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < text_.size() ? text_[i] : '\0';
  }
  bool at_end() const { return pos_ >= text_.size(); }

  SourceLocation here() const { return SourceLocation{&file_, line_, column_, pos_}; }

  // Moves one byte forward, keeping line and column (in code points) current.
  void advance() {
    bool line_break = ends_line(text_, pos_);
    unsigned char c = static_cast<unsigned char>(text_[pos_++]);
    if (line_break) {
      ++line_;
      column_ = 1;
    } else if ((c & 0xC0) != 0x80) {  // columns count code points, not continuation bytes
      ++column_;
    }
  }
  void advance_code_point() {
    advance();
    while (!at_end() && (static_cast<unsigned char>(peek()) & 0xC0) == 0x80) advance();
  }

  void skip_whitespace_and_comments();
  Token next();
  Token make(TokenKind kind, const SourceLocation& start) const {
    return Token{kind, text_.substr(start.offset, pos_ - start.offset), start};
  }
  Token lex_name(const SourceLocation& start);
  Token lex_number(const SourceLocation& start);
  Token lex_string(const SourceLocation& start);
  Token lex_stray_characters(const SourceLocation& start);

  const SourceFile& file_;
  const std::string& text_;
  DiagnosticEngine& diags_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

void Lexer::skip_whitespace_and_comments() {
  for (;;) {
    char c = peek();
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      advance();
    } else if (c == '/' && peek(1) == '/') {
      while (!at_end() && peek() != '\n' && peek() != '\r') advance_code_point();
    } else if (c == '/' && peek(1) == '*') {
      SourceLocation start = here();
      advance();
      advance();
      while (!at_end() && !(peek() == '*' && peek(1) == '/')) advance_code_point();
      if (at_end()) {
        diags_.error(start, "unterminated comment: '/*' without a closing '*/'");
        return;
      }
      advance();
      advance();
    } else {
      return;
    }
  }
}

Token Lexer::next() {
  SourceLocation start = here();
  if (at_end()) return Token{TokenKind::EndOfFile, "", start};
  char c = peek();
  if (is_name_start(c)) return lex_name(start);
  if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return lex_number(start);
  if (c == '"') return lex_string(start);
  TokenKind kind;
  switch (c) {
    case '(':
      kind = TokenKind::LeftParen;
      break;
    case ')':
      kind = TokenKind::RightParen;
      break;
    case ',':
      kind = TokenKind::Comma;
      break;
    case ';':
      kind = TokenKind::Semicolon;
      break;
    case ':':
      kind = TokenKind::Colon;
      break;
    case '=':
      kind = peek(1) == '=' ? TokenKind::EqualEqual : TokenKind::Equals;
      break;
    case '<':
      kind = peek(1) == '='   ? TokenKind::LessEqual
             : peek(1) == '>' ? TokenKind::NotEqual
                              : TokenKind::Less;
      break;
    case '>':
      kind = peek(1) == '=' ? TokenKind::GreaterEqual : TokenKind::Greater;
      break;
    case '[':
      kind = TokenKind::LeftBracket;
      break;
    case ']':
      kind = TokenKind::RightBracket;
      break;
    case '{':
      kind = TokenKind::LeftBrace;
      break;
    case '}':
      kind = TokenKind::RightBrace;
      break;
    case '\'':
      kind = TokenKind::Prime;
      break;
    case '+':
      kind = TokenKind::Plus;
      break;
    case '-':
      kind = TokenKind::Minus;
      break;
    case '*':
      kind = TokenKind::Star;
      break;
    case '/':
      kind = TokenKind::Slash;
      break;
    case '^':
      kind = TokenKind::Caret;
      break;
    default:
      return lex_stray_characters(start);
  }
  advance();
  bool two_characters = kind == TokenKind::EqualEqual || kind == TokenKind::LessEqual ||
                        kind == TokenKind::NotEqual || kind == TokenKind::GreaterEqual;
  if (two_characters) advance();
  return make(kind, start);
}

Token Lexer::lex_name(const SourceLocation& start) {
  while (is_name_char(peek())) advance();
  Token token = make(TokenKind::Identifier, start);
  token.kind = keyword_kind(token.text);
  return token;
}

// number = digits [ "." digits ] [ exponent ] | "." digits [ exponent ], with the fraction digits
// after "." optional when digits precede it. Anything name-like glued to it makes it malformed.
Token Lexer::lex_number(const SourceLocation& start) {
  bool malformed = false;
  while (is_digit(peek())) advance();
  if (peek() == '.') {
    advance();
    while (is_digit(peek())) advance();
  }
  if (peek() == 'e' || peek() == 'E') {
    advance();
    if (peek() == '+' || peek() == '-') advance();
    if (!is_digit(peek())) malformed = true;
    while (is_digit(peek())) advance();
  }
  if (is_name_char(peek()) || peek() == '.') {
    malformed = true;
    while (is_name_char(peek()) || peek() == '.') advance();
  }
  Token token = make(TokenKind::Number, start);
  if (malformed) {
    diags_.error(start, "malformed number '" + token.text + "'");
    token.kind = TokenKind::Invalid;
    return token;
  }
  errno = 0;
  double value = std::strtod(token.text.c_str(), nullptr);
  bool has_nonzero_digit = token.text.find_first_of("123456789") < token.text.find_first_of("eE");
  if (std::isinf(value) || (errno == ERANGE && std::fabs(value) > 1.0)) {
    diags_.error(start,
                 "number '" + token.text + "' is too large for a double (about 1.8e308 at most)");
    token.kind = TokenKind::Invalid;
  } else if (has_nonzero_digit && value == 0.0) {  // a subnormal value is still representable
    diags_.error(start, "number '" + token.text + "' is too small for a double (underflows to 0)");
    token.kind = TokenKind::Invalid;
  }
  return token;
}

// string = '"' { character | '\"' | '\\' } '"', on one line.
Token Lexer::lex_string(const SourceLocation& start) {
  advance();  // opening quote
  std::string contents;
  for (;;) {
    if (at_end() || peek() == '\n' || peek() == '\r') {
      diags_.error(start, "unterminated string: missing '\"' before the end of the line");
      return Token{TokenKind::Invalid, contents, start};
    }
    char c = peek();
    if (c == '"') {
      advance();
      return Token{TokenKind::String, contents, start};
    }
    if (c == '\\') {
      SourceLocation escape = here();
      advance();
      char e = peek();
      if (e == '"' || e == '\\') {
        contents += e;
        advance();
        continue;
      }
      diags_.error(escape, "unknown escape sequence in string (only \\\" and \\\\ are allowed)");
      continue;  // the character after the backslash is read as itself
    }
    size_t begin = pos_;
    advance_code_point();
    contents.append(text_, begin, pos_ - begin);
  }
}

// A run of characters that cannot start a token is reported once.
Token Lexer::lex_stray_characters(const SourceLocation& start) {
  size_t begin = pos_;
  advance_code_point();
  std::string first = text_.substr(begin, pos_ - begin);
  for (;;) {
    char c = peek();
    if (at_end() || is_name_char(c) || c == '"' || c == '.' ||
        std::string_view(" \t\r\n\f\v(),;:='+-*/^[]{}<>").find(c) != std::string_view::npos) {
      break;
    }
    advance_code_point();
  }
  std::string printable = first;
  if (static_cast<unsigned char>(first[0]) < 0x20 || first[0] == 0x7F) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "\\x%02X", static_cast<unsigned char>(first[0]));
    printable = buffer;
  }
  diags_.error(start, "unexpected character '" + printable + "'");
  return make(TokenKind::Invalid, start);
}

}  // namespace

std::vector<Token> lex(const SourceFile& file, DiagnosticEngine& diags) {
  return Lexer(file, diags).run();
}

}  // namespace daec
