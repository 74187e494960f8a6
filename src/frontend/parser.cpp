// The recursive-descent parser of the .dae language. Each function parses the grammar rule
// written above it (grammar/dae.ebnf). A function returns false (or null) after reporting a
// syntax error; the statement-level loops then skip to the next `;` and carry on.
#include "frontend/parser.h"

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

  // ---- statements ----
  bool parse_model_header();
  bool parse_declaration();
  bool parse_parameter_decl();
  bool parse_parameter_item();
  bool parse_variable_decl();
  bool parse_variable_item();
  bool parse_modifier(VariableDecl& decl);
  bool parse_output_decl();
  bool parse_output_item();
  void parse_equation_section();
  bool parse_equation();
  void parse_end_clause();
  bool parse_name(NameToken& name, const char* context);
  void parse_optional_description(std::string& description);

  // ---- expressions ----
  ExprPtr parse_expression();
  ExprPtr parse_term();
  ExprPtr parse_unary();
  ExprPtr parse_power();
  ExprPtr parse_postfix();
  ExprPtr parse_primary();
  ExprPtr parse_derivative();
  bool parse_arguments(Expr& call);

  const std::vector<Token>& tokens_;
  DiagnosticEngine& diags_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool in_error_ = false;  ///< a syntax error in the current statement was already reported
  ModelSyntax model_;
};

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

/// model_file = model_header , { declaration } , [ equation_section ] , end_clause ;
ModelSyntax Parser::parse_model_file() {
  if (!parse_model_header()) skip_to_statement_end();
  while (!at(TokenKind::KwEquation) && !at(TokenKind::KwEnd) && !at(TokenKind::EndOfFile)) {
    if (!parse_declaration()) skip_to_statement_end();
  }
  if (at(TokenKind::KwEquation)) parse_equation_section();
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

/// parameter_item = NAME , "=" , expression , [ STRING ] ;
bool Parser::parse_parameter_item() {
  ParameterDecl decl;
  if (!parse_name(decl.name, "in a parameter declaration")) return false;
  if (!expect(TokenKind::Equals, "after the parameter name (parameters need a value)"))
    return false;
  decl.value = parse_expression();
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

/// variable_item = NAME , [ "(" , modifier , { "," , modifier } , ")" ] , [ STRING ] ;
bool Parser::parse_variable_item() {
  VariableDecl decl;
  if (!parse_name(decl.name, "in a variable declaration")) return false;
  if (accept(TokenKind::LeftParen)) {
    do {
      if (!parse_modifier(decl)) return false;
    } while (accept(TokenKind::Comma));
    if (!expect(TokenKind::RightParen, "after the variable's modifiers")) return false;
  }
  parse_optional_description(decl.description);
  model_.variables.push_back(std::move(decl));
  return true;
}

/// modifier = "start" , "=" , expression | "fixed" , "=" , ( "true" | "false" ) ;
bool Parser::parse_modifier(VariableDecl& decl) {
  const Token& keyword = peek();
  if (keyword.kind == TokenKind::KwStart) {
    consume();
    if (decl.start) {  // not a syntax error: the declaration is kept, so x stays declared
      diags_.error(keyword.location,
                   "'start' is given twice for variable '" + decl.name.name + "'");
    }
    decl.start_location = keyword.location;
    if (!expect(TokenKind::Equals, "after 'start'")) return false;
    decl.start = parse_expression();
    return decl.start != nullptr;
  }
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
  syntax_error(keyword.location, "expected 'start' or 'fixed' in the variable's modifiers, found " +
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

/// output_item = NAME , "=" , expression , [ STRING ] ;
bool Parser::parse_output_item() {
  OutputDecl decl;
  if (!parse_name(decl.name, "in an output declaration")) return false;
  if (!expect(TokenKind::Equals, "after the output name")) return false;
  decl.value = parse_expression();
  if (!decl.value) return false;
  parse_optional_description(decl.description);
  model_.outputs.push_back(std::move(decl));
  return true;
}

/// equation_section = "equation" , { equation } ;
void Parser::parse_equation_section() {
  consume();
  while (!at(TokenKind::KwEnd) && !at(TokenKind::EndOfFile)) {
    if (at(TokenKind::KwParameter) || at(TokenKind::KwVariable) || at(TokenKind::KwOutput)) {
      // Report the misplaced declaration, but keep it: its name is then known to later checks.
      syntax_error(peek().location, "declarations must come before 'equation'");
      in_error_ = false;
      if (!parse_declaration()) skip_to_statement_end();
      continue;
    }
    if (at(TokenKind::KwEquation)) {
      syntax_error(peek().location, "'equation' appears twice; one equation section is allowed");
      consume();
      in_error_ = false;
      continue;
    }
    if (!parse_equation()) skip_to_statement_end();
  }
}

/// equation = [ NAME , ":" ] , expression , "=" , expression , ";" ;
bool Parser::parse_equation() {
  EquationDecl equation;
  equation.location = peek().location;
  if (at(TokenKind::Identifier) && peek(1).kind == TokenKind::Colon) {
    equation.label = NameToken{peek().text, peek().location};
    consume();
    consume();
  }
  equation.lhs = parse_expression();
  if (!equation.lhs) return false;
  if (!expect(TokenKind::Equals, "in the equation (equations are written 'lhs = rhs;')"))
    return false;
  equation.rhs = parse_expression();
  if (!equation.rhs) return false;
  if (!expect(TokenKind::Semicolon, "after the equation")) return false;
  model_.equations.push_back(std::move(equation));
  return true;
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

/// expression = term , { ( "+" | "-" ) , term } ;
ExprPtr Parser::parse_expression() {
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
  // Every nested construct passes through here, so this is where nesting is bounded.
  struct DepthGuard {
    int& depth;
    explicit DepthGuard(int& d) : depth(d) { ++depth; }
    ~DepthGuard() { --depth; }
  } guard(depth_);
  if (depth_ > kMaxExpressionNesting + 1) {  // the outermost level is not nested
    syntax_error(peek().location, "expression nested too deeply (more than " +
                                      std::to_string(kMaxExpressionNesting) + " levels)");
    return nullptr;
  }
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

/// primary = NUMBER | derivative | NAME , [ "(" , [ arguments ] , ")" ] | "(" , expression , ")" ;
ExprPtr Parser::parse_primary() {
  const Token& token = peek();
  switch (token.kind) {
    case TokenKind::Number: {
      consume();
      return std::make_unique<Expr>(ExprKind::Number, token.location, token.text);
    }
    case TokenKind::KwDer:
      return parse_derivative();
    case TokenKind::Identifier: {
      consume();
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
    default:
      syntax_error(token.location, "expected an expression, found " + describe_found(token));
      return nullptr;
  }
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
