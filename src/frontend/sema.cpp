// Semantic analysis of a .dae model: from syntax tree to checked GiNaC model.
#include "frontend/sema.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "frontend/token.h"
#include "model/evaluation.h"
#include "model/functions.h"
#include "model/printer.h"
#include "support/text.h"

namespace daec {

using GiNaC::ex;

bool is_reserved_name(const std::string& name) {
  return name == "t" || name == "pi" || keyword_kind(name) != TokenKind::Identifier ||
         find_function(name) != nullptr;
}

namespace {

/// Exact constants beyond this many bits are refused: they only arise from inputs such as
/// 10^10^10 whose exact evaluation would not finish.
constexpr long kMaxConstantBits = 1 << 16;

/// Thrown before GiNaC is asked for a power whose exact value would exceed kMaxConstantBits.
struct ConstantTooLarge : std::runtime_error {
  ConstantTooLarge() : std::runtime_error("constant too large to compute exactly") {}
};

// Bits of one exact number; 0 for numbers whose powers stay small (0, 1, -1, i, -i) and for
// floating-point ones.
double numeric_bits(const GiNaC::numeric& n) {
  if (!n.is_crational() || n.is_zero() || (n * n).is_equal(1) || (n * n).is_equal(-1)) return 0;
  auto bits = [](const GiNaC::numeric& r) {
    return static_cast<double>(std::max(r.numer().int_length(), r.denom().int_length()));
  };
  return std::max(bits(n.real()), bits(n.imag()));
}

// |re| + |im| of a number, as a double (infinite if it is huge).
double magnitude(const GiNaC::numeric& n) {
  return std::fabs(n.real().to_double()) + std::fabs(n.imag().to_double());
}

// How many bits of exact numbers GiNaC computes, per unit of a numeric exponent, when it raises
// `base` to that power: it evaluates numeric bases, distributes over products ((2x)^n = 2^n x^n),
// multiplies nested exponents (sqrt(2)^n = 2^(n/2)) and takes out the integer content of sums
// ((2x+2)^n = 2^n (x+1)^n). Functions stay unevaluated.
double exact_power_bits(const ex& base) {
  if (GiNaC::is_exactly_a<GiNaC::numeric>(base)) {
    return numeric_bits(GiNaC::ex_to<GiNaC::numeric>(base));
  }
  if (GiNaC::is_exactly_a<GiNaC::power>(base) && GiNaC::is_exactly_a<GiNaC::numeric>(base.op(1))) {
    return exact_power_bits(base.op(0)) * magnitude(GiNaC::ex_to<GiNaC::numeric>(base.op(1)));
  }
  if (GiNaC::is_exactly_a<GiNaC::add>(base)) return numeric_bits(base.integer_content());
  double bits = 0;
  if (GiNaC::is_exactly_a<GiNaC::mul>(base)) {
    for (size_t i = 0; i < base.nops(); ++i) bits += exact_power_bits(base.op(i));
  }
  return bits;
}

// Throws ConstantTooLarge rather than let GiNaC compute base^exponent for a very long time
// (10^10^10, sqrt(2)^(10^10)).
void check_power_size(const ex& base, const ex& exponent) {
  if (!GiNaC::is_exactly_a<GiNaC::numeric>(exponent)) return;
  double size = exact_power_bits(base) * magnitude(GiNaC::ex_to<GiNaC::numeric>(exponent));
  if (size > kMaxConstantBits) throw ConstantTooLarge();
}

// ex::subs with every power size-checked: substituting parameter values makes exponents numeric
// (`parameter a = 10^10, b = 10^a;`). Powers and functions are checked for the arguments GiNaC
// would throw at (`parameter a = 0, b = 1/a;`).
class ValueSubstitution : public GiNaC::map_function {
 public:
  explicit ValueSubstitution(const GiNaC::exmap& values) : values_(values) {}
  ex operator()(const ex& e) override {
    if (GiNaC::is_a<GiNaC::symbol>(e)) {
      auto it = values_.find(e);
      return it == values_.end() ? e : it->second;
    }
    if (GiNaC::is_exactly_a<GiNaC::power>(e)) {
      ex base = (*this)(e.op(0));
      ex exponent = (*this)(e.op(1));
      check_defined("pow", {base, exponent});
      check_power_size(base, exponent);
      return GiNaC::pow(base, exponent);
    }
    if (GiNaC::is_exactly_a<GiNaC::function>(e)) {
      const GiNaC::function& call = GiNaC::ex_to<GiNaC::function>(e);
      GiNaC::exvector args;
      for (size_t i = 0; i < e.nops(); ++i) args.push_back((*this)(e.op(i)));
      check_defined(call.get_name(), args);
      return GiNaC::function(call.get_serial(), args);
    }
    return e.map(*this);
  }

 private:
  const GiNaC::exmap& values_;
};

ex substitute_values(const ex& e, const GiNaC::exmap& values) {
  ValueSubstitution substitution(values);
  return substitution(e);
}

// The exponent of a number literal ("-05", "+3", "12"). The lexer checked that the value fits a
// double, so only an absurdly long mantissa can go with an exponent beyond 12 digits.
long parse_exponent(std::string written) {
  bool negative = !written.empty() && written[0] == '-';
  if (!written.empty() && (written[0] == '-' || written[0] == '+')) written.erase(0, 1);
  written.erase(0, std::min(written.find_first_not_of('0'), written.size()));
  if (written.size() > 12) throw ConstantTooLarge();
  long value = written.empty() ? 0 : std::stol(written);
  return negative ? -value : value;
}

// The message for an exception of GiNaC's evaluation, if it has a plain one; otherwise returns
// "" and sets `detail` to GiNaC's text without its "function_eval(): " prefix.
std::string describe_failure(const std::exception& e, std::string& detail) {
  if (dynamic_cast<const ConstantTooLarge*>(&e)) return e.what();
  detail = e.what();
  if (detail.find("division by zero") != std::string::npos) return "division by zero";
  size_t prefix_end = detail.find("(): ");
  if (prefix_end != std::string::npos) detail.erase(0, prefix_end + 4);
  return {};
}

enum class DeclKind { Parameter, Variable, Output };

struct Declaration {
  DeclKind kind;
  size_t index;  ///< into the ModelSyntax list of its kind
  SourceLocation location;
};

/// What an expression being lowered may refer to.
enum class Role { ParameterValue, StartValue, OutputValue, Equation };

struct Context {
  Role role;
  std::string owner;     ///< the parameter, variable, output or equation being checked
  size_t parameter = 0;  ///< Role::ParameterValue: index of the parameter being defined
};

class Analyzer {
 public:
  Analyzer(const ModelSyntax& syntax, DiagnosticEngine& diags) : syntax_(syntax), diags_(diags) {}
  Model run();

 private:
  void declare_names();
  void declare(const NameToken& name, DeclKind kind, size_t index);
  void check_parameters();
  bool evaluate_parameter(Parameter& parameter, const SourceLocation& loc);
  void check_variables();
  void check_outputs();
  void check_equations();
  void check_labels();
  std::vector<std::set<size_t>> variables_per_equation();
  void check_counts(const std::vector<std::set<size_t>>& used_per_equation);

  std::optional<ex> lower(const Expr& expr, Context& context);
  std::optional<ex> lower_name(const Expr& expr, Context& context);
  std::optional<ex> lower_number(const Expr& expr);
  std::optional<ex> lower_derivative(const Expr& expr, Context& context);
  std::optional<ex> lower_call(const Expr& expr, Context& context);
  std::optional<ex> lower_power(const Expr& expr, Context& context);
  std::optional<ex> lower_nary(const Expr& expr, Context& context);
  /// Runs `build`, reporting at `loc` what goes wrong (`function`: the built-in being applied).
  std::optional<ex> checked(const SourceLocation& loc, const std::function<ex()>& build,
                            const std::string& function = {});
  std::optional<std::vector<ex>> lower_all(const Expr& expr, Context& context);

  void report_undeclared(const Expr& expr);
  void report_forward_reference(const Expr& expr, size_t referenced, const Context& context);
  std::string role_noun(const Context& context) const;

  const Declaration* lookup(const std::string& name) const {
    auto it = declarations_.find(name);
    return it == declarations_.end() ? nullptr : &it->second;
  }

  const ModelSyntax& syntax_;
  DiagnosticEngine& diags_;
  Model model_;
  std::map<std::string, Declaration> declarations_;
  /// For each syntax-level declaration, its index in the model (absent if it was rejected).
  std::map<size_t, size_t> parameter_slot_, variable_slot_;
  GiNaC::exmap exact_parameter_values_;
  std::set<std::string> in_reported_cycle_;  ///< parameters of the cycles reported so far
  std::map<ex, size_t, GiNaC::ex_is_less> variable_index_;  ///< variable symbol -> model index
};

Model Analyzer::run() {
  model_.name = syntax_.name.name;
  model_.description = syntax_.description;
  model_.location = syntax_.name.location.valid() ? syntax_.name.location : syntax_.end_location;
  if (model_.location.file) model_.file_name = model_.location.file->name();
  declare_names();
  check_parameters();
  check_variables();
  check_outputs();
  check_equations();
  return std::move(model_);
}

// ---- declarations ----

// Declarations are entered in source order, whatever their kind, so that a redeclaration is
// reported at the later of the two names and its note points at the earlier one.
void Analyzer::declare_names() {
  std::vector<std::tuple<size_t, const NameToken*, DeclKind, size_t>> names;
  for (size_t i = 0; i < syntax_.parameters.size(); ++i) {
    const NameToken& name = syntax_.parameters[i].name;
    names.emplace_back(name.location.offset, &name, DeclKind::Parameter, i);
  }
  for (size_t i = 0; i < syntax_.variables.size(); ++i) {
    const NameToken& name = syntax_.variables[i].name;
    names.emplace_back(name.location.offset, &name, DeclKind::Variable, i);
  }
  for (size_t i = 0; i < syntax_.outputs.size(); ++i) {
    const NameToken& name = syntax_.outputs[i].name;
    names.emplace_back(name.location.offset, &name, DeclKind::Output, i);
  }
  std::stable_sort(names.begin(), names.end(),
                   [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
  for (const auto& [offset, name, kind, index] : names) declare(*name, kind, index);
}

void Analyzer::declare(const NameToken& name, DeclKind kind, size_t index) {
  if (is_reserved_name(name.name)) {
    std::string why = name.name == "t"           ? "it stands for time"
                      : name.name == "pi"        ? "it stands for the constant 3.14159..."
                      : find_function(name.name) ? "it is a built-in function"
                                                 : "it is a keyword";
    diags_.error(name.location, "'" + name.name + "' is reserved and cannot be declared: " + why);
    return;
  }
  if (const Declaration* previous = lookup(name.name)) {
    diags_.error(name.location, "redeclaration of '" + name.name + "'");
    diags_.note(previous->location, "previous declaration of '" + name.name + "' is here");
    return;
  }
  declarations_[name.name] = Declaration{kind, index, name.location};
}

// A declaration that was rejected (reserved or duplicate) is not the one in the table.
static bool is_registered(const Declaration* decl, DeclKind kind, size_t index) {
  return decl && decl->kind == kind && decl->index == index;
}

void Analyzer::check_parameters() {
  for (size_t i = 0; i < syntax_.parameters.size(); ++i) {
    const ParameterDecl& decl = syntax_.parameters[i];
    if (!is_registered(lookup(decl.name.name), DeclKind::Parameter, i)) continue;
    Context context{Role::ParameterValue, decl.name.name, i};
    std::optional<ex> value = lower(*decl.value, context);
    if (!value) continue;
    Parameter parameter{decl.name.name,
                        decl.description,
                        decl.name.location,
                        GiNaC::ex_to<GiNaC::realsymbol>(model_.symbols.get(decl.name.name)),
                        *value,
                        0.0};
    // A parameter without a value is left out, so that the parameters and start values that use
    // it are not reported as well.
    if (!evaluate_parameter(parameter, decl.name.location)) continue;
    parameter_slot_[i] = model_.parameters.size();
    model_.parameters.push_back(std::move(parameter));
  }
}

// Converts `value`, with the exact parameter `values` substituted, to a finite double, or returns
// the reason it cannot be. The substitution is inside the try: it evaluates, so it can divide by
// zero (`parameter a = 0, b = 1/a;`).
static std::optional<std::string> to_finite_double(const ex& value, const GiNaC::exmap& values,
                                                   double& out, ex* exact = nullptr) {
  try {
    ex substituted = substitute_values(value, values);
    if (exact) *exact = substituted;
    ex numeric_value = evaluate_bounded(substituted);
    if (!GiNaC::is_a<GiNaC::numeric>(numeric_value)) return "it is not a constant";
    const GiNaC::numeric& number = GiNaC::ex_to<GiNaC::numeric>(numeric_value);
    if (!number.is_real()) return "it is not a real number";
    out = number.to_double();
    if (!std::isfinite(out)) return "it is too large for a double";
    return std::nullopt;
  } catch (const ValueOutOfRange& e) {
    return e.what();
  } catch (const std::exception& e) {
    std::string detail;
    std::string problem = describe_failure(e, detail);
    return problem.empty() ? "it is undefined (" + detail + ")" : problem;
  }
}

bool Analyzer::evaluate_parameter(Parameter& parameter, const SourceLocation& loc) {
  ex exact;
  std::optional<std::string> problem =
      to_finite_double(parameter.default_value, exact_parameter_values_, parameter.value, &exact);
  if (problem) {
    diags_.error(loc,
                 "value of parameter '" + parameter.name + "' cannot be evaluated: " + *problem);
    return false;
  }
  exact_parameter_values_[parameter.symbol] = exact;
  return true;
}

void Analyzer::check_variables() {
  for (size_t i = 0; i < syntax_.variables.size(); ++i) {
    const VariableDecl& decl = syntax_.variables[i];
    if (!is_registered(lookup(decl.name.name), DeclKind::Variable, i)) continue;
    Variable variable;
    variable.name = decl.name.name;
    variable.description = decl.description;
    variable.location = decl.name.location;
    variable.symbol = GiNaC::ex_to<GiNaC::realsymbol>(model_.symbols.get(decl.name.name));
    variable.fixed = decl.fixed;
    if (decl.start) {
      Context context{Role::StartValue, decl.name.name, 0};
      std::optional<ex> start = lower(*decl.start, context);
      if (!start) continue;
      double value;
      if (auto problem = to_finite_double(*start, exact_parameter_values_, value)) {
        diags_.error(decl.start->location,
                     "start value of '" + decl.name.name + "' cannot be evaluated: " + *problem);
        continue;
      }
      variable.start = *start;
    }
    variable_slot_[i] = model_.variables.size();
    variable_index_[variable.symbol] = model_.variables.size();
    model_.variables.push_back(std::move(variable));
  }
}

void Analyzer::check_outputs() {
  for (size_t i = 0; i < syntax_.outputs.size(); ++i) {
    const OutputDecl& decl = syntax_.outputs[i];
    if (!is_registered(lookup(decl.name.name), DeclKind::Output, i)) continue;
    Context context{Role::OutputValue, decl.name.name, 0};
    std::optional<ex> value = lower(*decl.value, context);
    if (!value) continue;
    model_.outputs.push_back(Output{decl.name.name, decl.description, decl.name.location, *value});
  }
}

// ---- equations ----

// Whether `e` holds a number no double can hold: sema computes with literals exactly, so
// `1e308*1e308*x` is 1e616*x, and the generated code would hold infinity.
static bool holds_number_beyond_double(const ex& e) {
  static const GiNaC::numeric largest(std::numeric_limits<double>::max());
  for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it) {
    if (!GiNaC::is_a<GiNaC::numeric>(*it)) continue;
    const GiNaC::numeric& number = GiNaC::ex_to<GiNaC::numeric>(*it);
    if (number.is_real() && GiNaC::abs(number) > largest) return true;
  }
  return false;
}

void Analyzer::check_equations() {
  check_labels();
  for (size_t i = 0; i < syntax_.equations.size(); ++i) {
    const EquationDecl& decl = syntax_.equations[i];
    std::string label = decl.label.name.empty() ? "eq" + std::to_string(i + 1) : decl.label.name;
    Context context{Role::Equation, label, 0};
    std::optional<ex> lhs = lower(*decl.lhs, context);
    std::optional<ex> rhs = lower(*decl.rhs, context);
    if (!lhs || !rhs) continue;
    if (holds_number_beyond_double(*lhs) || holds_number_beyond_double(*rhs)) {
      diags_.error(decl.location, "equation '" + label +
                                      "' holds a constant too large for a double (its numbers "
                                      "combine to more than about 1.8e308)");
      continue;
    }
    if ((*lhs - *rhs).is_zero()) {
      diags_.error(decl.location, "equation '" + label +
                                      "' is always true (its two sides are identical), so it "
                                      "determines nothing");
      continue;
    }
    model_.equations.push_back(
        Equation{label, !decl.label.name.empty(), decl.location, *lhs, *rhs});
  }
  std::vector<std::set<size_t>> used_per_equation = variables_per_equation();
  for (size_t i = 0; i < model_.equations.size(); ++i) {
    if (!used_per_equation[i].empty()) continue;
    diags_.error(model_.equations[i].location,
                 "equation '" + model_.equations[i].label +
                     "' contains no variables: it is either always true or contradictory, and "
                     "determines nothing");
  }
  check_counts(used_per_equation);
}

// Which variables (or their derivatives) each equation contains after simplification; derivative
// orders that cancelled out everywhere are dropped from the model.
std::vector<std::set<size_t>> Analyzer::variables_per_equation() {
  std::vector<std::set<size_t>> used(model_.equations.size());
  std::vector<int> highest(model_.variables.size(), 0);
  for (size_t i = 0; i < model_.equations.size(); ++i) {
    for (const ex& symbol : symbols_in(model_.equations[i].residual())) {
      if (auto derivative = model_.derivative_of(symbol)) {
        used[i].insert(derivative->variable);
        highest[derivative->variable] = std::max(highest[derivative->variable], derivative->order);
      } else if (auto it = variable_index_.find(symbol); it != variable_index_.end()) {
        used[i].insert(it->second);
      }
    }
  }
  for (size_t v = 0; v < model_.variables.size(); ++v) model_.truncate_derivatives(v, highest[v]);
  return used;
}

void Analyzer::check_labels() {
  std::map<std::string, SourceLocation> labels;
  for (const EquationDecl& decl : syntax_.equations) {
    if (decl.label.name.empty()) continue;
    auto [it, inserted] = labels.emplace(decl.label.name, decl.label.location);
    if (!inserted) {
      diags_.error(decl.label.location, "duplicate equation label '" + decl.label.name + "'");
      diags_.note(it->second, "label '" + decl.label.name + "' is first used here");
    }
  }
  for (size_t i = 0; i < syntax_.equations.size(); ++i) {
    if (!syntax_.equations[i].label.name.empty()) continue;
    std::string automatic = "eq" + std::to_string(i + 1);
    auto it = labels.find(automatic);
    if (it != labels.end()) {
      diags_.error(it->second, "label '" + automatic +
                                   "' clashes with the automatic name of unlabelled equation " +
                                   std::to_string(i + 1));
      diags_.note(syntax_.equations[i].location, "equation " + std::to_string(i + 1) + " is here");
    }
  }
}

// Counting only makes sense for a model whose statements were all understood: after an error the
// numbers would mislead.
void Analyzer::check_counts(const std::vector<std::set<size_t>>& used_per_equation) {
  if (diags_.has_errors()) return;
  size_t equations = model_.equations.size();
  size_t variables = model_.variables.size();
  if (variables == 0) {
    diags_.error(model_.location, "model '" + model_.name + "' declares no variables");
    return;
  }
  std::vector<bool> used(variables, false);
  for (const std::set<size_t>& set : used_per_equation) {
    for (size_t v : set) used[v] = true;
  }
  if (equations != variables) {
    diags_.error(model_.location,
                 "model '" + model_.name + "' has " + std::to_string(equations) + " equation" +
                     (equations == 1 ? "" : "s") + " for " + std::to_string(variables) +
                     " variable" + (variables == 1 ? "" : "s") +
                     (equations < variables ? " (underdetermined)" : " (overdetermined)"));
  }
  for (size_t v = 0; v < variables; ++v) {
    if (used[v]) continue;
    diags_.error(model_.variables[v].location,
                 "variable '" + model_.variables[v].name +
                     "' appears in no equation, so nothing determines it");
  }
}

// ---- expressions ----

std::string Analyzer::role_noun(const Context& context) const {
  switch (context.role) {
    case Role::ParameterValue:
      return "the value of parameter '" + context.owner + "'";
    case Role::StartValue:
      return "the start value of '" + context.owner + "'";
    case Role::OutputValue:
      return "output '" + context.owner + "'";
    case Role::Equation:
      return "equation '" + context.owner + "'";
  }
  return {};
}

// The operands were checked when they were built, so an imaginary number can only come from the
// evaluation of this node: it is the node itself or one of its direct operands (sqrt(-4) is 2*I,
// log(-1) is I*pi).
static bool has_imaginary_part(const ex& e) {
  auto imaginary = [](const ex& x) {
    return GiNaC::is_exactly_a<GiNaC::numeric>(x) && !GiNaC::ex_to<GiNaC::numeric>(x).is_real();
  };
  if (imaginary(e)) return true;
  for (size_t i = 0; i < e.nops(); ++i) {
    if (imaginary(e.op(i))) return true;
  }
  return false;
}

std::optional<ex> Analyzer::checked(const SourceLocation& loc, const std::function<ex()>& build,
                                    const std::string& function) {
  try {
    ex result = build();
    if (GiNaC::is_exactly_a<GiNaC::numeric>(result) &&
        numeric_bits(GiNaC::ex_to<GiNaC::numeric>(result)) > kMaxConstantBits) {
      throw ConstantTooLarge();
    }
    if (has_imaginary_part(result)) {
      diags_.error(loc, (function.empty() ? std::string("expression") : "'" + function + "'") +
                            " has no real value here (" + to_dae(result) + ")");
      return std::nullopt;
    }
    return result;
  } catch (const std::exception& e) {
    std::string detail;
    std::string message = describe_failure(e, detail);
    if (message.empty()) {
      message = (function.empty() ? "expression is undefined here"
                                  : "'" + function + "' is undefined for this argument") +
                " (" + detail + ")";
    }
    diags_.error(loc, message);
    return std::nullopt;
  }
}

std::optional<ex> Analyzer::lower(const Expr& expr, Context& context) {
  switch (expr.kind) {
    case ExprKind::Number:
      return lower_number(expr);
    case ExprKind::Name:
      return lower_name(expr, context);
    case ExprKind::Derivative:
      return lower_derivative(expr, context);
    case ExprKind::Call:
      return lower_call(expr, context);
    case ExprKind::Power:
      return lower_power(expr, context);
    case ExprKind::Negate: {
      std::optional<ex> operand = lower(*expr.operands[0], context);
      if (!operand) return std::nullopt;
      return checked(expr.location, [&] { return -*operand; });
    }
    case ExprKind::Sum:
    case ExprKind::Product:
      return lower_nary(expr, context);
  }
  return std::nullopt;
}

// Lowers every operand, so that all errors in them are reported.
std::optional<std::vector<ex>> Analyzer::lower_all(const Expr& expr, Context& context) {
  std::vector<ex> values;
  bool ok = true;
  for (const ExprPtr& operand : expr.operands) {
    std::optional<ex> value = lower(*operand, context);
    if (value) values.push_back(*value);
    ok = ok && value.has_value();
  }
  if (!ok) return std::nullopt;
  return values;
}

std::optional<ex> Analyzer::lower_number(const Expr& expr) {
  // Decimal literals become exact rationals, so that symbolic rank decisions are exact.
  const std::string& text = expr.text;
  size_t exponent_at = text.find_first_of("eE");
  std::string digits = text.substr(0, exponent_at);
  size_t point = digits.find('.');
  long fraction_digits = 0;
  if (point != std::string::npos) {
    fraction_digits = static_cast<long>(digits.size() - point - 1);
    digits.erase(point, 1);
  }
  // Zero first: 0e99999999999999999999 is a valid zero whose exponent fits no integer type.
  size_t first_nonzero = digits.find_first_not_of('0');
  if (first_nonzero == std::string::npos) return ex(0);
  digits.erase(0, first_nonzero);
  return checked(expr.location, [&] {
    long exponent = -fraction_digits;
    if (exponent_at != std::string::npos) exponent += parse_exponent(text.substr(exponent_at + 1));
    GiNaC::numeric value(digits.c_str());
    GiNaC::numeric scale = GiNaC::pow(GiNaC::numeric(10), GiNaC::numeric(std::labs(exponent)));
    return ex(exponent >= 0 ? value * scale : value / scale);
  });
}

std::optional<ex> Analyzer::lower_name(const Expr& expr, Context& context) {
  const std::string& name = expr.text;
  bool constant_role = context.role == Role::ParameterValue || context.role == Role::StartValue;
  if (name == "pi") return ex(GiNaC::Pi);
  if (name == "t") {
    if (constant_role) {
      diags_.error(expr.location, role_noun(context) + " must be constant, but uses time 't'");
      return std::nullopt;
    }
    return ex(model_.time);
  }
  if (find_function(name)) {
    diags_.error(expr.location, "'" + name + "' is a function; call it as " + name + "(...)");
    return std::nullopt;
  }
  const Declaration* decl = lookup(name);
  if (!decl) {
    report_undeclared(expr);
    return std::nullopt;
  }
  switch (decl->kind) {
    case DeclKind::Parameter: {
      if (context.role == Role::ParameterValue && decl->index >= context.parameter) {
        report_forward_reference(expr, decl->index, context);
        return std::nullopt;
      }
      auto slot = parameter_slot_.find(decl->index);
      if (slot == parameter_slot_.end()) return std::nullopt;  // its own error was reported
      return ex(model_.parameters[slot->second].symbol);
    }
    case DeclKind::Variable: {
      if (constant_role) {
        diags_.error(expr.location,
                     role_noun(context) + " must be constant, but uses variable '" + name + "'");
        return std::nullopt;
      }
      auto slot = variable_slot_.find(decl->index);
      if (slot == variable_slot_.end()) return std::nullopt;
      return ex(model_.variables[slot->second].symbol);
    }
    case DeclKind::Output:
      diags_.error(expr.location, "'" + name + "' is an output; outputs cannot be used in " +
                                      role_noun(context) + " (write its expression instead)");
      return std::nullopt;
  }
  return std::nullopt;
}

void Analyzer::report_undeclared(const Expr& expr) {
  std::vector<std::string> candidates;
  for (const auto& [name, decl] : declarations_) candidates.push_back(name);
  std::string message = "use of undeclared name '" + expr.text + "'";
  if (auto suggestion = closest_name(expr.text, candidates)) {
    message += "; did you mean '" + *suggestion + "'?";
  }
  diags_.error(expr.location, message);
}

// Names that the value expression of parameter `index` refers to directly.
static void collect_names(const Expr& expr, std::set<std::string>& names) {
  if (expr.kind == ExprKind::Name) names.insert(expr.text);
  for (const ExprPtr& operand : expr.operands) collect_names(*operand, names);
}

void Analyzer::report_forward_reference(const Expr& expr, size_t referenced,
                                        const Context& context) {
  const std::string& name = expr.text;
  if (referenced == context.parameter) {
    diags_.error(expr.location, "parameter '" + name + "' is defined in terms of itself");
    return;
  }
  // Follow references from the later parameter: if they lead back, this is a cycle.
  std::vector<std::string> path{context.owner, name};
  std::set<std::string> visited{name};
  std::function<bool(size_t)> leads_back = [&](size_t index) {
    std::set<std::string> names;
    collect_names(*syntax_.parameters[index].value, names);
    for (const std::string& next : names) {
      const Declaration* decl = lookup(next);
      if (!decl || decl->kind != DeclKind::Parameter) continue;
      if (next == context.owner) {
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
  if (leads_back(referenced)) {
    // Each cycle is reported once, at the first of its parameters; the others fail silently.
    if (in_reported_cycle_.count(context.owner)) return;
    in_reported_cycle_.insert(path.begin(), path.end());
    std::string cycle;
    for (const std::string& step : path) cycle += (cycle.empty() ? "" : " -> ") + step;
    diags_.error(expr.location, "parameters depend on each other in a cycle: " + cycle);
  } else {
    diags_.error(expr.location, "parameter '" + name + "' is used before its declaration " +
                                    "(a parameter may use only parameters declared earlier)");
  }
  diags_.note(lookup(name)->location, "'" + name + "' is declared here");
}

std::optional<ex> Analyzer::lower_derivative(const Expr& expr, Context& context) {
  int order = expr.order;
  const Expr* operand = expr.operands[0].get();
  while (operand->kind == ExprKind::Derivative) {  // der(x)' is x''
    order += operand->order;
    operand = operand->operands[0].get();
  }
  if (context.role != Role::Equation) {
    diags_.error(expr.location, "derivatives are not allowed in " + role_noun(context));
    return std::nullopt;
  }
  if (operand->kind != ExprKind::Name) {
    diags_.error(expr.location,
                 "derivative of an expression: der() and ' apply to a variable name only");
    return std::nullopt;
  }
  const std::string& name = operand->text;
  const Declaration* decl = lookup(name);
  std::string problem;
  if (name == "t") {
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
    diags_.error(operand->location, problem);
    return std::nullopt;
  }
  auto slot = variable_slot_.find(decl->index);
  if (slot == variable_slot_.end()) return std::nullopt;
  return ex(model_.derivative(slot->second, order));
}

// What a name that is not a function stands for, for "'x' is a variable, not a function".
static std::string name_noun(const std::string& name, const Declaration* decl) {
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

std::optional<ex> Analyzer::lower_call(const Expr& expr, Context& context) {
  const BuiltinFunction* function = find_function(expr.text);
  if (!function) {
    std::string noun = name_noun(expr.text, lookup(expr.text));
    std::string message = noun.empty() ? "unknown function '" + expr.text + "'"
                                       : "'" + expr.text + "' is " + noun + ", not a function";
    if (noun.empty()) {
      if (auto suggestion = closest_name(expr.text, function_names())) {
        message += "; did you mean '" + *suggestion + "'?";
      }
    }
    diags_.error(expr.location, message);
    lower_all(expr, context);  // report errors inside the arguments too
    return std::nullopt;
  }
  std::optional<std::vector<ex>> arguments = lower_all(expr, context);
  int given = static_cast<int>(expr.operands.size());
  if (given != function->arity) {
    diags_.error(expr.location, "'" + expr.text + "' takes " + std::to_string(function->arity) +
                                    " argument" + (function->arity == 1 ? "" : "s") + ", but " +
                                    std::to_string(given) + (given == 1 ? " was" : " were") +
                                    " given");
    return std::nullopt;
  }
  if (!arguments) return std::nullopt;
  bool is_pow = expr.text == "pow";
  return checked(
      expr.location,
      [&] {
        check_defined(expr.text, *arguments);
        if (is_pow) check_power_size((*arguments)[0], (*arguments)[1]);
        return function->build(*arguments);
      },
      expr.text);
}

std::optional<ex> Analyzer::lower_power(const Expr& expr, Context& context) {
  std::optional<std::vector<ex>> operands = lower_all(expr, context);
  if (!operands) return std::nullopt;
  const ex& base = (*operands)[0];
  const ex& exponent = (*operands)[1];
  return checked(expr.location, [&] {
    check_defined("pow", {base, exponent});
    check_power_size(base, exponent);
    return GiNaC::pow(base, exponent);
  });
}

// Each operand is lowered on its own, so that `sinn(x) / 0` reports the division too.
std::optional<ex> Analyzer::lower_nary(const Expr& expr, Context& context) {
  bool sum = expr.kind == ExprKind::Sum;
  bool ok = true;
  GiNaC::exvector terms;
  for (size_t i = 0; i < expr.operands.size(); ++i) {
    std::optional<ex> operand = lower(*expr.operands[i], context);
    if (operand && !sum && expr.inverted[i] && operand->is_zero()) {
      diags_.error(expr.operator_locations[i], "division by zero");
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

}  // namespace

Model analyze(const ModelSyntax& syntax, DiagnosticEngine& diags) {
  // The checks run kind by kind (declarations, parameters, ..., equations); the reader wants the
  // errors in the order of the file.
  size_t first = diags.diagnostics().size();
  Model model = Analyzer(syntax, diags).run();
  diags.sort_by_location(first);
  return model;
}

}  // namespace daec
