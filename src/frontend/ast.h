// The syntax tree the parser builds: declarations and equations as written, with locations.
// Sums and products are n-ary so that long chains (a + b + c + ...) do not nest.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "support/source.h"

namespace daec {

enum class ExprKind {
  Number,      ///< text: the spelling
  Name,        ///< text: the name (a variable, parameter, t, pi, ...)
  Derivative,  ///< operands[0] differentiated `order` times (from x', x'', der(x), der(x, n))
  Call,        ///< text: the function name; operands: the arguments
  Negate,      ///< unary minus of operands[0]
  Sum,         ///< operands[i], subtracted where inverted[i]
  Product,     ///< operands[i], divided by where inverted[i]
  Power,       ///< operands[0] ^ operands[1]
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

  Expr(ExprKind k, SourceLocation loc, std::string t = {})
      : kind(k), location(loc), text(std::move(t)) {}
};
using ExprPtr = std::unique_ptr<Expr>;

struct NameToken {
  std::string name;
  SourceLocation location;
};

struct ParameterDecl {
  NameToken name;
  ExprPtr value;
  std::string description;
};

struct VariableDecl {
  NameToken name;
  ExprPtr start;  ///< null when no start is given (default 0)
  SourceLocation start_location;
  bool fixed = false;
  SourceLocation fixed_location;  ///< valid when `fixed = ...` was written
  std::string description;
};

struct OutputDecl {
  NameToken name;
  ExprPtr value;
  std::string description;
};

struct EquationDecl {
  NameToken label;  ///< empty name when unlabelled
  ExprPtr lhs, rhs;
  SourceLocation location;  ///< start of the equation (its label, or its left-hand side)
};

struct ModelSyntax {
  NameToken name;  ///< empty when the `model` header is missing
  std::string description;
  std::vector<ParameterDecl> parameters;
  std::vector<VariableDecl> variables;
  std::vector<OutputDecl> outputs;
  std::vector<EquationDecl> equations;
  SourceLocation end_location;  ///< the `end` keyword, or the end of the file if it is missing
};

}  // namespace daec
