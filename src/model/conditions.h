// Conditional expressions of the language (docs/language.md) as GiNaC functions: `if C then A else
// B` is daec_if(C, A, B); the relations `< <= > >= == <>` are daec_lt ... daec_ne, with the value 1
// or 0 once both sides are numbers; `and`, `or`, `not` are daec_and, daec_or, daec_not; min(a, b)
// is daec_if(daec_lt(a, b), a, b) and max(a, b) is daec_if(daec_gt(a, b), a, b).
//
// Differentiation treats each branch separately: d/ds daec_if(C, A, B) = daec_if(C, dA/ds, dB/ds),
// and relations and logical operators have derivative 0 (they are piecewise constant). The
// simulator restarts the integration where a relation changes its value.
#pragma once

#include <string>
#include <vector>

#include <ginac/ginac.h>

#include "model/model.h"

namespace daec {

DECLARE_FUNCTION_3P(daec_if)
DECLARE_FUNCTION_2P(daec_lt)
DECLARE_FUNCTION_2P(daec_le)
DECLARE_FUNCTION_2P(daec_gt)
DECLARE_FUNCTION_2P(daec_ge)
DECLARE_FUNCTION_2P(daec_eq)
DECLARE_FUNCTION_2P(daec_ne)
DECLARE_FUNCTION_2P(daec_and)
DECLARE_FUNCTION_2P(daec_or)
DECLARE_FUNCTION_1P(daec_not)

/// The relational operators of the language, as written.
enum class RelationKind { Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual };

/// The relation `a OP b` (daec_lt(a, b), ...), 1 or 0 when both sides are numbers.
GiNaC::ex make_relation(RelationKind kind, const GiNaC::ex& a, const GiNaC::ex& b);
/// `op` spelled as in the language: "<", "<=", ">", ">=", "==", "<>".
const char* relation_spelling(RelationKind kind);
/// The relation function called `name` (daec_lt, ...), if it is one.
bool relation_kind_of(const std::string& name, RelationKind& kind);

/// min(a, b) and max(a, b) as conditional expressions.
GiNaC::ex make_min(const GiNaC::ex& a, const GiNaC::ex& b);
GiNaC::ex make_max(const GiNaC::ex& a, const GiNaC::ex& b);

/// Whether `e` is a call of daec_lt ... daec_ne.
bool is_relation(const GiNaC::ex& e);
/// Whether `e` is a condition: a relation, or daec_and, daec_or, daec_not of conditions.
bool is_condition_call(const GiNaC::ex& e);
/// Whether `e` is a call of daec_if.
bool is_if(const GiNaC::ex& e);

/// If `condition` is a number (a condition decided once its operands were numbers), whether it is
/// true (nonzero) in `value`; false when the condition is still symbolic.
bool decided_condition(const GiNaC::ex& condition, bool& value);

/// The symbols `e` depends on through its values: every symbol except those that occur only
/// inside conditions (an equation y = if x > 0 then 1 else 2 contains y, not x). This is the
/// incidence of an equation: the union of the branches of its conditional expressions.
SymbolSet value_symbols(const GiNaC::ex& e);
/// The symbols occurring inside the conditions of `e` (the arguments of its relations).
SymbolSet condition_symbols(const GiNaC::ex& e);

/// `e` with the symbols in `values` replaced outside its conditions: a relation keeps the symbols
/// it compares. An affine constraint g = A Z - b whose relations hold Z gives its b as
/// -substitute_outside_conditions(g, Z = 0): the relations are decided with the actual Z, not 0.
GiNaC::ex substitute_outside_conditions(const GiNaC::ex& e, const GiNaC::exmap& values);

/// The distinct relations (daec_lt ... daec_ne calls) occurring in `expressions`, in the order
/// of their first occurrence, relations of one expression ordered by their printed form (GiNaC's
/// own operand order changes from run to run).
std::vector<GiNaC::ex> collect_relations(const std::vector<GiNaC::ex>& expressions);

}  // namespace daec
