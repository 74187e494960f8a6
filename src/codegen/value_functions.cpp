// The bodies that give values without solving anything: the start and nominal values of the
// unknowns, the residuals of the initial equations, and the outputs (which may solve for X' and Z
// first).
#include "codegen/function_families.h"

#include <limits>
#include <map>

#include <fmt/format.h>

#include "codegen/code_tables.h"
#include "codegen/condition_code.h"

namespace daec::function_code {

using GiNaC::ex;

namespace {

// The model's derivative symbols (x', x'') as the generated functions have them: the velocity
// state x[i] where the first-order stage made one, else xdot[i] of the state it is the
// derivative of. Returns the symbols mapped to xdot (a function using them computes rhs first).
SymbolSet add_model_derivatives(const ReducedSystem& system, SymbolCode& code) {
  std::map<std::string, size_t> state_at, velocity_of;  // by state name
  for (size_t i = 0; i < system.states.size(); ++i) {
    const Unknown& u = system.states[i];
    state_at[u.name] = i;
    if (u.origin == UnknownOrigin::Velocity) velocity_of[u.derivative_of] = i;
  }
  SymbolSet from_xdot;
  for (const ModelDerivative& d : system.context.derivatives) {
    auto it = state_at.find(d.variable);
    if (it == state_at.end()) continue;  // not a state: the front end lets no function use it
    size_t u = it->second;
    bool found = true;
    for (int k = 1; k < d.order && found; ++k) {
      auto next = velocity_of.find(system.states[u].name);
      found = next != velocity_of.end();
      if (found) u = next->second;
    }
    if (!found) continue;
    auto velocity = velocity_of.find(system.states[u].name);
    if (velocity != velocity_of.end()) {
      code[d.symbol] = fmt::format("x[{}]", velocity->second);
    } else {
      code[d.symbol] = fmt::format("xdot[{}]", u);
      from_xdot.insert(d.symbol);
    }
  }
  return from_xdot;
}

bool holds_any(const GiNaC::ex& e, const SymbolSet& symbols) {
  if (symbols.empty()) return false;
  for (const GiNaC::ex& symbol : symbols_in(e))
    if (symbols.count(symbol)) return true;
  return false;
}

}  // namespace

std::string unknown_values(Generator& gen, const char* function, const char* target,
                           const std::vector<Unknown>& unknowns, ex Unknown::*value) {
  std::vector<Assignment> list;
  for (size_t i = 0; i < unknowns.size(); ++i)
    list.push_back({fmt::format("{}[{}]", target, i), unknowns[i].*value, unknowns[i].name});
  std::string code = gen.parts.body(
      {function, {kP, out(target)}, assignment_statements(gen.symbols(false), list)});
  return body(code, {target});
}

std::string initial_equations(Generator& gen) {
  SymbolCode symbols = gen.symbols(false);
  add_model_derivatives(gen.system, symbols);
  std::vector<Assignment> list;
  const std::vector<Equation>& equations = gen.system.context.initial_equations;
  for (size_t i = 0; i < equations.size(); ++i)
    list.push_back({fmt::format("r[{}]", i), equations[i].residual(), equations[i].label});
  std::string code = gen.parts.body({"initial_equations",
                                     {kP, kT, kX, in("xdot"), in("z"), out("r")},
                                     assignment_statements(symbols, list)});
  return body(code, {"t", "x", "xdot", "z", "r"});
}

namespace {

// A value of the model's symbols computed by a generated function, named for its comment.
struct NamedValue {
  std::string name;
  ex value;
};

// The body of `function(t, x, target)`: target[q] = values[q] at (t, X), computing X' (through
// rhs) and Z first when they use them; all NaN when they cannot be computed.
std::string model_values(Generator& gen, const char* function, const char* target,
                         const std::vector<NamedValue>& list) {
  SymbolColumns algebraic(gen.system.algebraic);
  SymbolCode symbols = gen.symbols(true);
  SymbolSet from_xdot = add_model_derivatives(gen.system, symbols);
  // One walk over all the values together: they share subexpressions (outputs that use earlier
  // outputs), and a walk of each value whole made 10,000 chained outputs quadratic.
  GiNaC::exvector values;
  values.reserve(list.size());
  for (const NamedValue& o : list) values.push_back(o.value);
  const ex all = GiNaC::exprseq(values.begin(), values.end());  // op(i) in constant time
  const bool needs_z = algebraic.occurs_in(all), needs_xdot = holds_any(all, from_xdot);
  std::string not_available = fmt::format(
      "{{\n    std::fill({0}, {0} + {1}, std::numeric_limits<double>::quiet_NaN());\n    "
      "return;\n  }}",
      target, list.size());
  std::string code;
  if (needs_xdot) {  // first derivatives (theta'): from rhs, which solves for Z as well
    code += local_array("double", "xdot", gen.n) +
            fmt::format("  if (rhs(t, x, xdot, nullptr) != 0) {}\n", not_available);
  }
  if (needs_z) code += solve_prologue(gen, not_available);
  std::vector<Assignment> assignments;
  for (size_t q = 0; q < list.size(); ++q)
    assignments.push_back({fmt::format("{}[{}]", target, q), list[q].value, list[q].name});
  std::vector<CodeParameter> parameters{kP, kT, kX, out(target)};
  if (needs_z) parameters.insert(parameters.begin() + 3, in("r"));
  if (needs_xdot) parameters.insert(parameters.begin() + 3, in("xdot"));
  code += gen.parts.body({function, parameters, assignment_statements(symbols, assignments)});
  return body(code, {"t", "x", target});
}

}  // namespace

std::string outputs(Generator& gen) {
  std::vector<NamedValue> list;
  for (const Output& o : gen.system.context.outputs) list.push_back({o.name, o.value});
  return model_values(gen, "outputs", "y", list);
}

std::string reinit_values(Generator& gen) {
  std::vector<NamedValue> list;
  for (const WhenClause& w : gen.system.context.when_clauses)
    for (const Reinit& r : w.reinits) list.push_back({"reinit(" + r.target + ")", r.value});
  return model_values(gen, "reinit_values", "v", list);
}

}  // namespace daec::function_code
