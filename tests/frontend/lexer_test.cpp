// Tests of the lexer (src/frontend/lexer.*): every token kind with its spelling and location,
// comments, numbers, strings, and every lexical error by its exact printed diagnostic.
#include "frontend/lexer.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "frontend/token.h"
#include "support/diagnostics.h"
#include "support/source.h"

namespace daec {
namespace {

const char* kind_name(TokenKind kind) {
  switch (kind) {
    case TokenKind::EndOfFile:
      return "EndOfFile";
    case TokenKind::Identifier:
      return "Identifier";
    case TokenKind::Number:
      return "Number";
    case TokenKind::String:
      return "String";
    case TokenKind::KwModel:
      return "KwModel";
    case TokenKind::KwParameter:
      return "KwParameter";
    case TokenKind::KwVariable:
      return "KwVariable";
    case TokenKind::KwOutput:
      return "KwOutput";
    case TokenKind::KwEquation:
      return "KwEquation";
    case TokenKind::KwEnd:
      return "KwEnd";
    case TokenKind::KwDer:
      return "KwDer";
    case TokenKind::KwStart:
      return "KwStart";
    case TokenKind::KwFixed:
      return "KwFixed";
    case TokenKind::KwUnit:
      return "KwUnit";
    case TokenKind::KwTrue:
      return "KwTrue";
    case TokenKind::KwFalse:
      return "KwFalse";
    case TokenKind::LeftParen:
      return "LeftParen";
    case TokenKind::RightParen:
      return "RightParen";
    case TokenKind::Comma:
      return "Comma";
    case TokenKind::Semicolon:
      return "Semicolon";
    case TokenKind::Colon:
      return "Colon";
    case TokenKind::Equals:
      return "Equals";
    case TokenKind::Prime:
      return "Prime";
    case TokenKind::Plus:
      return "Plus";
    case TokenKind::Minus:
      return "Minus";
    case TokenKind::Star:
      return "Star";
    case TokenKind::Slash:
      return "Slash";
    case TokenKind::Caret:
      return "Caret";
    case TokenKind::KwFor:
      return "KwFor";
    case TokenKind::KwIn:
      return "KwIn";
    case TokenKind::KwLoop:
      return "KwLoop";
    case TokenKind::KwIf:
      return "KwIf";
    case TokenKind::KwThen:
      return "KwThen";
    case TokenKind::KwElse:
      return "KwElse";
    case TokenKind::KwElseif:
      return "KwElseif";
    case TokenKind::KwAnd:
      return "KwAnd";
    case TokenKind::KwOr:
      return "KwOr";
    case TokenKind::KwNot:
      return "KwNot";
    case TokenKind::KwSum:
      return "KwSum";
    case TokenKind::KwProduct:
      return "KwProduct";
    case TokenKind::KwWhen:
      return "KwWhen";
    case TokenKind::KwReinit:
      return "KwReinit";
    case TokenKind::LeftBracket:
      return "LeftBracket";
    case TokenKind::RightBracket:
      return "RightBracket";
    case TokenKind::LeftBrace:
      return "LeftBrace";
    case TokenKind::RightBrace:
      return "RightBrace";
    case TokenKind::Less:
      return "Less";
    case TokenKind::LessEqual:
      return "LessEqual";
    case TokenKind::Greater:
      return "Greater";
    case TokenKind::GreaterEqual:
      return "GreaterEqual";
    case TokenKind::EqualEqual:
      return "EqualEqual";
    case TokenKind::NotEqual:
      return "NotEqual";
    case TokenKind::Invalid:
      return "Invalid";
  }
  return "?";
}

// The source file must outlive the tokens and diagnostics, which point into it.
struct Lexed {
  std::unique_ptr<SourceFile> file;
  DiagnosticEngine diags;
  std::vector<Token> tokens;

  /// One line per token: `KIND 'TEXT' LINE:COLUMN`.
  std::string dump() const {
    std::string out;
    for (const Token& token : tokens) {
      out += std::string(kind_name(token.kind)) + " '" + token.text + "' " +
             std::to_string(token.location.line) + ":" + std::to_string(token.location.column) +
             "\n";
    }
    return out;
  }
};

/// A string literal's bytes, embedded NULs included.
template <size_t N>
std::string bytes(const char (&literal)[N]) {
  return std::string(literal, N - 1);
}

std::unique_ptr<Lexed> lex_text(const std::string& text) {
  auto result = std::make_unique<Lexed>();
  result->file = std::make_unique<SourceFile>("test.dae", text);
  result->tokens = lex(*result->file, result->diags);
  return result;
}

// ---- token kinds, spellings and locations ----

TEST(Lexer, EmptyInputIsJustEndOfFile) {
  auto lexed = lex_text("");
  EXPECT_EQ(lexed->dump(), "EndOfFile '' 1:1\n");
  EXPECT_EQ(lexed->diags.str(), "");
}

TEST(Lexer, EndOfFileIsLocatedAfterTrailingWhitespace) {
  auto lexed = lex_text("  \n\t ");
  EXPECT_EQ(lexed->dump(), "EndOfFile '' 2:3\n");
  EXPECT_EQ(lexed->tokens.back().location.offset, 5u);
}

TEST(Lexer, EveryKeyword) {
  auto lexed = lex_text("model parameter variable output equation end\nder start fixed true false");
  EXPECT_EQ(lexed->dump(),
            "KwModel 'model' 1:1\n"
            "KwParameter 'parameter' 1:7\n"
            "KwVariable 'variable' 1:17\n"
            "KwOutput 'output' 1:26\n"
            "KwEquation 'equation' 1:33\n"
            "KwEnd 'end' 1:42\n"
            "KwDer 'der' 2:1\n"
            "KwStart 'start' 2:5\n"
            "KwFixed 'fixed' 2:11\n"
            "KwTrue 'true' 2:17\n"
            "KwFalse 'false' 2:22\n"
            "EndOfFile '' 2:27\n");
  EXPECT_EQ(lexed->diags.str(), "");
}

TEST(Lexer, UnitIsAKeyword) {
  auto lexed = lex_text("unit units");
  EXPECT_EQ(lexed->dump(),
            "KwUnit 'unit' 1:1\n"
            "Identifier 'units' 1:6\n"
            "EndOfFile '' 1:11\n");
}

TEST(Lexer, EveryPunctuationToken) {
  auto lexed = lex_text("( ) , ; : = ' + - * / ^");
  EXPECT_EQ(lexed->dump(),
            "LeftParen '(' 1:1\n"
            "RightParen ')' 1:3\n"
            "Comma ',' 1:5\n"
            "Semicolon ';' 1:7\n"
            "Colon ':' 1:9\n"
            "Equals '=' 1:11\n"
            "Prime ''' 1:13\n"
            "Plus '+' 1:15\n"
            "Minus '-' 1:17\n"
            "Star '*' 1:19\n"
            "Slash '/' 1:21\n"
            "Caret '^' 1:23\n"
            "EndOfFile '' 1:24\n");
  EXPECT_EQ(lexed->diags.str(), "");
}

TEST(Lexer, PunctuationNeedsNoSpaces) {
  auto lexed = lex_text("rod:x''=-(a+b)*c/d^2;");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'rod' 1:1\n"
            "Colon ':' 1:4\n"
            "Identifier 'x' 1:5\n"
            "Prime ''' 1:6\n"
            "Prime ''' 1:7\n"
            "Equals '=' 1:8\n"
            "Minus '-' 1:9\n"
            "LeftParen '(' 1:10\n"
            "Identifier 'a' 1:11\n"
            "Plus '+' 1:12\n"
            "Identifier 'b' 1:13\n"
            "RightParen ')' 1:14\n"
            "Star '*' 1:15\n"
            "Identifier 'c' 1:16\n"
            "Slash '/' 1:17\n"
            "Identifier 'd' 1:18\n"
            "Caret '^' 1:19\n"
            "Number '2' 1:20\n"
            "Semicolon ';' 1:21\n"
            "EndOfFile '' 1:22\n");
}

TEST(Lexer, NameTokenKinds) {
  auto lexed = lex_text("x _ _x x1 x_1 X __init__ lambda");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'x' 1:1\n"
            "Identifier '_' 1:3\n"
            "Identifier '_x' 1:5\n"
            "Identifier 'x1' 1:8\n"
            "Identifier 'x_1' 1:11\n"
            "Identifier 'X' 1:15\n"
            "Identifier '__init__' 1:17\n"
            "Identifier 'lambda' 1:26\n"
            "EndOfFile '' 1:32\n");
}

TEST(Lexer, KeywordsAreWholeCaseSensitiveWords) {
  // Only exact keywords are keywords; t, pi and function names are names (sema reserves them).
  auto lexed = lex_text("Model END ends end_ _end der2 dert t pi sin true1");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'Model' 1:1\n"
            "Identifier 'END' 1:7\n"
            "Identifier 'ends' 1:11\n"
            "Identifier 'end_' 1:16\n"
            "Identifier '_end' 1:21\n"
            "Identifier 'der2' 1:26\n"
            "Identifier 'dert' 1:31\n"
            "Identifier 't' 1:36\n"
            "Identifier 'pi' 1:38\n"
            "Identifier 'sin' 1:41\n"
            "Identifier 'true1' 1:45\n"
            "EndOfFile '' 1:50\n");
}

TEST(Lexer, KeywordKindTable) {
  EXPECT_EQ(keyword_kind("model"), TokenKind::KwModel);
  EXPECT_EQ(keyword_kind("false"), TokenKind::KwFalse);
  EXPECT_EQ(keyword_kind("t"), TokenKind::Identifier);
  EXPECT_EQ(keyword_kind("pi"), TokenKind::Identifier);
  EXPECT_EQ(keyword_kind(""), TokenKind::Identifier);
  EXPECT_EQ(keyword_kind("Model"), TokenKind::Identifier);
}

TEST(Lexer, DescribeTokensForDiagnostics) {
  EXPECT_EQ(describe(TokenKind::Semicolon), "';'");
  EXPECT_EQ(describe(TokenKind::Prime), "'''");
  EXPECT_EQ(describe(TokenKind::KwParameter), "'parameter'");
  EXPECT_EQ(describe(TokenKind::Identifier), "a name");
  EXPECT_EQ(describe(TokenKind::EndOfFile), "end of file");
  EXPECT_EQ(describe(Token{TokenKind::Identifier, "x", {}}), "'x'");
  EXPECT_EQ(describe(Token{TokenKind::Number, "2.5", {}}), "'2.5'");
  EXPECT_EQ(describe(Token{TokenKind::String, "secret", {}}), "a string");
  EXPECT_EQ(describe(Token{TokenKind::KwEnd, "end", {}}), "'end'");
}

// ---- arrays, loops and conditions (docs/language.md) ----

TEST(Lexer, KeywordsOfLoopsAndConditions) {
  auto lexed = lex_text("for in loop if then else elseif\nand or not sum product");
  EXPECT_EQ(lexed->dump(),
            "KwFor 'for' 1:1\n"
            "KwIn 'in' 1:5\n"
            "KwLoop 'loop' 1:8\n"
            "KwIf 'if' 1:13\n"
            "KwThen 'then' 1:16\n"
            "KwElse 'else' 1:21\n"
            "KwElseif 'elseif' 1:26\n"
            "KwAnd 'and' 2:1\n"
            "KwOr 'or' 2:5\n"
            "KwNot 'not' 2:8\n"
            "KwSum 'sum' 2:12\n"
            "KwProduct 'product' 2:16\n"
            "EndOfFile '' 2:23\n");
  EXPECT_EQ(lexed->diags.str(), "");
}

TEST(Lexer, KeywordPrefixesAreNames) {
  // `elsewhere`, `format`, `index`, `summary`: keywords only as whole words.
  auto lexed = lex_text("elsewhere format index summary iff");
  for (size_t i = 0; i + 1 < lexed->tokens.size(); ++i) {
    EXPECT_EQ(lexed->tokens[i].kind, TokenKind::Identifier) << lexed->tokens[i].text;
  }
}

TEST(Lexer, BracketsBracesAndRelations) {
  auto lexed = lex_text("[ ] { } < <= > >= == <>");
  EXPECT_EQ(lexed->dump(),
            "LeftBracket '[' 1:1\n"
            "RightBracket ']' 1:3\n"
            "LeftBrace '{' 1:5\n"
            "RightBrace '}' 1:7\n"
            "Less '<' 1:9\n"
            "LessEqual '<=' 1:11\n"
            "Greater '>' 1:14\n"
            "GreaterEqual '>=' 1:16\n"
            "EqualEqual '==' 1:19\n"
            "NotEqual '<>' 1:22\n"
            "EndOfFile '' 1:24\n");
  EXPECT_EQ(lexed->diags.str(), "");
}

TEST(Lexer, RelationsNeedNoSpaces) {
  // `a<=-b` is a <= -b; `x[i]'=u[i]` an element, a prime and '='; `a==b`, `a<>b`; `===` is '=='
  // '='.
  auto lexed = lex_text("a<=-b x[i]'=u[i] a==b a<>b ===");
  std::string kinds;
  for (const Token& token : lexed->tokens) kinds += std::string(kind_name(token.kind)) + " ";
  EXPECT_EQ(kinds,
            "Identifier LessEqual Minus Identifier Identifier LeftBracket Identifier RightBracket "
            "Prime Equals Identifier LeftBracket Identifier RightBracket Identifier EqualEqual "
            "Identifier Identifier NotEqual Identifier EqualEqual Equals EndOfFile ");
}

TEST(Lexer, StrayRunStopsAtBracketsAndRelations) {
  auto lexed = lex_text("@[@<@{");
  EXPECT_EQ(lexed->dump(),
            "Invalid '@' 1:1\n"
            "LeftBracket '[' 1:2\n"
            "Invalid '@' 1:3\n"
            "Less '<' 1:4\n"
            "Invalid '@' 1:5\n"
            "LeftBrace '{' 1:6\n"
            "EndOfFile '' 1:7\n");
  EXPECT_EQ(lexed->diags.error_count(), 3u);
}

TEST(Lexer, DescribeNewTokens) {
  EXPECT_EQ(describe(TokenKind::LeftBracket), "'['");
  EXPECT_EQ(describe(TokenKind::RightBrace), "'}'");
  EXPECT_EQ(describe(TokenKind::NotEqual), "'<>'");
  EXPECT_EQ(describe(TokenKind::GreaterEqual), "'>='");
  EXPECT_EQ(describe(TokenKind::KwLoop), "'loop'");
  EXPECT_EQ(describe(TokenKind::KwElseif), "'elseif'");
  EXPECT_EQ(keyword_kind("product"), TokenKind::KwProduct);
  EXPECT_EQ(keyword_kind("when"), TokenKind::KwWhen);
  EXPECT_EQ(keyword_kind("reinit"), TokenKind::KwReinit);
  EXPECT_EQ(keyword_kind("min"), TokenKind::Identifier);  // a function, not a keyword
}

TEST(Lexer, LocationsAcrossLinesAndOffsets) {
  auto lexed = lex_text("model m;\n\n   x\n");
  EXPECT_EQ(lexed->dump(),
            "KwModel 'model' 1:1\n"
            "Identifier 'm' 1:7\n"
            "Semicolon ';' 1:8\n"
            "Identifier 'x' 3:4\n"
            "EndOfFile '' 4:1\n");
  EXPECT_EQ(lexed->tokens[3].location.offset, 13u);
  EXPECT_EQ(lexed->tokens[3].location.file, lexed->file.get());
}

TEST(Lexer, TabCountsAsOneColumn) {
  auto lexed = lex_text("\tx\t\ty");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'x' 1:2\n"
            "Identifier 'y' 1:5\n"
            "EndOfFile '' 1:6\n");
}

// ---- comments ----

TEST(Lexer, LineComment) {
  auto lexed = lex_text("x // comment with ( ; \" /* and 1e\ny");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'x' 1:1\n"
            "Identifier 'y' 2:1\n"
            "EndOfFile '' 2:2\n");
  EXPECT_EQ(lexed->diags.str(), "");
}

TEST(Lexer, LineCommentAtEndOfFileWithoutNewline) {
  auto lexed = lex_text("x // the end");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'x' 1:1\n"
            "EndOfFile '' 1:13\n");
}

TEST(Lexer, BlockCommentSpanningLines) {
  auto lexed = lex_text("a /* b\n  c // d\n */ e");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'a' 1:1\n"
            "Identifier 'e' 3:5\n"
            "EndOfFile '' 3:6\n");
  EXPECT_EQ(lexed->diags.str(), "");
}

TEST(Lexer, BlockCommentBetweenTokensWithoutSpaces) {
  auto lexed = lex_text("a/**/b/***/c/*/ x */d");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'a' 1:1\n"
            "Identifier 'b' 1:6\n"
            "Identifier 'c' 1:12\n"
            "Identifier 'd' 1:21\n"
            "EndOfFile '' 1:22\n");
}

TEST(Lexer, BlockCommentsDoNotNest) {
  auto lexed = lex_text("/* a /* b */ c */");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'c' 1:14\n"
            "Star '*' 1:16\n"
            "Slash '/' 1:17\n"
            "EndOfFile '' 1:18\n");
  EXPECT_EQ(lexed->diags.str(), "");
}

TEST(Lexer, SingleSlashIsDivision) {
  auto lexed = lex_text("a / b/c");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'a' 1:1\n"
            "Slash '/' 1:3\n"
            "Identifier 'b' 1:5\n"
            "Slash '/' 1:6\n"
            "Identifier 'c' 1:7\n"
            "EndOfFile '' 1:8\n");
}

TEST(Lexer, CommentMarkersInsideStringsAreText) {
  auto lexed = lex_text("\"a // b /* c\" x");
  EXPECT_EQ(lexed->dump(),
            "String 'a // b /* c' 1:1\n"
            "Identifier 'x' 1:15\n"
            "EndOfFile '' 1:16\n");
}

TEST(Lexer, UnterminatedBlockComment) {
  auto lexed = lex_text("x /* never\nclosed");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:3: error: unterminated comment: '/*' without a closing '*/'\n"
            "x /* never\n"
            "  ^\n");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'x' 1:1\n"
            "EndOfFile '' 2:7\n");
}

TEST(Lexer, UnterminatedBlockCommentEndingInStar) {
  auto lexed = lex_text("/* *");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:1: error: unterminated comment: '/*' without a closing '*/'\n"
            "/* *\n"
            "^\n");
  EXPECT_EQ(lexed->dump(), "EndOfFile '' 1:5\n");
}

// ---- columns count code points ----

TEST(Lexer, ColumnsCountCodePointsInComments) {
  // é and ü are two bytes each, the emoji four: each is one column.
  auto lexed = lex_text("/* é ü */ x // 😀\n/* 😀 */ y");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'x' 1:11\n"
            "Identifier 'y' 2:9\n"
            "EndOfFile '' 2:10\n");
  EXPECT_EQ(lexed->tokens[0].location.offset, 12u);
}

TEST(Lexer, ColumnsCountCodePointsInStrings) {
  auto lexed = lex_text("\"Größe\" x");
  EXPECT_EQ(lexed->dump(),
            "String 'Größe' 1:1\n"
            "Identifier 'x' 1:9\n"
            "EndOfFile '' 1:10\n");
}

TEST(Lexer, CaretUnderTokenAfterNonAsciiComment) {
  auto lexed = lex_text("/* ∂x/∂t */ @");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:13: error: unexpected character '@'\n"
            "/* ∂x/∂t */ @\n"
            "            ^\n");
}

// ---- numbers ----

TEST(Lexer, NumberForms) {
  auto lexed = lex_text("2 0.5 .5 5. 1e-3 6.02E23 1E+4 007 1.e5 .5e-1");
  EXPECT_EQ(lexed->dump(),
            "Number '2' 1:1\n"
            "Number '0.5' 1:3\n"
            "Number '.5' 1:7\n"
            "Number '5.' 1:10\n"
            "Number '1e-3' 1:13\n"
            "Number '6.02E23' 1:18\n"
            "Number '1E+4' 1:26\n"
            "Number '007' 1:31\n"
            "Number '1.e5' 1:35\n"
            "Number '.5e-1' 1:40\n"
            "EndOfFile '' 1:45\n");
  EXPECT_EQ(lexed->diags.str(), "");
}

TEST(Lexer, NumbersFollowedByOperators) {
  auto lexed = lex_text("2*x 1e3+1 5.-2 3'");
  EXPECT_EQ(lexed->dump(),
            "Number '2' 1:1\n"
            "Star '*' 1:2\n"
            "Identifier 'x' 1:3\n"
            "Number '1e3' 1:5\n"
            "Plus '+' 1:8\n"
            "Number '1' 1:9\n"
            "Number '5.' 1:11\n"
            "Minus '-' 1:13\n"
            "Number '2' 1:14\n"
            "Number '3' 1:16\n"
            "Prime ''' 1:17\n"
            "EndOfFile '' 1:18\n");
  EXPECT_EQ(lexed->diags.str(), "");
}

TEST(Lexer, NameFollowedByDotNumber) {
  // x.5 is not a member access: a name, then the number .5.
  auto lexed = lex_text("x.5");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'x' 1:1\n"
            "Number '.5' 1:2\n"
            "EndOfFile '' 1:4\n");
}

TEST(Lexer, ExponentWithoutDigitsIsMalformed) {
  auto lexed = lex_text("x = 1e;");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:5: error: malformed number '1e'\n"
            "x = 1e;\n"
            "    ^\n");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'x' 1:1\n"
            "Equals '=' 1:3\n"
            "Invalid '1e' 1:5\n"
            "Semicolon ';' 1:7\n"
            "EndOfFile '' 1:8\n");
}

TEST(Lexer, SignedExponentWithoutDigitsIsMalformed) {
  auto lexed = lex_text("1e+ 2E-");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:1: error: malformed number '1e+'\n"
            "1e+ 2E-\n"
            "^\n"
            "test.dae:1:5: error: malformed number '2E-'\n"
            "1e+ 2E-\n"
            "    ^\n");
  EXPECT_EQ(lexed->dump(),
            "Invalid '1e+' 1:1\n"
            "Invalid '2E-' 1:5\n"
            "EndOfFile '' 1:8\n");
}

TEST(Lexer, SecondDecimalPointIsMalformed) {
  auto lexed = lex_text("1.2.3;");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:1: error: malformed number '1.2.3'\n"
            "1.2.3;\n"
            "^\n");
  EXPECT_EQ(lexed->dump(),
            "Invalid '1.2.3' 1:1\n"
            "Semicolon ';' 1:6\n"
            "EndOfFile '' 1:7\n");
}

TEST(Lexer, LettersGluedToNumberAreMalformed) {
  auto lexed = lex_text("y = 12abc + 1;");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:5: error: malformed number '12abc'\n"
            "y = 12abc + 1;\n"
            "    ^\n");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'y' 1:1\n"
            "Equals '=' 1:3\n"
            "Invalid '12abc' 1:5\n"
            "Plus '+' 1:11\n"
            "Number '1' 1:13\n"
            "Semicolon ';' 1:14\n"
            "EndOfFile '' 1:15\n");
}

TEST(Lexer, MoreMalformedNumbers) {
  auto lexed = lex_text("1e3e4 5.x .5.5 2_ 1e2.5");
  EXPECT_EQ(lexed->dump(),
            "Invalid '1e3e4' 1:1\n"
            "Invalid '5.x' 1:7\n"
            "Invalid '.5.5' 1:11\n"
            "Invalid '2_' 1:16\n"
            "Invalid '1e2.5' 1:19\n"
            "EndOfFile '' 1:24\n");
  EXPECT_EQ(lexed->diags.error_count(), 5u);
}

TEST(Lexer, NumberTooLarge) {
  auto lexed = lex_text("x = 1e999;");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:5: error: number '1e999' is too large for a double (about 1.8e308 at "
            "most)\n"
            "x = 1e999;\n"
            "    ^\n");
  EXPECT_EQ(lexed->tokens[2].kind, TokenKind::Invalid);
  EXPECT_EQ(lexed->tokens[2].text, "1e999");
}

TEST(Lexer, NumberTooLargeWithManyDigits) {
  auto lexed = lex_text(std::string(400, '9'));
  EXPECT_EQ(lexed->diags.error_count(), 1u);
  EXPECT_EQ(lexed->tokens[0].kind, TokenKind::Invalid);
}

TEST(Lexer, NumberTooSmall) {
  auto lexed = lex_text("x = 1e-999;");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:5: error: number '1e-999' is too small for a double (underflows to 0)\n"
            "x = 1e-999;\n"
            "    ^\n");
  EXPECT_EQ(lexed->tokens[2].kind, TokenKind::Invalid);
}

TEST(Lexer, LimitsOfDoubleAreAccepted) {
  // The largest double, the smallest normal one and a subnormal one are all representable.
  auto lexed = lex_text("1.7976931348623157e308 2.2250738585072014e-308 1e-310 4.9e-324");
  EXPECT_EQ(lexed->diags.str(), "");
  EXPECT_EQ(lexed->dump(),
            "Number '1.7976931348623157e308' 1:1\n"
            "Number '2.2250738585072014e-308' 1:24\n"
            "Number '1e-310' 1:48\n"
            "Number '4.9e-324' 1:55\n"
            "EndOfFile '' 1:63\n");
}

TEST(Lexer, JustBeyondTheLimitsOfDouble) {
  auto lexed = lex_text("1.8e308 2e-324");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:1: error: number '1.8e308' is too large for a double (about 1.8e308 at "
            "most)\n"
            "1.8e308 2e-324\n"
            "^\n"
            "test.dae:1:9: error: number '2e-324' is too small for a double (underflows to 0)\n"
            "1.8e308 2e-324\n"
            "        ^\n");
}

TEST(Lexer, ZeroIsNeverTooSmallOrTooLarge) {
  auto lexed = lex_text("0 0.0 .0 0e-999 0e999 000.000e5");
  EXPECT_EQ(lexed->diags.str(), "");
  for (size_t i = 0; i + 1 < lexed->tokens.size(); ++i) {
    EXPECT_EQ(lexed->tokens[i].kind, TokenKind::Number) << lexed->tokens[i].text;
  }
  EXPECT_EQ(lexed->tokens.size(), 7u);
}

// ---- strings ----

TEST(Lexer, StringsAndEscapes) {
  auto lexed = lex_text(R"("plain" "say \"hi\"" "back\\slash" "" "\\\"")");
  EXPECT_EQ(lexed->dump(),
            "String 'plain' 1:1\n"
            "String 'say \"hi\"' 1:9\n"
            "String 'back\\slash' 1:22\n"
            "String '' 1:36\n"
            "String '\\\"' 1:39\n"
            "EndOfFile '' 1:45\n");
  EXPECT_EQ(lexed->diags.str(), "");
}

TEST(Lexer, StringKeepsUtf8AndSpacing) {
  auto lexed = lex_text("\"  Länge [m]\t(α) \"");
  ASSERT_EQ(lexed->tokens.size(), 2u);
  EXPECT_EQ(lexed->tokens[0].kind, TokenKind::String);
  EXPECT_EQ(lexed->tokens[0].text, "  Länge [m]\t(α) ");
  EXPECT_EQ(lexed->diags.str(), "");
}

TEST(Lexer, UnknownEscapeInString) {
  auto lexed = lex_text(R"(p "a\nb\t" x)");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:5: error: unknown escape sequence in string (only \\\" and \\\\ are "
            "allowed)\n"
            "p \"a\\nb\\t\" x\n"
            "    ^\n"
            "test.dae:1:8: error: unknown escape sequence in string (only \\\" and \\\\ are "
            "allowed)\n"
            "p \"a\\nb\\t\" x\n"
            "       ^\n");
  // The string still ends at its closing quote, the character after the backslash read as itself.
  EXPECT_EQ(lexed->dump(),
            "Identifier 'p' 1:1\n"
            "String 'anbt' 1:3\n"
            "Identifier 'x' 1:12\n"
            "EndOfFile '' 1:13\n");
}

TEST(Lexer, UnterminatedStringAtEndOfLine) {
  auto lexed = lex_text("parameter a = 1 \"mass;\nvariable x;");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:17: error: unterminated string: missing '\"' before the end of the line\n"
            "parameter a = 1 \"mass;\n"
            "                ^\n");
  EXPECT_EQ(lexed->dump(),
            "KwParameter 'parameter' 1:1\n"
            "Identifier 'a' 1:11\n"
            "Equals '=' 1:13\n"
            "Number '1' 1:15\n"
            "Invalid 'mass;' 1:17\n"
            "KwVariable 'variable' 2:1\n"
            "Identifier 'x' 2:10\n"
            "Semicolon ';' 2:11\n"
            "EndOfFile '' 2:12\n");
}

TEST(Lexer, UnterminatedStringAtEndOfFile) {
  auto lexed = lex_text("x \"abc");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:3: error: unterminated string: missing '\"' before the end of the line\n"
            "x \"abc\n"
            "  ^\n");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'x' 1:1\n"
            "Invalid 'abc' 1:3\n"
            "EndOfFile '' 1:7\n");
}

TEST(Lexer, UnterminatedStringBeforeCrLf) {
  auto lexed = lex_text("\"abc\r\nx");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:1: error: unterminated string: missing '\"' before the end of the line\n"
            "\"abc\n"
            "^\n");
  EXPECT_EQ(lexed->dump(),
            "Invalid 'abc' 1:1\n"
            "Identifier 'x' 2:1\n"
            "EndOfFile '' 2:2\n");
}

TEST(Lexer, EscapedQuoteAtEndOfLineLeavesStringUnterminated) {
  auto lexed = lex_text("\"abc\\\"\nx");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:1: error: unterminated string: missing '\"' before the end of the line\n"
            "\"abc\\\"\n"
            "^\n");
  EXPECT_EQ(lexed->tokens[1].text, "x");
  EXPECT_EQ(lexed->tokens[1].location.line, 2);
}

// ---- stray characters ----

TEST(Lexer, StrayAtSign) {
  auto lexed = lex_text("x = @;");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:5: error: unexpected character '@'\n"
            "x = @;\n"
            "    ^\n");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'x' 1:1\n"
            "Equals '=' 1:3\n"
            "Invalid '@' 1:5\n"
            "Semicolon ';' 1:6\n"
            "EndOfFile '' 1:7\n");
}

TEST(Lexer, StrayHash) {
  auto lexed = lex_text("#include\n");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:1: error: unexpected character '#'\n"
            "#include\n"
            "^\n");
  EXPECT_EQ(lexed->dump(),
            "Invalid '#' 1:1\n"
            "Identifier 'include' 1:2\n"
            "EndOfFile '' 2:1\n");
}

TEST(Lexer, RunOfStrayCharactersIsReportedOnce) {
  auto lexed = lex_text("a @@@ b $%& c");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:3: error: unexpected character '@'\n"
            "a @@@ b $%& c\n"
            "  ^\n"
            "test.dae:1:9: error: unexpected character '$'\n"
            "a @@@ b $%& c\n"
            "        ^\n");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'a' 1:1\n"
            "Invalid '@@@' 1:3\n"
            "Identifier 'b' 1:7\n"
            "Invalid '$%&' 1:9\n"
            "Identifier 'c' 1:13\n"
            "EndOfFile '' 1:14\n");
}

TEST(Lexer, StrayRunStopsAtTokens) {
  auto lexed = lex_text("@;@x");
  EXPECT_EQ(lexed->dump(),
            "Invalid '@' 1:1\n"
            "Semicolon ';' 1:2\n"
            "Invalid '@' 1:3\n"
            "Identifier 'x' 1:4\n"
            "EndOfFile '' 1:5\n");
  EXPECT_EQ(lexed->diags.error_count(), 2u);
}

TEST(Lexer, LoneDotIsStray) {
  auto lexed = lex_text("a.b");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:2: error: unexpected character '.'\n"
            "a.b\n"
            " ^\n");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'a' 1:1\n"
            "Invalid '.' 1:2\n"
            "Identifier 'b' 1:3\n"
            "EndOfFile '' 1:4\n");
}

TEST(Lexer, NonAsciiLetterOutsideStrings) {
  auto lexed = lex_text("variable αβ, x;");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:10: error: unexpected character 'α'\n"
            "variable αβ, x;\n"
            "         ^\n");
  EXPECT_EQ(lexed->dump(),
            "KwVariable 'variable' 1:1\n"
            "Invalid 'αβ' 1:10\n"
            "Comma ',' 1:12\n"
            "Identifier 'x' 1:14\n"
            "Semicolon ';' 1:15\n"
            "EndOfFile '' 1:16\n");
}

TEST(Lexer, NonAsciiLetterInsideName) {
  auto lexed = lex_text("größe = 1");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:3: error: unexpected character 'ö'\n"
            "größe = 1\n"
            "  ^\n");
  EXPECT_EQ(lexed->dump(),
            "Identifier 'gr' 1:1\n"
            "Invalid 'öß' 1:3\n"
            "Identifier 'e' 1:5\n"
            "Equals '=' 1:7\n"
            "Number '1' 1:9\n"
            "EndOfFile '' 1:10\n");
}

TEST(Lexer, ControlCharacterIsShownEscaped) {
  auto lexed = lex_text("x \x01 y");
  // The control character itself is printed as a space in the source line.
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:3: error: unexpected character '\\x01'\n"
            "x   y\n"
            "  ^\n");
  EXPECT_EQ(lexed->tokens[1].kind, TokenKind::Invalid);
}

TEST(Lexer, NulByteWithoutEncodingCheckDoesNotCrash) {
  auto lexed = lex_text(bytes("x \0\0 y"));
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:3: error: unexpected character '\\x00'\n"
            "x    y\n"
            "  ^\n");
  EXPECT_EQ(lexed->tokens.back().kind, TokenKind::EndOfFile);
}

TEST(Lexer, AllErrorsOfAFileAreReported) {
  auto lexed = lex_text("a = 1e; @\nb = \"x\\q\";\n/* open");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:5: error: malformed number '1e'\n"
            "a = 1e; @\n"
            "    ^\n"
            "test.dae:1:9: error: unexpected character '@'\n"
            "a = 1e; @\n"
            "        ^\n"
            "test.dae:2:7: error: unknown escape sequence in string (only \\\" and \\\\ are "
            "allowed)\n"
            "b = \"x\\q\";\n"
            "      ^\n"
            "test.dae:3:1: error: unterminated comment: '/*' without a closing '*/'\n"
            "/* open\n"
            "^\n");
  EXPECT_EQ(lexed->tokens.back().kind, TokenKind::EndOfFile);
}

// ---- line endings ----

TEST(Lexer, CrLfLineEndings) {
  auto lexed = lex_text("model m;\r\nvariable x; // c\r\n\r\nend\r\n");
  EXPECT_EQ(lexed->dump(),
            "KwModel 'model' 1:1\n"
            "Identifier 'm' 1:7\n"
            "Semicolon ';' 1:8\n"
            "KwVariable 'variable' 2:1\n"
            "Identifier 'x' 2:10\n"
            "Semicolon ';' 2:11\n"
            "KwEnd 'end' 4:1\n"
            "EndOfFile '' 5:1\n");
  EXPECT_EQ(lexed->diags.str(), "");
}

TEST(Lexer, CrLfSourceLinePrintedWithoutCarriageReturn) {
  auto lexed = lex_text("x = 1;\r\ny = @;\r\n");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:2:5: error: unexpected character '@'\n"
            "y = @;\n"
            "    ^\n");
}

// A lone CR (old Mac OS files) ends a line as LF and CR LF do: lines are counted as an editor
// shows them, in the lexer's locations, in location_at and in the line printed under a message.
TEST(Lexer, LoneCarriageReturnEndsALine) {
  auto lexed = lex_text("model m;\rvariable x; // c\r\r\nend @\r");
  EXPECT_EQ(lexed->dump(),
            "KwModel 'model' 1:1\n"
            "Identifier 'm' 1:7\n"
            "Semicolon ';' 1:8\n"
            "KwVariable 'variable' 2:1\n"
            "Identifier 'x' 2:10\n"
            "Semicolon ';' 2:11\n"
            "KwEnd 'end' 4:1\n"
            "Invalid '@' 4:5\n"
            "EndOfFile '' 5:1\n");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:4:5: error: unexpected character '@'\n"
            "end @\n"
            "    ^\n");
  SourceLocation at = lexed->file->location_at(lexed->file->text().find('@'));
  EXPECT_EQ(4, at.line);
  EXPECT_EQ(5, at.column);
}

// A UTF-8 byte order mark (some Windows editors write one) is not part of the model.
TEST(Lexer, ByteOrderMarkIsDropped) {
  auto lexed = lex_text("\xEF\xBB\xBFmodel m; @");
  EXPECT_EQ(lexed->dump(),
            "KwModel 'model' 1:1\n"
            "Identifier 'm' 1:7\n"
            "Semicolon ';' 1:8\n"
            "Invalid '@' 1:10\n"
            "EndOfFile '' 1:11\n");
  EXPECT_EQ(lexed->diags.str(),
            "test.dae:1:10: error: unexpected character '@'\n"
            "model m; @\n"
            "         ^\n");
}

// ---- encoding ----

TEST(Lexer, EncodingCheckAcceptsUtf8) {
  SourceFile file("test.dae", "model m \"Größe ∂ 😀\";\nend\n");
  DiagnosticEngine diags;
  EXPECT_TRUE(check_encoding(file, diags));
  EXPECT_EQ(diags.str(), "");
}

TEST(Lexer, NulByteMeansBinaryInput) {
  SourceFile file("test.dae", bytes("model m;\nx\0y = 1;\nend\n"));
  DiagnosticEngine diags;
  EXPECT_FALSE(check_encoding(file, diags));
  EXPECT_EQ(diags.str(),
            "test.dae:2:2: error: file contains a NUL byte: it looks binary, not a .dae model\n"
            "x y = 1;\n"
            " ^\n");
}

TEST(Lexer, OnlyTheFirstNulByteIsReported) {
  SourceFile file("test.dae", bytes("\0\0\0\xff"));
  DiagnosticEngine diags;
  EXPECT_FALSE(check_encoding(file, diags));
  EXPECT_EQ(diags.error_count(), 1u);
}

TEST(Lexer, InvalidUtf8IsReported) {
  SourceFile file("test.dae", "x = 1; // \xff\nend\n");
  DiagnosticEngine diags;
  EXPECT_FALSE(check_encoding(file, diags));
  EXPECT_EQ(diags.str(),
            "test.dae:1:11: error: invalid UTF-8 byte sequence (the file must be UTF-8)\n"
            "x = 1; // \xff\n"
            "          ^\n");
}

TEST(Lexer, EveryInvalidUtf8SequenceIsReported) {
  // A Latin-1 'é', an overlong '/', a UTF-16 surrogate and a truncated sequence at the end.
  SourceFile file("test.dae", "\"caf\xe9\"\n\xc0\xaf\n\xed\xa0\x80\n\xe2\x82");
  DiagnosticEngine diags;
  EXPECT_FALSE(check_encoding(file, diags));
  // Each bad sequence is reported where it starts (later bytes of it may be reported too).
  std::vector<std::string> first_per_line;
  int last_line = 0;
  for (const Diagnostic& d : diags.diagnostics()) {
    if (d.location.line == last_line) continue;
    last_line = d.location.line;
    first_per_line.push_back(std::to_string(d.location.line) + ":" +
                             std::to_string(d.location.column));
  }
  EXPECT_EQ(first_per_line, (std::vector<std::string>{"1:5", "2:1", "3:1", "4:1"}));
}

TEST(Lexer, InvalidUtf8ReportsAreBounded) {
  SourceFile file("test.dae", std::string(1000, '\xff'));
  DiagnosticEngine diags;
  EXPECT_FALSE(check_encoding(file, diags));
  EXPECT_EQ(diags.error_count(), 10u);
}

}  // namespace
}  // namespace daec
