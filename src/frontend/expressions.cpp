// Lowering expressions from syntax trees to GiNaC, with their checks.
#include "frontend/expressions.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "frontend/constants.h"
#include "model/conditions.h"
#include "model/evaluation.h"
#include "model/expression_printer.h"
#include "model/functions.h"
#include "support/text.h"

namespace daec {

using GiNaC::ex;

namespace {

/// Whole numbers beyond this are refused where a constant integer is needed (no size, range or
/// index can use them, and they would not fit a long).
constexpr long kMaxInteger = 1'000'000'000'000'000;

const char* const kConditionAsNumber =
    "a condition cannot be used as a number (write 'if C then 1 else 0' for its value)";
const char* const kNumberAsCondition =
    "expected a condition here (a relation such as 'x > 0'), found a number";

// What a name that is not a function stands for, for "'x' is a variable, not a function".
std::string name_noun(const std::string& name, const Declaration* decl) {
  if (name == "t") return "time";
  if (name == "pi") return "a constant";
  if (!decl) return {};
  switch (decl->kind) {
    case DeclKind::Parameter:
      return "a parameter";
    case DeclKind::Variable:
      return "a variable";
    case DeclKind::Output:
      return "an output";
  }
  return {};
}

// The conjunction (or disjunction) of `terms` as a balanced tree: a long chain `a and b and ...`
// nests only logarithmically deep.
ex balanced(const std::vector<ex>& terms, size_t begin, size_t end, bool conjunction) {
  if (end - begin == 1) return terms[begin];
  size_t middle = begin + (end - begin) / 2;
  ex left = balanced(terms, begin, middle, conjunction);
  ex right = balanced(terms, middle, end, conjunction);
  return conjunction ? daec_and(left, right) : daec_or(left, right);
}

}  // namespace

// ---- the budget ----

bool ElementBudget::take(size_t count) {
  if (exhausted_) return false;
  if (count > limit_ - used_) {
    exhausted_ = true;
    return false;
  }
  used_ += count;
  return true;
}

// ---- reporting ----

bool ExpressionLowering::error(const SourceLocation& loc, const std::string& message) {
  if (loc.file && !reported_.insert(loc.offset).second) return false;
  diags_.error(loc, message);
  return true;
}

std::string ExpressionLowering::at_bindings(const Context& context) {
  if (context.bindings.empty()) return "";
  std::string text;
  for (const Binding& b : context.bindings) {
    text += (text.empty() ? " (at " : ", ") + b.name + " = " + std::to_string(b.value);
  }
  return text + ")";
}

std::string ExpressionLowering::role_noun(const Context& context) {
  switch (context.role) {
    case Role::ParameterValue:
      return "the value of parameter '" + context.owner + "'";
    case Role::StartValue:
      return "the start value of '" + context.owner + "'";
    case Role::OutputValue:
      return "output '" + context.owner + "'";
    case Role::Equation:
      return "equation '" + context.owner + "'";
    case Role::InitialEquation:
      return "initial equation '" + context.owner + "'";
    case Role::Constant:
      return context.what;
  }
  return {};
}

void ExpressionLowering::report_undeclared(const Expr& expr) {
  if (reported_.count(expr.location.offset)) return;  // in a loop: the suggestion costs time
  std::string message = "use of undeclared name '" + expr.text + "'";
  if (auto suggestion = closest_name(expr.text, declarations_.names())) {
    message += "; did you mean '" + *suggestion + "'?";
  }
  error(expr.location, message);
}

void ExpressionLowering::report_forward_reference(const Expr& expr, const Declaration& referenced,
                                                  const Context& context) {
  report_order_or_cycle(expr, referenced, syntax_.parameters.at(context.parameter_limit).name.name);
}

// The names the declaration `index` of `kind` refers to: its value (and a parameter's sizes).
std::vector<std::string> ExpressionLowering::referenced_names(DeclKind kind, size_t index) const {
  std::vector<std::string> names;
  if (kind == DeclKind::Output) {
    collect_names(*syntax_.outputs[index].value, names);
    return names;
  }
  const ParameterDecl& p = syntax_.parameters[index];
  if (p.value) collect_names(*p.value, names);
  for (const ExprPtr& size : p.dimensions) collect_names(*size, names);
  return names;
}

// `owner` uses `referenced`, a declaration of its kind (parameter or output) at or after its
// own, where only earlier ones may be used: itself, a cycle (following the references from
// `referenced` leads back to `owner`; reported once, at the first of its declarations), or a use
// before the declaration.
void ExpressionLowering::report_order_or_cycle(const Expr& expr, const Declaration& referenced,
                                               const std::string& owner) {
  const DeclKind kind = referenced.kind;
  const std::string noun = kind == DeclKind::Output ? "output" : "parameter";
  const std::string& name = expr.text;
  if (name == owner) {
    error(expr.location, noun + " '" + name + "' is defined in terms of itself");
    return;
  }
  std::vector<std::string> path{owner, name};
  std::set<std::string> visited{name};
  std::function<bool(size_t)> leads_back = [&](size_t index) {
    for (const std::string& next : referenced_names(kind, index)) {
      const Declaration* decl = declarations_.lookup(next);
      if (!decl || decl->kind != kind) continue;
      if (next == owner) {
        path.push_back(next);
        return true;
      }
      if (!visited.insert(next).second) continue;
      path.push_back(next);
      if (leads_back(decl->index)) return true;
      path.pop_back();
    }
    return false;
  };
  bool reported;
  if (leads_back(referenced.index)) {
    if (in_reported_cycle_.count(owner)) return;
    in_reported_cycle_.insert(path.begin(), path.end());
    std::string cycle;
    for (const std::string& step : path) cycle += (cycle.empty() ? "" : " -> ") + step;
    reported = error(expr.location, noun + "s depend on each other in a cycle: " + cycle);
  } else {
    const std::string article = kind == DeclKind::Output ? "an " : "a ";
    reported =
        error(expr.location, noun + " '" + name + "' is used before its declaration (" + article +
                                 noun + " may use only " + noun + "s declared earlier)");
  }
  if (reported) diags_.note(referenced.location, "'" + name + "' is declared here");
}

// ---- entry points ----

std::optional<ex> ExpressionLowering::number(const Expr& expr, Context& context) {
  std::optional<Value> value = lower(expr, context);
  if (!value) return std::nullopt;
  if (value->condition) {
    error(expr.location, kConditionAsNumber);
    return std::nullopt;
  }
  return value->value;
}

std::optional<ex> ExpressionLowering::condition(const Expr& expr, Context& context) {
  std::optional<Value> value = lower(expr, context);
  if (!value) return std::nullopt;
  if (!value->condition) {
    error(expr.location, kNumberAsCondition);
    return std::nullopt;
  }
  return value->value;
}

std::optional<long> ExpressionLowering::integer(const Expr& expr, Context& context) {
  std::optional<ex> value = number(expr, context);
  if (!value) return std::nullopt;
  if (GiNaC::is_exactly_a<GiNaC::numeric>(*value)) {
    const GiNaC::numeric& n = GiNaC::ex_to<GiNaC::numeric>(*value);
    if (n.is_integer()) {
      if (GiNaC::abs(n) <= GiNaC::numeric(kMaxInteger)) return n.to_long();
      error(expr.location,
            role_noun(context) + " is too large (" + to_dae(n) + ")" + at_bindings(context));
      return std::nullopt;
    }
  }
  error(expr.location, role_noun(context) + " must be a whole number, but is " + to_dae(*value) +
                           at_bindings(context));
  return std::nullopt;
}

bool ExpressionLowering::check_loop_variable(const NameToken& variable, const Context& context) {
  std::string why = reserved_because(variable.name);
  if (!why.empty()) {
    error(variable.location,
          "'" + variable.name + "' is reserved and cannot be a loop variable: " + why);
    return false;
  }
  if (const Declaration* decl = declarations_.lookup(variable.name)) {
    if (error(variable.location, "loop variable '" + variable.name +
                                     "' shadows the declared name '" + variable.name +
                                     "' (choose another name)")) {
      diags_.note(decl->location, "'" + variable.name + "' is declared here");
    }
    return false;
  }
  if (loop_variable(variable.name, context)) {
    error(variable.location,
          "loop variable '" + variable.name + "' shadows the loop variable of an enclosing loop");
    return false;
  }
  return true;
}

std::optional<std::pair<long, long>> ExpressionLowering::range(const NameToken& variable,
                                                               const Expr& first, const Expr& last,
                                                               Context& context,
                                                               const SourceLocation& where) {
  if (budget_.exhausted()) return std::nullopt;  // reported where it happened
  Context bounds = context;
  bounds.role = Role::Constant;
  bounds.what = "the range of loop variable '" + variable.name + "'";
  std::optional<long> from = integer(first, bounds);
  std::optional<long> to = integer(last, bounds);
  bool ok = check_loop_variable(variable, context);
  if (!from || !to || !ok) return std::nullopt;
  size_t count = *to < *from ? 0 : static_cast<size_t>(*to - *from) + 1;
  if (!budget_.take(count)) {
    error(where, "the loop over " + variable.name + " in " + std::to_string(*from) + ":" +
                     std::to_string(*to) + at_bindings(context) + " takes the model past the " +
                     "limit of " + grouped_digits(budget_.limit()) +
                     " array elements and loop iterations (see docs/limits.md)");
    return std::nullopt;
  }
  return std::pair(*from, *to);
}

// ---- declaration values ----

std::optional<std::vector<ex>> ExpressionLowering::array_value(const Expr& expr,
                                                               const std::vector<long>& shape,
                                                               const std::string& array,
                                                               Context& context) {
  std::vector<ex> elements;
  if (!fill_value(expr, shape, 0, array, context, elements)) return std::nullopt;
  return elements;
}

// Appends the elements that `expr` gives for dimensions `dimension`... of `shape`.
bool ExpressionLowering::fill_value(const Expr& expr, const std::vector<long>& shape,
                                    size_t dimension, const std::string& array, Context& context,
                                    std::vector<ex>& out) {
  bool literal = expr.kind == ExprKind::ArrayLiteral || expr.kind == ExprKind::Comprehension;
  if (!literal) {
    std::optional<ex> value = number(expr, context);
    if (!value) return false;
    size_t copies = 1;  // a single value fills the rest of the array
    for (size_t d = dimension; d < shape.size(); ++d) copies *= static_cast<size_t>(shape[d]);
    out.insert(out.end(), copies, *value);
    return true;
  }
  if (shape.empty()) {
    error(expr.location, "'" + array + "' is not an array, so its value cannot be an array");
    return false;
  }
  if (dimension == shape.size()) {
    error(expr.location, "array value nested deeper than the " +
                             count_of(shape.size(), "dimension") + " of '" + array + "'");
    return false;
  }
  auto wrong_length = [&](size_t given) {
    std::string of = shape.size() == 1
                         ? "'" + array + "'"
                         : "dimension " + std::to_string(dimension + 1) + " of '" + array + "'";
    error(expr.location, "array value has " + count_of(given, "element") + ", but " + of + " has " +
                             std::to_string(shape[dimension]) + at_bindings(context));
    return false;
  };
  if (expr.kind == ExprKind::ArrayLiteral) {
    if (expr.operands.size() != static_cast<size_t>(shape[dimension])) {
      return wrong_length(expr.operands.size());
    }
    bool ok = true;
    for (const ExprPtr& element : expr.operands) {
      ok = fill_value(*element, shape, dimension + 1, array, context, out) && ok;
    }
    return ok;
  }
  std::optional<std::pair<long, long>> bounds =
      range(expr.variable, *expr.operands[1], *expr.operands[2], context, expr.location);
  if (!bounds) return false;
  size_t count =
      bounds->second < bounds->first ? 0 : static_cast<size_t>(bounds->second - bounds->first) + 1;
  if (count != static_cast<size_t>(shape[dimension])) return wrong_length(count);
  bool ok = true;
  for (long i = bounds->first; i <= bounds->second && ok; ++i) {
    context.bindings.push_back({expr.variable.name, i});
    ok = fill_value(*expr.operands[0], shape, dimension + 1, array, context, out);
    context.bindings.pop_back();
  }
  return ok;
}

// ---- expressions ----

template <typename Build>
std::optional<ExpressionLowering::Value> ExpressionLowering::checked(const SourceLocation& loc,
                                                                     Build build,
                                                                     const std::string& function) {
  try {
    ex result = build();
    if (GiNaC::is_exactly_a<GiNaC::numeric>(result) &&
        numeric_bits(GiNaC::ex_to<GiNaC::numeric>(result)) > kMaxConstantBits) {
      throw ConstantTooLarge();
    }
    if (has_imaginary_part(result)) {
      error(loc, (function.empty() ? std::string("expression") : "'" + function + "'") +
                     " has no real value here (" + to_dae(result) + ")");
      return std::nullopt;
    }
    return Value{result, false};
  } catch (const std::exception& e) {
    std::string detail;
    std::string message = describe_failure(e, detail);
    if (message.empty()) {
      message = (function.empty() ? "expression is undefined here"
                                  : "'" + function + "' is undefined for this argument") +
                " (" + detail + ")";
    }
    error(loc, message);
    return std::nullopt;
  }
}

std::optional<ExpressionLowering::Value> ExpressionLowering::lower(const Expr& expr,
                                                                   Context& context) {
  switch (expr.kind) {
    case ExprKind::Number:
      return checked(expr.location, [&] { return exact_number(expr.text); });
    case ExprKind::Name:
      return lower_name(expr, context);
    case ExprKind::Index:
      return lower_index(expr, context);
    case ExprKind::Derivative:
      return lower_derivative(expr, context);
    case ExprKind::Call:
      return lower_call(expr, context);
    case ExprKind::Power:
      return lower_power(expr, context);
    case ExprKind::Negate: {
      std::optional<ex> operand = number(*expr.operands[0], context);
      if (!operand) return std::nullopt;
      return checked(expr.location, [&] { return -*operand; });
    }
    case ExprKind::Sum:
    case ExprKind::Product:
      return lower_nary(expr, context);
    case ExprKind::If:
      return lower_if(expr, context);
    case ExprKind::Relation: {
      std::optional<std::vector<ex>> sides = numbers(expr, context);
      if (!sides) return std::nullopt;
      static const char* const spellings[] = {"<", "<=", ">", ">=", "==", "<>"};
      int kind = static_cast<int>(std::find(std::begin(spellings), std::end(spellings), expr.text) -
                                  std::begin(spellings));
      return Value{make_relation(static_cast<RelationKind>(kind), (*sides)[0], (*sides)[1]), true};
    }
    case ExprKind::And:
    case ExprKind::Or:
    case ExprKind::Not:
      return lower_logical(expr, context);
    case ExprKind::Reduction:
      return lower_reduction(expr, context);
    case ExprKind::ArrayLiteral:
    case ExprKind::Comprehension:
      // The parser accepts array values only where a declaration's value goes.
      error(expr.location, "an array value ({...}) is not allowed here");
      return std::nullopt;
  }
  return std::nullopt;
}

// Lowers every operand as a number, so that all errors in them are reported.
std::optional<std::vector<ex>> ExpressionLowering::numbers(const Expr& expr, Context& context) {
  std::vector<ex> values;
  bool ok = true;
  for (const ExprPtr& operand : expr.operands) {
    std::optional<ex> value = number(*operand, context);
    if (value) values.push_back(*value);
    ok = ok && value.has_value();
  }
  if (!ok) return std::nullopt;
  return values;
}

const long* ExpressionLowering::loop_variable(const std::string& name,
                                              const Context& context) const {
  for (auto it = context.bindings.rbegin(); it != context.bindings.rend(); ++it) {
    if (it->name == name) return &it->value;
  }
  return nullptr;
}

std::optional<ExpressionLowering::Value> ExpressionLowering::lower_name(const Expr& expr,
                                                                        Context& context) {
  const std::string& name = expr.text;
  if (const long* value = loop_variable(name, context)) return Value{ex(*value), false};
  bool constant_role = context.role == Role::ParameterValue || context.role == Role::StartValue ||
                       context.role == Role::Constant;
  if (name == "pi") return Value{ex(GiNaC::Pi), false};
  if (name == "t") {
    if (constant_role) {
      error(expr.location, role_noun(context) + " must be constant, but uses time 't'");
      return std::nullopt;
    }
    return Value{ex(model_.time), false};
  }
  if (find_function(name)) {
    error(expr.location, "'" + name + "' is a function; call it as " + name + "(...)");
    return std::nullopt;
  }
  const Declaration* decl = declarations_.lookup(name);
  if (!decl) {
    report_undeclared(expr);
    return std::nullopt;
  }
  if (decl->expanded && decl->is_array()) {
    std::string subscripts = decl->shape.size() == 1 ? "i" : "i, j";
    error(expr.location, "array '" + name + "' is used without an index (write " + name + "[" +
                             subscripts + "] for an element)");
    return std::nullopt;
  }
  return lower_element(expr, *decl, 0, name, context);
}

// An element of a declaration: its symbol, or the value of a structural parameter.
std::optional<ExpressionLowering::Value> ExpressionLowering::lower_element(const Expr& expr,
                                                                           const Declaration& decl,
                                                                           size_t element,
                                                                           const std::string& name,
                                                                           Context& context) {
  bool constant_role = context.role == Role::ParameterValue || context.role == Role::StartValue ||
                       context.role == Role::Constant;
  switch (decl.kind) {
    case DeclKind::Parameter:
      if (decl.index >= context.parameter_limit) {
        report_forward_reference(expr, decl, context);
        return std::nullopt;
      }
      if (!decl.expanded) return std::nullopt;  // its own error was reported
      if (decl.structural) return Value{decl.values[element], false};
      return Value{decl.elements[element], false};
    case DeclKind::Variable:
      if (constant_role) {
        error(expr.location,
              role_noun(context) + " must be constant, but uses variable '" + name + "'");
        return std::nullopt;
      }
      if (!decl.expanded) return std::nullopt;
      return Value{decl.elements[element], false};
    case DeclKind::Output:
      if (constant_role) {
        error(expr.location, "'" + expr.text + "' is an output; outputs cannot be used in " +
                                 role_noun(context) + " (write its expression instead)");
        return std::nullopt;
      }
      return lower_output(expr, decl, element, context);
  }
  return std::nullopt;
}

// An output used in an equation or a later output stands for its expression (substituted: it
// is no unknown of its own).
std::optional<ExpressionLowering::Value> ExpressionLowering::lower_output(const Expr& expr,
                                                                          const Declaration& decl,
                                                                          size_t element,
                                                                          const Context& context) {
  if (decl.expanded) return Value{model_.outputs[decl.slots[element]].value, false};
  const Declaration* owner = declarations_.lookup(context.owner);
  if (context.role == Role::OutputValue && owner && owner->kind == DeclKind::Output &&
      decl.index >= owner->index) {
    report_order_or_cycle(expr, decl, context.owner);
  }
  return std::nullopt;  // else rejected: its own error was reported
}

// The position (row-major) of the element that `expr`, an indexed name, designates in `decl`.
std::optional<size_t> ExpressionLowering::element_of(const Expr& expr, const Declaration& decl,
                                                     Context& context) {
  const std::string& name = expr.text;
  if (decl.shape.size() != expr.operands.size()) {
    size_t given = expr.operands.size();
    error(expr.location, "'" + name + "' has " + count_of(decl.shape.size(), "dimension") +
                             ", but " + count_of(given, "index", "indices") +
                             (given == 1 ? " is" : " are") + " given");
    return std::nullopt;
  }
  Context subscript = context;
  subscript.role = Role::Constant;
  subscript.what = "the index of '" + name + "'";
  size_t position = 0;
  bool ok = true;
  for (size_t d = 0; d < decl.shape.size(); ++d) {
    std::optional<long> index = integer(*expr.operands[d], subscript);
    if (!index) {
      ok = false;
      continue;
    }
    if (*index < 1 || *index > decl.shape[d]) {
      std::string dimension =
          decl.shape.size() == 1 ? "" : " (dimension " + std::to_string(d + 1) + ")";
      error(expr.operands[d]->location,
            "index " + std::to_string(*index) + " of '" + name + "' is out of range 1.." +
                std::to_string(decl.shape[d]) + dimension + at_bindings(context));
      ok = false;
      continue;
    }
    position = position * static_cast<size_t>(decl.shape[d]) + static_cast<size_t>(*index - 1);
  }
  if (!ok) return std::nullopt;
  return position;
}

std::optional<ExpressionLowering::Value> ExpressionLowering::lower_index(const Expr& expr,
                                                                         Context& context) {
  const std::string& name = expr.text;
  std::string problem;
  const Declaration* decl = declarations_.lookup(name);
  if (loop_variable(name, context)) {
    problem = "'" + name + "' is a loop variable, not an array";
  } else if (name == "t" || name == "pi") {
    problem = "'" + name + "' is not an array and cannot be indexed";
  } else if (find_function(name)) {
    problem = "'" + name + "' is a function; call it as " + name + "(...)";
  } else if (!decl) {
    report_undeclared(expr);
    return std::nullopt;
  } else if (!decl->is_array() && decl->expanded) {
    problem = "'" + name + "' is not an array and cannot be indexed";
  }
  if (!problem.empty()) {
    error(expr.location, problem);
    return std::nullopt;
  }
  // Not expanded yet (a forward reference, a variable in a parameter value) or rejected.
  if (!decl->expanded) return lower_element(expr, *decl, 0, name, context);
  std::optional<size_t> element = element_of(expr, *decl, context);
  if (!element) return std::nullopt;
  std::vector<long> index;
  for (size_t d = decl->shape.size(), rest = *element; d-- > 0;) {
    index.insert(index.begin(), static_cast<long>(rest % static_cast<size_t>(decl->shape[d])) + 1);
    rest /= static_cast<size_t>(decl->shape[d]);
  }
  return lower_element(expr, *decl, *element, element_name(name, index), context);
}

std::optional<ExpressionLowering::Value> ExpressionLowering::lower_derivative(const Expr& expr,
                                                                              Context& context) {
  int order = expr.order;
  const Expr* operand = expr.operands[0].get();
  while (operand->kind == ExprKind::Derivative) {  // der(x)' is x''
    order += operand->order;
    operand = operand->operands[0].get();
  }
  bool allowed = context.role == Role::Equation || context.role == Role::InitialEquation ||
                 (context.role == Role::OutputValue && order == 1);
  if (!allowed) {
    std::string only = context.role == Role::OutputValue
                           ? " beyond the first (an output may use x', not x'')"
                           : "";
    error(expr.location, "derivatives" + only + " are not allowed in " + role_noun(context));
    return std::nullopt;
  }
  if (operand->kind != ExprKind::Name && operand->kind != ExprKind::Index) {
    error(expr.location, "derivative of an expression: der() and ' apply to a variable name only");
    return std::nullopt;
  }
  const std::string& name = operand->text;
  const Declaration* decl = declarations_.lookup(name);
  std::string problem;
  if (loop_variable(name, context)) {
    problem = "derivative of loop variable '" + name + "': it is constant in each iteration";
  } else if (name == "t") {
    problem = "derivative of time 't' (it is 1)";
  } else if (name == "pi") {
    problem = "derivative of the constant 'pi'";
  } else if (find_function(name)) {
    problem = "derivative of function name '" + name + "'";
  } else if (!decl) {
    report_undeclared(*operand);
    return std::nullopt;
  } else if (decl->kind == DeclKind::Parameter) {
    problem = "derivative of parameter '" + name + "': parameters are constant";
  } else if (decl->kind == DeclKind::Output) {
    problem = "derivative of output '" + name + "': only variables can be differentiated";
  }
  if (!problem.empty()) {
    error(operand->location, problem);
    return std::nullopt;
  }
  std::optional<Value> variable = lower(*operand, context);  // the element, with its checks
  if (!variable) return std::nullopt;
  auto slot = variable_slot_.find(variable->value);
  if (slot == variable_slot_.end()) return std::nullopt;
  ex symbol = model_.derivative(slot->second, order);
  if (context.role != Role::Equation)
    derivative_uses_.push_back({symbol, operand->location, role_noun(context)});
  return Value{symbol, false};
}

std::optional<ExpressionLowering::Value> ExpressionLowering::lower_call(const Expr& expr,
                                                                        Context& context) {
  const BuiltinFunction* function = find_function(expr.text);
  if (!function) {
    std::string noun = name_noun(expr.text, declarations_.lookup(expr.text));
    if (loop_variable(expr.text, context)) noun = "a loop variable";
    std::string message = noun.empty() ? "unknown function '" + expr.text + "'"
                                       : "'" + expr.text + "' is " + noun + ", not a function";
    if (noun.empty()) {
      if (auto suggestion = closest_name(expr.text, function_names())) {
        message += "; did you mean '" + *suggestion + "'?";
      }
    }
    error(expr.location, message);
    numbers(expr, context);  // report errors inside the arguments too
    return std::nullopt;
  }
  int given = static_cast<int>(expr.operands.size());
  // Its table arguments are array names, which numbers() would refuse.
  if (expr.text == "interp" && given == function->arity) return lower_interp(expr, context);
  std::optional<std::vector<ex>> arguments =
      expr.text == "interp" ? std::nullopt : numbers(expr, context);
  if (given != function->arity) {
    error(expr.location, "'" + expr.text + "' takes " + std::to_string(function->arity) +
                             " argument" + (function->arity == 1 ? "" : "s") + ", but " +
                             std::to_string(given) + (given == 1 ? " was" : " were") + " given");
    return std::nullopt;
  }
  if (!arguments) return std::nullopt;
  bool is_pow = expr.text == "pow";
  return checked(
      expr.location,
      [&] {
        check_defined(expr.text, *arguments);
        if (is_pow) check_power_size((*arguments)[0], (*arguments)[1]);
        if (is_pow) check_variable_power((*arguments)[0], (*arguments)[1]);
        return function->build(*arguments);
      },
      expr.text);
}

std::optional<ExpressionLowering::Value> ExpressionLowering::lower_power(const Expr& expr,
                                                                         Context& context) {
  std::optional<std::vector<ex>> operands = numbers(expr, context);
  if (!operands) return std::nullopt;
  const ex& base = (*operands)[0];
  const ex& exponent = (*operands)[1];
  return checked(expr.location, [&] {
    check_defined("pow", {base, exponent});
    check_power_size(base, exponent);
    check_variable_power(base, exponent);
    return GiNaC::pow(base, exponent);
  });
}

// Each operand is lowered on its own, so that `sinn(x) / 0` reports the division too.
std::optional<ExpressionLowering::Value> ExpressionLowering::lower_nary(const Expr& expr,
                                                                        Context& context) {
  bool sum = expr.kind == ExprKind::Sum;
  bool ok = true;
  GiNaC::exvector terms;
  for (size_t i = 0; i < expr.operands.size(); ++i) {
    std::optional<ex> operand = number(*expr.operands[i], context);
    if (operand && !sum && expr.inverted[i] && operand->is_zero()) {
      error(expr.operator_locations[i], "division by zero" + at_bindings(context));
      operand.reset();
    }
    ok = ok && operand.has_value();
    if (!ok) continue;
    if (!expr.inverted[i]) {
      terms.push_back(*operand);
    } else {
      terms.push_back(sum ? -*operand : GiNaC::pow(*operand, -1));
    }
  }
  if (!ok) return std::nullopt;
  return checked(expr.location,
                 [&] { return sum ? ex(GiNaC::add(terms)) : ex(GiNaC::mul(terms)); });
}

// A condition decided while flattening (it uses only loop variables and constants) selects its
// branch now, and the others are not lowered: `if i < N then x[i+1] else 0` is fine at i = N.
std::optional<ExpressionLowering::Value> ExpressionLowering::lower_if(const Expr& expr,
                                                                      Context& context) {
  std::vector<std::pair<ex, ex>> undecided;  // (condition, value), in order
  std::optional<ex> otherwise;
  bool ok = true;
  size_t pairs = expr.operands.size() / 2;
  size_t k = 0;
  for (; k < pairs; ++k) {
    std::optional<ex> test = condition(*expr.operands[2 * k], context);
    bool value = false;
    bool decided = test && decided_condition(*test, value);
    if (decided && !value) continue;
    std::optional<ex> branch = number(*expr.operands[2 * k + 1], context);
    ok = ok && test && branch;
    if (decided) {
      otherwise = branch;  // a true condition ends the chain
      break;
    }
    if (test && branch) undecided.emplace_back(*test, *branch);
  }
  if (k == pairs) {
    otherwise = number(*expr.operands.back(), context);
    ok = ok && otherwise;
  }
  if (!ok) return std::nullopt;
  ex result = *otherwise;
  for (auto it = undecided.rbegin(); it != undecided.rend(); ++it) {
    result = daec_if(it->first, it->second, result);
  }
  return Value{result, false};
}

// `and` and `or` stop at an operand that decides them (`i > 1 and x[i-1] > 0` at i = 1);
// decided operands that do not decide drop out.
std::optional<ExpressionLowering::Value> ExpressionLowering::lower_logical(const Expr& expr,
                                                                           Context& context) {
  if (expr.kind == ExprKind::Not) {
    std::optional<ex> operand = condition(*expr.operands[0], context);
    if (!operand) return std::nullopt;
    return Value{daec_not(*operand), true};
  }
  bool conjunction = expr.kind == ExprKind::And;
  std::vector<ex> terms;
  bool ok = true;
  for (const ExprPtr& operand : expr.operands) {
    std::optional<ex> term = condition(*operand, context);
    bool value;
    if (term && decided_condition(*term, value)) {
      if (value == conjunction) continue;  // true in `and`, false in `or`: no say
      if (!ok) return std::nullopt;
      return Value{value ? 1 : 0, true};
    }
    ok = ok && term;
    if (term) terms.push_back(*term);
  }
  if (!ok) return std::nullopt;
  if (terms.empty()) return Value{conjunction ? 1 : 0, true};
  return Value{balanced(terms, 0, terms.size(), conjunction), true};
}

std::optional<ExpressionLowering::Value> ExpressionLowering::lower_reduction(const Expr& expr,
                                                                             Context& context) {
  std::optional<std::pair<long, long>> bounds =
      range(expr.variable, *expr.operands[1], *expr.operands[2], context, expr.location);
  if (!bounds) return std::nullopt;
  bool sum = expr.text == "sum";
  GiNaC::exvector terms;
  for (long i = bounds->first; i <= bounds->second; ++i) {
    context.bindings.push_back({expr.variable.name, i});
    std::optional<ex> term = number(*expr.operands[0], context);
    context.bindings.pop_back();
    if (!term) return std::nullopt;
    terms.push_back(*term);
  }
  return checked(expr.location,
                 [&] { return sum ? ex(GiNaC::add(terms)) : ex(GiNaC::mul(terms)); });
}

}  // namespace daec
