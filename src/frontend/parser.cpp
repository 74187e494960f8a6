// The recursive-descent parser of the .dae language. Each function parses the grammar rule
// written above it (grammar/dae.ebnf). A function returns false (or null) after reporting a
// syntax error; the statement-level loops then skip to the next `;` and carry on.
#include "frontend/parser.h"

#include <cctype>
#include <utility>

namespace daec {

namespace {

std::string derivative_order_out_of_range(const std::string& order) {
  return "derivative order " + order + " is out of range (1 to " +
         std::to_string(kMaxDerivativeOrder) + ")";
}

// How a token is named after "found" in a syntax error: a keyword is a reserved word.
std::string describe_found(const Token& token) {
  bool is_keyword = token.kind != TokenKind::Identifier && keyword_kind(token.text) == token.kind;
  return is_keyword ? "the reserved word '" + token.text + "'" : describe(token);
}

class Parser {
 public:
  Parser(const std::vector<Token>& tokens, DiagnosticEngine& diags)
      : tokens_(tokens), diags_(diags) {}

  ModelSyntax parse_model_file();

 private:
  // ---- token access ----
  const Token& peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  bool at(TokenKind kind) const { return peek().kind == kind; }
  const Token& consume() {
    const Token& token = peek();
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return token;
  }
  bool accept(TokenKind kind) {
    if (!at(kind)) return false;
    consume();
    return true;
  }
  bool expect(TokenKind kind, const char* context);
  void syntax_error(const SourceLocation& loc, const std::string& message);
  void skip_to_statement_end();
  bool at_statement_start() const;
  bool at_initial_section() const;
  bool at_label() const;
  bool at_relational_operator() const;
  /// Counts one level of nesting for as long as it lives; false (after reporting) past the limit.
  class Nesting {
   public:
    explicit Nesting(Parser& parser) : parser_(parser) { ++parser_.depth_; }
    ~Nesting() { --parser_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    bool ok();

   private:
    Parser& parser_;
  };

  // ---- statements ----
  bool parse_model_header();
  bool parse_declaration();
  bool parse_parameter_decl();
  bool parse_parameter_item();
  bool parse_variable_decl();
  bool parse_variable_item();
  bool parse_modifier(VariableDecl& decl);
  bool parse_value_modifier(VariableDecl& decl, const char* keyword, ExprPtr& slot,
                            SourceLocation& where);
  bool parse_unit_value(const std::string& owner, std::string& unit, SourceLocation& where);
  bool parse_unit_modifier(const std::string& owner, std::string& unit, SourceLocation& where);
  bool skip_modifiers();
  bool parse_output_decl();
  bool parse_output_item();
  ExprPtr parse_value();
  ExprPtr parse_array_value();
  bool parse_iterator(NameToken& variable, ExprPtr& first, ExprPtr& last, const char* context);
  void parse_equation_section();
  void parse_initial_section();
  void parse_statements(std::vector<Statement>& statements);
  bool parse_statement(std::vector<Statement>& statements);
  bool parse_for_loop(std::vector<Statement>& statements);
  bool parse_equation(std::vector<Statement>& statements);
  bool parse_when_clause(std::vector<Statement>& statements);
  bool parse_reinit(WhenDecl& when);
  void skip_when_body();
  std::string text_between(const SourceLocation& from, const SourceLocation& to) const;
  bool parse_label(EquationDecl& equation);
  void parse_end_clause();
  bool parse_name(NameToken& name, const char* context);
  void parse_optional_description(std::string& description);
  bool parse_subscripts(std::vector<ExprPtr>& subscripts, const char* context);

  // ---- expressions ----
  ExprPtr parse_expression();
  ExprPtr parse_if_expression();
  ExprPtr parse_disjunction();
  ExprPtr parse_conjunction();
  ExprPtr parse_negation();
  ExprPtr parse_relation();
  ExprPtr parse_arithmetic();
  ExprPtr parse_term();
  ExprPtr parse_unary();
  ExprPtr parse_power();
  ExprPtr parse_postfix();
  ExprPtr parse_primary();
  ExprPtr parse_derivative();
  ExprPtr parse_reduction();
  bool parse_arguments(Expr& call);

  const std::vector<Token>& tokens_;
  DiagnosticEngine& diags_;
  size_t pos_ = 0;
  int depth_ = 0;
  int loop_depth_ = 0;
  bool in_error_ = false;      ///< a syntax error in the current statement was already reported
  bool in_equations_ = false;  ///< in the equation section, where `for` starts a statement
  bool in_initial_ = false;    ///< in the initial equation section
  ModelSyntax model_;
};

bool Parser::Nesting::ok() {
  if (parser_.depth_ <= kMaxExpressionNesting + 1)
    return true;  // the outermost level is not nested
  parser_.syntax_error(parser_.peek().location, "expression nested too deeply (more than " +
                                                    std::to_string(kMaxExpressionNesting) +
                                                    " levels)");
  return false;
}

void Parser::syntax_error(const SourceLocation& loc, const std::string& message) {
  if (in_error_) return;  // one error per statement: the rest would be consequences
  in_error_ = true;
  diags_.error(loc, message);
}

bool Parser::expect(TokenKind kind, const char* context) {
  if (accept(kind)) return true;
  // An Invalid token was reported by the lexer already.
  if (at(TokenKind::Invalid)) {
    in_error_ = true;
    return false;
  }
  syntax_error(peek().location,
               "expected " + describe(kind) + " " + context + ", found " + describe(peek()));
  return false;
}

bool Parser::at_statement_start() const {
  switch (peek().kind) {
    case TokenKind::KwParameter:
    case TokenKind::KwVariable:
    case TokenKind::KwOutput:
    case TokenKind::KwEquation:
    case TokenKind::KwEnd:
    case TokenKind::EndOfFile:
      return true;
    case TokenKind::KwFor:
      return in_equations_;
    case TokenKind::Identifier:
      return at_initial_section();
    default:
      return false;
  }
}

// `initial equation`: `initial` is a keyword only there, so models may keep it as a name.
bool Parser::at_initial_section() const {
  return at(TokenKind::Identifier) && peek().text == "initial" &&
         peek(1).kind == TokenKind::KwEquation;
}

// A label is NAME ':' or NAME '[' ... ']' ':' (an indexed label, rod[i]:).
bool Parser::at_label() const {
  if (!at(TokenKind::Identifier)) return false;
  if (peek(1).kind == TokenKind::Colon) return true;
  if (peek(1).kind != TokenKind::LeftBracket) return false;
  int depth = 0;
  for (size_t ahead = 1;; ++ahead) {
    TokenKind kind = peek(ahead).kind;
    if (kind == TokenKind::Semicolon || kind == TokenKind::EndOfFile) return false;
    if (kind == TokenKind::LeftBracket) ++depth;
    if (kind == TokenKind::RightBracket && --depth == 0) {
      return peek(ahead + 1).kind == TokenKind::Colon;
    }
  }
}

bool Parser::at_relational_operator() const {
  switch (peek().kind) {
    case TokenKind::Less:
    case TokenKind::LessEqual:
    case TokenKind::Greater:
    case TokenKind::GreaterEqual:
    case TokenKind::EqualEqual:
    case TokenKind::NotEqual:
      return true;
    default:
      return false;
  }
}

// Error recovery: drop the rest of the broken statement, up to and including its `;`.
void Parser::skip_to_statement_end() {
  while (!at_statement_start()) {
    if (consume().kind == TokenKind::Semicolon) break;
  }
  in_error_ = false;
}

/// model_file = model_header , { declaration } , [ equation_section ] ,
///              [ initial_section ] , end_clause ;
ModelSyntax Parser::parse_model_file() {
  if (!parse_model_header()) skip_to_statement_end();
  while (!at(TokenKind::KwEquation) && !at(TokenKind::KwEnd) && !at(TokenKind::EndOfFile) &&
         !at_initial_section()) {
    if (!parse_declaration()) skip_to_statement_end();
  }
  if (at(TokenKind::KwEquation)) parse_equation_section();
  if (at_initial_section()) parse_initial_section();
  parse_end_clause();
  return std::move(model_);
}

/// model_header = "model" , NAME , [ STRING ] , ";" ;
bool Parser::parse_model_header() {
  if (!at(TokenKind::KwModel)) {
    syntax_error(peek().location,
                 "expected 'model NAME;' at the start of the file, found " + describe(peek()));
    if (!at_statement_start()) return false;
    // A file that starts with a declaration: go on from there, reporting its own errors. An
    // empty file gets this one error only.
    in_error_ = at(TokenKind::EndOfFile);
    return true;
  }
  consume();
  if (!parse_name(model_.name, "after 'model'")) return false;
  parse_optional_description(model_.description);
  return expect(TokenKind::Semicolon, "after the model header");
}

/// declaration = parameter_decl | variable_decl | output_decl ;
bool Parser::parse_declaration() {
  switch (peek().kind) {
    case TokenKind::KwParameter:
      return parse_parameter_decl();
    case TokenKind::KwVariable:
      return parse_variable_decl();
    case TokenKind::KwOutput:
      return parse_output_decl();
    case TokenKind::KwModel:
      syntax_error(peek().location, "only one 'model' header is allowed, at the start of the file");
      return false;
    case TokenKind::Invalid:
      return false;
    default:
      syntax_error(peek().location,
                   "expected a declaration ('parameter', 'variable' or 'output') or 'equation', "
                   "found " +
                       describe(peek()));
      consume();  // make progress even if the next token is a statement keyword
      return false;
  }
}

/// parameter_decl = "parameter" , parameter_item , { "," , parameter_item } , ";" ;
bool Parser::parse_parameter_decl() {
  consume();
  do {
    if (!parse_parameter_item()) return false;
  } while (accept(TokenKind::Comma));
  return expect(TokenKind::Semicolon, "after a parameter declaration");
}

/// parameter_item = NAME , [ subscripts ] , [ unit_modifier ] , "=" , value , [ STRING ] ;
bool Parser::parse_parameter_item() {
  ParameterDecl decl;
  if (!parse_name(decl.name, "in a parameter declaration")) return false;
  if (at(TokenKind::LeftBracket) && !parse_subscripts(decl.dimensions, "to close the array size"))
    return false;
  if (at(TokenKind::LeftParen) &&
      !parse_unit_modifier("parameter '" + decl.name.name + "'", decl.unit, decl.unit_location) &&
      !skip_modifiers()) {
    // Kept with a placeholder value so that the name stays declared (no cascade of errors).
    decl.value = std::make_unique<Expr>(ExprKind::Number, decl.name.location, "0");
    model_.parameters.push_back(std::move(decl));
    return false;
  }
  if (!expect(TokenKind::Equals, "after the parameter name (parameters need a value)"))
    return false;
  decl.value = parse_value();
  if (!decl.value) return false;
  parse_optional_description(decl.description);
  model_.parameters.push_back(std::move(decl));
  return true;
}

/// variable_decl = "variable" , variable_item , { "," , variable_item } , ";" ;
bool Parser::parse_variable_decl() {
  consume();
  do {
    if (!parse_variable_item()) return false;
  } while (accept(TokenKind::Comma));
  return expect(TokenKind::Semicolon, "after a variable declaration");
}

/// variable_item = NAME , [ subscripts ] , [ "(" , modifier , { "," , modifier } , ")" ] ,
///                 [ STRING ] ;
bool Parser::parse_variable_item() {
  VariableDecl decl;
  if (!parse_name(decl.name, "in a variable declaration")) return false;
  if (at(TokenKind::LeftBracket) && !parse_subscripts(decl.dimensions, "to close the array size"))
    return false;
  if (accept(TokenKind::LeftParen)) {
    bool ok = true;
    do {
      ok = parse_modifier(decl);
    } while (ok && accept(TokenKind::Comma));
    ok = ok && expect(TokenKind::RightParen, "after the variable's modifiers");
    if (!ok && !skip_modifiers()) {
      model_.variables.push_back(std::move(decl));  // stays declared: no cascade of errors
      return false;
    }
  }
  parse_optional_description(decl.description);
  model_.variables.push_back(std::move(decl));
  return true;
}

// Error recovery inside a declaration: after a broken modifier list (reported), skips to its
// closing ')' so that the declaration goes on; false when the statement ends first.
bool Parser::skip_modifiers() {
  int depth = 0;
  while (!at_statement_start() && !at(TokenKind::Semicolon)) {
    TokenKind kind = consume().kind;
    if (kind == TokenKind::LeftParen) ++depth;
    if (kind == TokenKind::RightParen && depth-- == 0) {
      in_error_ = false;
      return true;
    }
  }
  return false;
}

// The string of `unit = "..."` (after `unit`): into `unit`, its location into `where`. Given
// twice is reported and the declaration kept, as for 'start'.
bool Parser::parse_unit_value(const std::string& owner, std::string& unit, SourceLocation& where) {
  SourceLocation keyword = consume().location;
  if (where.valid()) diags_.error(keyword, "'unit' is given twice for " + owner);
  if (!expect(TokenKind::Equals, "after 'unit'")) return false;
  if (!at(TokenKind::String)) {
    syntax_error(peek().location,
                 "expected a unit in double quotes after 'unit =' (unit = \"m/s\"), found " +
                     describe(peek()));
    return false;
  }
  where = peek().location;
  unit = consume().text;
  return true;
}

/// unit_modifier = "(" , "unit" , "=" , STRING , ")" ;
bool Parser::parse_unit_modifier(const std::string& owner, std::string& unit,
                                 SourceLocation& where) {
  consume();
  if (!at(TokenKind::KwUnit)) {
    syntax_error(peek().location, "expected 'unit' in the modifiers of " + owner +
                                      " (only a unit can be given), found " +
                                      describe_found(peek()));
    return false;
  }
  if (!parse_unit_value(owner, unit, where)) return false;
  return expect(TokenKind::RightParen, ("after the unit of " + owner).c_str());
}

// `start = value` or `nominal = value` (the keyword is next): into `slot`, where the keyword was
// into `where`. Given twice is not a syntax error: the declaration is kept, so x stays declared.
bool Parser::parse_value_modifier(VariableDecl& decl, const char* keyword, ExprPtr& slot,
                                  SourceLocation& where) {
  where = consume().location;
  if (slot) {
    diags_.error(where, std::string("'") + keyword + "' is given twice for variable '" +
                            decl.name.name + "'");
  }
  if (!expect(TokenKind::Equals, (std::string("after '") + keyword + "'").c_str())) return false;
  slot = parse_value();
  return slot != nullptr;
}

/// modifier = "start" , "=" , value | "fixed" , "=" , ( "true" | "false" )
///          | "nominal" , "=" , value | "unit" , "=" , STRING ;
bool Parser::parse_modifier(VariableDecl& decl) {
  const Token& keyword = peek();
  if (keyword.kind == TokenKind::KwStart)
    return parse_value_modifier(decl, "start", decl.start, decl.start_location);
  if (keyword.kind == TokenKind::KwFixed) {
    consume();
    if (decl.fixed_location.valid()) {  // as for 'start': reported, the declaration is kept
      diags_.error(keyword.location,
                   "'fixed' is given twice for variable '" + decl.name.name + "'");
    }
    decl.fixed_location = keyword.location;
    if (!expect(TokenKind::Equals, "after 'fixed'")) return false;
    if (accept(TokenKind::KwTrue)) {
      decl.fixed = true;
      return true;
    }
    if (accept(TokenKind::KwFalse)) return true;
    syntax_error(peek().location,
                 "expected 'true' or 'false' after 'fixed =', found " + describe(peek()));
    return false;
  }
  if (keyword.kind == TokenKind::Identifier && keyword.text == "nominal")
    return parse_value_modifier(decl, "nominal", decl.nominal, decl.nominal_location);
  if (keyword.kind == TokenKind::KwUnit)
    return parse_unit_value("variable '" + decl.name.name + "'", decl.unit, decl.unit_location);
  syntax_error(keyword.location,
               "expected 'start', 'fixed', 'nominal' or 'unit' in the variable's modifiers, "
               "found " +
                   describe(keyword));
  return false;
}

/// output_decl = "output" , output_item , { "," , output_item } , ";" ;
bool Parser::parse_output_decl() {
  consume();
  do {
    if (!parse_output_item()) return false;
  } while (accept(TokenKind::Comma));
  return expect(TokenKind::Semicolon, "after an output declaration");
}

/// output_item = NAME , [ subscripts ] , [ unit_modifier ] , "=" , value , [ STRING ] ;
bool Parser::parse_output_item() {
  OutputDecl decl;
  if (!parse_name(decl.name, "in an output declaration")) return false;
  if (at(TokenKind::LeftBracket) && !parse_subscripts(decl.dimensions, "to close the array size"))
    return false;
  if (at(TokenKind::LeftParen) &&
      !parse_unit_modifier("output '" + decl.name.name + "'", decl.unit, decl.unit_location) &&
      !skip_modifiers()) {
    decl.value = std::make_unique<Expr>(ExprKind::Number, decl.name.location, "0");
    model_.outputs.push_back(std::move(decl));
    return false;
  }
  if (!expect(TokenKind::Equals, "after the output name")) return false;
  decl.value = parse_value();
  if (!decl.value) return false;
  parse_optional_description(decl.description);
  model_.outputs.push_back(std::move(decl));
  return true;
}

/// value = array_value | expression ;
ExprPtr Parser::parse_value() {
  return at(TokenKind::LeftBrace) ? parse_array_value() : parse_expression();
}

/// array_value = "{" , value , ( "for" , iterator | { "," , value } ) , "}" ;
ExprPtr Parser::parse_array_value() {
  Nesting nesting(*this);
  if (!nesting.ok()) return nullptr;
  const Token& brace = consume();
  ExprPtr first = parse_value();
  if (!first) return nullptr;
  ExprPtr array;
  if (accept(TokenKind::KwFor)) {
    array = std::make_unique<Expr>(ExprKind::Comprehension, brace.location);
    array->operands.push_back(std::move(first));
    ExprPtr from, to;
    if (!parse_iterator(array->variable, from, to, "after 'for' in the array")) return nullptr;
    array->operands.push_back(std::move(from));
    array->operands.push_back(std::move(to));
  } else {
    array = std::make_unique<Expr>(ExprKind::ArrayLiteral, brace.location);
    array->operands.push_back(std::move(first));
    while (accept(TokenKind::Comma)) {
      ExprPtr element = parse_value();
      if (!element) return nullptr;
      array->operands.push_back(std::move(element));
    }
  }
  if (!expect(TokenKind::RightBrace, "to close the array")) return nullptr;
  return array;
}

/// iterator = NAME , "in" , expression , ":" , expression ;
bool Parser::parse_iterator(NameToken& variable, ExprPtr& first, ExprPtr& last,
                            const char* context) {
  if (!parse_name(variable, context)) return false;
  if (!expect(TokenKind::KwIn, "after the loop variable (write 'for i in 1:N')")) return false;
  first = parse_expression();
  if (!first) return false;
  if (!expect(TokenKind::Colon, "in the range (write 'A:B')")) return false;
  last = parse_expression();
  return last != nullptr;
}

/// equation_section = "equation" , { statement } ;
void Parser::parse_equation_section() {
  consume();
  in_equations_ = true;
  parse_statements(model_.statements);
}

/// initial_section = "initial" , "equation" , { statement } ;
void Parser::parse_initial_section() {
  consume();
  consume();
  in_equations_ = true;
  in_initial_ = true;
  parse_statements(model_.initial_statements);
}

// The statements of the equation section or of a loop's body, up to its `end` (or the end of the
// file), each broken one skipped to its `;`.
void Parser::parse_statements(std::vector<Statement>& statements) {
  while (!at(TokenKind::KwEnd) && !at(TokenKind::EndOfFile)) {
    if (at_initial_section()) {
      if (!in_initial_) return;  // the end of the equation section (or of a broken loop)
      syntax_error(peek().location,
                   "'initial equation' appears twice; one initial equation section is allowed");
      consume();
      consume();
      in_error_ = false;
      continue;
    }
    if (at(TokenKind::KwParameter) || at(TokenKind::KwVariable) || at(TokenKind::KwOutput)) {
      // Report the misplaced declaration, but keep it: its name is then known to later checks.
      syntax_error(peek().location, "declarations must come before 'equation'");
      in_error_ = false;
      if (!parse_declaration()) skip_to_statement_end();
      continue;
    }
    if (at(TokenKind::KwEquation)) {
      syntax_error(peek().location,
                   in_initial_ ? "the 'equation' section must come before 'initial equation'"
                               : "'equation' appears twice; one equation section is allowed");
      consume();
      in_error_ = false;
      continue;
    }
    if (!parse_statement(statements)) skip_to_statement_end();
    // `end for` outside a loop: reported and dropped, so that the model's `end` is still found.
    if (loop_depth_ == 0 && at(TokenKind::KwEnd) && peek(1).kind == TokenKind::KwFor) {
      syntax_error(peek().location, "'end for' without a 'for' loop to close");
      consume();
      consume();
      accept(TokenKind::Semicolon);
      in_error_ = false;
    }
  }
}

/// statement = for_loop | when_clause | equation ;
bool Parser::parse_statement(std::vector<Statement>& statements) {
  if (at(TokenKind::KwFor)) return parse_for_loop(statements);
  if (at(TokenKind::KwWhen)) return parse_when_clause(statements);
  return parse_equation(statements);
}

/// when_clause = "when" , expression , "then" , { reinit } , "end" , "when" , ";" ;
bool Parser::parse_when_clause(std::vector<Statement>& statements) {
  auto when = std::make_unique<WhenDecl>();
  when->location = consume().location;
  SourceLocation condition_start = peek().location;
  when->condition = parse_expression();
  if (when->condition) when->text = text_between(condition_start, peek().location);
  bool ok = when->condition && expect(TokenKind::KwThen, "after the condition of 'when'");
  while (ok && at(TokenKind::KwReinit)) ok = parse_reinit(*when);
  if (ok && (!at(TokenKind::KwEnd) || peek(1).kind != TokenKind::KwWhen)) {
    syntax_error(peek().location,
                 "expected 'reinit(...);' or 'end when;' in the 'when' clause of line " +
                     std::to_string(when->location.line) + ", found " + describe_found(peek()));
    ok = false;
  }
  if (!ok) {
    skip_when_body();
    return true;
  }
  consume();
  consume();
  if (!expect(TokenKind::Semicolon, "after 'end when'")) return false;
  if (in_initial_) {
    syntax_error(when->location,
                 "'when' is not allowed in the initial equation section (it acts during the "
                 "simulation; write it in the equation section)");
    in_error_ = false;
    return true;
  }
  if (when->reinits.empty()) {
    syntax_error(when->location, "'when " + when->text +
                                     "' has no 'reinit': a when clause acts only through "
                                     "reinit(x, value);");
    in_error_ = false;
    return true;
  }
  statements.push_back(Statement{0, nullptr, std::move(when)});
  return true;
}

/// reinit = "reinit" , "(" , NAME , [ subscripts ] , [ "'" ] , "," , expression , ")" , ";" ;
bool Parser::parse_reinit(WhenDecl& when) {
  ReinitDecl reinit;
  reinit.location = consume().location;
  if (!expect(TokenKind::LeftParen, "after 'reinit'")) return false;
  NameToken name;
  if (!parse_name(name, "as the variable 'reinit' sets")) return false;
  bool indexed = at(TokenKind::LeftBracket);
  reinit.target =
      std::make_unique<Expr>(indexed ? ExprKind::Index : ExprKind::Name, name.location, name.name);
  if (indexed && !parse_subscripts(reinit.target->operands, "to close the index")) return false;
  while (accept(TokenKind::Prime)) ++reinit.order;
  if (!expect(TokenKind::Comma, "after the variable of 'reinit' (write 'reinit(x, value)')"))
    return false;
  reinit.value = parse_expression();
  if (!reinit.value) return false;
  if (!expect(TokenKind::RightParen, "after the value of 'reinit'")) return false;
  if (!expect(TokenKind::Semicolon, "after 'reinit(...)'")) return false;
  when.reinits.push_back(std::move(reinit));
  return true;
}

// Error recovery in a when clause: drop the rest of it, up to and including its `end when;` (or
// up to the model's `end`), so that its `end` does not end the equation section.
void Parser::skip_when_body() {
  while (!at(TokenKind::EndOfFile)) {
    if (at(TokenKind::KwEnd)) {
      if (peek(1).kind != TokenKind::KwWhen) break;
      consume();
      consume();
      accept(TokenKind::Semicolon);
      break;
    }
    consume();
  }
  in_error_ = false;
}

// The source text from `from` up to `to`, its runs of white space made single spaces: a
// when clause's condition as written, for its name.
std::string Parser::text_between(const SourceLocation& from, const SourceLocation& to) const {
  if (!from.file || to.offset <= from.offset) return {};
  const std::string& source = from.file->text();
  std::string text;
  for (size_t i = from.offset; i < to.offset && i < source.size(); ++i) {
    bool space = std::isspace(static_cast<unsigned char>(source[i])) != 0;
    if (space && (text.empty() || text.back() == ' ')) continue;
    text += space ? ' ' : source[i];
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

/// for_loop = "for" , iterator , "loop" , { statement } , "end" , "for" , ";" ;
bool Parser::parse_for_loop(std::vector<Statement>& statements) {
  auto loop = std::make_unique<ForLoop>();
  loop->location = consume().location;
  if (loop_depth_ >= kMaxLoopNesting) {
    syntax_error(loop->location, "'for' loops nested too deeply (more than " +
                                     std::to_string(kMaxLoopNesting) + " levels)");
    return false;
  }
  bool header = parse_iterator(loop->variable, loop->first, loop->last, "after 'for'") &&
                expect(TokenKind::KwLoop, "after the range of the 'for' loop");
  if (!header) {
    // Go on with the body, so that its `end for` does not end something else.
    while (!at(TokenKind::KwLoop) && !at(TokenKind::Semicolon) && !at_statement_start()) consume();
    if (!accept(TokenKind::KwLoop)) return false;
    in_error_ = false;
  }
  ++loop_depth_;
  parse_statements(loop->body);
  --loop_depth_;
  const ForLoop* kept = loop.get();
  if (header) statements.push_back(Statement{0, std::move(loop), nullptr});
  if (!at(TokenKind::KwEnd) || peek(1).kind != TokenKind::KwFor) {
    syntax_error(peek().location, "expected 'end for;' to close the 'for' loop of line " +
                                      std::to_string(kept->location.line) + ", found " +
                                      describe_found(peek()));
    return false;  // the `end` (of the model) is left for the end clause
  }
  consume();
  consume();
  return expect(TokenKind::Semicolon, "after 'end for'");
}

/// equation = [ label , ":" ] , expression , "=" , expression , ";" ;
bool Parser::parse_equation(std::vector<Statement>& statements) {
  EquationDecl equation;
  equation.location = peek().location;
  if (at_label() && !parse_label(equation)) return false;
  equation.lhs = parse_expression();
  if (!equation.lhs) return false;
  equation.equals_location = peek().location;
  // `z == y^2;` parses as a relation with no '=' after it: say what '==' is where it stands.
  if (!at(TokenKind::Equals) && !at(TokenKind::Invalid) &&
      equation.lhs->kind == ExprKind::Relation && equation.lhs->text == "==") {
    syntax_error(equation.lhs->location,
                 "'==' is a relation, true or false (for conditions: if x == 0 then ...); an "
                 "equation is written with one '=': 'lhs = rhs;'");
    return false;
  }
  if (!expect(TokenKind::Equals, "in the equation (equations are written 'lhs = rhs;')"))
    return false;
  equation.rhs = parse_expression();
  if (!equation.rhs) return false;
  if (!expect(TokenKind::Semicolon, "after the equation")) return false;
  equation.initial = in_initial_;
  statements.push_back(Statement{model_.equations.size(), nullptr, nullptr});
  model_.equations.push_back(std::move(equation));
  return true;
}

/// label = NAME , [ subscripts ] ;
bool Parser::parse_label(EquationDecl& equation) {
  equation.label = NameToken{peek().text, peek().location};
  consume();
  if (at(TokenKind::LeftBracket) &&
      !parse_subscripts(equation.label_subscripts, "to close the label's index"))
    return false;
  return expect(TokenKind::Colon, "after the label");
}

/// end_clause = "end" , [ NAME ] , [ ";" ] ;
void Parser::parse_end_clause() {
  model_.end_location = peek().location;
  if (!accept(TokenKind::KwEnd)) {
    syntax_error(peek().location, "expected 'end' to close the model, found " + describe(peek()));
    return;
  }
  if (at(TokenKind::Identifier)) {
    const Token& name = consume();
    if (!model_.name.name.empty() && name.text != model_.name.name) {
      syntax_error(name.location,
                   "'end " + name.text + "' does not match 'model " + model_.name.name + "'");
    }
  }
  accept(TokenKind::Semicolon);
  if (!at(TokenKind::EndOfFile)) {
    in_error_ = false;
    syntax_error(peek().location, "unexpected " + describe(peek()) + " after 'end'");
  }
}

bool Parser::parse_name(NameToken& name, const char* context) {
  const Token& token = peek();
  if (token.kind == TokenKind::Identifier) {
    name = NameToken{token.text, token.location};
    consume();
    return true;
  }
  if (token.kind == TokenKind::Invalid) return false;
  syntax_error(token.location,
               "expected a name " + std::string(context) + ", found " + describe_found(token));
  return false;
}

void Parser::parse_optional_description(std::string& description) {
  if (at(TokenKind::String)) description = consume().text;
}

/// subscripts = "[" , expression , { "," , expression } , "]" ;
bool Parser::parse_subscripts(std::vector<ExprPtr>& subscripts, const char* context) {
  consume();
  do {
    ExprPtr subscript = parse_expression();
    if (!subscript) return false;
    subscripts.push_back(std::move(subscript));
  } while (accept(TokenKind::Comma));
  return expect(TokenKind::RightBracket, context);
}

/// expression = if_expression | disjunction ;
ExprPtr Parser::parse_expression() {
  return at(TokenKind::KwIf) ? parse_if_expression() : parse_disjunction();
}

/// if_expression = "if" , expression , "then" , expression ,
///                 { "elseif" , expression , "then" , expression } , "else" , expression ;
ExprPtr Parser::parse_if_expression() {
  auto conditional = std::make_unique<Expr>(ExprKind::If, peek().location);
  // Each branch is a level of nesting: the checks and GiNaC nest one call per branch.
  std::vector<std::unique_ptr<Nesting>> levels;
  do {
    levels.push_back(std::make_unique<Nesting>(*this));
    if (!levels.back()->ok()) return nullptr;
    consume();  // if, elseif
    ExprPtr condition = parse_expression();
    if (!condition) return nullptr;
    if (!expect(TokenKind::KwThen, "after the condition")) return nullptr;
    ExprPtr value = parse_expression();
    if (!value) return nullptr;
    conditional->operands.push_back(std::move(condition));
    conditional->operands.push_back(std::move(value));
  } while (at(TokenKind::KwElseif));
  if (!expect(TokenKind::KwElse, "in the 'if' expression (it needs an 'else' branch)"))
    return nullptr;
  ExprPtr otherwise = parse_expression();
  if (!otherwise) return nullptr;
  conditional->operands.push_back(std::move(otherwise));
  return conditional;
}

/// disjunction = conjunction , { "or" , conjunction } ;
ExprPtr Parser::parse_disjunction() {
  ExprPtr first = parse_conjunction();
  if (!first || !at(TokenKind::KwOr)) return first;
  auto any = std::make_unique<Expr>(ExprKind::Or, peek().location);
  any->operands.push_back(std::move(first));
  while (accept(TokenKind::KwOr)) {
    ExprPtr operand = parse_conjunction();
    if (!operand) return nullptr;
    any->operands.push_back(std::move(operand));
  }
  return any;
}

/// conjunction = negation , { "and" , negation } ;
ExprPtr Parser::parse_conjunction() {
  ExprPtr first = parse_negation();
  if (!first || !at(TokenKind::KwAnd)) return first;
  auto all = std::make_unique<Expr>(ExprKind::And, peek().location);
  all->operands.push_back(std::move(first));
  while (accept(TokenKind::KwAnd)) {
    ExprPtr operand = parse_negation();
    if (!operand) return nullptr;
    all->operands.push_back(std::move(operand));
  }
  return all;
}

/// negation = "not" , negation | relation ;
ExprPtr Parser::parse_negation() {
  if (!at(TokenKind::KwNot)) return parse_relation();
  Nesting nesting(*this);
  if (!nesting.ok()) return nullptr;
  auto negation = std::make_unique<Expr>(ExprKind::Not, consume().location);
  ExprPtr operand = parse_negation();
  if (!operand) return nullptr;
  negation->operands.push_back(std::move(operand));
  return negation;
}

/// relation = arithmetic , [ ( "<" | "<=" | ">" | ">=" | "==" | "<>" ) , arithmetic ] ;
ExprPtr Parser::parse_relation() {
  ExprPtr left = parse_arithmetic();
  if (!left || !at_relational_operator()) return left;
  const Token& op = consume();
  ExprPtr right = parse_arithmetic();
  if (!right) return nullptr;
  if (at_relational_operator()) {
    syntax_error(peek().location, "relations cannot be chained (write 'a < b and b < c')");
    return nullptr;
  }
  auto relation = std::make_unique<Expr>(ExprKind::Relation, op.location, op.text);
  relation->operands.push_back(std::move(left));
  relation->operands.push_back(std::move(right));
  return relation;
}

/// arithmetic = term , { ( "+" | "-" ) , term } ;
ExprPtr Parser::parse_arithmetic() {
  ExprPtr first = parse_term();
  if (!first || !(at(TokenKind::Plus) || at(TokenKind::Minus))) return first;
  auto sum = std::make_unique<Expr>(ExprKind::Sum, first->location);
  sum->inverted.push_back(false);
  sum->operator_locations.push_back(first->location);
  sum->operands.push_back(std::move(first));
  while (at(TokenKind::Plus) || at(TokenKind::Minus)) {
    const Token& op = consume();
    ExprPtr operand = parse_term();
    if (!operand) return nullptr;
    sum->inverted.push_back(op.kind == TokenKind::Minus);
    sum->operator_locations.push_back(op.location);
    sum->operands.push_back(std::move(operand));
  }
  return sum;
}

/// term = unary , { ( "*" | "/" ) , unary } ;
ExprPtr Parser::parse_term() {
  ExprPtr first = parse_unary();
  if (!first || !(at(TokenKind::Star) || at(TokenKind::Slash))) return first;
  auto product = std::make_unique<Expr>(ExprKind::Product, first->location);
  product->inverted.push_back(false);
  product->operator_locations.push_back(first->location);
  product->operands.push_back(std::move(first));
  while (at(TokenKind::Star) || at(TokenKind::Slash)) {
    const Token& op = consume();
    ExprPtr operand = parse_unary();
    if (!operand) return nullptr;
    product->inverted.push_back(op.kind == TokenKind::Slash);
    product->operator_locations.push_back(op.location);
    product->operands.push_back(std::move(operand));
  }
  return product;
}

/// unary = ( "-" | "+" ) , unary | power ;
ExprPtr Parser::parse_unary() {
  // Every nested construct passes through here, so this is where nesting is bounded (and in the
  // constructs that recurse without it: if, not, array values).
  Nesting nesting(*this);
  if (!nesting.ok()) return nullptr;
  if (at(TokenKind::Minus) || at(TokenKind::Plus)) {
    const Token& op = consume();
    ExprPtr operand = parse_unary();
    if (!operand || op.kind == TokenKind::Plus) return operand;
    auto negate = std::make_unique<Expr>(ExprKind::Negate, op.location);
    negate->operands.push_back(std::move(operand));
    return negate;
  }
  return parse_power();
}

/// power = postfix , [ "^" , unary ] ;
ExprPtr Parser::parse_power() {
  ExprPtr base = parse_postfix();
  if (!base || !at(TokenKind::Caret)) return base;
  const Token& op = consume();
  ExprPtr exponent = parse_unary();
  if (!exponent) return nullptr;
  auto power = std::make_unique<Expr>(ExprKind::Power, op.location);
  power->operands.push_back(std::move(base));
  power->operands.push_back(std::move(exponent));
  return power;
}

/// postfix = primary , { "'" } ;
ExprPtr Parser::parse_postfix() {
  ExprPtr primary = parse_primary();
  if (!primary || !at(TokenKind::Prime)) return primary;
  auto derivative = std::make_unique<Expr>(ExprKind::Derivative, peek().location);
  size_t primes = 0;
  while (accept(TokenKind::Prime)) ++primes;
  if (primes > static_cast<size_t>(kMaxDerivativeOrder)) {
    syntax_error(derivative->location, derivative_order_out_of_range(std::to_string(primes)));
    return nullptr;
  }
  derivative->order = static_cast<int>(primes);
  derivative->operands.push_back(std::move(primary));
  return derivative;
}

/// primary = NUMBER | derivative | reduction
///         | NAME , [ subscripts | "(" , [ arguments ] , ")" ]
///         | "(" , expression , ")" ;
ExprPtr Parser::parse_primary() {
  const Token& token = peek();
  switch (token.kind) {
    case TokenKind::Number: {
      consume();
      return std::make_unique<Expr>(ExprKind::Number, token.location, token.text);
    }
    case TokenKind::KwDer:
      return parse_derivative();
    case TokenKind::KwSum:
    case TokenKind::KwProduct:
      return parse_reduction();
    case TokenKind::Identifier: {
      consume();
      if (at(TokenKind::LeftBracket)) {
        auto element = std::make_unique<Expr>(ExprKind::Index, token.location, token.text);
        if (!parse_subscripts(element->operands, "to close the index")) return nullptr;
        return element;
      }
      if (!at(TokenKind::LeftParen)) {
        return std::make_unique<Expr>(ExprKind::Name, token.location, token.text);
      }
      auto call = std::make_unique<Expr>(ExprKind::Call, token.location, token.text);
      consume();
      // f() parses; the arity check reports a function called without arguments.
      if (!at(TokenKind::RightParen) && !parse_arguments(*call)) return nullptr;
      if (!expect(TokenKind::RightParen, "after the function's arguments")) return nullptr;
      return call;
    }
    case TokenKind::LeftParen: {
      consume();
      ExprPtr inner = parse_expression();
      if (!inner) return nullptr;
      if (!expect(TokenKind::RightParen, "to close the parenthesis")) return nullptr;
      return inner;
    }
    case TokenKind::Invalid:
      in_error_ = true;
      return nullptr;
    case TokenKind::KwReinit:
      syntax_error(token.location,
                   "'reinit' is allowed only inside a 'when' clause: when C then reinit(x, "
                   "value); end when;");
      return nullptr;
    case TokenKind::KwIf:
      syntax_error(token.location,
                   "an 'if' expression inside an operation needs parentheses: "
                   "(if C then A else B)");
      return nullptr;
    case TokenKind::LeftBrace:
      syntax_error(token.location,
                   "an array value ({...}) is allowed only as the value or start of a "
                   "declaration");
      return nullptr;
    default:
      syntax_error(token.location, "expected an expression, found " + describe_found(token));
      return nullptr;
  }
}

/// reduction = ( "sum" | "product" ) , "(" , expression , "for" , iterator , ")" ;
ExprPtr Parser::parse_reduction() {
  const Token& keyword = consume();
  auto reduction = std::make_unique<Expr>(ExprKind::Reduction, keyword.location, keyword.text);
  std::string context = "after '" + keyword.text + "'";
  if (!expect(TokenKind::LeftParen, context.c_str())) return nullptr;
  ExprPtr body = parse_expression();
  if (!body) return nullptr;
  if (!expect(TokenKind::KwFor, ("in '" + keyword.text + "(EXPR for i in A:B)'").c_str()))
    return nullptr;
  ExprPtr first, last;
  if (!parse_iterator(reduction->variable, first, last, "after 'for'")) return nullptr;
  if (!expect(TokenKind::RightParen, ("to close '" + keyword.text + "('").c_str())) return nullptr;
  reduction->operands.push_back(std::move(body));
  reduction->operands.push_back(std::move(first));
  reduction->operands.push_back(std::move(last));
  return reduction;
}

/// derivative = "der" , "(" , expression , [ "," , NUMBER ] , ")" ;
ExprPtr Parser::parse_derivative() {
  const Token& keyword = consume();
  if (!expect(TokenKind::LeftParen, "after 'der'")) return nullptr;
  auto derivative = std::make_unique<Expr>(ExprKind::Derivative, keyword.location);
  ExprPtr operand = parse_expression();
  if (!operand) return nullptr;
  derivative->operands.push_back(std::move(operand));
  derivative->order = 1;
  if (accept(TokenKind::Comma)) {
    const Token& order = peek();
    bool positive_integer = order.kind == TokenKind::Number &&
                            order.text.find_first_not_of("0123456789") == std::string::npos;
    if (!positive_integer) {
      syntax_error(order.location,
                   "the order in der(x, n) must be a positive integer, found " + describe(order));
      return nullptr;
    }
    consume();
    // Orders beyond a few are meaningless for a model; bounding them keeps stoi safe.
    if (order.text.size() > 3 || std::stoi(order.text) == 0 ||
        std::stoi(order.text) > kMaxDerivativeOrder) {
      syntax_error(order.location, derivative_order_out_of_range(order.text));
      return nullptr;
    }
    derivative->order = std::stoi(order.text);
  }
  if (!expect(TokenKind::RightParen, "to close 'der('")) return nullptr;
  return derivative;
}

/// arguments = expression , { "," , expression } ;
bool Parser::parse_arguments(Expr& call) {
  do {
    ExprPtr argument = parse_expression();
    if (!argument) return false;
    call.operands.push_back(std::move(argument));
  } while (accept(TokenKind::Comma));
  return true;
}

}  // namespace

ModelSyntax parse(const std::vector<Token>& tokens, DiagnosticEngine& diags) {
  return Parser(tokens, diags).parse_model_file();
}

}  // namespace daec
