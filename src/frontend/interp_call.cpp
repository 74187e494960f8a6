// Lowering interp(v, XS, YS) (docs/language.md, "Tables: interp"): its table arguments are names
// of one-dimensional parameter arrays of equal length, at least 2, whose breakpoints XS increase
// strictly (checked here on the defaults; set_parameter keeps the order at run time through
// Model::parameter_orders). The call becomes the conditional expression of
// model/interpolation.h.
#include <cstdio>
#include <cstdlib>

#include "frontend/expressions.h"
#include "model/interpolation.h"
#include "support/text.h"

namespace daec {

using GiNaC::ex;

namespace {

/// Enough significant digits for any double to read back as itself.
constexpr int kRoundTripDigits = 17;

// The shortest decimal spelling of `value` that reads back as `value`.
std::string shortest(double value) {
  char text[32];
  for (int digits = 1; digits <= kRoundTripDigits; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

const char* argument_role(size_t argument) {
  return argument == 1 ? "second argument (the breakpoints XS)" : "third argument (the values YS)";
}

}  // namespace

// interp(v, XS, YS): every argument is checked, so that all their errors are reported at once.
std::optional<ExpressionLowering::Value> ExpressionLowering::lower_interp(const Expr& expr,
                                                                          Context& context) {
  std::optional<ex> v = number(*expr.operands[0], context);
  std::optional<std::vector<ex>> xs = table_argument(expr, 1, context);
  std::optional<std::vector<ex>> ys = table_argument(expr, 2, context);
  if (!v || !xs || !ys) return std::nullopt;
  const std::string& xs_name = expr.operands[1]->text;
  const std::string& ys_name = expr.operands[2]->text;
  if (xs->size() != ys->size()) {
    error(expr.location, "'interp': the breakpoints '" + xs_name + "' have " +
                             std::to_string(xs->size()) + " elements, but the values '" + ys_name +
                             "' have " + std::to_string(ys->size()) +
                             "; a table needs one value per breakpoint");
    return std::nullopt;
  }
  if (xs->size() < 2) {
    error(expr.location, "'interp': the table '" + xs_name + "' has " +
                             count_of(xs->size(), "point") + "; interpolation needs at least 2");
    return std::nullopt;
  }
  if (!check_breakpoints(expr, *xs)) return std::nullopt;
  // Nothing here can throw: the slopes divide by differences checked nonzero.
  return Value{make_interpolation(*v, *xs, *ys), false};
}

// The elements of the table named by argument `argument` of `call`, a one-dimensional parameter
// array (its symbols, or the values of a parameter fixed at compile time).
std::optional<std::vector<ex>> ExpressionLowering::table_argument(const Expr& call, size_t argument,
                                                                  Context& context) {
  const Expr& operand = *call.operands[argument];
  const std::string& name = operand.text;
  const Declaration* decl = operand.kind == ExprKind::Name && !loop_variable(name, context)
                                ? declarations_.lookup(name)
                                : nullptr;
  if (operand.kind == ExprKind::Name && !decl && !loop_variable(name, context) && name != "t" &&
      name != "pi") {
    report_undeclared(operand);
    return std::nullopt;
  }
  std::string found;
  if (operand.kind != ExprKind::Name) {
    found = "an expression";
  } else if (!decl) {
    found = name == "t"    ? "time 't'"
            : name == "pi" ? "the constant 'pi'"
                           : "loop variable '" + name + "'";
  } else if (decl->kind != DeclKind::Parameter) {
    found = (decl->kind == DeclKind::Variable ? "variable '" : "output '") + name + "'";
  } else if (decl->index >= context.parameter_limit || !decl->expanded) {
    lower_element(operand, *decl, 0, name, context);  // reports a forward reference
    return std::nullopt;                              // (a rejection was reported before)
  } else if (!decl->is_array()) {
    found = "scalar parameter '" + name + "'";
  } else if (decl->shape.size() != 1) {
    found = "two-dimensional parameter '" + name + "'";
  }
  if (!found.empty()) {
    error(operand.location, "'interp' takes the name of a one-dimensional parameter array as its " +
                                std::string(argument_role(argument)) + ", not " + found);
    return std::nullopt;
  }
  if (decl->structural) return decl->values;
  return decl->elements;
}

// The breakpoints must increase strictly: checked on their values (the defaults), reported at
// the first pair out of order; the pairs are kept for set_parameter to check at run time.
bool ExpressionLowering::check_breakpoints(const Expr& call, const std::vector<ex>& xs) {
  const std::string& name = call.operands[1]->text;
  const Declaration& decl = *declarations_.lookup(name);
  auto value = [&](size_t k) {
    if (decl.structural) return GiNaC::ex_to<GiNaC::numeric>(decl.values[k]).to_double();
    return model_.parameters[decl.slots[k]].value;
  };
  for (size_t k = 1; k < xs.size(); ++k) {
    if (value(k) > value(k - 1)) continue;
    std::string upper = element_name(name, {static_cast<long>(k + 1)});
    std::string lower = element_name(name, {static_cast<long>(k)});
    error(call.operands[1]->location, "'interp': the breakpoints '" + name +
                                          "' must increase strictly, but " + upper + " = " +
                                          shortest(value(k)) + " is not greater than " + lower +
                                          " = " + shortest(value(k - 1)));
    return false;
  }
  if (decl.structural) return true;
  // A table's pairs are entered together: its first pair tells whether an earlier use did.
  for (const ParameterOrder& o : model_.parameter_orders)
    if (o.lower == decl.slots[0] && o.upper == decl.slots[1]) return true;
  for (size_t k = 1; k < xs.size(); ++k)
    model_.parameter_orders.push_back(ParameterOrder{decl.slots[k - 1], decl.slots[k]});
  return true;
}

}  // namespace daec
