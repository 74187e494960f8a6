// Lowering and checking when clauses.
#include "frontend/when_clauses.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

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

// Reports once per place in the source (a clause in a loop is checked per iteration). Returns
// whether it reported, for the notes that follow.
class OncePerPlace {
 public:
  explicit OncePerPlace(DiagnosticEngine& diags) : diags_(diags) {}
  bool error(const SourceLocation& where, const std::string& message) {
    if (!seen_.insert(where.offset).second) return false;
    diags_.error(where, message);
    return true;
  }
  bool warning(const SourceLocation& where, const std::string& message) {
    if (!seen_.insert(where.offset).second) return false;
    diags_.warning(where, message);
    return true;
  }
  void note(const SourceLocation& where, const std::string& message) {
    diags_.note(where, message);
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

// The relations a condition holds only where all of them hold: itself, or those of an `and`.
void conjuncts(const GiNaC::ex& condition, std::vector<GiNaC::ex>& found) {
  if (is_relation(condition)) {
    found.push_back(condition);
  } else if (GiNaC::is_exactly_a<GiNaC::function>(condition) &&
             GiNaC::ex_to<GiNaC::function>(condition).get_name() == "daec_and") {
    for (size_t i = 0; i < condition.nops(); ++i) conjuncts(condition.op(i), found);
  }
}

// `d OP c` as a bound on d: an upper one (<, <=) or a lower one (>, >=), strict or not; nullopt
// for == and <>.
struct Bound {
  bool upper = false, strict = false;
  GiNaC::numeric value;
};

std::optional<Bound> bound_of(RelationKind kind, const GiNaC::numeric& c) {
  switch (kind) {
    case RelationKind::Less:
      return Bound{true, true, c};
    case RelationKind::LessEqual:
      return Bound{true, false, c};
    case RelationKind::Greater:
      return Bound{false, true, c};
    case RelationKind::GreaterEqual:
      return Bound{false, false, c};
    default:
      return std::nullopt;
  }
}

RelationKind mirrored(RelationKind kind) {  // a OP b as b OP' a
  switch (kind) {
    case RelationKind::Less:
      return RelationKind::Greater;
    case RelationKind::LessEqual:
      return RelationKind::GreaterEqual;
    case RelationKind::Greater:
      return RelationKind::Less;
    case RelationKind::GreaterEqual:
      return RelationKind::LessEqual;
    default:
      return kind;
  }
}

// Whether no value of d lies in both.
bool disjoint(const Bound& a, const Bound& b) {
  if (a.upper == b.upper) return false;
  const Bound& upper = a.upper ? a : b;
  const Bound& lower = a.upper ? b : a;
  return upper.value < lower.value ||
         (upper.value == lower.value && (upper.strict || lower.strict));
}

// Whether two relations exclude one another: they compare the same difference d (or d and -d) up
// to a constant, with bounds that do not meet (x > 1 and x < -1; h < 0 and 2 - h < 1).
bool relations_exclude(const GiNaC::ex& r1, const GiNaC::ex& r2) {
  RelationKind k1, k2;
  if (!relation_kind_of(GiNaC::ex_to<GiNaC::function>(r1).get_name(), k1) ||
      !relation_kind_of(GiNaC::ex_to<GiNaC::function>(r2).get_name(), k2))
    return false;
  GiNaC::ex d1 = r1.op(0) - r1.op(1), d2 = r2.op(0) - r2.op(1);
  // d2 = d1 - q, so that d2 OP 0 is d1 OP q; or d2 = q - d1, d1 OP' q.
  for (bool negated : {false, true}) {
    GiNaC::ex q = (negated ? d1 + d2 : d1 - d2).expand();
    if (!GiNaC::is_exactly_a<GiNaC::numeric>(q) || !GiNaC::ex_to<GiNaC::numeric>(q).is_real())
      continue;
    std::optional<Bound> first = bound_of(k1, 0);
    std::optional<Bound> second =
        bound_of(negated ? mirrored(k2) : k2, GiNaC::ex_to<GiNaC::numeric>(q));
    if (first && second && disjoint(*first, *second)) return true;
  }
  return false;
}

// Whether two when conditions can never hold at one instant, so that their clauses never fire
// together: some relation of one excludes some relation of the other, each holding only where all
// relations of its `and` do.
bool conditions_exclude(const GiNaC::ex& a, const GiNaC::ex& b) {
  std::vector<GiNaC::ex> of_a, of_b;
  conjuncts(a, of_a);
  conjuncts(b, of_b);
  for (const GiNaC::ex& r1 : of_a) {
    for (const GiNaC::ex& r2 : of_b) {
      if (relations_exclude(r1, r2)) return true;
    }
  }
  return false;
}

// The reinits that set the same state as an earlier one: in one clause, an error (the clause
// would give the state two values at once); in two clauses, a warning, since their conditions
// may become true at one instant, where the simulator applies the clauses in source order and the
// later value is the one kept (docs/language.md, "When clauses and reinit"). Two clauses whose
// conditions exclude one another (a relay's x > 1 and x < -1) never fire together.
class RepeatedTargets {
 public:
  explicit RepeatedTargets(DiagnosticEngine& diags) : errors_(diags), warnings_(diags) {}

  void check(const WhenClause& clause) {
    std::map<std::pair<size_t, int>, const Reinit*> in_clause;
    for (const Reinit& r : clause.reinits) {
      std::pair<size_t, int> state{r.variable, r.order};
      auto [first, is_new] = in_clause.emplace(state, &r);
      if (!is_new) {
        if (errors_.error(r.location, "'" + clause.name + "' sets " + r.target +
                                          " twice; a when clause may reinit each state once"))
          errors_.note(first->second->location, "the first reinit(" + r.target + ", ...) is here");
        continue;
      }
      std::vector<Setter>& setters = setters_[state];
      auto found = std::find_if(setters.begin(), setters.end(), [&](const Setter& earlier) {
        return !conditions_exclude(earlier.clause->condition, clause.condition);
      });
      std::optional<Setter> other;
      if (found != setters.end()) other = *found;
      setters.push_back(Setter{&clause, &r});
      if (!other) continue;
      if (warnings_.warning(r.location, "'" + clause.name + "' sets " + r.target + ", which '" +
                                            other->clause->name +
                                            "' also reinits: at an instant where both clauses "
                                            "fire, the value of '" +
                                            clause.name + "' (the later one) is kept") &&
          other->reinit->location.offset != r.location.offset)
        warnings_.note(other->reinit->location,
                       "'" + other->clause->name + "' reinits " + r.target + " here");
    }
  }

 private:
  struct Setter {
    const WhenClause* clause;
    const Reinit* reinit;
  };
  OncePerPlace errors_, warnings_;
  /// By (variable, order): the clauses that reinit it so far.
  std::map<std::pair<size_t, int>, std::vector<Setter>> setters_;
};

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
  RepeatedTargets repeated(diags);
  for (const WhenClause& clause : model.when_clauses) {
    for (const Reinit& r : clause.reinits) check_target(model, r, report);
    check_uses(model, clause, report);
    repeated.check(clause);
  }
}

}  // namespace daec
