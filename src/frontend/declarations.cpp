// Entering declarations, and finding the parameters fixed at compile time.
#include "frontend/declarations.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "frontend/token.h"
#include "model/functions.h"

namespace daec {

std::string reserved_because(const std::string& name) {
  if (name == "t") return "it stands for time";
  if (name == "pi") return "it stands for the constant 3.14159...";
  if (find_function(name)) return "it is a built-in function";
  if (keyword_kind(name) != TokenKind::Identifier) return "it is a keyword";
  return {};
}

bool is_reserved_name(const std::string& name) {
  return !reserved_because(name).empty();
}

std::string element_name(const std::string& array, const std::vector<long>& index) {
  std::string name = array + "[";
  for (size_t i = 0; i < index.size(); ++i) name += (i ? "," : "") + std::to_string(index[i]);
  return name + "]";
}

void collect_names(const Expr& expr, std::vector<std::string>& names) {
  if (expr.kind == ExprKind::Name || expr.kind == ExprKind::Index) names.push_back(expr.text);
  for (const ExprPtr& operand : expr.operands) collect_names(*operand, names);
}

// Declarations are entered in source order, whatever their kind, so that a redeclaration is
// reported at the later of the two names and its note points at the earlier one.
Declarations::Declarations(const ModelSyntax& syntax, DiagnosticEngine& diags) : diags_(diags) {
  std::vector<std::tuple<size_t, const NameToken*, DeclKind, size_t>> names;
  for (size_t i = 0; i < syntax.parameters.size(); ++i) {
    const NameToken& name = syntax.parameters[i].name;
    names.emplace_back(name.location.offset, &name, DeclKind::Parameter, i);
  }
  for (size_t i = 0; i < syntax.variables.size(); ++i) {
    const NameToken& name = syntax.variables[i].name;
    names.emplace_back(name.location.offset, &name, DeclKind::Variable, i);
  }
  for (size_t i = 0; i < syntax.outputs.size(); ++i) {
    const NameToken& name = syntax.outputs[i].name;
    names.emplace_back(name.location.offset, &name, DeclKind::Output, i);
  }
  std::stable_sort(names.begin(), names.end(),
                   [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
  for (const auto& [offset, name, kind, index] : names) declare(*name, kind, index);
  mark_structural(syntax);
}

void Declarations::declare(const NameToken& name, DeclKind kind, size_t index) {
  std::string why = reserved_because(name.name);
  if (!why.empty()) {
    diags_.error(name.location, "'" + name.name + "' is reserved and cannot be declared: " + why);
    return;
  }
  if (const Declaration* previous = lookup(name.name)) {
    diags_.error(name.location, "redeclaration of '" + name.name + "'");
    diags_.note(previous->location, "previous declaration of '" + name.name + "' is here");
    return;
  }
  Declaration decl;
  decl.kind = kind;
  decl.index = index;
  decl.location = name.location;
  table_.emplace(name.name, std::move(decl));
}

const Declaration* Declarations::lookup(const std::string& name) const {
  auto it = table_.find(name);
  return it == table_.end() ? nullptr : &it->second;
}

Declaration* Declarations::lookup(const std::string& name) {
  auto it = table_.find(name);
  return it == table_.end() ? nullptr : &it->second;
}

Declaration* Declarations::registered(const std::string& name, DeclKind kind, size_t index) {
  Declaration* decl = lookup(name);
  return decl && decl->kind == kind && decl->index == index ? decl : nullptr;
}

std::vector<std::string> Declarations::names() const {
  std::vector<std::string> all;
  for (const auto& [name, decl] : table_) all.push_back(name);
  return all;
}

namespace {

// The names used where a constant integer is needed: sizes, ranges, indices, label indices.
class StructuralUses {
 public:
  std::vector<std::string> names;

  void in_constant(const Expr* expr) {
    if (expr) collect_names(*expr, names);
  }
  // Inside an expression, only the subscripts and ranges need constants.
  void in_expression(const Expr* expr) {
    if (!expr) return;
    if (expr->kind == ExprKind::Index) {
      for (const ExprPtr& subscript : expr->operands) in_constant(subscript.get());
      return;
    }
    bool ranged = expr->kind == ExprKind::Reduction || expr->kind == ExprKind::Comprehension;
    for (size_t i = 0; i < expr->operands.size(); ++i) {
      if (ranged && i > 0) {
        in_constant(expr->operands[i].get());
      } else {
        in_expression(expr->operands[i].get());
      }
    }
  }
  void in_dimensions(const Dimensions& dimensions) {
    for (const ExprPtr& size : dimensions) in_constant(size.get());
  }
  void in_statements(const ModelSyntax& syntax, const std::vector<Statement>& statements) {
    for (const Statement& statement : statements) {
      if (statement.loop) {
        in_constant(statement.loop->first.get());
        in_constant(statement.loop->last.get());
        in_statements(syntax, statement.loop->body);
        continue;
      }
      if (statement.when) {
        in_expression(statement.when->condition.get());
        for (const ReinitDecl& reinit : statement.when->reinits) {
          in_expression(reinit.target.get());
          in_expression(reinit.value.get());
        }
        continue;
      }
      const EquationDecl& equation = syntax.equations[statement.equation];
      for (const ExprPtr& subscript : equation.label_subscripts) in_constant(subscript.get());
      in_expression(equation.lhs.get());
      in_expression(equation.rhs.get());
    }
  }
};

}  // namespace

// A parameter is structural if a constant-integer position uses it, or the value or size of a
// structural parameter does (parameter M = 2*N; variable x[M]: both are fixed).
void Declarations::mark_structural(const ModelSyntax& syntax) {
  StructuralUses uses;
  for (const ParameterDecl& p : syntax.parameters) {
    uses.in_dimensions(p.dimensions);
    uses.in_expression(p.value.get());
  }
  for (const VariableDecl& v : syntax.variables) {
    uses.in_dimensions(v.dimensions);
    uses.in_expression(v.start.get());
    uses.in_expression(v.nominal.get());
  }
  for (const OutputDecl& o : syntax.outputs) {
    uses.in_dimensions(o.dimensions);
    uses.in_expression(o.value.get());
  }
  uses.in_statements(syntax, syntax.statements);
  uses.in_statements(syntax, syntax.initial_statements);
  std::vector<std::string> pending = std::move(uses.names);
  while (!pending.empty()) {
    std::string name = pending.back();
    pending.pop_back();
    Declaration* decl = lookup(name);
    if (!decl || decl->kind != DeclKind::Parameter || decl->structural) continue;
    decl->structural = true;
    const ParameterDecl& p = syntax.parameters[decl->index];
    if (p.value) collect_names(*p.value, pending);
    for (const ExprPtr& size : p.dimensions) collect_names(*size, pending);
  }
}

}  // namespace daec
