// The condition members of a generated Model: their declarations, the names table and the bodies
// of conditions() and set_modes().
#include "codegen/condition_code.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "codegen/code_tables.h"
#include "codegen/cpp_names.h"
#include "codegen/function_parts.h"
#include "model/conditions.h"
#include "model/expression_printer.h"
#include "model/expression_walk.h"

namespace daec {

using GiNaC::ex;

namespace {

// t, p[i] and x[i]: what the switching functions and the relations are made of; with `plan`,
// also Z by position in the block triangular form, r[position] (the relations that hold Z).
SymbolCode state_symbols(const ReducedSystem& system,
                         const std::optional<LinearSolvePlan>& plan = std::nullopt) {
  SymbolCode code;
  code[system.context.time] = "t";
  for (size_t i = 0; i < system.context.parameters.size(); ++i)
    code[system.context.parameters[i].symbol] = fmt::format("p[{}]", i);
  for (size_t i = 0; i < system.states.size(); ++i)
    code[system.states[i].symbol] = fmt::format("x[{}]", i);
  if (plan) {
    for (size_t position = 0; position < plan->blocks.col_order.size(); ++position)
      code[system.algebraic[plan->blocks.col_order[position]].symbol] =
          fmt::format("r[{}]", position);
  }
  return code;
}

// `target[k] = values[i];` for each i with k = indices[i], the values compiled together;
// `(void)t;` when t is unused (and so for x and r).
std::string assignments(const SymbolCode& symbols, const char* target,
                        const std::vector<ex>& values, const std::vector<size_t>& indices) {
  ExpressionCompiler compiler(symbols);
  std::vector<size_t> handles;
  for (const ex& value : values) handles.push_back(compiler.add(value));
  std::string code;
  for (const std::string& statement : compiler.statements()) code += "  " + statement + "\n";
  for (size_t i = 0; i < values.size(); ++i)
    code += fmt::format("  {}[{}] = {};\n", target, indices[i], compiler.code_for(handles[i]));
  return code;
}

std::string unused_first(std::string code, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (!uses_name(code, name)) code = fmt::format("  (void){};\n", name) + code;
  return code;
}

std::vector<size_t> all_indices(size_t count) {
  std::vector<size_t> indices(count);
  for (size_t k = 0; k < count; ++k) indices[k] = k;
  return indices;
}

const char* kPlainSolve =
    R"(// A(X, t) and b(X, t) evaluated, A factored and Z solved (by position, into r): 0,
// 1 if A is singular, 2 if Z is not finite.
int solve_algebraic(const double* p, double t, const double* x, double* a, int* pivot, double* r) {
  evaluate_A_b(p, t, x, a, r);
  if (factor_A(a, pivot) != 0) return 1;
  solve_A(a, pivot, r);
  return all_finite(r, Model::num_algebraic) ? 0 : 2;
}
)";

// The settling of the modes of the relations that hold Z (condition_code.h); {0} is the table of
// those relations, {1} the body of algebraic_relation_values.
const char* kSettling =
    R"(// The relations that compare algebraic unknowns (condition kAlgebraicRelation[i]):
// A and b depend on their modes, and their live values need Z. Their modes are settled with Z
// instead: Z solved with the modes, the relations evaluated with that Z, the modes set to those
// values, and again, until they hold (Model::set_modes).
constexpr int kAlgebraicRelations = {2};
{0}// Rounds of settling before it gives up: the modes cycle, no set of them holds with its Z.
constexpr int kMaxModeRounds = 2 * kAlgebraicRelations + 8;
constexpr int kModeCount = Model::num_parameters + Model::num_conditions;

// The live values (1 true, 0 false) of those relations at (t, x) and Z by position in r.
void algebraic_relation_values(const double* p, double t, const double* x, const double* r,
                               double* value) {{
{1}}}

// Their switching values a - b at (t, x) and Z by position in r.
void algebraic_relation_gaps(const double* p, double t, const double* x, const double* r,
                             double* gap) {{
{3}}}

// A(X, t) and b(X, t) with the modes in p, A factored and Z solved (by position, into r): 0, 1 if
// A is singular, 2 if Z is not finite.
int solve_with_modes(const double* p, double t, const double* x, double* a, int* pivot, double* r) {{
  evaluate_A_b(p, t, x, a, r);
  if (factor_A(a, pivot) != 0) return 1;
  solve_A(a, pivot, r);
  return all_finite(r, Model::num_algebraic) ? 0 : 2;
}}

// Settles the modes in q (parameters, then modes) of the relations i with settle[i], each from
// its mode in q (-1 starts as true); the others stay. Returns 0 with r holding Z for the settled
// modes; 1 or 2 as solve_with_modes; 3 if the modes cycle. first_round (may be nullptr) receives
// the values of the relations with the Z of the starting modes; *changed (may be nullptr) the
// first relation that changed in the last round (-1 if none).
int settle_modes(double* q, const bool* settle, double t, const double* x, double* a, int* pivot,
                 double* r, double* first_round, int* changed) {{
  double* mode = q + Model::num_parameters;
  double value[kAlgebraicRelations];
  if (changed != nullptr) *changed = -1;
  for (int i = 0; i < kAlgebraicRelations; ++i) {{
    if (settle[i] && mode[kAlgebraicRelation[i]] < 0.0) mode[kAlgebraicRelation[i]] = 1.0;
  }}
  for (int round = 0; round < kMaxModeRounds; ++round) {{
    if (const int status = solve_with_modes(q, t, x, a, pivot, r)) return status;
    algebraic_relation_values(q, t, x, r, value);
    if (round == 0 && first_round != nullptr)
      std::copy(value, value + kAlgebraicRelations, first_round);
    int first_changed = -1;
    for (int i = 0; i < kAlgebraicRelations; ++i) {{
      double& m = mode[kAlgebraicRelation[i]];
      if (!settle[i] || m == value[i]) continue;
      m = value[i];
      if (first_changed < 0) first_changed = kAlgebraicRelation[i];
    }}
    if (changed != nullptr) *changed = first_changed;
    if (first_changed < 0) return 0;
  }}
  return 3;
}}

// Settles, in q (a copy of p), the modes of -1 among those relations; the rest as settle_modes.
int settle_live_modes(const double* p, double* q, double t, const double* x, double* a,
                      int* pivot, double* r, int* changed) {{
  std::copy(p, p + kModeCount, q);
  bool settle[kAlgebraicRelations];
  for (int i = 0; i < kAlgebraicRelations; ++i)
    settle[i] = q[Model::num_parameters + kAlgebraicRelation[i]] < 0.0;
  return settle_modes(q, settle, t, x, a, pivot, r, nullptr, changed);
}}

// A(X, t) and b(X, t) evaluated with the modes of -1 among those relations settled, A factored
// and Z solved (by position, into r): 0, 1 if A is singular, 2 if Z is not finite, 3 if the
// modes cycle (only where some mode of those relations is -1).
int solve_algebraic(const double* p, double t, const double* x, double* a, int* pivot, double* r) {{
  double q[kModeCount];
  return settle_live_modes(p, q, t, x, a, pivot, r, nullptr);
}}

// p with the modes of -1 among those relations settled (those of the last round if they cycle),
// for the functions that read A without solving for Z.
std::vector<double> settled_parameters(const double* p, double t, const double* x) {{
  std::vector<double> q(kModeCount), a(kLuEntries > 0 ? kLuEntries : 1), r(Model::num_algebraic);
  std::vector<int> pivot(Model::num_algebraic);
  settle_live_modes(p, q.data(), t, x, a.data(), pivot.data(), r.data(), nullptr);
  return q;
}}

// A relation whose switching value is within this fraction of the size of Z (at least 1) of 0
// lies at its switching point: rounding decides its sign.
constexpr double kSwitchingPoint = 1e-8;

// Where the modes cycle (settle_modes returned 3 from the modes `start`): a relation at its
// switching point -- an ideal diode's s at 0, where both of its branches give the same Z, so
// that rounding flips it from round to round -- agrees with either mode. The relation that
// changed last is held on the side it enters (the other one than its mode in `start`; true
// where that was -1) and the others settled again, and so on while they cycle. True, with the
// modes in p and Z in r, where they settle and every relation held lies at its switching point.
bool settle_at_switching_points(double* p, const double* start, double t, const double* x,
                                double* a, int* pivot, double* r) {{
  double* mode = p + Model::num_parameters;
  bool settle[kAlgebraicRelations];
  std::fill(settle, settle + kAlgebraicRelations, true);
  for (int held = 0; held < kAlgebraicRelations; ++held) {{
    std::copy(start, start + kModeCount, p);
    for (int i = 0; i < kAlgebraicRelations; ++i) {{
      const double before = start[Model::num_parameters + kAlgebraicRelation[i]];
      if (!settle[i]) mode[kAlgebraicRelation[i]] = before == 1.0 ? 0.0 : 1.0;
    }}
    int changed = -1;
    const int status = settle_modes(p, settle, t, x, a, pivot, r, nullptr, &changed);
    if (status == 0) {{
      double gap[kAlgebraicRelations], size = 1.0;
      algebraic_relation_gaps(p, t, x, r, gap);
      for (int k = 0; k < Model::num_algebraic; ++k) size = std::max(size, std::fabs(r[k]));
      for (int i = 0; i < kAlgebraicRelations; ++i)
        if (!settle[i] && !(std::fabs(gap[i]) <= kSwitchingPoint * size)) return false;
      return true;
    }}
    if (status != 3) return false;
    int cycling = -1;
    for (int i = 0; i < kAlgebraicRelations; ++i)
      if (kAlgebraicRelation[i] == changed) cycling = i;
    if (cycling < 0 || !settle[cycling]) return false;
    settle[cycling] = false;
  }}
  return false;
}}

// Model::set_modes for those relations: each settled from its mode in p; where they cycle, those
// at their switching points on the side they enter (settle_at_switching_points). On failure their
// modes are the values of the first round, or unchanged where it could not solve for Z.
int settle_algebraic_modes(double* p, double t, const double* x) {{
  std::vector<double> a(kLuEntries > 0 ? kLuEntries : 1), r(Model::num_algebraic),
      first(kAlgebraicRelations, -1.0), start(p, p + kModeCount);
  std::vector<int> pivot(Model::num_algebraic);
  bool settle[kAlgebraicRelations];
  std::fill(settle, settle + kAlgebraicRelations, true);
  const int status =
      settle_modes(p, settle, t, x, a.data(), pivot.data(), r.data(), first.data(), nullptr);
  if (status == 0) return 0;
  if (status == 3 &&
      settle_at_switching_points(p, start.data(), t, x, a.data(), pivot.data(), r.data()))
    return 0;
  std::copy(start.begin(), start.end(), p);
  for (int i = 0; i < kAlgebraicRelations; ++i) {{
    if (first[i] >= 0.0) p[Model::num_parameters + kAlgebraicRelation[i]] = first[i];
  }}
  return status;
}}

// The relation whose mode changed in the last round where the modes of -1 cycle, or -1.
int cycling_relation(const double* p, double t, const double* x) {{
  std::vector<double> q(kModeCount), a(kLuEntries > 0 ? kLuEntries : 1), r(Model::num_algebraic);
  std::vector<int> pivot(Model::num_algebraic);
  int changed = -1;
  const int status =
      settle_live_modes(p, q.data(), t, x, a.data(), pivot.data(), r.data(), &changed);
  return status == 3 ? changed : -1;
}}
)";

}  // namespace

std::vector<size_t> algebraic_relations(const ReducedSystem& system) {
  SymbolSet algebraic;
  for (const Unknown& u : system.algebraic) algebraic.insert(u.symbol);
  std::vector<size_t> found;
  for (size_t k = 0; k < system.relations.size(); ++k) {
    for (const ex& symbol : symbols_in(system.relations[k])) {
      if (!algebraic.count(symbol)) continue;
      found.push_back(k);
      break;
    }
  }
  return found;
}

void add_condition_modes(const ReducedSystem& system, SymbolCode& symbols, bool settled) {
  size_t first = system.context.parameters.size();
  for (size_t k = 0; k < system.relations.size(); ++k)
    symbols[system.relations[k]] = fmt::format("p[{}]", first + k);
  if (!settled) return;
  for (size_t k : algebraic_relations(system))
    symbols[system.relations[k]] = kSettledMode + fmt::format("p[{}]", first + k);
}

namespace {

// The equation a relation is named by: its label and location (null: none holds it).
struct RelationOwner {
  std::string label;
  const SourceLocation* where = nullptr;
};

// The first equation of the model's text that holds each relation: the reduced system lists
// differential equations before constraints, which is not the order they were written in. The
// rows of one equation in a loop share its location; the first of them found is taken. One pass
// over each equation's relations, so that a table of n breakpoints costs n, not n squared.
std::vector<RelationOwner> relation_owners(const ReducedSystem& system) {
  std::map<ex, size_t, GiNaC::ex_is_less> index;
  for (size_t k = 0; k < system.relations.size(); ++k) index.emplace(system.relations[k], k);
  std::vector<RelationOwner> owners(system.relations.size());
  auto consider = [&](const ex& e, const std::string& name, const SourceLocation& where) {
    std::set<size_t> held;
    for_each_node(e, [&](const GiNaC::basic& node) {
      ex candidate(node);
      if (!is_relation(candidate)) return true;
      auto found = index.find(candidate);
      if (found != index.end()) held.insert(found->second);
      return true;
    });
    for (size_t k : held) {
      RelationOwner& owner = owners[k];
      const SourceLocation* first = owner.where;
      bool earlier =
          first == nullptr || (where.valid() && (!first->valid() || where.offset < first->offset));
      if (!earlier) continue;
      owner.label = name;
      owner.where = &where;
    }
  };
  for (const StateEquation& f : system.differential) consider(f.rhs, f.label, f.location);
  for (const Constraint& g : system.constraints) consider(g.residual, g.base_label, g.location);
  for (const Constraint& h : system.invariants) consider(h.residual, h.base_label, h.location);
  return owners;
}

// A relation's name: the label of its first equation, or where no equation holds it (a relation
// of when clauses alone), the first clause that uses it.
std::string relation_name(const ReducedSystem& system, const std::string& label,
                          const ex& relation) {
  if (label.empty()) {
    for (const WhenClause& w : system.context.when_clauses) {
      if (!w.condition.has(relation)) continue;
      return w.condition.is_equal(relation) ? w.name : w.name + ": " + to_dae(relation);
    }
  }
  return (label.empty() ? "" : label + ": ") + to_dae(relation);
}

}  // namespace

std::vector<std::string> condition_names(const ReducedSystem& system) {
  std::vector<RelationOwner> owners = relation_owners(system);
  std::vector<std::string> names;
  for (size_t k = 0; k < owners.size(); ++k) {
    names.push_back(relation_name(system, owners[k].label, system.relations[k]));
  }
  return names;
}

std::string condition_name(const ReducedSystem& system, size_t k) {
  return condition_names(system)[k];
}

namespace {

// The solver's part of the settling (kSettling) where relations hold Z.
void settling_code(const ReducedSystem& system, const LinearSolvePlan& plan,
                   const std::vector<size_t>& settled, ConditionCode& code) {
  std::vector<int> table;
  std::vector<ex> relations;
  for (size_t k : settled) {
    table.push_back(static_cast<int>(k));
    relations.push_back(system.relations[k]);
  }
  std::string values = unused_first(
      assignments(state_symbols(system, plan), "value", relations, all_indices(relations.size())),
      {"p", "t", "x", "r"});
  std::vector<ex> gaps;
  for (const ex& relation : relations) gaps.push_back(relation.op(0) - relation.op(1));
  std::string gap_code =
      unused_first(assignments(state_symbols(system, plan), "gap", gaps, all_indices(gaps.size())),
                   {"p", "t", "x", "r"});
  code.solve_algebraic = fmt::format(kSettling, constant_table("kAlgebraicRelation", table), values,
                                     settled.size(), gap_code);
  code.settled_p = "settled_parameters(p, t, x).data()";
  code.rhs_failure =
      "  if (const int relation = cycling_relation(p, t, x); relation >= 0) {\n"
      "    *index = relation;\n    return rhs_modes_cycle;\n  }\n";
}

// conditions() and set_modes(): the relations free of Z from (t, x); those holding Z from Z
// solved with the current modes (conditions) or settled with it (set_modes).
std::string condition_functions(const ReducedSystem& system,
                                const std::optional<LinearSolvePlan>& plan,
                                const std::vector<size_t>& settled) {
  size_t count = system.relations.size();
  std::vector<ex> switching, free_relations;
  std::vector<size_t> free_indices;
  for (size_t k = 0; k < count; ++k) {
    const ex& relation = system.relations[k];
    switching.push_back(relation.op(0) - relation.op(1));
    if (std::find(settled.begin(), settled.end(), k) != settled.end()) continue;
    free_relations.push_back(relation);
    free_indices.push_back(k);
  }
  SymbolCode with_modes = state_symbols(system, settled.empty() ? std::nullopt : plan);
  add_condition_modes(system, with_modes);
  std::string g = assignments(with_modes, "g", switching, all_indices(count));
  std::string modes = assignments(state_symbols(system), "mode", free_relations, free_indices);
  if (settled.empty())
    return fmt::format(
        "void Model::conditions(double t, const double* x, double* g) const {{\n{}}}\n\n"
        "int Model::set_modes(double t, const double* x) {{\n  double* mode = modes();\n{}"
        "  return 0;\n}}\n\n",
        unused_first(g, {"x", "t"}), unused_first(modes, {"x", "t"}));
  size_t m = plan->blocks.col_order.size();
  std::string solve = local_array("double", "a", plan->storage.size(), true) +
                      local_array("int", "pivot", m, true) + local_array("double", "r", m, true) +
                      "  const bool solved = solve_algebraic(p, t, x, a, pivot, r) == 0;\n";
  std::string not_solved = "  if (!solved) {\n";
  for (size_t k : settled)
    not_solved += fmt::format("    g[{}] = std::numeric_limits<double>::quiet_NaN();\n", k);
  not_solved += "  }\n";
  std::string set = free_relations.empty() ? "" : "  double* mode = modes();\n" + modes;
  return fmt::format(
      "void Model::conditions(double t, const double* x, double* g) const {{\n{}{}{}}}\n\n"
      "int Model::set_modes(double t, const double* x) {{\n{}"
      "  return settle_algebraic_modes(p, t, x);\n}}\n\n",
      solve, g, not_solved, set);
}

}  // namespace

ConditionCode condition_code(const ReducedSystem& system,
                             const std::optional<LinearSolvePlan>& plan,
                             const std::string& parameter_initializer) {
  ConditionCode code;
  size_t count = system.relations.size();
  std::vector<size_t> settled = plan ? algebraic_relations(system) : std::vector<size_t>{};
  code.solve_algebraic = kPlainSolve;
  code.settled_p = "p";
  if (!settled.empty()) settling_code(system, *plan, settled, code);
  if (count == 0) {
    code.parameter_array_size = "num_parameters > 0 ? num_parameters : 1";
    code.parameter_initializer = parameter_initializer;
    return code;
  }
  code.parameter_array_size = "num_parameters + num_conditions";
  std::string modes;
  for (size_t k = 0; k < count; ++k) modes += ", -1.0";
  code.parameter_initializer =
      system.context.parameters.empty()
          ? "{" + modes.substr(2) + "}"
          : parameter_initializer.substr(0, parameter_initializer.size() - 1) + modes + "}";
  code.num_conditions = count;

  std::string names;
  std::vector<std::string> condition_texts = condition_names(system);
  for (size_t k = 0; k < count; ++k)
    names += fmt::format("    \"{}\",\n", cpp_string_contents(condition_texts[k]));
  code.definitions =
      fmt::format("const char* const Model::condition_names[] = {{\n{}}};\n\n", names) +
      condition_functions(system, plan, settled);
  return code;
}

}  // namespace daec
