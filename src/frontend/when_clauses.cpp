// Lowering and checking when clauses.
#include "frontend/when_clauses.h"

#include <set>

#include "model/conditions.h"

namespace daec {

namespace {

// What a reinit may set, for the end of its error messages.
const char* const kReinitTargets =
    "reinit sets a differential variable, or the velocity x' of a variable whose x'' appears";

// The variable whose symbol `e` is, or model.variables.size().
size_t variable_of(const Model& model, const GiNaC::ex& e) {
  for (size_t v = 0; v < model.variables.size(); ++v)
    if (e.is_equal(model.variables[v].symbol)) return v;
  return model.variables.size();
}

bool is_parameter(const Model& model, const GiNaC::ex& e) {
  for (const Parameter& p : model.parameters)
    if (e.is_equal(p.symbol)) return true;
  return false;
}

std::optional<Reinit> lower_reinit(const ReinitDecl& decl, Context& context,
                                   ExpressionLowering& lowering, const Model& model) {
  std::optional<GiNaC::ex> target = lowering.number(*decl.target, context);
  std::optional<GiNaC::ex> value = lowering.number(*decl.value, context);
  if (!target || !value) return std::nullopt;
  size_t v = variable_of(model, *target);
  // An output's name lowers to its value, which may be a variable's symbol.
  const std::string& written = decl.target->text;
  if (v < model.variables.size()) {
    const ArrayElement& element = model.variables[v].element;
    if ((element.array.empty() ? model.variables[v].name : element.array) != written)
      v = model.variables.size();
  }
  if (v == model.variables.size()) {
    std::string what = is_parameter(model, *target) ? "a parameter" : "not a variable";
    lowering.error(decl.target->location, "reinit(" + written + ", ...): '" + written + "' is " +
                                              what + "; " + kReinitTargets);
    return std::nullopt;
  }
  const std::string& name = model.variables[v].name;
  return Reinit{v, decl.order, derivative_name(name, decl.order), *value, decl.location};
}

// Reports once per place in the source (a clause in a loop is checked per iteration).
class OncePerPlace {
 public:
  explicit OncePerPlace(DiagnosticEngine& diags) : diags_(diags) {}
  void error(const SourceLocation& where, const std::string& message) {
    if (seen_.insert(where.offset).second) diags_.error(where, message);
  }

 private:
  DiagnosticEngine& diags_;
  std::set<size_t> seen_;
};

void check_target(const Model& model, const Reinit& r, OncePerPlace& report) {
  const Variable& variable = model.variables[r.variable];
  int highest = variable.highest_order();
  if (highest == 0) {
    report.error(r.location, "reinit(" + r.target + ", ...): '" + variable.name +
                                 "' is algebraic (no equation has its derivative); " +
                                 kReinitTargets);
  } else if (r.order >= highest) {
    report.error(r.location, "reinit(" + r.target + ", ...): " + r.target +
                                 " is not a state (the equations use '" + variable.name +
                                 "' only up to " + derivative_name(variable.name, highest) + "); " +
                                 kReinitTargets);
  }
}

// A symbol of a condition (`states_only`) or of a value that has no value before the instant.
std::string unavailable(const Model& model, const GiNaC::ex& symbol, bool states_only) {
  if (auto d = model.derivative_of(symbol)) {
    const Variable& variable = model.variables[d->variable];
    if (d->order < variable.highest_order() + (states_only ? 0 : 1)) return "";
    return derivative_name(variable.name, d->order);
  }
  size_t v = variable_of(model, symbol);
  if (v == model.variables.size() || !states_only || model.variables[v].is_differential())
    return "";
  return model.variables[v].name;
}

void check_uses(const Model& model, const WhenClause& clause, OncePerPlace& report) {
  if (collect_relations({clause.condition}).empty()) {
    report.error(clause.location, "the condition of '" + clause.name +
                                      "' is constant (it compares no variable and not t), so "
                                      "it never becomes true at an instant");
    return;
  }
  for (const GiNaC::ex& symbol : symbols_in(clause.condition)) {
    std::string name = unavailable(model, symbol, true);
    if (name.empty()) continue;
    report.error(clause.location, "the condition of '" + clause.name + "' uses " + name +
                                      ", which is not a state; a when condition may use t, "
                                      "parameters, differential variables and the velocities "
                                      "x' of variables whose x'' appears");
    return;
  }
  for (const Reinit& r : clause.reinits) {
    for (const GiNaC::ex& symbol : symbols_in(r.value)) {
      std::string name = unavailable(model, symbol, false);
      if (name.empty()) continue;
      report.error(r.location, "the value of reinit(" + r.target + ", ...) uses " + name +
                                   ", which the equations do not give a value");
      break;
    }
  }
}

}  // namespace

void lower_when_clause(const WhenDecl& decl, Context context, ExpressionLowering& lowering,
                       Model& model) {
  WhenClause clause;
  clause.name = "when " + decl.text + ExpressionLowering::at_bindings(context);
  clause.location = decl.location;
  context.owner = clause.name;
  std::optional<GiNaC::ex> condition = lowering.condition(*decl.condition, context);
  bool ok = condition.has_value();
  for (const ReinitDecl& r : decl.reinits) {
    std::optional<Reinit> reinit = lower_reinit(r, context, lowering, model);
    ok = ok && reinit;
    if (reinit) clause.reinits.push_back(*reinit);
  }
  if (!ok) return;
  clause.condition = *condition;
  model.when_clauses.push_back(std::move(clause));
}

void check_when_clauses(const Model& model, DiagnosticEngine& diags) {
  OncePerPlace report(diags);
  for (const WhenClause& clause : model.when_clauses) {
    for (const Reinit& r : clause.reinits) check_target(model, r, report);
    check_uses(model, clause, report);
  }
}

}  // namespace daec
