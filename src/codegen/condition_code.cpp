// The condition members of a generated Model: their declarations, the names table and the bodies
// of conditions() and set_modes().
#include "codegen/condition_code.h"

#include <fmt/format.h>

#include "codegen/cpp_names.h"
#include "codegen/function_parts.h"
#include "model/printer.h"

namespace daec {

using GiNaC::ex;

namespace {

// t, p[i] and x[i]: what the switching functions and the relations are made of (they never hold
// an algebraic unknown, ReducedSystem::relations).
SymbolCode state_symbols(const ReducedSystem& system) {
  SymbolCode code;
  code[system.context.time] = "t";
  for (size_t i = 0; i < system.context.parameters.size(); ++i)
    code[system.context.parameters[i].symbol] = fmt::format("p[{}]", i);
  for (size_t i = 0; i < system.states.size(); ++i)
    code[system.states[i].symbol] = fmt::format("x[{}]", i);
  return code;
}

// `target[k] = values[k];` for each k, the values compiled together; `(void)t;` when t is unused
// (and so for x).
std::string assignments(const SymbolCode& symbols, const char* target,
                        const std::vector<ex>& values) {
  ExpressionCompiler compiler(symbols);
  std::vector<size_t> handles;
  for (const ex& value : values) handles.push_back(compiler.add(value));
  std::string code;
  for (const std::string& statement : compiler.statements()) code += "  " + statement + "\n";
  for (size_t k = 0; k < values.size(); ++k)
    code += fmt::format("  {}[{}] = {};\n", target, k, compiler.code_for(handles[k]));
  for (const char* name : {"x", "t"})
    if (!uses_name(code, name)) code = fmt::format("  (void){};\n", name) + code;
  return code;
}

const char* kDeclarations =
    R"(// Conditions: relation k of the model (a < b, a <= b, a > b, a >= b, a == b or a <> b, as
// condition_names[k] says) is watched through its switching function g_k = a - b, which changes
// sign where the relation changes its value. Every function takes relation k from its mode,
// modes()[k] = p[num_parameters + k]: -1 (the default) follows the live value; 0 holds the
// relation false and 1 true whatever the state, so that between two events an integrator sees
// one smooth branch. An integrator calls set_modes at the start, locates each sign change of g
// along the solution, stops there, calls set_modes again and restarts (docs/simulator.md).
static constexpr int num_conditions = {};
static const char* const condition_names[];  // "label: relation", e.g. "drive: t < 1"
// The switching functions g_k = a - b at (t, x), num_conditions of them.
void conditions(double t, const double* x, double* g) const;
// Freezes every relation at its live value at (t, x): modes()[k] = 1 (true) or 0 (false).
void set_modes(double t, const double* x);
// The modes, stored in p after the parameters; -1 makes a relation follow its live value again.
double* modes() {{ return p + num_parameters; }}
const double* modes() const {{ return p + num_parameters; }}

)";

}  // namespace

void add_condition_modes(const ReducedSystem& system, SymbolCode& symbols) {
  size_t first = system.context.parameters.size();
  for (size_t k = 0; k < system.relations.size(); ++k)
    symbols[system.relations[k]] = fmt::format("p[{}]", first + k);
}

std::string condition_name(const ReducedSystem& system, size_t k) {
  const ex& relation = system.relations[k];
  std::string label;
  for (const StateEquation& f : system.differential)
    if (label.empty() && f.rhs.has(relation)) label = f.label;
  for (const Constraint& g : system.constraints)
    if (label.empty() && g.residual.has(relation)) label = g.base_label;
  for (const Constraint& h : system.invariants)
    if (label.empty() && h.residual.has(relation)) label = h.base_label;
  return (label.empty() ? "" : label + ": ") + to_dae(relation);
}

ConditionCode condition_code(const ReducedSystem& system,
                             const std::string& parameter_initializer) {
  ConditionCode code;
  size_t count = system.relations.size();
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
  code.declarations = fmt::format(kDeclarations, count);

  std::string names;
  std::vector<ex> switching, relations;
  for (size_t k = 0; k < count; ++k) {
    names += fmt::format("    \"{}\",\n", cpp_string_contents(condition_name(system, k)));
    const ex& relation = system.relations[k];
    switching.push_back(relation.op(0) - relation.op(1));
    relations.push_back(relation);
  }
  SymbolCode with_modes = state_symbols(system);
  add_condition_modes(system, with_modes);
  code.definitions = fmt::format(
      "const char* const Model::condition_names[] = {{\n{}}};\n\n"
      "void Model::conditions(double t, const double* x, double* g) const {{\n{}}}\n\n"
      "void Model::set_modes(double t, const double* x) {{\n"
      "  double* mode = modes();\n{}}}\n\n",
      names, assignments(with_modes, "g", switching),
      assignments(state_symbols(system), "mode", relations));
  return code;
}

}  // namespace daec
