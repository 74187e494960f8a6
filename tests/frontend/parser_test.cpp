// Tests of the parser (src/frontend/parser.*): every rule of grammar/dae.ebnf, precedence and
// associativity, syntax errors by their exact printed diagnostics, recovery, and nesting limits.
#include "frontend/parser.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "frontend/lexer.h"
#include "support/diagnostics.h"
#include "support/source.h"
#include "test_util.h"

namespace daec {
namespace {

// The source file must outlive the syntax tree and diagnostics, which point into it.
struct Parsed {
  std::unique_ptr<SourceFile> file;
  DiagnosticEngine diags;
  ModelSyntax model;
};

std::unique_ptr<Parsed> parse_text(const std::string& text) {
  auto result = std::make_unique<Parsed>();
  result->file = std::make_unique<SourceFile>("test.dae", text);
  result->model = parse(lex(*result->file, result->diags), result->diags);
  return result;
}

/// An expression as an S-expression: `(- x)` negation, `(+ a -b)` a sum where b is subtracted,
/// `(* a /b)` a product where b divides, `(^ a b)`, `(der2 x)`, `(call f a b)`, `([] x i)` an
/// element, `(if c a d)`, `(< a b)`, `(and a b)`, `(sum i body first last)`, `({} a b)` an array
/// literal, `({for i} e first last)` a comprehension.
std::string sexpr(const Expr& e) {
  auto list = [&](const std::string& head) {
    std::string out = "(" + head;
    for (const ExprPtr& operand : e.operands) out += " " + sexpr(*operand);
    return out + ")";
  };
  auto nary = [&](const char* op, const char* inverse) {
    std::string out = std::string("(") + op;
    for (size_t i = 0; i < e.operands.size(); ++i) {
      out += std::string(" ") + (e.inverted[i] ? inverse : "") + sexpr(*e.operands[i]);
    }
    return out + ")";
  };
  switch (e.kind) {
    case ExprKind::Number:
    case ExprKind::Name:
      return e.text;
    case ExprKind::Derivative:
      return "(der" + std::to_string(e.order) + " " + sexpr(*e.operands[0]) + ")";
    case ExprKind::Call:
      return list("call " + e.text);
    case ExprKind::Negate:
      return "(- " + sexpr(*e.operands[0]) + ")";
    case ExprKind::Sum:
      return nary("+", "-");
    case ExprKind::Product:
      return nary("*", "/");
    case ExprKind::Power:
      return "(^ " + sexpr(*e.operands[0]) + " " + sexpr(*e.operands[1]) + ")";
    case ExprKind::Index:
      return list(std::string("[] ") + e.text);
    case ExprKind::If:
      return list("if");
    case ExprKind::Relation:
      return list(e.text);
    case ExprKind::And:
      return list("and");
    case ExprKind::Or:
      return list("or");
    case ExprKind::Not:
      return list("not");
    case ExprKind::Reduction:
      return list(e.text + " " + e.variable.name);
    case ExprKind::ArrayLiteral:
      return list("{}");
    case ExprKind::Comprehension:
      return list("{for " + e.variable.name + "}");
  }
  return "?";
}

std::string where(const SourceLocation& loc) {
  return std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

/// The left-hand side of the one equation of a model written around `lhs`, as an S-expression;
/// any diagnostic makes the test fail.
std::string parse_expr(const std::string& lhs) {
  auto parsed = parse_text("model m;\nequation\n" + lhs + " = 0;\nend\n");
  EXPECT_EQ(parsed->diags.str(), "") << "while parsing " << lhs;
  if (parsed->model.equations.size() != 1) return "<no equation>";
  return sexpr(*parsed->model.equations[0].lhs);
}

/// The diagnostics of parsing `text`, as printed.
std::string errors_of(const std::string& text) {
  return parse_text(text)->diags.str();
}

std::string repeat(const std::string& piece, size_t count) {
  std::string out;
  out.reserve(piece.size() * count);
  for (size_t i = 0; i < count; ++i) out += piece;
  return out;
}

// ---- files, headers and end clauses ----

TEST(Parser, MinimalModel) {
  auto parsed = parse_text("model m;\nend\n");
  EXPECT_EQ(parsed->diags.str(), "");
  EXPECT_EQ(parsed->model.name.name, "m");
  EXPECT_EQ(where(parsed->model.name.location), "1:7");
  EXPECT_EQ(parsed->model.description, "");
  EXPECT_TRUE(parsed->model.parameters.empty());
  EXPECT_TRUE(parsed->model.variables.empty());
  EXPECT_TRUE(parsed->model.outputs.empty());
  EXPECT_TRUE(parsed->model.equations.empty());
  EXPECT_EQ(where(parsed->model.end_location), "2:1");
}

TEST(Parser, ModelHeaderWithDescription) {
  auto parsed = parse_text("model pendulum \"Simple \\\"pendulum\\\"\";\nend");
  EXPECT_EQ(parsed->diags.str(), "");
  EXPECT_EQ(parsed->model.name.name, "pendulum");
  EXPECT_EQ(parsed->model.description, "Simple \"pendulum\"");
}

TEST(Parser, EndClauseForms) {
  for (const char* end : {"end", "end;", "end m", "end m;", "end\n;", "end // bye\n"}) {
    auto parsed = parse_text(std::string("model m;\n") + end);
    EXPECT_EQ(parsed->diags.str(), "") << end;
    EXPECT_EQ(where(parsed->model.end_location), "2:1") << end;
  }
}

TEST(Parser, CommentsAndBlankLinesAnywhere) {
  auto parsed = parse_text(
      "// header comment\n"
      "model /* inline */ m;\n"
      "\n"
      "parameter a /* here */ = 1; // trailing\n"
      "equation /* nothing */\n"
      "end /* done */ m; // really\n");
  EXPECT_EQ(parsed->diags.str(), "");
  EXPECT_EQ(parsed->model.name.name, "m");
  ASSERT_EQ(parsed->model.parameters.size(), 1u);
  EXPECT_EQ(where(parsed->model.parameters[0].name.location), "4:11");
}

// ---- declarations ----

TEST(Parser, ParameterDeclarationWithSeveralItems) {
  auto parsed = parse_text(
      "model m;\n"
      "parameter a = 1 \"first\", b = a*2, c = -3 \"third\";\n"
      "parameter d = pi;\n"
      "end\n");
  EXPECT_EQ(parsed->diags.str(), "");
  const auto& ps = parsed->model.parameters;
  ASSERT_EQ(ps.size(), 4u);
  EXPECT_EQ(ps[0].name.name, "a");
  EXPECT_EQ(where(ps[0].name.location), "2:11");
  EXPECT_EQ(sexpr(*ps[0].value), "1");
  EXPECT_EQ(ps[0].description, "first");
  EXPECT_EQ(ps[1].name.name, "b");
  EXPECT_EQ(where(ps[1].name.location), "2:26");
  EXPECT_EQ(sexpr(*ps[1].value), "(* a 2)");
  EXPECT_EQ(ps[1].description, "");
  EXPECT_EQ(ps[2].name.name, "c");
  EXPECT_EQ(sexpr(*ps[2].value), "(- 3)");
  EXPECT_EQ(ps[2].description, "third");
  EXPECT_EQ(ps[3].name.name, "d");
  EXPECT_EQ(where(ps[3].name.location), "3:11");
  EXPECT_EQ(sexpr(*ps[3].value), "pi");
}

TEST(Parser, VariableDeclarationsWithModifiers) {
  auto parsed = parse_text(
      "model m;\n"
      "variable x(start = 1), y(start = 2*a, fixed = true) \"why\", z(fixed = false), w;\n"
      "variable v(fixed = true, start = -1) \"velocity\";\n"
      "end\n");
  EXPECT_EQ(parsed->diags.str(), "");
  const auto& vs = parsed->model.variables;
  ASSERT_EQ(vs.size(), 5u);

  EXPECT_EQ(vs[0].name.name, "x");
  EXPECT_EQ(where(vs[0].name.location), "2:10");
  ASSERT_TRUE(vs[0].start);
  EXPECT_EQ(sexpr(*vs[0].start), "1");
  EXPECT_EQ(where(vs[0].start_location), "2:12");
  EXPECT_FALSE(vs[0].fixed);
  EXPECT_FALSE(vs[0].fixed_location.valid());
  EXPECT_EQ(vs[0].description, "");

  EXPECT_EQ(vs[1].name.name, "y");
  ASSERT_TRUE(vs[1].start);
  EXPECT_EQ(sexpr(*vs[1].start), "(* 2 a)");
  EXPECT_TRUE(vs[1].fixed);
  EXPECT_EQ(where(vs[1].fixed_location), "2:39");
  EXPECT_EQ(vs[1].description, "why");

  EXPECT_EQ(vs[2].name.name, "z");
  EXPECT_FALSE(vs[2].start);
  EXPECT_FALSE(vs[2].fixed);
  EXPECT_TRUE(vs[2].fixed_location.valid());

  EXPECT_EQ(vs[3].name.name, "w");
  EXPECT_FALSE(vs[3].start);
  EXPECT_FALSE(vs[3].fixed);
  EXPECT_FALSE(vs[3].fixed_location.valid());

  EXPECT_EQ(vs[4].name.name, "v");
  EXPECT_TRUE(vs[4].fixed);
  ASSERT_TRUE(vs[4].start);
  EXPECT_EQ(sexpr(*vs[4].start), "(- 1)");
  EXPECT_EQ(vs[4].description, "velocity");
}

TEST(Parser, OutputDeclarations) {
  auto parsed = parse_text(
      "model m;\n"
      "output energy = m*(u^2 + v^2)/2 \"kinetic\", twice = 2*energy;\n"
      "end\n");
  EXPECT_EQ(parsed->diags.str(), "");
  const auto& os = parsed->model.outputs;
  ASSERT_EQ(os.size(), 2u);
  EXPECT_EQ(os[0].name.name, "energy");
  EXPECT_EQ(where(os[0].name.location), "2:8");
  EXPECT_EQ(sexpr(*os[0].value), "(* m (+ (^ u 2) (^ v 2)) /2)");
  EXPECT_EQ(os[0].description, "kinetic");
  EXPECT_EQ(os[1].name.name, "twice");
  EXPECT_EQ(sexpr(*os[1].value), "(* 2 energy)");
}

TEST(Parser, DeclarationsInAnyOrder) {
  auto parsed = parse_text(
      "model m;\n"
      "output y = x;\n"
      "variable x;\n"
      "parameter p = 1;\n"
      "variable z;\n"
      "output w = z;\n"
      "end\n");
  EXPECT_EQ(parsed->diags.str(), "");
  ASSERT_EQ(parsed->model.variables.size(), 2u);
  EXPECT_EQ(parsed->model.variables[0].name.name, "x");
  EXPECT_EQ(parsed->model.variables[1].name.name, "z");
  EXPECT_EQ(parsed->model.parameters.size(), 1u);
  ASSERT_EQ(parsed->model.outputs.size(), 2u);
  EXPECT_EQ(parsed->model.outputs[1].name.name, "w");
}

// ---- equations ----

TEST(Parser, LabelledAndUnlabelledEquations) {
  auto parsed = parse_text(
      "model m;\n"
      "equation\n"
      "  x' = u;\n"
      "  rod: x^2 + y^2 = L^2;\n"
      "  der(y) = v;\n"
      "end\n");
  EXPECT_EQ(parsed->diags.str(), "");
  const auto& eqs = parsed->model.equations;
  ASSERT_EQ(eqs.size(), 3u);

  EXPECT_EQ(eqs[0].label.name, "");
  EXPECT_EQ(where(eqs[0].location), "3:3");
  EXPECT_EQ(sexpr(*eqs[0].lhs), "(der1 x)");
  EXPECT_EQ(sexpr(*eqs[0].rhs), "u");

  EXPECT_EQ(eqs[1].label.name, "rod");
  EXPECT_EQ(where(eqs[1].label.location), "4:3");
  EXPECT_EQ(where(eqs[1].location), "4:3");
  EXPECT_EQ(sexpr(*eqs[1].lhs), "(+ (^ x 2) (^ y 2))");
  EXPECT_EQ(sexpr(*eqs[1].rhs), "(^ L 2)");
  // A sum is located where its first operand is: for x^2, at its operator.
  EXPECT_EQ(where(eqs[1].lhs->location), "4:9");

  EXPECT_EQ(eqs[2].label.name, "");
  EXPECT_EQ(sexpr(*eqs[2].lhs), "(der1 y)");
}

TEST(Parser, EmptyAndMissingEquationSection) {
  auto with_empty = parse_text("model m;\nvariable x;\nequation\nend\n");
  EXPECT_EQ(with_empty->diags.str(), "");
  EXPECT_TRUE(with_empty->model.equations.empty());
  auto without = parse_text("model m;\nvariable x;\nend\n");
  EXPECT_EQ(without->diags.str(), "");
  EXPECT_EQ(without->model.variables.size(), 1u);
}

TEST(Parser, SpecExampleParses) {
  auto parsed = parse_text(
      "// pendulum.dae — simple pendulum in Cartesian coordinates (index 3)\n"
      "model pendulum \"Simple pendulum\";\n"
      "\n"
      "parameter m = 1 \"mass [kg]\";\n"
      "parameter L = 1, g = 9.81;\n"
      "\n"
      "variable x(start = 1), y(start = 0), u, v(start = 1);\n"
      "variable lambda \"rod force per unit length\";\n"
      "\n"
      "output energy = m*(u^2 + v^2)/2 + m*g*y;\n"
      "\n"
      "equation\n"
      "  x' = u;\n"
      "  der(y) = v;\n"
      "  m*u' = -lambda*x;\n"
      "  m*v' = -lambda*y - m*g;\n"
      "  rod: x^2 + y^2 = L^2;\n"
      "end\n");
  EXPECT_EQ(parsed->diags.str(), "");
  EXPECT_EQ(parsed->model.name.name, "pendulum");
  EXPECT_EQ(parsed->model.parameters.size(), 3u);
  EXPECT_EQ(parsed->model.variables.size(), 5u);
  EXPECT_EQ(parsed->model.outputs.size(), 1u);
  ASSERT_EQ(parsed->model.equations.size(), 5u);
  EXPECT_EQ(sexpr(*parsed->model.equations[2].lhs), "(* m (der1 u))");
  EXPECT_EQ(sexpr(*parsed->model.equations[2].rhs), "(* (- lambda) x)");
  EXPECT_EQ(sexpr(*parsed->model.equations[3].rhs), "(+ (* (- lambda) y) -(* m g))");
  EXPECT_EQ(sexpr(*parsed->model.outputs[0].value), "(+ (* m (+ (^ u 2) (^ v 2)) /2) (* m g y))");
  EXPECT_EQ(where(parsed->model.end_location), "18:1");
}

// ---- expressions: precedence and associativity ----

TEST(Parser, Primaries) {
  EXPECT_EQ(parse_expr("2"), "2");
  EXPECT_EQ(parse_expr(".5"), ".5");
  EXPECT_EQ(parse_expr("6.02E23"), "6.02E23");
  EXPECT_EQ(parse_expr("x"), "x");
  EXPECT_EQ(parse_expr("t"), "t");
  EXPECT_EQ(parse_expr("((x))"), "x");
}

TEST(Parser, UnaryMinusBindsLooserThanPower) {
  EXPECT_EQ(parse_expr("-x^2"), "(- (^ x 2))");
  EXPECT_EQ(parse_expr("-2^2"), "(- (^ 2 2))");
  EXPECT_EQ(parse_expr("(-x)^2"), "(^ (- x) 2)");
}

TEST(Parser, PowerIsRightAssociative) {
  EXPECT_EQ(parse_expr("2^3^2"), "(^ 2 (^ 3 2))");
  EXPECT_EQ(parse_expr("(2^3)^2"), "(^ (^ 2 3) 2)");
  EXPECT_EQ(parse_expr("a^b^c^d"), "(^ a (^ b (^ c d)))");
}

TEST(Parser, UnaryOperatorInExponent) {
  EXPECT_EQ(parse_expr("2^-1"), "(^ 2 (- 1))");
  EXPECT_EQ(parse_expr("2^+1"), "(^ 2 1)");
  EXPECT_EQ(parse_expr("x^-y^2"), "(^ x (- (^ y 2)))");
}

TEST(Parser, UnaryOperatorsChain) {
  EXPECT_EQ(parse_expr("+x"), "x");
  EXPECT_EQ(parse_expr("--x"), "(- (- x))");
  EXPECT_EQ(parse_expr("-+-x"), "(- (- x))");
}

TEST(Parser, UnaryMinusBindsTighterThanProduct) {
  EXPECT_EQ(parse_expr("-a*b"), "(* (- a) b)");
  EXPECT_EQ(parse_expr("a*-b"), "(* a (- b))");
  EXPECT_EQ(parse_expr("a - -b"), "(+ a -(- b))");
}

TEST(Parser, SumIsLeftAssociativeAndFlat) {
  EXPECT_EQ(parse_expr("a-b-c"), "(+ a -b -c)");
  EXPECT_EQ(parse_expr("a+b-c+d"), "(+ a b -c d)");
  EXPECT_EQ(parse_expr("a-(b-c)"), "(+ a -(+ b -c))");
}

TEST(Parser, ProductIsLeftAssociativeAndFlat) {
  EXPECT_EQ(parse_expr("a/b*c"), "(* a /b c)");
  EXPECT_EQ(parse_expr("a/b/c"), "(* a /b /c)");
  EXPECT_EQ(parse_expr("a/(b*c)"), "(* a /(* b c))");
}

TEST(Parser, ProductBindsTighterThanSum) {
  EXPECT_EQ(parse_expr("a+b*c"), "(+ a (* b c))");
  EXPECT_EQ(parse_expr("a*b+c"), "(+ (* a b) c)");
  EXPECT_EQ(parse_expr("(a+b)*c"), "(* (+ a b) c)");
  EXPECT_EQ(parse_expr("a*b^c"), "(* a (^ b c))");
}

TEST(Parser, PostfixPrimes) {
  EXPECT_EQ(parse_expr("x'"), "(der1 x)");
  EXPECT_EQ(parse_expr("x''"), "(der2 x)");
  EXPECT_EQ(parse_expr("x'''"), "(der3 x)");
  EXPECT_EQ(parse_expr("x'^2"), "(^ (der1 x) 2)");
  EXPECT_EQ(parse_expr("-x'"), "(- (der1 x))");
  EXPECT_EQ(parse_expr("2*x''"), "(* 2 (der2 x))");
  // The parser accepts a prime after any primary; sema rejects derivatives of expressions.
  EXPECT_EQ(parse_expr("(x+y)'"), "(der1 (+ x y))");
}

TEST(Parser, DerCalls) {
  EXPECT_EQ(parse_expr("der(x)"), "(der1 x)");
  EXPECT_EQ(parse_expr("der(x, 2)"), "(der2 x)");
  EXPECT_EQ(parse_expr("der(x,100)"), "(der100 x)");
  EXPECT_EQ(parse_expr("der(x)'"), "(der1 (der1 x))");
  EXPECT_EQ(parse_expr("der(der(x))"), "(der1 (der1 x))");
  EXPECT_EQ(parse_expr("-der(x)^2"), "(- (^ (der1 x) 2))");
}

TEST(Parser, FunctionCalls) {
  EXPECT_EQ(parse_expr("sin(x)"), "(call sin x)");
  EXPECT_EQ(parse_expr("atan2(y, x)"), "(call atan2 y x)");
  EXPECT_EQ(parse_expr("f(a, b+c, -d, g(e))"), "(call f a (+ b c) (- d) (call g e))");
  EXPECT_EQ(parse_expr("sin(x)^2"), "(^ (call sin x) 2)");
  EXPECT_EQ(parse_expr("sin (x)"), "(call sin x)");
  // Empty arguments parse; sema's arity check reports them.
  EXPECT_EQ(parse_expr("f()"), "(call f)");
}

TEST(Parser, ExpressionLocations) {
  auto parsed = parse_text("model m;\nequation\n-a + b*c^2 = f(x)';\nend\n");
  ASSERT_EQ(parsed->diags.str(), "");
  const EquationDecl& eq = parsed->model.equations[0];
  const Expr& sum = *eq.lhs;
  ASSERT_EQ(sum.kind, ExprKind::Sum);
  EXPECT_EQ(where(sum.location), "3:1");
  ASSERT_EQ(sum.operator_locations.size(), 2u);
  EXPECT_EQ(where(sum.operator_locations[1]), "3:4");
  const Expr& negate = *sum.operands[0];
  EXPECT_EQ(negate.kind, ExprKind::Negate);
  EXPECT_EQ(where(negate.location), "3:1");
  EXPECT_EQ(where(negate.operands[0]->location), "3:2");
  const Expr& product = *sum.operands[1];
  EXPECT_EQ(product.kind, ExprKind::Product);
  EXPECT_EQ(where(product.location), "3:6");
  EXPECT_EQ(where(product.operator_locations[1]), "3:7");
  const Expr& power = *product.operands[1];
  EXPECT_EQ(power.kind, ExprKind::Power);
  EXPECT_EQ(where(power.location), "3:9");  // the operator
  const Expr& prime = *eq.rhs;
  EXPECT_EQ(prime.kind, ExprKind::Derivative);
  EXPECT_EQ(where(prime.operands[0]->location), "3:14");  // the call, at its name
}

// ---- syntax errors: exact diagnostics and recovery ----

TEST(Parser, MissingSemicolonAfterDeclaration) {
  auto parsed = parse_text(
      "model m;\n"
      "parameter a = 1\n"
      "variable x;\n"
      "end\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:3:1: error: expected ';' after a parameter declaration, found 'variable'\n"
            "variable x;\n"
            "^\n");
  // The parameter and the next declaration are both kept.
  ASSERT_EQ(parsed->model.parameters.size(), 1u);
  EXPECT_EQ(parsed->model.parameters[0].name.name, "a");
  ASSERT_EQ(parsed->model.variables.size(), 1u);
  EXPECT_EQ(parsed->model.variables[0].name.name, "x");
}

TEST(Parser, MissingSemicolonAfterEquation) {
  auto parsed = parse_text(
      "model m;\n"
      "equation\n"
      "  x' = 1\n"
      "  y' = 2;\n"
      "  z' = 3;\n"
      "end\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:4:3: error: expected ';' after the equation, found 'y'\n"
            "  y' = 2;\n"
            "  ^\n");
  // Recovery skips to the next ';': the broken statement runs to the end of y's equation.
  ASSERT_EQ(parsed->model.equations.size(), 1u);
  EXPECT_EQ(sexpr(*parsed->model.equations[0].lhs), "(der1 z)");
}

TEST(Parser, MissingSemicolonAfterHeader) {
  auto parsed = parse_text("model m\nvariable x;\nend\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:2:1: error: expected ';' after the model header, found 'variable'\n"
            "variable x;\n"
            "^\n");
  EXPECT_EQ(parsed->model.name.name, "m");
  EXPECT_EQ(parsed->model.variables.size(), 1u);
}

TEST(Parser, TwoBrokenStatementsGiveTwoErrors) {
  auto parsed = parse_text(
      "model m;\n"
      "parameter a = 1;\n"
      "parameter b = * 2;\n"
      "variable x;\n"
      "equation\n"
      "  x' = a;\n"
      "  y' = (1 + ;\n"
      "  rod: x = 1;\n"
      "end\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:3:15: error: expected an expression, found '*'\n"
            "parameter b = * 2;\n"
            "              ^\n"
            "test.dae:7:13: error: expected an expression, found ';'\n"
            "  y' = (1 + ;\n"
            "            ^\n");
  ASSERT_EQ(parsed->model.parameters.size(), 1u);
  EXPECT_EQ(parsed->model.parameters[0].name.name, "a");
  ASSERT_EQ(parsed->model.variables.size(), 1u);
  ASSERT_EQ(parsed->model.equations.size(), 2u);
  EXPECT_EQ(sexpr(*parsed->model.equations[0].lhs), "(der1 x)");
  EXPECT_EQ(parsed->model.equations[1].label.name, "rod");
}

TEST(Parser, OneErrorPerStatement) {
  // Everything after the first error of a statement is a consequence of it.
  EXPECT_EQ(errors_of("model m;\nequation\nx = = = );\nend\n"),
            "test.dae:3:5: error: expected an expression, found '='\n"
            "x = = = );\n"
            "    ^\n");
}

TEST(Parser, MissingEnd) {
  auto parsed = parse_text("model m;\nvariable x;\nequation\nx = 1;\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:5:1: error: expected 'end' to close the model, found end of file\n"
            "\n"
            "^\n");
  EXPECT_EQ(parsed->model.equations.size(), 1u);
  EXPECT_EQ(where(parsed->model.end_location), "5:1");
}

TEST(Parser, MissingEndWithoutFinalNewline) {
  EXPECT_EQ(errors_of("model m;\nvariable x;"),
            "test.dae:2:12: error: expected 'end' to close the model, found end of file\n"
            "variable x;\n"
            "           ^\n");
}

TEST(Parser, TextAfterEnd) {
  EXPECT_EQ(errors_of("model m;\nend m;\nvariable x;\nx = 1;\n"),
            "test.dae:3:1: error: unexpected 'variable' after 'end'\n"
            "variable x;\n"
            "^\n");
  EXPECT_EQ(errors_of("model m;\nend; end;\n"),
            "test.dae:2:6: error: unexpected 'end' after 'end'\n"
            "end; end;\n"
            "     ^\n");
  EXPECT_EQ(errors_of("model m;\nend 42\n"),
            "test.dae:2:5: error: unexpected '42' after 'end'\n"
            "end 42\n"
            "    ^\n");
}

TEST(Parser, EndNameMustMatchModel) {
  EXPECT_EQ(errors_of("model pendulum;\nend other;\n"),
            "test.dae:2:5: error: 'end other' does not match 'model pendulum'\n"
            "end other;\n"
            "    ^\n");
}

TEST(Parser, EndNameMismatchAndTextAfterEndAreBothReported) {
  EXPECT_EQ(errors_of("model m;\nend n x\n"),
            "test.dae:2:5: error: 'end n' does not match 'model m'\n"
            "end n x\n"
            "    ^\n"
            "test.dae:2:7: error: unexpected 'x' after 'end'\n"
            "end n x\n"
            "      ^\n");
}

TEST(Parser, MissingModelHeader) {
  auto parsed = parse_text("variable x;\nequation\nx = 1;\nend\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:1:1: error: expected 'model NAME;' at the start of the file, found "
            "'variable'\n"
            "variable x;\n"
            "^\n");
  // The rest of the file is still parsed.
  EXPECT_EQ(parsed->model.name.name, "");
  EXPECT_EQ(parsed->model.variables.size(), 1u);
  EXPECT_EQ(parsed->model.equations.size(), 1u);
}

TEST(Parser, MissingModelHeaderThenBrokenDeclaration) {
  // The header error must not swallow the error of the first declaration.
  EXPECT_EQ(errors_of("parameter a = ;\nend\n"),
            "test.dae:1:1: error: expected 'model NAME;' at the start of the file, found "
            "'parameter'\n"
            "parameter a = ;\n"
            "^\n"
            "test.dae:1:15: error: expected an expression, found ';'\n"
            "parameter a = ;\n"
            "              ^\n");
}

TEST(Parser, FileStartingWithAnEquation) {
  auto parsed = parse_text("x = 1;\nmodel m;\nend\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:1:1: error: expected 'model NAME;' at the start of the file, found 'x'\n"
            "x = 1;\n"
            "^\n"
            "test.dae:2:1: error: only one 'model' header is allowed, at the start of the file\n"
            "model m;\n"
            "^\n");
}

TEST(Parser, EmptyFile) {
  EXPECT_EQ(errors_of(""),
            "test.dae:1:1: error: expected 'model NAME;' at the start of the file, found end "
            "of file\n"
            "\n"
            "^\n");
}

TEST(Parser, ModelHeaderNeedsAName) {
  EXPECT_EQ(errors_of("model;\nend\n"),
            "test.dae:1:6: error: expected a name after 'model', found ';'\n"
            "model;\n"
            "     ^\n");
  EXPECT_EQ(errors_of("model der;\nend\n"),
            "test.dae:1:7: error: expected a name after 'model', found the reserved word 'der'\n"
            "model der;\n"
            "      ^\n");
}

TEST(Parser, SecondModelHeader) {
  EXPECT_EQ(errors_of("model a;\nmodel b;\nvariable x;\nend\n"),
            "test.dae:2:1: error: only one 'model' header is allowed, at the start of the file\n"
            "model b;\n"
            "^\n");
}

TEST(Parser, DeclarationAfterEquation) {
  auto parsed = parse_text(
      "model m;\n"
      "variable x;\n"
      "equation\n"
      "  x' = p;\n"
      "parameter p = 2;\n"
      "  y = x;\n"
      "variable y;\n"
      "end\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:5:1: error: declarations must come before 'equation'\n"
            "parameter p = 2;\n"
            "^\n"
            "test.dae:7:1: error: declarations must come before 'equation'\n"
            "variable y;\n"
            "^\n");
  // Misplaced declarations are kept, so that their names are known to the later checks.
  ASSERT_EQ(parsed->model.parameters.size(), 1u);
  EXPECT_EQ(parsed->model.parameters[0].name.name, "p");
  ASSERT_EQ(parsed->model.variables.size(), 2u);
  EXPECT_EQ(parsed->model.equations.size(), 2u);
}

TEST(Parser, EquationSectionTwice) {
  auto parsed = parse_text("model m;\nequation\nx = 1;\nequation\ny = 2;\nend\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:4:1: error: 'equation' appears twice; one equation section is allowed\n"
            "equation\n"
            "^\n");
  EXPECT_EQ(parsed->model.equations.size(), 2u);
}

TEST(Parser, StatementThatIsNotADeclaration) {
  auto parsed = parse_text("model m;\nx' = 1;\nvariable x;\nend\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:2:1: error: expected a declaration ('parameter', 'variable' or 'output') "
            "or 'equation', found 'x'\n"
            "x' = 1;\n"
            "^\n");
  EXPECT_EQ(parsed->model.variables.size(), 1u);
}

TEST(Parser, ParameterNeedsAValue) {
  auto parsed = parse_text("model m;\nparameter a, b = 2;\nparameter c = 3;\nend\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:2:12: error: expected '=' after the parameter name (parameters need a "
            "value), found ','\n"
            "parameter a, b = 2;\n"
            "           ^\n");
  ASSERT_EQ(parsed->model.parameters.size(), 1u);
  EXPECT_EQ(parsed->model.parameters[0].name.name, "c");
}

TEST(Parser, OutputNeedsAValue) {
  EXPECT_EQ(errors_of("model m;\noutput y;\nend\n"),
            "test.dae:2:9: error: expected '=' after the output name, found ';'\n"
            "output y;\n"
            "        ^\n");
}

TEST(Parser, ReservedWordAsDeclaredName) {
  EXPECT_EQ(errors_of("model m;\nvariable x, start;\nend\n"),
            "test.dae:2:13: error: expected a name in a variable declaration, found the "
            "reserved word 'start'\n"
            "variable x, start;\n"
            "            ^\n");
  EXPECT_EQ(errors_of("model m;\nparameter der = 1;\nend\n"),
            "test.dae:2:11: error: expected a name in a parameter declaration, found the "
            "reserved word 'der'\n"
            "parameter der = 1;\n"
            "          ^\n");
  EXPECT_EQ(errors_of("model m;\noutput 3 = 1;\nend\n"),
            "test.dae:2:8: error: expected a name in an output declaration, found '3'\n"
            "output 3 = 1;\n"
            "       ^\n");
}

TEST(Parser, TrailingCommaInDeclaration) {
  EXPECT_EQ(errors_of("model m;\nvariable x, ;\nend\n"),
            "test.dae:2:13: error: expected a name in a variable declaration, found ';'\n"
            "variable x, ;\n"
            "            ^\n");
}

TEST(Parser, EquationWithoutEquals) {
  EXPECT_EQ(errors_of("model m;\nequation\nx + 1;\nend\n"),
            "test.dae:3:6: error: expected '=' in the equation (equations are written 'lhs = "
            "rhs;'), found ';'\n"
            "x + 1;\n"
            "     ^\n");
}

TEST(Parser, EquationWithTwoEquals) {
  EXPECT_EQ(errors_of("model m;\nequation\nx = y = z;\nend\n"),
            "test.dae:3:7: error: expected ';' after the equation, found '='\n"
            "x = y = z;\n"
            "      ^\n");
}

// `z == y^2;` reads as a relation with no equation after it: the message says what '==' is.
TEST(Parser, DoubleEqualsIsARelationNotAnEquation) {
  EXPECT_EQ(errors_of("model m;\nequation\nz == y^2;\nend\n"),
            "test.dae:3:3: error: '==' is a relation, true or false (for conditions: if x == 0 "
            "then ...); an equation is written with one '=': 'lhs = rhs;'\n"
            "z == y^2;\n"
            "  ^\n");
}

TEST(Parser, ReservedWordInExpression) {
  EXPECT_EQ(errors_of("model m;\nequation\nx = start + 1;\nend\n"),
            "test.dae:3:5: error: expected an expression, found the reserved word 'start'\n"
            "x = start + 1;\n"
            "    ^\n");
}

TEST(Parser, StringInExpression) {
  EXPECT_EQ(errors_of("model m;\nequation\nx = \"one\";\nend\n"),
            "test.dae:3:5: error: expected an expression, found a string\n"
            "x = \"one\";\n"
            "    ^\n");
  // A string spelling a keyword is still a string.
  EXPECT_EQ(errors_of("model m;\nequation\nx = \"end\";\nend\n"),
            "test.dae:3:5: error: expected an expression, found a string\n"
            "x = \"end\";\n"
            "    ^\n");
  EXPECT_EQ(errors_of("model m;\nvariable \"model\";\nend\n"),
            "test.dae:2:10: error: expected a name in a variable declaration, found a string\n"
            "variable \"model\";\n"
            "         ^\n");
}

TEST(Parser, UnbalancedParentheses) {
  EXPECT_EQ(errors_of("model m;\nequation\n(x + 1 = 2;\nend\n"),
            "test.dae:3:8: error: expected ')' to close the parenthesis, found '='\n"
            "(x + 1 = 2;\n"
            "       ^\n");
  EXPECT_EQ(errors_of("model m;\nequation\nx + 1) = 2;\nend\n"),
            "test.dae:3:6: error: expected '=' in the equation (equations are written 'lhs = "
            "rhs;'), found ')'\n"
            "x + 1) = 2;\n"
            "     ^\n");
  EXPECT_EQ(errors_of("model m;\nequation\nx = f(a, b;\nend\n"),
            "test.dae:3:11: error: expected ')' after the function's arguments, found ';'\n"
            "x = f(a, b;\n"
            "          ^\n");
}

TEST(Parser, DerNeedsParentheses) {
  EXPECT_EQ(errors_of("model m;\nequation\nder x = 1;\nend\n"),
            "test.dae:3:5: error: expected '(' after 'der', found 'x'\n"
            "der x = 1;\n"
            "    ^\n");
  EXPECT_EQ(errors_of("model m;\nequation\nder(x = 1;\nend\n"),
            "test.dae:3:7: error: expected ')' to close 'der(', found '='\n"
            "der(x = 1;\n"
            "      ^\n");
}

TEST(Parser, DerOrderZero) {
  EXPECT_EQ(errors_of("model m;\nequation\nder(x, 0) = 1;\nend\n"),
            "test.dae:3:8: error: derivative order 0 is out of range (1 to 100)\n"
            "der(x, 0) = 1;\n"
            "       ^\n");
}

TEST(Parser, DerOrderNotAnInteger) {
  EXPECT_EQ(errors_of("model m;\nequation\nder(x, 1.5) = 1;\nend\n"),
            "test.dae:3:8: error: the order in der(x, n) must be a positive integer, found "
            "'1.5'\n"
            "der(x, 1.5) = 1;\n"
            "       ^\n");
  EXPECT_EQ(errors_of("model m;\nequation\nder(x, -1) = 1;\nend\n"),
            "test.dae:3:8: error: the order in der(x, n) must be a positive integer, found "
            "'-'\n"
            "der(x, -1) = 1;\n"
            "       ^\n");
  EXPECT_EQ(errors_of("model m;\nequation\nder(x, n) = 1;\nend\n"),
            "test.dae:3:8: error: the order in der(x, n) must be a positive integer, found "
            "'n'\n"
            "der(x, n) = 1;\n"
            "       ^\n");
  EXPECT_EQ(errors_of("model m;\nequation\nder(x, 1e1) = 1;\nend\n"),
            "test.dae:3:8: error: the order in der(x, n) must be a positive integer, found "
            "'1e1'\n"
            "der(x, 1e1) = 1;\n"
            "       ^\n");
}

TEST(Parser, DerOrderTooLarge) {
  EXPECT_EQ(errors_of("model m;\nequation\nder(x, 101) = 1;\nend\n"),
            "test.dae:3:8: error: derivative order 101 is out of range (1 to 100)\n"
            "der(x, 101) = 1;\n"
            "       ^\n");
  EXPECT_EQ(errors_of("model m;\nequation\nder(x, 99999999999999999999) = 1;\nend\n"),
            "test.dae:3:8: error: derivative order 99999999999999999999 is out of range (1 to "
            "100)\n"
            "der(x, 99999999999999999999) = 1;\n"
            "       ^\n");
  EXPECT_EQ(parse_expr("der(x, 007)"), "(der7 x)");
}

TEST(Parser, DerWithThreeArguments) {
  EXPECT_EQ(errors_of("model m;\nequation\nder(x, 1, 2) = 1;\nend\n"),
            "test.dae:3:9: error: expected ')' to close 'der(', found ','\n"
            "der(x, 1, 2) = 1;\n"
            "        ^\n");
}

TEST(Parser, TooManyPrimes) {
  auto parsed = parse_text("model m;\nequation\nx" + repeat("'", 101) + " = 1;\nend\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:3:2: error: derivative order 101 is out of range (1 to 100)\n"
            "x" +
                repeat("'", 101) +
                " = 1;\n"
                " ^\n");
  EXPECT_EQ(parse_expr("x" + repeat("'", 100)), "(der100 x)");
}

TEST(Parser, DuplicateStartModifier) {
  auto parsed = parse_text(
      "model m;\n"
      "variable x(start = 1, start = 2), y;\n"
      "equation\n"
      "x = y;\n"
      "end\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:2:23: error: 'start' is given twice for variable 'x'\n"
            "variable x(start = 1, start = 2), y;\n"
            "                      ^\n");
  // The declarations are kept, so later checks do not report x and y as undeclared.
  ASSERT_EQ(parsed->model.variables.size(), 2u);
  EXPECT_EQ(parsed->model.variables[0].name.name, "x");
  EXPECT_EQ(parsed->model.variables[1].name.name, "y");
  EXPECT_EQ(parsed->model.equations.size(), 1u);
}

TEST(Parser, DuplicateFixedModifier) {
  auto parsed = parse_text("model m;\nvariable x(fixed = true, fixed = false);\nend\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:2:26: error: 'fixed' is given twice for variable 'x'\n"
            "variable x(fixed = true, fixed = false);\n"
            "                         ^\n");
  ASSERT_EQ(parsed->model.variables.size(), 1u);
}

TEST(Parser, FixedNeedsTrueOrFalse) {
  EXPECT_EQ(errors_of("model m;\nvariable x(fixed = 1);\nend\n"),
            "test.dae:2:20: error: expected 'true' or 'false' after 'fixed =', found '1'\n"
            "variable x(fixed = 1);\n"
            "                   ^\n");
}

TEST(Parser, UnknownModifier) {
  EXPECT_EQ(
      errors_of("model m;\nvariable x(min = 0);\nend\n"),
      "test.dae:2:12: error: expected 'start', 'fixed', 'nominal' or 'unit' in the variable's "
      "modifiers, "
      "found 'min'\n"
      "variable x(min = 0);\n"
      "           ^\n");
  EXPECT_EQ(
      errors_of("model m;\nvariable x();\nend\n"),
      "test.dae:2:12: error: expected 'start', 'fixed', 'nominal' or 'unit' in the variable's "
      "modifiers, "
      "found ')'\n"
      "variable x();\n"
      "           ^\n");
}

TEST(Parser, UnclosedModifierList) {
  EXPECT_EQ(errors_of("model m;\nvariable x(start = 1;\nend\n"),
            "test.dae:2:21: error: expected ')' after the variable's modifiers, found ';'\n"
            "variable x(start = 1;\n"
            "                    ^\n");
}

TEST(Parser, LexicalErrorsAreNotReportedTwice) {
  // The lexer reports the bad token; the parser skips the statement without a second error.
  auto parsed = parse_text(
      "model m;\n"
      "parameter a = 1e;\n"
      "parameter b = 2 @;\n"
      "variable x \"open;\n"
      "variable y;\n"
      "equation\n"
      "x = # + 1;\n"
      "y = 2;\n"
      "end\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:2:15: error: malformed number '1e'\n"
            "parameter a = 1e;\n"
            "              ^\n"
            "test.dae:3:17: error: unexpected character '@'\n"
            "parameter b = 2 @;\n"
            "                ^\n"
            "test.dae:4:12: error: unterminated string: missing '\"' before the end of the line\n"
            "variable x \"open;\n"
            "           ^\n"
            "test.dae:7:5: error: unexpected character '#'\n"
            "x = # + 1;\n"
            "    ^\n");
  ASSERT_EQ(parsed->model.variables.size(), 2u);  // x (kept before its bad description), y
  EXPECT_EQ(parsed->model.variables[1].name.name, "y");
  ASSERT_EQ(parsed->model.equations.size(), 1u);
  EXPECT_EQ(sexpr(*parsed->model.equations[0].lhs), "y");
}

TEST(Parser, StrayCharacterAsStatement) {
  auto parsed = parse_text("model m;\n@ variable x;\nvariable y;\nend\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:2:1: error: unexpected character '@'\n"
            "@ variable x;\n"
            "^\n");
  ASSERT_EQ(parsed->model.variables.size(), 2u);
}

TEST(Parser, ErrorsOnEveryLineAreAllReported) {
  auto parsed = parse_text(
      "model m;\n"
      "parameter = 1;\n"
      "variable x(start 1);\n"
      "output o = ;\n"
      "equation\n"
      "x' = ;\n"
      "lbl: = 1;\n"
      "end other\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:2:11: error: expected a name in a parameter declaration, found '='\n"
            "parameter = 1;\n"
            "          ^\n"
            "test.dae:3:18: error: expected '=' after 'start', found '1'\n"
            "variable x(start 1);\n"
            "                 ^\n"
            "test.dae:4:12: error: expected an expression, found ';'\n"
            "output o = ;\n"
            "           ^\n"
            "test.dae:6:6: error: expected an expression, found ';'\n"
            "x' = ;\n"
            "     ^\n"
            "test.dae:7:6: error: expected an expression, found '='\n"
            "lbl: = 1;\n"
            "     ^\n"
            "test.dae:8:5: error: 'end other' does not match 'model m'\n"
            "end other\n"
            "    ^\n");
}

TEST(Parser, CrLfLineEndings) {
  auto parsed = parse_text("model m;\r\nvariable x;\r\nequation\r\nx' = 1\r\nend\r\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:5:1: error: expected ';' after the equation, found 'end'\n"
            "end\n"
            "^\n");
}

// ---- arrays, loops and conditions (docs/language.md) ----

/// The equation section as a tree: `eqK` for equation K (1-based, as numbered for eqN names),
/// `for i in A:B { ... }` for a loop.
std::string statements(const ModelSyntax& model, const std::vector<Statement>& list) {
  std::string out;
  for (const Statement& statement : list) {
    if (!out.empty()) out += " ";
    if (!statement.loop) {
      out += "eq" + std::to_string(statement.equation + 1);
      continue;
    }
    const ForLoop& loop = *statement.loop;
    out += "for " + loop.variable.name + " in " + sexpr(*loop.first) + ":" + sexpr(*loop.last) +
           " {" + statements(model, loop.body) + "}";
  }
  return out;
}

TEST(Parser, ArrayDeclarations) {
  auto parsed = parse_text(
      "model m;\n"
      "parameter N = 8, L[N] = 1, w[3] = {0.5, 1, 2}, A[2, N + 1] = {{1, 2}, {3, 4}};\n"
      "variable x[N](start = {i*L[i] for i in 1:N}, fixed = true) \"positions\", y[2*N];\n"
      "output h[N] = {sum(y[j] for j in 1:i) for i in 1:N};\n"
      "end\n");
  EXPECT_EQ(parsed->diags.str(), "");
  const auto& p = parsed->model.parameters;
  ASSERT_EQ(p.size(), 4u);
  EXPECT_TRUE(p[0].dimensions.empty());
  ASSERT_EQ(p[1].dimensions.size(), 1u);
  EXPECT_EQ(sexpr(*p[1].dimensions[0]), "N");
  EXPECT_EQ(sexpr(*p[1].value), "1");
  EXPECT_EQ(sexpr(*p[2].value), "({} 0.5 1 2)");
  ASSERT_EQ(p[3].dimensions.size(), 2u);
  EXPECT_EQ(sexpr(*p[3].dimensions[1]), "(+ N 1)");
  EXPECT_EQ(sexpr(*p[3].value), "({} ({} 1 2) ({} 3 4))");
  const auto& v = parsed->model.variables;
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(sexpr(*v[0].start), "({for i} (* i ([] L i)) 1 N)");
  EXPECT_TRUE(v[0].fixed);
  EXPECT_EQ(v[0].description, "positions");
  EXPECT_EQ(sexpr(*v[1].dimensions[0]), "(* 2 N)");
  EXPECT_EQ(sexpr(*parsed->model.outputs[0].value), "({for i} (sum j ([] y j) 1 i) 1 N)");
}

TEST(Parser, ElementsAndTheirDerivatives) {
  EXPECT_EQ(parse_expr("x[i]"), "([] x i)");
  EXPECT_EQ(parse_expr("A[i, j + 1]"), "([] A i (+ j 1))");
  EXPECT_EQ(parse_expr("x[i]'"), "(der1 ([] x i))");
  EXPECT_EQ(parse_expr("x[i-1]''"), "(der2 ([] x (+ i -1)))");
  EXPECT_EQ(parse_expr("der(x[N], 2)"), "(der2 ([] x N))");
  EXPECT_EQ(parse_expr("x[y[i]]^2"), "(^ ([] x ([] y i)) 2)");
}

TEST(Parser, SumsAndProducts) {
  EXPECT_EQ(parse_expr("sum(x[i]^2 for i in 1:N)"), "(sum i (^ ([] x i) 2) 1 N)");
  EXPECT_EQ(parse_expr("2*product(1 + x[k] for k in N:2*N)"),
            "(* 2 (product k (+ 1 ([] x k)) N (* 2 N)))");
}

TEST(Parser, ConditionalExpressions) {
  EXPECT_EQ(parse_expr("if x < 1 then a else b"), "(if (< x 1) a b)");
  EXPECT_EQ(parse_expr("if x < 1 then a elseif x >= 2 then b elseif x == 3 then c else d"),
            "(if (< x 1) a (>= x 2) b (== x 3) c d)");
  // The else branch reaches as far as an expression does.
  EXPECT_EQ(parse_expr("if c <> 0 then 1 else x + 1"), "(if (<> c 0) 1 (+ x 1))");
  EXPECT_EQ(parse_expr("2*(if t > 1 then x else y)"), "(* 2 (if (> t 1) x y))");
  EXPECT_EQ(parse_expr("sin(if t <= 1 then t else 1)"), "(call sin (if (<= t 1) t 1))");
  EXPECT_EQ(parse_expr("if a then if b then 1 else 2 else 3"), "(if a (if b 1 2) 3)");
}

TEST(Parser, LogicalOperatorsBindLooserThanRelations) {
  // or < and < not < relations < arithmetic.
  EXPECT_EQ(parse_expr("not a < b and c > d or e == f + 1"),
            "(or (and (not (< a b)) (> c d)) (== e (+ f 1)))");
  EXPECT_EQ(parse_expr("a or b or c and d and e"), "(or a b (and c d e))");
  EXPECT_EQ(parse_expr("not not x > 0"), "(not (not (> x 0)))");
  EXPECT_EQ(parse_expr("(a or b) and c"), "(and (or a b) c)");
  EXPECT_EQ(parse_expr("-x^2 < y*z"), "(< (- (^ x 2)) (* y z))");
}

TEST(Parser, LoopsAndTheirEquations) {
  auto parsed = parse_text(
      "model m;\n"
      "equation\n"
      "  a = 1;\n"
      "  for i in 1:N loop\n"
      "    x[i]' = u[i];\n"
      "    for j in i + 1:N loop\n"
      "      f[i, j]: y[i, j] = 0;\n"
      "    end for;\n"
      "    rod[i]: x[i] = 2;\n"
      "  end for;\n"
      "  b = 2;\n"
      "end\n");
  EXPECT_EQ(parsed->diags.str(), "");
  EXPECT_EQ(statements(parsed->model, parsed->model.statements),
            "eq1 for i in 1:N {eq2 for j in (+ i 1):N {eq3} eq4} eq5");
  const auto& eqs = parsed->model.equations;
  ASSERT_EQ(eqs.size(), 5u);
  EXPECT_EQ(sexpr(*eqs[1].lhs), "(der1 ([] x i))");
  EXPECT_EQ(eqs[2].label.name, "f");
  ASSERT_EQ(eqs[2].label_subscripts.size(), 2u);
  EXPECT_EQ(sexpr(*eqs[2].label_subscripts[1]), "j");
  EXPECT_EQ(eqs[3].label.name, "rod");
  EXPECT_EQ(where(eqs[3].label.location), "9:5");
  EXPECT_EQ(sexpr(*eqs[3].lhs), "([] x i)");
  const ForLoop& loop = *parsed->model.statements[1].loop;
  EXPECT_EQ(where(loop.location), "4:3");
  EXPECT_EQ(where(loop.variable.location), "4:7");
}

TEST(Parser, EmptyLoopBody) {
  auto parsed = parse_text("model m;\nequation\nfor i in 1:3 loop\nend for;\nend\n");
  EXPECT_EQ(parsed->diags.str(), "");
  EXPECT_EQ(statements(parsed->model, parsed->model.statements), "for i in 1:3 {}");
}

TEST(Parser, IfNeedsParenthesesInsideAnOperation) {
  EXPECT_EQ(errors_of("model m;\nequation\nx = 2*if t > 1 then 1 else 0;\nend\n"),
            "test.dae:3:7: error: an 'if' expression inside an operation needs parentheses: "
            "(if C then A else B)\n"
            "x = 2*if t > 1 then 1 else 0;\n"
            "      ^\n");
}

TEST(Parser, IfNeedsElse) {
  EXPECT_EQ(errors_of("model m;\nequation\nx = if t > 1 then 1;\nend\n"),
            "test.dae:3:20: error: expected 'else' in the 'if' expression (it needs an 'else' "
            "branch), found ';'\n"
            "x = if t > 1 then 1;\n"
            "                   ^\n");
}

TEST(Parser, IfNeedsThen) {
  EXPECT_EQ(errors_of("model m;\nequation\nx = if t > 1 1 else 0;\nend\n"),
            "test.dae:3:14: error: expected 'then' after the condition, found '1'\n"
            "x = if t > 1 1 else 0;\n"
            "             ^\n");
}

TEST(Parser, RelationsDoNotChain) {
  EXPECT_EQ(errors_of("model m;\nequation\nx = if 0 < t < 1 then 1 else 0;\nend\n"),
            "test.dae:3:14: error: relations cannot be chained (write 'a < b and b < c')\n"
            "x = if 0 < t < 1 then 1 else 0;\n"
            "             ^\n");
}

TEST(Parser, ArrayValueOnlyInDeclarations) {
  EXPECT_EQ(errors_of("model m;\nequation\nx = {1, 2};\nend\n"),
            "test.dae:3:5: error: an array value ({...}) is allowed only as the value or start of "
            "a declaration\n"
            "x = {1, 2};\n"
            "    ^\n");
}

TEST(Parser, BadArrayValues) {
  EXPECT_EQ(errors_of("model m;\n"
                      "parameter a[2] = {1, 2;\n"
                      "parameter b[2] = {i for i 1:2};\n"
                      "parameter c[2] = {};\n"
                      "end\n"),
            "test.dae:2:23: error: expected '}' to close the array, found ';'\n"
            "parameter a[2] = {1, 2;\n"
            "                      ^\n"
            "test.dae:3:27: error: expected 'in' after the loop variable (write 'for i in 1:N'), "
            "found '1'\n"
            "parameter b[2] = {i for i 1:2};\n"
            "                          ^\n"
            "test.dae:4:19: error: expected an expression, found '}'\n"
            "parameter c[2] = {};\n"
            "                  ^\n");
}

TEST(Parser, BadSizesAndIndices) {
  EXPECT_EQ(errors_of("model m;\n"
                      "variable x[3;\n"
                      "variable y[];\n"
                      "equation\n"
                      "z = x[1;\n"
                      "end\n"),
            "test.dae:2:13: error: expected ']' to close the array size, found ';'\n"
            "variable x[3;\n"
            "            ^\n"
            "test.dae:3:12: error: expected an expression, found ']'\n"
            "variable y[];\n"
            "           ^\n"
            "test.dae:5:8: error: expected ']' to close the index, found ';'\n"
            "z = x[1;\n"
            "       ^\n");
}

TEST(Parser, BadReductions) {
  EXPECT_EQ(errors_of("model m;\n"
                      "equation\n"
                      "a = sum(x[i]);\n"
                      "b = product(x[i] for i in 1:N;\n"
                      "c = sum + 1;\n"
                      "end\n"),
            "test.dae:3:13: error: expected 'for' in 'sum(EXPR for i in A:B)', found ')'\n"
            "a = sum(x[i]);\n"
            "            ^\n"
            "test.dae:4:30: error: expected ')' to close 'product(', found ';'\n"
            "b = product(x[i] for i in 1:N;\n"
            "                             ^\n"
            "test.dae:5:9: error: expected '(' after 'sum', found '+'\n"
            "c = sum + 1;\n"
            "        ^\n");
}

TEST(Parser, LoopWithoutEndForIsReportedAtTheModelsEnd) {
  EXPECT_EQ(errors_of("model m;\nequation\nfor i in 1:2 loop\n  x[i] = 1;\nend m;\n"),
            "test.dae:5:1: error: expected 'end for;' to close the 'for' loop of line 3, found "
            "the reserved word 'end'\n"
            "end m;\n"
            "^\n");
}

TEST(Parser, EndForWithoutLoop) {
  auto parsed = parse_text("model m;\nequation\nx = 1;\nend for;\ny = 2;\nend\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:4:1: error: 'end for' without a 'for' loop to close\n"
            "end for;\n"
            "^\n");
  EXPECT_EQ(parsed->model.equations.size(), 2u);  // y = 2 is still read
}

TEST(Parser, BrokenLoopHeaderStillReadsTheBody) {
  // The header is skipped up to 'loop'; the body and its 'end for' parse as usual.
  auto parsed =
      parse_text("model m;\nequation\nfor i 1:2 loop\n  x[i] = 1;\nend for;\ny = 2;\nend\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:3:7: error: expected 'in' after the loop variable (write 'for i in 1:N'), "
            "found '1'\n"
            "for i 1:2 loop\n"
            "      ^\n");
  EXPECT_EQ(parsed->model.equations.size(), 2u);
}

TEST(Parser, MissingLoopKeyword) {
  EXPECT_EQ(errors_of("model m;\nequation\nfor i in 1:2\n  x[i] = 1;\nend for;\nend\n"),
            "test.dae:4:3: error: expected 'loop' after the range of the 'for' loop, found 'x'\n"
            "  x[i] = 1;\n"
            "  ^\n"
            "test.dae:5:1: error: 'end for' without a 'for' loop to close\n"
            "end for;\n"
            "^\n");
}

TEST(Parser, MissingSemicolonBeforeALoop) {
  // 'for' starts a statement: the loop after the broken equation is read.
  auto parsed =
      parse_text("model m;\nequation\nx = 1\nfor i in 1:2 loop\n  y[i] = 1;\nend for;\nend\n");
  EXPECT_EQ(parsed->diags.str(),
            "test.dae:4:1: error: expected ';' after the equation, found 'for'\n"
            "for i in 1:2 loop\n"
            "^\n");
  EXPECT_EQ(statements(parsed->model, parsed->model.statements), "for i in 1:2 {eq1}");
}

TEST(Parser, ReservedWordAsLoopVariable) {
  EXPECT_EQ(errors_of("model m;\nequation\nfor if in 1:2 loop\nend for;\nend\n"),
            "test.dae:3:5: error: expected a name after 'for', found the reserved word 'if'\n"
            "for if in 1:2 loop\n"
            "    ^\n");
}

TEST(Parser, IndexedLabelsAndElementsAtTheStartOfAnEquation) {
  // `rod[i]:` is a label; `x[i] = ...` and `x[i]' = ...` are not.
  auto parsed = parse_text(
      "model m;\nequation\nrod[1]: a = 1;\nx[2] = 1;\nx[a[1]]' = 2;\nr[a[1], 2]: b = 1;\nend\n");
  EXPECT_EQ(parsed->diags.str(), "");
  const auto& eqs = parsed->model.equations;
  ASSERT_EQ(eqs.size(), 4u);
  EXPECT_EQ(eqs[0].label.name, "rod");
  EXPECT_TRUE(eqs[1].label.name.empty());
  EXPECT_EQ(sexpr(*eqs[2].lhs), "(der1 ([] x ([] a 1)))");
  EXPECT_EQ(eqs[3].label.name, "r");
  EXPECT_EQ(sexpr(*eqs[3].label_subscripts[0]), "([] a 1)");
}

TEST(Parser, LoopsNestedTooDeeply) {
  std::string text = "model m;\nequation\n" + repeat("for i in 1:2 loop\n", 100) + "x = 1;\n" +
                     repeat("end for;\n", 100) + "end\n";
  auto parsed = parse_text(text);
  ASSERT_GE(parsed->diags.diagnostics().size(), 1u);
  EXPECT_EQ(parsed->diags.diagnostics()[0].message,
            "'for' loops nested too deeply (more than 64 levels)");
  EXPECT_EQ(where(parsed->diags.diagnostics()[0].location), "67:1");
}

TEST(Parser, DeeplyNestedConditionsAreReportedOnce) {
  for (const std::string& open : {std::string("if x > 0 then "), std::string("not "),
                                  std::string("{"), std::string("sum(")}) {
    std::string text = open == "{"
                           ? "model m;\nparameter a[1] = " + repeat("{", 100000) + "1;\nend\n"
                           : "model m;\nequation\nx = " + repeat(open, 100000) + "1;\nend\n";
    auto parsed = parse_text(text);
    ASSERT_EQ(parsed->diags.diagnostics().size(), 1u) << open;
    EXPECT_EQ(parsed->diags.diagnostics()[0].message,
              "expression nested too deeply (more than 256 levels)")
        << open;
  }
}

TEST(Parser, LongChainsOfElseifAndOrAreFlat) {
  // A flat chain of elseif branches counts one level each; `or` chains do not nest at all.
  auto parsed = parse_text("model m;\nequation\nx = if a then 1" + repeat(" elseif a then 1", 200) +
                           " else 2;\ny = a" + repeat(" or a", 100000) + ";\nend\n");
  EXPECT_EQ(parsed->diags.str(), "");
  ASSERT_EQ(parsed->model.equations.size(), 2u);
  EXPECT_EQ(parsed->model.equations[0].rhs->operands.size(), 403u);
  EXPECT_EQ(parsed->model.equations[1].rhs->operands.size(), 100001u);
}

// ---- nesting limits and long inputs ----

TEST(Parser, DeeplyNestedParenthesesAreReportedOnce) {
  const size_t depth = 100000;
  std::string text = "model m;\nparameter a = " + repeat("(", depth) + "x" + repeat(")", depth) +
                     ";\nparameter b = 2;\nend\n";
  auto parsed = parse_text(text);
  ASSERT_EQ(parsed->diags.diagnostics().size(), 1u);
  const Diagnostic& d = parsed->diags.diagnostics()[0];
  EXPECT_EQ(d.message, "expression nested too deeply (more than 256 levels)");
  EXPECT_EQ(where(d.location), "2:272");  // after the 257th '('
  // Recovery at ';' keeps the next declaration.
  ASSERT_EQ(parsed->model.parameters.size(), 1u);
  EXPECT_EQ(parsed->model.parameters[0].name.name, "b");
}

TEST(Parser, DeeplyNestedParenthesesDiagnosticText) {
  std::string line = "x = " + repeat("(", 300) + "1" + repeat(")", 300) + ";";
  EXPECT_EQ(errors_of("model m;\nequation\n" + line + "\nend\n"),
            "test.dae:3:262: error: expression nested too deeply (more than 256 levels)\n" + line +
                "\n" + std::string(261, ' ') + "^\n");
}

TEST(Parser, LongChainOfUnaryMinusIsReportedOnce) {
  const size_t depth = 100000;
  auto parsed = parse_text("model m;\nequation\nx = " + repeat("-", depth) + "x;\ny = 1;\nend\n");
  ASSERT_EQ(parsed->diags.diagnostics().size(), 1u);
  EXPECT_EQ(parsed->diags.diagnostics()[0].message,
            "expression nested too deeply (more than 256 levels)");
  EXPECT_EQ(where(parsed->diags.diagnostics()[0].location), "3:262");
  ASSERT_EQ(parsed->model.equations.size(), 1u);
  EXPECT_EQ(sexpr(*parsed->model.equations[0].lhs), "y");
}

TEST(Parser, LongChainOfPowersIsReportedOnce) {
  auto parsed = parse_text("model m;\nparameter a = 2" + repeat("^2", 100000) + ";\nend\n");
  ASSERT_EQ(parsed->diags.diagnostics().size(), 1u);
  EXPECT_EQ(parsed->diags.diagnostics()[0].message,
            "expression nested too deeply (more than 256 levels)");
}

TEST(Parser, DeeplyNestedCallsAndDerAreReportedOnce) {
  for (const std::string& open : {std::string("sin("), std::string("der(")}) {
    auto parsed = parse_text("model m;\nequation\nx = " + repeat(open, 100000) + "x" +
                             repeat(")", 100000) + ";\nend\n");
    ASSERT_EQ(parsed->diags.diagnostics().size(), 1u) << open;
    EXPECT_EQ(parsed->diags.diagnostics()[0].message,
              "expression nested too deeply (more than 256 levels)");
  }
}

TEST(Parser, NestingUpToTheLimitIsAccepted) {
  // 256 levels of parentheses (or unary minus) are allowed, the 257th is not.
  EXPECT_EQ(parse_expr(repeat("(", 256) + "x" + repeat(")", 256)), "x");
  EXPECT_EQ(parse_expr(repeat("-", 255) + "-x").substr(0, 6), "(- (- ");
  EXPECT_EQ(errors_of("model m;\nequation\n" + repeat("(", 257) + "x" + repeat(")", 257) +
                      " = 0;\nend\n"),
            "test.dae:3:258: error: expression nested too deeply (more than 256 levels)\n" +
                repeat("(", 257) + "x" + repeat(")", 257) + " = 0;\n" + std::string(257, ' ') +
                "^\n");
  EXPECT_EQ(
      parse_text("model m;\nequation\n" + repeat("-", 257) + "x = 0;\nend\n")->diags.error_count(),
      1u);
}

TEST(Parser, NestingCountResetsBetweenExpressions) {
  std::string nested = repeat("(", 200) + "x" + repeat(")", 200);
  auto parsed = parse_text("model m;\nequation\n" + nested + " = " + nested + ";\n" + nested +
                           " = " + nested + ";\nend\n");
  EXPECT_EQ(parsed->diags.str(), "");
  EXPECT_EQ(parsed->model.equations.size(), 2u);
}

TEST(Parser, LongSumIsFlat) {
  const size_t terms = 100000;
  auto parsed = parse_text("model m;\nequation\ny = x" + repeat(" + x", terms - 1) + ";\nend\n");
  EXPECT_EQ(parsed->diags.str(), "");
  ASSERT_EQ(parsed->model.equations.size(), 1u);
  const Expr& sum = *parsed->model.equations[0].rhs;
  ASSERT_EQ(sum.kind, ExprKind::Sum);
  EXPECT_EQ(sum.operands.size(), terms);
  EXPECT_EQ(sum.inverted.size(), terms);
  EXPECT_EQ(sum.operator_locations.size(), terms);
  for (const ExprPtr& operand : sum.operands) ASSERT_EQ(operand->kind, ExprKind::Name);
}

TEST(Parser, LongProductIsFlat) {
  const size_t factors = 100000;
  auto parsed = parse_text("model m;\nequation\ny = x" + repeat("*x/x", factors / 2) + ";\nend\n");
  EXPECT_EQ(parsed->diags.str(), "");
  const Expr& product = *parsed->model.equations[0].rhs;
  ASSERT_EQ(product.kind, ExprKind::Product);
  EXPECT_EQ(product.operands.size(), factors + 1);
  EXPECT_TRUE(product.inverted[2]);
  EXPECT_FALSE(product.inverted[1]);
}

TEST(Parser, ManyStatements) {
  std::string text = "model m;\n";
  for (int i = 0; i < 10000; ++i)
    text += "parameter p" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
  text += "end\n";
  auto parsed = parse_text(text);
  EXPECT_EQ(parsed->diags.str(), "");
  EXPECT_EQ(parsed->model.parameters.size(), 10000u);
}

TEST(Parser, GarbageInputDoesNotCrashOrHang) {
  const std::string inputs[] = {
      ")))(((",
      "model",
      "model m",
      "end end end",
      "model m; equation = = ;",
      "model m; variable x(start = (((;",
      "model m; equation der(der(der(",
      ";;;;;;",
      "model m; equation x'''' ''' = '",
      "model m; parameter a = 1, , , ;end",
      "model m; variable x(fixed = ); end",
      "model m; equation : : ; end",
      "model m; equation lbl: ; end",
      "\"",
      "/*",
      "model m; output = ; end",
  };
  for (const std::string& input : inputs) {
    auto parsed = parse_text(input);
    EXPECT_TRUE(parsed->diags.has_errors()) << input;
  }
}

// ---- end to end: values through GiNaC ----

double parameter_value(const std::string& expression) {
  auto result = test::run("model m;\nparameter p = " + expression +
                          ";\nvariable x;\nequation\nx = p;\nend\n");
  EXPECT_EQ(result->diagnostics(), "") << expression;
  if (!result->model || result->model->parameters.size() != 1) return -12345;
  return result->model->parameters[0].value;
}

TEST(Parser, PowerValuesThroughGiNaC) {
  EXPECT_EQ(parameter_value("2^3^2"), 512);
  EXPECT_EQ(parameter_value("(2^3)^2"), 64);
  EXPECT_EQ(parameter_value("-2^2"), -4);
  EXPECT_EQ(parameter_value("(-2)^2"), 4);
  EXPECT_EQ(parameter_value("2^-1"), 0.5);
  EXPECT_EQ(parameter_value("-2^-2"), -0.25);
}

TEST(Parser, ArithmeticValuesThroughGiNaC) {
  EXPECT_EQ(parameter_value("10-4-3"), 3);
  EXPECT_EQ(parameter_value("10-(4-3)"), 9);
  EXPECT_EQ(parameter_value("12/3*2"), 8);
  EXPECT_EQ(parameter_value("12/(3*2)"), 2);
  EXPECT_EQ(parameter_value("12/3/2"), 2);
  EXPECT_EQ(parameter_value("1+2*3"), 7);
  EXPECT_EQ(parameter_value("-3*-2"), 6);
  EXPECT_EQ(parameter_value("+--+1"), 1);
}

TEST(Parser, NumberValuesThroughGiNaC) {
  EXPECT_EQ(parameter_value(".5"), 0.5);
  EXPECT_EQ(parameter_value("5."), 5);
  EXPECT_EQ(parameter_value("1e-3"), 1e-3);
  EXPECT_EQ(parameter_value("6.02E23"), 6.02e23);
  EXPECT_EQ(parameter_value("1.5e+2"), 150);
  EXPECT_EQ(parameter_value("007"), 7);
  EXPECT_EQ(parameter_value("0.1 + 0.2"), 0.3);  // exact decimals: 3/10, not 0.30000000000000004
}

TEST(Parser, FunctionValuesThroughGiNaC) {
  EXPECT_DOUBLE_EQ(parameter_value("atan2(1, 1)*4"), 3.141592653589793);
  EXPECT_DOUBLE_EQ(parameter_value("pow(2, 10)"), 1024);
  EXPECT_DOUBLE_EQ(parameter_value("sqrt(2)^2"), 2);
}

TEST(Parser, ParameterChainThroughGiNaC) {
  auto result = test::run(
      "model m;\nparameter a = 3, b = a^2 - a, c = -b/a;\nvariable x;\nequation\nx = c;\nend\n");
  EXPECT_EQ(result->diagnostics(), "");
  ASSERT_TRUE(result->model);
  ASSERT_EQ(result->model->parameters.size(), 3u);
  EXPECT_EQ(result->model->parameters[1].value, 6);
  EXPECT_EQ(result->model->parameters[2].value, -2);
}

TEST(Parser, SpecExampleThroughTheFrontEnd) {
  auto result = test::run(
      "model pendulum \"Simple pendulum\";\n"
      "parameter m = 1 \"mass [kg]\";\n"
      "parameter L = 1, g = 9.81;\n"
      "variable x(start = 1), y(start = 0), u, v(start = 1);\n"
      "variable lambda \"rod force per unit length\";\n"
      "output energy = m*(u^2 + v^2)/2 + m*g*y;\n"
      "equation\n"
      "  x' = u;\n"
      "  der(y) = v;\n"
      "  m*u' = -lambda*x;\n"
      "  m*v' = -lambda*y - m*g;\n"
      "  rod: x^2 + y^2 = L^2;\n"
      "end\n");
  EXPECT_EQ(result->diagnostics(), "");
  ASSERT_TRUE(result->model);
  const Model& model = *result->model;
  EXPECT_EQ(model.name, "pendulum");
  EXPECT_EQ(model.description, "Simple pendulum");
  ASSERT_EQ(model.equations.size(), 5u);
  EXPECT_EQ(model.equations[0].label, "eq1");
  EXPECT_FALSE(model.equations[0].labelled);
  EXPECT_EQ(model.equations[4].label, "rod");
  EXPECT_TRUE(model.equations[4].labelled);
  EXPECT_DOUBLE_EQ(model.parameters[2].value, 9.81);
}

TEST(Parser, SyntaxErrorsThroughTheFrontEnd) {
  auto result = test::run("model m;\nvariable x;\nequation\nx' = 1\nend\n");
  EXPECT_FALSE(result->model);
  EXPECT_EQ(result->diagnostics(),
            "test.dae:5:1: error: expected ';' after the equation, found 'end'\n"
            "end\n"
            "^\n");
}

TEST(Parser, DeepNestingThroughTheFrontEnd) {
  auto result = test::run("model m;\nparameter a = " + repeat("(", 100000) + "1" +
                          repeat(")", 100000) + ";\nend\n");
  EXPECT_FALSE(result->model);
  EXPECT_EQ(result->diags.error_count(), 1u);
}

TEST(Parser, LongSumThroughTheFrontEnd) {
  auto result = test::run("model m;\nparameter a = 1" + repeat(" + 1", 99999) +
                          ";\nvariable x;\nequation\nx = a;\nend\n");
  EXPECT_EQ(result->diagnostics(), "");
  ASSERT_TRUE(result->model);
  EXPECT_EQ(result->model->parameters[0].value, 100000);
}

}  // namespace
}  // namespace daec

namespace daec {
namespace {

// `initial equation` after the equations; `initial` stays an ordinary name elsewhere.
TEST(Parser, InitialEquationSection) {
  EXPECT_EQ(errors_of("model m;\nvariable initial;\nequation\n  initial' = 1;\n"
                      "initial equation\n  initial = 2;\nend\n"),
            "");
  EXPECT_EQ(errors_of("model m;\nvariable x;\nequation\n  x' = 1;\ninitial equation\n  x = 2;\n"
                      "initial equation\n  x = 3;\nend\n"),
            "test.dae:7:1: error: 'initial equation' appears twice; one initial equation section "
            "is allowed\n"
            "initial equation\n"
            "^\n");
  EXPECT_EQ(errors_of("model m;\nvariable x;\ninitial equation\n  x = 2;\nequation\n  x' = 1;\n"
                      "end\n"),
            "test.dae:5:1: error: the 'equation' section must come before 'initial equation'\n"
            "equation\n"
            "^\n");
}

TEST(Parser, NominalModifier) {
  EXPECT_EQ(errors_of("model m;\nvariable x(nominal = 2, start = 1), nominal;\nequation\n"
                      "  x' = nominal; nominal = 1;\nend\n"),
            "");
  EXPECT_EQ(
      errors_of("model m;\nvariable x(nominal = 2, nominal = 3);\nequation\n  x' = 1;\nend\n"),
      "test.dae:2:25: error: 'nominal' is given twice for variable 'x'\n"
      "variable x(nominal = 2, nominal = 3);\n"
      "                        ^\n");
}

}  // namespace
}  // namespace daec

// ---- units (docs/language.md, "Units") ----

namespace daec {
namespace {

TEST(Parser, UnitsOfParametersVariablesAndOutputs) {
  auto parsed = parse_text(
      "model m;\n"
      "parameter g(unit = \"m/s2\") = 9.81, ts[2](unit = \"s\") = {0, 1}, n = 2;\n"
      "variable h(start = 1, unit = \"m\", fixed = true), w;\n"
      "output E(unit = \"J\") = h \"energy\";\n"
      "end\n");
  EXPECT_EQ(parsed->diags.str(), "");
  const ModelSyntax& model = parsed->model;
  ASSERT_EQ(model.parameters.size(), 3u);
  EXPECT_EQ(model.parameters[0].unit, "m/s2");
  EXPECT_EQ(where(model.parameters[0].unit_location), "2:20");
  EXPECT_EQ(model.parameters[1].unit, "s");
  EXPECT_EQ(model.parameters[2].unit, "");
  EXPECT_FALSE(model.parameters[2].unit_location.valid());
  ASSERT_EQ(model.variables.size(), 2u);
  EXPECT_EQ(model.variables[0].unit, "m");
  EXPECT_TRUE(model.variables[0].fixed);
  EXPECT_EQ(model.variables[1].unit, "");
  ASSERT_EQ(model.outputs.size(), 1u);
  EXPECT_EQ(model.outputs[0].unit, "J");
  EXPECT_EQ(model.outputs[0].description, "energy");
}

TEST(Parser, UnitIsReserved) {
  EXPECT_EQ(errors_of("model m;\nvariable unit;\nend\n"),
            "test.dae:2:10: error: expected a name in a variable declaration, found the reserved "
            "word 'unit'\n"
            "variable unit;\n"
            "         ^\n");
}

TEST(Parser, UnitNeedsAString) {
  EXPECT_EQ(errors_of("model m;\nvariable x(unit = m);\nend\n"),
            "test.dae:2:19: error: expected a unit in double quotes after 'unit =' (unit = "
            "\"m/s\"), found 'm'\n"
            "variable x(unit = m);\n"
            "                  ^\n");
}

TEST(Parser, ParameterModifiersHoldOnlyAUnit) {
  EXPECT_EQ(errors_of("model m;\nparameter a(start = 1) = 2;\nend\n"),
            "test.dae:2:13: error: expected 'unit' in the modifiers of parameter 'a' (only a unit "
            "can be given), found the reserved word 'start'\n"
            "parameter a(start = 1) = 2;\n"
            "            ^\n");
}

TEST(Parser, UnitGivenTwice) {
  EXPECT_EQ(errors_of("model m;\nvariable x(unit = \"m\", unit = \"s\");\nend\n"),
            "test.dae:2:24: error: 'unit' is given twice for variable 'x'\n"
            "variable x(unit = \"m\", unit = \"s\");\n"
            "                       ^\n");
}

TEST(Parser, BrokenModifierKeepsTheDeclaration) {
  // The declarations stay, so that the equations that use x, y and p give no further errors.
  auto run = daec::test::run(
      "model m;\n"
      "parameter p(unit = \"m\" = 1;\n"
      "variable x(units = \"m\"), y(start = );\n"
      "equation\n"
      "  x' = p;\n"
      "  y = x;\n"
      "end\n");
  EXPECT_EQ(run->diagnostics(),
            "test.dae:2:24: error: expected ')' after the unit of parameter 'p', found '='\n"
            "parameter p(unit = \"m\" = 1;\n"
            "                       ^\n"
            "test.dae:3:12: error: expected 'start', 'fixed', 'nominal' or 'unit' in the "
            "variable's modifiers, found 'units'\n"
            "variable x(units = \"m\"), y(start = );\n"
            "           ^\n"
            "test.dae:3:36: error: expected an expression, found ')'\n"
            "variable x(units = \"m\"), y(start = );\n"
            "                                   ^\n");
}

}  // namespace
}  // namespace daec
