// The conditional functions: evaluation (deciding a condition once its operands are numbers),
// derivatives (branch by branch) and the symbol sets the reduction needs.
#include "model/conditions.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "model/evaluation.h"
#include "model/expression_printer.h"
#include "model/expression_walk.h"

namespace daec {

using GiNaC::ex;
using GiNaC::ex_to;
using GiNaC::is_exactly_a;
using GiNaC::numeric;

namespace {

bool is_real_number(const ex& e) {
  return is_exactly_a<numeric>(e) && ex_to<numeric>(e).is_real();
}

// The truth of `e` if it is a number: a decided condition.
bool truth(const ex& e, bool& value) {
  if (!is_exactly_a<numeric>(e)) return false;
  value = !e.is_zero();
  return true;
}

ex boolean(bool value) {
  return value ? ex(1) : ex(0);
}

}  // namespace

// ---- daec_if ----

static ex if_eval(const ex& c, const ex& a, const ex& b) {
  bool value;
  if (truth(c, value)) return value ? a : b;
  if (a.is_equal(b)) return a;
  return daec_if(c, a, b).hold();
}

static ex if_evalf(const ex& c, const ex& a, const ex& b) {
  return if_eval(c.evalf(), a.evalf(), b.evalf());
}

// d/dc is 0 (a condition is piecewise constant); d/da is 1 where C holds, d/db where it does not.
static ex if_derivative(const ex& c, const ex&, const ex&, unsigned parameter) {
  if (parameter == 0) return 0;
  return parameter == 1 ? daec_if(c, 1, 0) : daec_if(c, 0, 1);
}

// The whole derivative at once, one conditional expression of the derivatives of the branches:
// the chain rule would give daec_if(c, 1, 0)*a' + daec_if(c, 0, 1)*b', where a NaN in the branch
// not taken (sqrt of a negative number) would spoil the result (0*NaN is NaN).
static ex if_expl_derivative(const ex& c, const ex& a, const ex& b, const GiNaC::symbol& s) {
  return daec_if(c, a.diff(s), b.diff(s));
}

// Every model quantity is real: the conjugate and the real part are the value itself.
static ex if_conjugate(const ex& c, const ex& a, const ex& b) {
  return daec_if(c, a, b).hold();
}
static ex if_imag_part(const ex&, const ex&, const ex&) {
  return 0;
}

REGISTER_FUNCTION(daec_if, eval_func(if_eval)
                               .evalf_func(if_evalf)
                               .derivative_func(if_derivative)
                               .expl_derivative_func(if_expl_derivative)
                               .conjugate_func(if_conjugate)
                               .real_part_func(if_conjugate)
                               .imag_part_func(if_imag_part))

// ---- relations ----

namespace {

// Decides `a OP b` when both sides are real numbers, or when they are the same expression.
ex relation_eval(RelationKind kind, const ex& a, const ex& b, const ex& held) {
  if (is_real_number(a) && is_real_number(b)) {
    const numeric& x = ex_to<numeric>(a);
    const numeric& y = ex_to<numeric>(b);
    switch (kind) {
      case RelationKind::Less:
        return boolean(x < y);
      case RelationKind::LessEqual:
        return boolean(x <= y);
      case RelationKind::Greater:
        return boolean(x > y);
      case RelationKind::GreaterEqual:
        return boolean(x >= y);
      case RelationKind::Equal:
        return boolean(x == y);
      case RelationKind::NotEqual:
        return boolean(x != y);
    }
  }
  if (a.is_equal(b)) {
    return boolean(kind == RelationKind::LessEqual || kind == RelationKind::GreaterEqual ||
                   kind == RelationKind::Equal);
  }
  return held;
}

ex relation_derivative(const ex&, const ex&, unsigned) {
  return 0;
}
ex relation_expl_derivative(const ex&, const ex&, const GiNaC::symbol&) {
  return 0;
}
ex relation_imag_part(const ex&, const ex&) {
  return 0;
}

}  // namespace

// A condition of two operands: evaluated by EVAL (which decides it once it can), evaluated in
// floating point by EVAL of the evaluated operands, real, and piecewise constant (derivative 0).
#define DAEC_REGISTER_BINARY_CONDITION(NAME, EVAL)                            \
  static ex NAME##_evalf(const ex& a, const ex& b) {                          \
    return EVAL(a.evalf(), b.evalf());                                        \
  }                                                                           \
  static ex NAME##_conjugate(const ex& a, const ex& b) {                      \
    return NAME(a, b).hold();                                                 \
  }                                                                           \
  REGISTER_FUNCTION(NAME, eval_func(EVAL)                                     \
                              .evalf_func(NAME##_evalf)                       \
                              .derivative_func(relation_derivative)           \
                              .expl_derivative_func(relation_expl_derivative) \
                              .conjugate_func(NAME##_conjugate)               \
                              .real_part_func(NAME##_conjugate)               \
                              .imag_part_func(relation_imag_part))

// One registration per relation; only the kind differs.
#define DAEC_REGISTER_RELATION(NAME, KIND)               \
  static ex NAME##_eval(const ex& a, const ex& b) {      \
    return relation_eval(KIND, a, b, NAME(a, b).hold()); \
  }                                                      \
  DAEC_REGISTER_BINARY_CONDITION(NAME, NAME##_eval)

DAEC_REGISTER_RELATION(daec_lt, RelationKind::Less)
DAEC_REGISTER_RELATION(daec_le, RelationKind::LessEqual)
DAEC_REGISTER_RELATION(daec_gt, RelationKind::Greater)
DAEC_REGISTER_RELATION(daec_ge, RelationKind::GreaterEqual)
DAEC_REGISTER_RELATION(daec_eq, RelationKind::Equal)
DAEC_REGISTER_RELATION(daec_ne, RelationKind::NotEqual)

// ---- and, or, not ----

static ex and_eval(const ex& a, const ex& b) {
  bool value;
  if (truth(a, value)) return value ? b : ex(0);
  if (truth(b, value)) return value ? a : ex(0);
  if (a.is_equal(b)) return a;
  return daec_and(a, b).hold();
}

static ex or_eval(const ex& a, const ex& b) {
  bool value;
  if (truth(a, value)) return value ? ex(1) : b;
  if (truth(b, value)) return value ? ex(1) : a;
  if (a.is_equal(b)) return a;
  return daec_or(a, b).hold();
}

DAEC_REGISTER_BINARY_CONDITION(daec_and, and_eval)
DAEC_REGISTER_BINARY_CONDITION(daec_or, or_eval)

#undef DAEC_REGISTER_RELATION
#undef DAEC_REGISTER_BINARY_CONDITION

// not(x < y) is x >= y, and so on: the relation list of a model stays short.
static ex not_eval(const ex& a) {
  bool value;
  if (truth(a, value)) return boolean(!value);
  RelationKind kind;
  if (GiNaC::is_a<GiNaC::function>(a) &&
      relation_kind_of(ex_to<GiNaC::function>(a).get_name(), kind)) {
    static const RelationKind opposite[] = {RelationKind::GreaterEqual, RelationKind::Greater,
                                            RelationKind::LessEqual,    RelationKind::Less,
                                            RelationKind::NotEqual,     RelationKind::Equal};
    return make_relation(opposite[static_cast<int>(kind)], a.op(0), a.op(1));
  }
  if (is_exactly_a<GiNaC::function>(a) && ex_to<GiNaC::function>(a).get_name() == "daec_not") {
    return a.op(0);
  }
  return daec_not(a).hold();
}

static ex not_evalf(const ex& a) {
  return not_eval(a.evalf());
}
static ex not_conjugate(const ex& a) {
  return daec_not(a).hold();
}
static ex not_derivative(const ex&, unsigned) {
  return 0;
}
static ex not_expl_derivative(const ex&, const GiNaC::symbol&) {
  return 0;
}
static ex not_imag_part(const ex&) {
  return 0;
}

REGISTER_FUNCTION(daec_not, eval_func(not_eval)
                                .evalf_func(not_evalf)
                                .derivative_func(not_derivative)
                                .expl_derivative_func(not_expl_derivative)
                                .conjugate_func(not_conjugate)
                                .real_part_func(not_conjugate)
                                .imag_part_func(not_imag_part))

// ---- construction and inspection ----

namespace {

struct RelationName {
  RelationKind kind;
  const char* function;
  const char* spelling;
};

const RelationName kRelations[] = {
    {RelationKind::Less, "daec_lt", "<"},    {RelationKind::LessEqual, "daec_le", "<="},
    {RelationKind::Greater, "daec_gt", ">"}, {RelationKind::GreaterEqual, "daec_ge", ">="},
    {RelationKind::Equal, "daec_eq", "=="},  {RelationKind::NotEqual, "daec_ne", "<>"},
};

std::string function_name(const ex& e) {
  return GiNaC::is_a<GiNaC::function>(e) ? ex_to<GiNaC::function>(e).get_name() : std::string();
}

}  // namespace

ex make_relation(RelationKind kind, const ex& a, const ex& b) {
  switch (kind) {
    case RelationKind::Less:
      return daec_lt(a, b);
    case RelationKind::LessEqual:
      return daec_le(a, b);
    case RelationKind::Greater:
      return daec_gt(a, b);
    case RelationKind::GreaterEqual:
      return daec_ge(a, b);
    case RelationKind::Equal:
      return daec_eq(a, b);
    case RelationKind::NotEqual:
      return daec_ne(a, b);
  }
  return daec_ne(a, b);
}

const char* relation_spelling(RelationKind kind) {
  return kRelations[static_cast<int>(kind)].spelling;
}

bool relation_kind_of(const std::string& name, RelationKind& kind) {
  for (const RelationName& relation : kRelations) {
    if (name == relation.function) {
      kind = relation.kind;
      return true;
    }
  }
  return false;
}

ex make_min(const ex& a, const ex& b) {
  return daec_if(daec_lt(a, b), a, b);
}

ex make_max(const ex& a, const ex& b) {
  return daec_if(daec_gt(a, b), a, b);
}

bool is_relation(const ex& e) {
  RelationKind kind;
  return relation_kind_of(function_name(e), kind);
}

bool is_condition_call(const ex& e) {
  std::string name = function_name(e);
  return is_relation(e) || name == "daec_and" || name == "daec_or" || name == "daec_not";
}

bool is_if(const ex& e) {
  return function_name(e) == "daec_if";
}

bool decided_condition(const ex& condition, bool& value) {
  return truth(condition, value);
}

SymbolSet value_symbols(const ex& e) {
  // Each distinct node once, outside conditions: a node reached both as a value and inside a
  // condition is a value wherever it is met as one.
  SymbolSet found;
  NodeSet seen;
  std::vector<ex> pending{e};
  while (!pending.empty()) {
    ex node = std::move(pending.back());
    pending.pop_back();
    if (!seen.insert(node_of(node))) continue;
    count_work(WorkKind::Nodes);
    if (GiNaC::is_a<GiNaC::symbol>(node)) {
      found.insert(node);
      continue;
    }
    if (is_condition_call(node)) continue;
    for_each_stored_operand(ex_to<GiNaC::basic>(node),
                            [&](const GiNaC::basic* operand) { pending.push_back(ex(*operand)); });
    if (is_if(node)) pending.erase(pending.end() - 3);  // the condition of `if`
  }
  return found;
}

SymbolSet condition_symbols(const ex& e) {
  SymbolSet found;
  for_each_node(e, [&](const GiNaC::basic& node) {
    if (!is_relation(ex(node))) return true;
    SymbolSet inside = symbols_in(ex(node));
    found.insert(inside.begin(), inside.end());
    return false;
  });
  return found;
}

namespace {

// Replaces symbols everywhere but inside conditions (which are passed over whole), each distinct
// subexpression once (a tree walk would take each path: exponential in an expression whose
// outputs use earlier outputs twice). The table holds its keys (see
// reduction/shared_expressions.h).
struct OutsideConditions : GiNaC::map_function {
  explicit OutsideConditions(const GiNaC::exmap& v) : values(v) {}
  ex operator()(const ex& e) override {
    if (is_condition_call(e)) return e;
    if (GiNaC::is_a<GiNaC::symbol>(e)) {
      auto it = values.find(e);
      return it == values.end() ? e : it->second;
    }
    if (e.nops() == 0) return e;
    auto known = done.find(node_of(e));
    if (known != done.end()) return known->second.second;
    count_work(WorkKind::Nodes);
    GiNaC::exvector operands;  // first, then the node: nothing may throw inside GiNaC
    for (size_t i = 0; i < e.nops(); ++i) operands.push_back((*this)(e.op(i)));
    ex result = with_operands(e, operands);
    done.emplace(node_of(e), std::make_pair(e, result));
    return result;
  }
  const GiNaC::exmap& values;
  std::unordered_map<const GiNaC::basic*, std::pair<ex, ex>> done;
};

}  // namespace

ex substitute_outside_conditions(const ex& e, const GiNaC::exmap& values) {
  OutsideConditions outside(values);
  return outside(e);
}

std::vector<ex> collect_relations(const std::vector<ex>& expressions) {
  std::vector<ex> relations;
  std::set<ex, GiNaC::ex_is_less> seen;
  for (const ex& e : expressions) {
    std::vector<std::pair<std::string, ex>> found;
    for_each_node(e, [&](const GiNaC::basic& node) {
      ex candidate(node);
      if (is_relation(candidate) && !seen.count(candidate))
        found.emplace_back(to_dae(candidate), candidate);
      return true;
    });
    std::sort(found.begin(), found.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [text, relation] : found) {
      if (seen.insert(relation).second) relations.push_back(relation);
    }
  }
  return relations;
}

}  // namespace daec
