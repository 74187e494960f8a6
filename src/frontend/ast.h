// The syntax tree the parser builds: declarations and equations as written, with locations.
// Sums and products are n-ary so that long chains (a + b + c + ...) do not nest. Arrays, loops and
// conditional expressions (docs/language.md) are kept as written; the flattening stage expands
// them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "support/source.h"

namespace daec {

enum class ExprKind {
  Number,         ///< text: the spelling
  Name,           ///< text: the name (a variable, parameter, t, pi, ...)
  Derivative,     ///< operands[0] differentiated `order` times (from x', x'', der(x), der(x, n))
  Call,           ///< text: the function name; operands: the arguments
  Negate,         ///< unary minus of operands[0]
  Sum,            ///< operands[i], subtracted where inverted[i]
  Product,        ///< operands[i], divided by where inverted[i]
  Power,          ///< operands[0] ^ operands[1]
  Index,          ///< text: the array's name; operands: the subscripts (x[i], A[i, j])
  If,             ///< operands: condition, value, [condition, value]..., else value
  Relation,       ///< text: the operator as written (<, <=, >, >=, ==, <>); operands: the sides
  And,            ///< operands[0] and operands[1]
  Or,             ///< operands[0] or operands[1]
  Not,            ///< not operands[0]
  Reduction,      ///< text: sum or product; operands: body, first, last; `variable`: the iterator
  ArrayLiteral,   ///< {operands...}; only as a declaration's value
  Comprehension,  ///< {operands[0] for variable in operands[1]:operands[2]}; likewise
};

struct NameToken {
  std::string name;
  SourceLocation location;
};

struct Expr {
  ExprKind kind;
  SourceLocation location;  ///< where the construct starts (the operator for binary ones)
  std::string text;
  int order = 0;
  std::vector<std::unique_ptr<Expr>> operands;
  std::vector<bool> inverted;
  std::vector<SourceLocation>
      operator_locations;  ///< Sum/Product: location of each operator before operand i (i >= 1)
  NameToken variable;      ///< Reduction, Comprehension: the iteration variable

  Expr(ExprKind k, SourceLocation loc, std::string t = {})
      : kind(k), location(loc), text(std::move(t)) {}
};
using ExprPtr = std::unique_ptr<Expr>;

/// The sizes of an array declaration, empty for a scalar: `x[N]`, `A[R, C]`.
using Dimensions = std::vector<ExprPtr>;

struct ParameterDecl {
  NameToken name;
  Dimensions dimensions;
  ExprPtr value;  ///< an expression, an array literal or a comprehension
  std::string description;
  std::string unit;              ///< `(unit = "...")` as written; empty when none
  SourceLocation unit_location;  ///< the unit's string, when given
};

struct VariableDecl {
  NameToken name;
  Dimensions dimensions;
  ExprPtr start;  ///< null when no start is given (default 0)
  SourceLocation start_location;
  bool fixed = false;
  SourceLocation fixed_location;  ///< valid when `fixed = ...` was written
  ExprPtr nominal;                ///< null when no nominal value is given
  SourceLocation nominal_location;
  std::string description;
  std::string unit;              ///< `unit = "..."` as written; empty when none
  SourceLocation unit_location;  ///< the unit's string, when given
};

struct OutputDecl {
  NameToken name;
  Dimensions dimensions;
  ExprPtr value;
  std::string description;
  std::string unit;              ///< `(unit = "...")` as written; empty when none
  SourceLocation unit_location;  ///< the unit's string, when given
};

struct EquationDecl {
  NameToken label;                        ///< empty name when unlabelled
  std::vector<ExprPtr> label_subscripts;  ///< rod[i]: the subscripts of an indexed label
  ExprPtr lhs, rhs;
  SourceLocation location;         ///< start of the equation (its label, or its left-hand side)
  SourceLocation equals_location;  ///< the `=` between the sides
  bool initial = false;            ///< in the `initial equation` section: holds at the start only
};

struct ForLoop;

/// `reinit(target, value);` inside a when clause: target is x, x[i] or the velocity x' (order 1).
struct ReinitDecl {
  ExprPtr target;  ///< a Name or an Index expression
  int order = 0;   ///< 1 for reinit(x', ...)
  ExprPtr value;
  SourceLocation location;  ///< the `reinit` keyword
};

/// `when condition then reinit(...); ... end when;` (docs/language.md, "When clauses and reinit").
struct WhenDecl {
  ExprPtr condition;
  std::string text;  ///< the condition as written, for the clause's name ("when h < 0")
  std::vector<ReinitDecl> reinits;
  SourceLocation location;  ///< the `when` keyword
};

/// One statement of the equation section: an equation, a loop or a when clause.
struct Statement {
  size_t equation = 0;  ///< when `loop` and `when` are null: the index into ModelSyntax::equations
  std::unique_ptr<ForLoop> loop;
  std::unique_ptr<WhenDecl> when;
};

/// `for variable in first:last loop body end for;`
struct ForLoop {
  NameToken variable;
  ExprPtr first, last;
  std::vector<Statement> body;
  SourceLocation location;  ///< the `for` keyword
};

struct ModelSyntax {
  NameToken name;  ///< empty when the `model` header is missing
  std::string description;
  std::vector<ParameterDecl> parameters;
  std::vector<VariableDecl> variables;
  std::vector<OutputDecl> outputs;
  /// Every equation as written, in source order, wherever it is (inside loops too): equation k
  /// (0-based) is named eq<k+1>, or eq<k+1>[i] in a loop, when it has no label.
  std::vector<EquationDecl> equations;
  /// The equation section as written: equations (by index into `equations`) and loops.
  std::vector<Statement> statements;
  /// The `initial equation` section, likewise (its equations are in `equations` too).
  std::vector<Statement> initial_statements;
  SourceLocation end_location;  ///< the `end` keyword, or the end of the file if it is missing
};

}  // namespace daec
