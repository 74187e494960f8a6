// The dimensional check of a model (unit_check.h): the declared units, then every statement,
// output and declared value through UnitInference.
#include "units/unit_check.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "units/unit_expression.h"

namespace daec {

namespace {

class UnitChecker {
 public:
  UnitChecker(const ModelSyntax& syntax, const Model& model, UnitCheckMode mode,
              DiagnosticEngine& diags)
      : syntax_(syntax),
        model_(model),
        mode_(mode),
        diags_(diags),
        units_(UnitSystem::instance()),
        inference_(
            units_, [this](const std::string& name) { return lookup(name); },
            [this](const std::string& name) { return constant(name); },
            [this](const SourceLocation& where, const std::string& message) {
              report(where, message);
            },
            [this](const std::string& name) { return model_.find_parameter(name) != nullptr; },
            [this](const std::string& name, const std::optional<Unit>& needed,
                   const SourceLocation& where) { blame(name, needed, where); }) {}

  void parse_declared_units();
  /// Whether a declaration has a unit: a model without any is not checked (`sin(t)` in a
  /// dimensionless test problem is not a mistake).
  bool has_units() const;
  void check_model();

 private:
  void declare(const std::string& name, const std::string& unit, const SourceLocation& where);
  Quantity lookup(const std::string& name) const;
  std::optional<double> constant(const std::string& name) const;
  void report(const SourceLocation& where, const std::string& message);
  void check_statements(const std::vector<Statement>& statements);
  void check_when(const WhenDecl& when);
  void check_equation(const EquationDecl& equation);
  void check_value(const Expr& value, const std::string& name, const std::string& what);
  void blame(const std::string& name, const std::optional<Unit>& needed,
             const SourceLocation& where);
  void report_declarations();

  const ModelSyntax& syntax_;
  const Model& model_;
  UnitCheckMode mode_;
  DiagnosticEngine& diags_;
  const UnitSystem& units_;
  UnitInference inference_;
  std::map<std::string, std::optional<Unit>> declared_;  ///< by name; nullopt: no unit
  std::map<std::string, SourceLocation> declared_at_;    ///< where each unit is written
  /// The uses of a name (a factor of a side) whose units disagreed: the unit the name needed
  /// there, and where; and the names that fitted somewhere.
  std::map<std::string, std::vector<std::pair<Unit, SourceLocation>>> blamed_;
  std::set<std::string> fitted_;
};

// An empty unit string means no unit, as no `unit` at all does.
void UnitChecker::declare(const std::string& name, const std::string& unit,
                          const SourceLocation& where) {
  std::optional<Unit>& slot = declared_[name];
  if (unit.empty()) return;
  declared_at_[name] = where;
  std::string problem;
  slot = units_.parse(unit, problem);
  if (!slot) diags_.error(where, problem);
}

void UnitChecker::parse_declared_units() {
  for (const ParameterDecl& p : syntax_.parameters) declare(p.name.name, p.unit, p.unit_location);
  for (const VariableDecl& v : syntax_.variables) declare(v.name.name, v.unit, v.unit_location);
  for (const OutputDecl& o : syntax_.outputs) declare(o.name.name, o.unit, o.unit_location);
}

bool UnitChecker::has_units() const {
  for (const auto& [name, unit] : declared_) {
    if (unit) return true;
  }
  return false;
}

Quantity UnitChecker::lookup(const std::string& name) const {
  auto it = declared_.find(name);
  if (it == declared_.end() || !it->second) return Quantity::unknown();
  return Quantity::known(*it->second);
}

std::optional<double> UnitChecker::constant(const std::string& name) const {
  for (const Constant& c : model_.constants) {
    if (c.name == name) return c.value;
  }
  if (const Parameter* p = model_.find_parameter(name)) return p->value;
  return std::nullopt;
}

void UnitChecker::report(const SourceLocation& where, const std::string& message) {
  if (mode_ == UnitCheckMode::Error) {
    diags_.error(where, message);
  } else {
    diags_.warning(where, message);
  }
}

void UnitChecker::check_model() {
  for (const ParameterDecl& p : syntax_.parameters) {
    check_value(*p.value, p.name.name, "parameter");
  }
  for (const VariableDecl& v : syntax_.variables) {
    if (v.start) check_value(*v.start, v.name.name, "start value of variable");
    if (v.nominal) check_value(*v.nominal, v.name.name, "nominal value of variable");
  }
  for (const OutputDecl& o : syntax_.outputs) check_value(*o.value, o.name.name, "output");
  check_statements(syntax_.statements);
  check_statements(syntax_.initial_statements);
  report_declarations();
}

// After a comparison with `name` a factor of one side: the unit it needed there (nullopt: its
// own fitted), for report_declarations.
void UnitChecker::blame(const std::string& name, const std::optional<Unit>& needed,
                        const SourceLocation& where) {
  if (declared_at_.count(name) == 0) return;
  if (needed) {
    blamed_[name].emplace_back(*needed, where);
  } else {
    fitted_.insert(name);
  }
}

// How far `spelling` is from the declared unit's: symbols it writes that `declared` does not, then
// symbols in all (so that g in m/s is told of m/s2 rather than of N/kg, the same unit).
std::pair<size_t, size_t> distance(const Unit& unit, const Unit& declared) {
  const Unit::Factors factors = unit.factors(), own = declared.factors();
  size_t foreign = 0;
  for (const auto& [symbol, exponent] : factors) {
    (void)exponent;
    foreign += std::none_of(own.begin(), own.end(),
                            [&](const auto& factor) { return factor.first == symbol; });
  }
  return {foreign, factors.size()};
}

// A name that fits nowhere, whose uses disagree with its declared unit at least twice, all
// needing one and the same unit, is likelier declared wrong than used wrong: a warning at the
// declaration says so (g(unit = "m/s") in m*v' = -lambda*y - m*g and in an energy m*g*y).
void UnitChecker::report_declarations() {
  for (const auto& [name, uses] : blamed_) {
    if (uses.size() < 2 || fitted_.count(name) != 0) continue;
    const Unit& declared = *declared_[name];
    const Unit* needed = &uses.front().first;
    std::set<int> lines;
    for (const auto& [unit, where] : uses) {
      if (!unit.same_as(*needed)) {
        needed = nullptr;
        break;
      }
      if (distance(unit, declared) < distance(*needed, declared)) needed = &unit;
      lines.insert(where.line);
    }
    if (needed == nullptr) continue;
    std::string listed;
    for (int line : lines) listed += (listed.empty() ? "" : ", ") + std::to_string(line);
    report(declared_at_[name], "'" + name + "' is declared in '" + declared.spelling() + "', but " +
                                   std::to_string(uses.size()) + " uses (" +
                                   (lines.size() == 1 ? "line " : "lines ") + listed +
                                   ") need it in '" + needed->spelling() +
                                   "', and none fits its declared unit: is the declaration wrong?" +
                                   factor_note(*needed, declared));
  }
}

// Each kind of statement checks its parts through inference_: unit_of each part and check_alike
// where they must agree.
void UnitChecker::check_statements(const std::vector<Statement>& statements) {
  for (const Statement& statement : statements) {
    if (statement.when) {
      check_when(*statement.when);
      continue;
    }
    if (!statement.loop) {
      check_equation(syntax_.equations[statement.equation]);
      continue;
    }
    const ForLoop& loop = *statement.loop;
    inference_.unit_of(*loop.first);
    inference_.unit_of(*loop.last);
    inference_.bind(loop.variable.name);
    check_statements(loop.body);
    inference_.unbind();
  }
}

// The condition's relations compare alike sides (relation_unit); each reinit(x, E) gives E the
// unit of x, and reinit(x', E) that of x per second (docs/language.md, "Units").
void UnitChecker::check_when(const WhenDecl& when) {
  inference_.unit_of(*when.condition);
  for (const ReinitDecl& reinit : when.reinits) {
    Quantity target = inference_.per_second(inference_.unit_of(*reinit.target), reinit.order);
    Quantity value = inference_.unit_of(*reinit.value);
    if (!target.is_known() || !value.is_known() || value.unit->same_as(*target.unit)) continue;
    std::string written = reinit.target->text + std::string(reinit.order, '\'');
    report(start_of(*reinit.value), "the value of reinit(" + written + ", ...) has unit '" +
                                        value.unit->spelling() + "', but " + written + " is in '" +
                                        target.unit->spelling() + "'" +
                                        factor_note(*value.unit, *target.unit));
  }
}

void UnitChecker::check_equation(const EquationDecl& equation) {
  Quantity lhs = inference_.unit_of(*equation.lhs);
  Quantity rhs = inference_.unit_of(*equation.rhs);
  SourceLocation where =
      equation.equals_location.valid() ? equation.equals_location : equation.location;
  inference_.check_alike(lhs, rhs, where, "the two sides of this equation");
}

// A declared value (or each element of an array value) against the declared unit of `name`.
void UnitChecker::check_value(const Expr& value, const std::string& name, const std::string& what) {
  if (value.kind == ExprKind::ArrayLiteral) {
    for (const ExprPtr& element : value.operands) check_value(*element, name, what);
    return;
  }
  if (value.kind == ExprKind::Comprehension) {
    inference_.unit_of(*value.operands[1]);
    inference_.unit_of(*value.operands[2]);
    inference_.bind(value.variable.name);
    check_value(*value.operands[0], name, what);
    inference_.unbind();
    return;
  }
  Quantity q = inference_.unit_of(value);
  Quantity declared = lookup(name);
  if (!q.is_known() || !declared.is_known() || q.unit->same_as(*declared.unit)) return;
  bool is_value = what == "parameter" || what == "output";
  std::string subject =
      is_value ? "the value of " + what + " '" + name + "'" : "the " + what + " '" + name + "'";
  std::string message = subject + " has unit '" + q.unit->spelling() + "', but '" + name +
                        "' is declared in '" + declared.unit->spelling() + "'";
  report(start_of(value), message + factor_note(*q.unit, *declared.unit));
}

}  // namespace

void check_units(const ModelSyntax& syntax, const Model& model, UnitCheckMode mode,
                 DiagnosticEngine& diags) {
  UnitChecker checker(syntax, model, mode, diags);
  checker.parse_declared_units();
  if (mode != UnitCheckMode::Off && !diags.has_errors() && checker.has_units()) {
    checker.check_model();
  }
}

}  // namespace daec
