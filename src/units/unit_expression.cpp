// The unit of an expression (unit_expression.h): one function per kind of node.
#include "units/unit_expression.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "units/unit_text.h"

namespace daec {

namespace {

/// The largest denominator tried when a constant exponent is written as a fraction (x^0.5 is the
/// square root, x^(1/3) the cube root).
constexpr int kMaxRootOrder = 12;

/// Exponents of units beyond this are not followed (udunits2 keeps exponents in a small integer).
constexpr double kMaxUnitPower = 100;

/// How close a constant exponent times its denominator must be to a whole number.
constexpr double kExponentTolerance = 1e-9;

/// Functions whose argument must be a pure number and whose value is one (docs/language.md).
const std::set<std::string> kDimensionlessFunctions = {
    "exp", "log", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh"};

std::string format_factor(double factor) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", factor);
  return buffer;
}

}  // namespace

std::string factor_note(const Unit& a, const Unit& b) {
  std::optional<double> factor = a.factor_to(b);
  if (!factor) return "";
  bool larger = *factor >= 1;
  const Unit& big = larger ? a : b;
  const Unit& small = larger ? b : a;
  return " (the same dimension, but 1 " + big.spelling() + " = " +
         format_factor(larger ? *factor : 1 / *factor) + " " + small.spelling() +
         ": a conversion factor is missing)";
}

namespace {

// Where the i-th operand of a sum or product is: its operator (the first: the operand itself).
SourceLocation operand_location(const Expr& e, size_t i) {
  return i < e.operator_locations.size() ? e.operator_locations[i] : start_of(*e.operands[i]);
}

// A fraction p/q (q <= kMaxRootOrder) equal to `x`, if there is one.
std::optional<std::pair<int, int>> as_fraction(double x) {
  if (!std::isfinite(x) || std::fabs(x) > kMaxUnitPower) return std::nullopt;
  for (int q = 1; q <= kMaxRootOrder; ++q) {
    double p = std::round(x * q);
    if (std::fabs(x * q - p) < kExponentTolerance) return std::make_pair(static_cast<int>(p), q);
  }
  return std::nullopt;
}

}  // namespace

SourceLocation start_of(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Power:
    case ExprKind::Relation:
    case ExprKind::And:
    case ExprKind::Or:
      return e.operands.empty() ? e.location : start_of(*e.operands[0]);
    default:
      return e.location;
  }
}

bool UnitInference::check_alike(const Quantity& a, const Quantity& b, const SourceLocation& where,
                                const std::string& what) {
  if (!a.is_known() || !b.is_known()) return true;
  const bool alike = a.unit->same_as(*b.unit);
  if (!alike)
    report_(where, what + " have different units: '" + a.unit->spelling() + "' and '" +
                       b.unit->spelling() + "'" + factor_note(*a.unit, *b.unit));
  // Each name factor of a side: the unit it would need, its own times the other side's over its
  // side's (g in m*g, kg.m/s against N: m/s times N over kg.m/s, N/kg), or nullopt where it fits.
  auto tell = [&](const Quantity& side, const Quantity& other) {
    for (const std::string& name : side.names) {
      if (alike) {
        blame_(name, std::nullopt, where);
        continue;
      }
      const Quantity declared = lookup_(name);
      if (declared.is_known())
        blame_(name, declared.unit->times(*other.unit).divided_by(*side.unit), where);
    }
  };
  if (blame_) {
    tell(a, b);
    tell(b, a);
  }
  return alike;
}

bool UnitInference::check_dimensionless(const Quantity& q, const SourceLocation& where,
                                        const std::string& what) {
  if (!q.is_known() || q.unit->is_dimensionless()) return true;
  report_(where, what + " must be dimensionless, but its unit is '" + q.unit->spelling() + "'");
  return false;
}

Quantity UnitInference::unit_of(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Number:
      return Quantity::number();
    case ExprKind::Name:
      return name_unit(e.text);
    case ExprKind::Index:
      for (const ExprPtr& subscript : e.operands) unit_of(*subscript);
      return name_unit(e.text);
    case ExprKind::Derivative:
      return derivative_unit(e);
    case ExprKind::Call:
      return call_unit(e);
    case ExprKind::Negate:
      return unit_of(*e.operands[0]);  // -g is still a product of g
    case ExprKind::Sum:
      return sum_unit(e);
    case ExprKind::Product:
      return product_unit(e);
    case ExprKind::Power:
      return power_unit(*e.operands[0], *e.operands[1], e.location);
    case ExprKind::If:
      return if_unit(e);
    case ExprKind::Relation:
      return relation_unit(e);
    case ExprKind::And:
    case ExprKind::Or:
    case ExprKind::Not:
      for (const ExprPtr& operand : e.operands) unit_of(*operand);
      return Quantity::condition();
    case ExprKind::Reduction:
      return reduction_unit(e);
    case ExprKind::ArrayLiteral:
    case ExprKind::Comprehension:
      break;  // values of declarations, checked element by element (unit_check.cpp)
  }
  return Quantity::unknown();
}

Quantity UnitInference::name_unit(const std::string& name) {
  for (const std::string& iterator : iterators_) {
    if (iterator == name) return Quantity::number();
  }
  if (name == "t") return Quantity::known(units_.second().spelled("s"));
  if (name == "pi") return Quantity::number();
  Quantity q = lookup_(name);
  if (q.is_known()) q.names = {name};
  return q;
}

// x' has the unit of x per second, x'' per second squared.
Quantity UnitInference::derivative_unit(const Expr& e) {
  return per_second(unit_of(*e.operands[0]), e.order);
}

Quantity UnitInference::per_second(const Quantity& q, int order) const {
  if (!q.is_known()) return q.kind == Quantity::Kind::Number ? q : Quantity::unknown();
  Unit u = q.unit->divided_by(units_.second().raised(order));
  // In the user's words where that stays simple (m: m/s, m/s: m/s2), else the canonical form.
  std::string spelling = q.unit->spelling();
  for (int k = 0; k < order; ++k) spelling = daec::per_second(spelling);
  if (spelling.find('(') == std::string::npos) u = u.spelled(spelling);
  return Quantity::known(u);
}

// The terms alike; the sum has their unit. A number term takes it, an unknown one is skipped.
Quantity UnitInference::sum_unit(const Expr& e) {
  std::optional<Quantity> first;
  bool unknown = false, mismatch = false;
  for (size_t i = 0; i < e.operands.size(); ++i) {
    Quantity q = unit_of(*e.operands[i]);
    if (q.kind == Quantity::Kind::Unknown || q.kind == Quantity::Kind::Condition) unknown = true;
    if (!q.is_known()) continue;
    if (!first) {
      first = q;
    } else if (!check_alike(*first, q, operand_location(e, i), "the terms of this sum")) {
      mismatch = true;
    }
  }
  if (mismatch) return Quantity::unknown();
  if (first) return e.operands.size() == 1 ? *first : first->computed();
  return unknown ? Quantity::unknown() : Quantity::number();
}

// Units multiply and divide; a number factor is a pure number. After an exponent too large to
// compute, the remaining factors are still checked inside, but the product has no unit.
Quantity UnitInference::product_unit(const Expr& e) {
  std::optional<Unit> result;
  bool unknown = false;
  // The name factors of the operands multiplied, each counted with its sign: those once in the
  // numerator are the product's (Quantity::names).
  std::map<std::string, int> powers;
  std::vector<std::string> order;
  for (size_t i = 0; i < e.operands.size(); ++i) {
    Quantity q = unit_of(*e.operands[i]);
    if (q.kind == Quantity::Kind::Number) continue;
    if (!q.is_known()) {
      unknown = true;
      continue;
    }
    if (unknown) continue;
    bool divide = i < e.inverted.size() && e.inverted[i];
    for (const std::string& name : q.names) {
      if (powers.count(name) == 0) order.push_back(name);
      powers[name] += divide ? -1 : 1;
    }
    if (result &&
        !fits(static_cast<long long>(result->largest_exponent()) + q.unit->largest_exponent(),
              "this product, '" + result->spelling() + (divide ? "' divided by '" : "' times '") +
                  q.unit->spelling() + "',",
              operand_location(e, i))) {
      unknown = true;
      continue;
    }
    if (!result) {
      result = divide ? units_.one().divided_by(*q.unit) : *q.unit;
    } else {
      result = divide ? result->divided_by(*q.unit) : result->times(*q.unit);
    }
  }
  if (unknown) return Quantity::unknown();
  if (!result) return Quantity::number();
  Quantity product = Quantity::known(*result);
  for (const std::string& name : order)
    if (powers[name] == 1) product.names.push_back(name);
  return product;
}

// base^exponent: a constant exponent p/q raises to p and takes the q-th root; any other needs a
// dimensionless base. The exponent itself is a pure number.
Quantity UnitInference::power_unit(const Expr& base, const Expr& exponent,
                                   const SourceLocation& where) {
  Quantity b = unit_of(base);
  Quantity x = unit_of(exponent);
  if (!check_dimensionless(x, start_of(exponent), "the exponent of a power"))
    return Quantity::unknown();
  if (!b.is_known()) return b.kind == Quantity::Kind::Number ? b : Quantity::unknown();
  if (b.unit->is_dimensionless()) return Quantity::known(units_.one());
  // A parameter has a value when compiled, but another one may be set at run time (--set n=2),
  // and with it the unit of the power would change.
  std::string parameter = settable_parameter_in(exponent);
  std::optional<double> value =
      parameter.empty() ? constant_value(exponent) : std::optional<double>();
  if (!value) {
    report_(where,
            "a power with a non-constant exponent needs a dimensionless base, but its "
            "unit is '" +
                b.unit->spelling() + "'" +
                (parameter.empty() ? ""
                                   : " (the exponent uses parameter '" + parameter +
                                         "', which can be set at run time)"));
    return Quantity::unknown();
  }
  std::optional<std::pair<int, int>> fraction = as_fraction(*value);
  if (!fraction) return Quantity::unknown();
  if (!fits(static_cast<long long>(b.unit->largest_exponent()) * std::abs(fraction->first),
            "this power, '" + b.unit->spelling() + "' to the power " +
                std::to_string(fraction->first) + ",",
            where)) {
    return Quantity::unknown();
  }
  return root_unit(Quantity::known(b.unit->raised(fraction->first)), fraction->second, where);
}

// Whether an exponent of `largest` stays within what udunits2 holds (Unit::kMaxExponent); if not,
// reports that the unit of `what` cannot be computed, which leaves it unchecked.
bool UnitInference::fits(long long largest, const std::string& what, const SourceLocation& where) {
  if (largest <= Unit::kMaxExponent) return true;
  report_(where, "the unit of " + what + " has an exponent beyond " +
                     std::to_string(Unit::kMaxExponent) +
                     ", more than daec can compute: it is not checked");
  return false;
}

Quantity UnitInference::root_unit(const Quantity& q, int n, const SourceLocation& where) {
  if (!q.is_known() || n == 1) return q;
  if (std::optional<Unit> root = q.unit->root(n)) return Quantity::known(*root);
  std::string which = n == 2 ? "square root" : "root of order " + std::to_string(n);
  report_(where, "the unit '" + q.unit->spelling() + "' has no " + which +
                     " (the exponents of its units are not divisible by " + std::to_string(n) +
                     ")");
  return Quantity::unknown();
}

Quantity UnitInference::call_unit(const Expr& e) {
  const std::string& f = e.text;
  size_t n = e.operands.size();
  if (kDimensionlessFunctions.count(f) && n == 1) return dimensionless_call(e);
  if (f == "sqrt" && n == 1) return root_unit(unit_of(*e.operands[0]), 2, e.location);
  if (f == "pow" && n == 2) return power_unit(*e.operands[0], *e.operands[1], e.location);
  if (f == "abs" && n == 1) return unit_of(*e.operands[0]);
  if ((f == "min" || f == "max") && n >= 1) return alike_call(e, 0, n);
  if (f == "atan2" && n == 2) {
    Quantity q = alike_call(e, 0, n);
    return q.is_known() ? Quantity::known(units_.one()) : q;
  }
  if (f == "interp" && n == 3) return interp_unit(e);
  for (const ExprPtr& operand : e.operands) unit_of(*operand);
  if (f == "sign") return Quantity::number();
  return Quantity::unknown();
}

// exp, log, sin, ...: a pure number in, a pure number out.
Quantity UnitInference::dimensionless_call(const Expr& e) {
  Quantity q = unit_of(*e.operands[0]);
  if (!check_dimensionless(q, start_of(*e.operands[0]), "the argument of '" + e.text + "'"))
    return Quantity::unknown();
  if (q.kind == Quantity::Kind::Number) return q;
  return Quantity::known(units_.one());
}

// min, max, atan2: arguments [first, last) alike; the call has their unit.
Quantity UnitInference::alike_call(const Expr& e, size_t first, size_t last) {
  Alike alike;
  for (size_t i = first; i < last; ++i)
    add_alike(alike, unit_of(*e.operands[i]), *e.operands[i], "the arguments of '" + e.text + "'");
  return alike.result();
}

void UnitInference::add_alike(Alike& alike, const Quantity& q, const Expr& operand,
                              const std::string& what) {
  if (!q.is_known()) {
    alike.unknown = alike.unknown || q.kind != Quantity::Kind::Number;
  } else if (!alike.known) {
    alike.known = q;
  } else if (!check_alike(*alike.known, q, start_of(operand), what)) {
    alike.mismatch = true;
  }
}

Quantity UnitInference::Alike::result() const {
  if (mismatch) return Quantity::unknown();
  if (known) return known->computed();
  return unknown ? Quantity::unknown() : Quantity::number();
}

// interp(v, XS, YS): v in the unit of the breakpoints XS; the value in the unit of YS.
Quantity UnitInference::interp_unit(const Expr& e) {
  Quantity v = unit_of(*e.operands[0]);
  Quantity xs = unit_of(*e.operands[1]);
  Quantity ys = unit_of(*e.operands[2]);
  check_alike(v, xs, start_of(*e.operands[0]),
              "the first argument of 'interp' and its breakpoints");
  return ys;
}

// if C1 then E1 elseif C2 then E2 else E3: the values alike.
Quantity UnitInference::if_unit(const Expr& e) {
  Alike alike;
  for (size_t i = 0; i < e.operands.size(); ++i) {
    bool is_condition = i % 2 == 0 && i + 1 < e.operands.size();
    Quantity q = unit_of(*e.operands[i]);
    if (!is_condition) add_alike(alike, q, *e.operands[i], "the branches of this if-expression");
  }
  return alike.result();
}

Quantity UnitInference::relation_unit(const Expr& e) {
  Quantity a = unit_of(*e.operands[0]);
  Quantity b = unit_of(*e.operands[1]);
  check_alike(a, b, e.location, "the two sides of this comparison");
  return Quantity::condition();
}

// sum(body for i in A:B) has the body's unit; product(...) its power B - A + 1.
Quantity UnitInference::reduction_unit(const Expr& e) {
  unit_of(*e.operands[1]);
  unit_of(*e.operands[2]);
  bind(e.variable.name);
  Quantity body = unit_of(*e.operands[0]);
  unbind();
  if (e.text == "sum" || !body.is_known()) return body;
  if (body.unit->is_dimensionless()) return Quantity::known(units_.one());
  std::optional<double> first = constant_value(*e.operands[1]);
  std::optional<double> last = constant_value(*e.operands[2]);
  if (!first || !last || std::fabs(*last - *first + 1) > kMaxUnitPower) return Quantity::unknown();
  int count = static_cast<int>(std::max(0.0, *last - *first + 1));
  if (!fits(static_cast<long long>(body.unit->largest_exponent()) * count,
            "this product, '" + body.unit->spelling() + "' to the power " + std::to_string(count) +
                ",",
            e.location)) {
    return Quantity::unknown();
  }
  return Quantity::known(body.unit->raised(count));
}

// The value of a constant expression (numbers and parameters), for exponents and ranges.
std::optional<double> UnitInference::constant_value(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Number:
      return std::strtod(e.text.c_str(), nullptr);
    case ExprKind::Name:
      for (const std::string& iterator : iterators_) {
        if (iterator == e.text) return std::nullopt;
      }
      return constant_(e.text);
    case ExprKind::Negate: {
      std::optional<double> v = constant_value(*e.operands[0]);
      return v ? std::optional<double>(-*v) : std::nullopt;
    }
    case ExprKind::Sum:
    case ExprKind::Product: {
      bool sum = e.kind == ExprKind::Sum;
      double result = sum ? 0 : 1;
      for (size_t i = 0; i < e.operands.size(); ++i) {
        std::optional<double> v = constant_value(*e.operands[i]);
        if (!v) return std::nullopt;
        bool inverted = i < e.inverted.size() && e.inverted[i];
        result =
            sum ? (inverted ? result - *v : result + *v) : (inverted ? result / *v : result * *v);
      }
      return result;
    }
    case ExprKind::Power: {
      std::optional<double> b = constant_value(*e.operands[0]);
      std::optional<double> x = constant_value(*e.operands[1]);
      if (!b || !x) return std::nullopt;
      return std::pow(*b, *x);
    }
    default:
      return std::nullopt;
  }
}

// The first name in `e` that is a parameter settable at run time (not a loop variable), or "".
std::string UnitInference::settable_parameter_in(const Expr& e) const {
  if (!settable_) return {};
  if (e.kind == ExprKind::Name &&
      std::find(iterators_.begin(), iterators_.end(), e.text) == iterators_.end() &&
      settable_(e.text))
    return e.text;
  for (const ExprPtr& operand : e.operands) {
    std::string name = settable_parameter_in(*operand);
    if (!name.empty()) return name;
  }
  return {};
}

}  // namespace daec
