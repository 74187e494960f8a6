// The first-order stage: velocity states for derivatives of order two and more.
#include "reduction/first_order.h"

#include "reduction/symbolic.h"
#include "units/unit_text.h"

namespace daec {

std::string velocity_name(const std::string& name, int order) {
  return name + "_" + std::string(static_cast<size_t>(order - 1), 'd') + "dot";
}

static ModelContext make_context(const Model& model) {
  ModelContext context{model.name,
                       model.description,
                       model.file_name,
                       model.symbols,
                       model.time,
                       model.parameters,
                       model.outputs,
                       {},
                       {},
                       {},
                       {},
                       {},
                       model.parameter_orders,
                       {}};
  for (const Variable& v : model.variables) {
    context.variable_names.push_back(v.name);
    context.variable_descriptions.push_back(v.description);
    context.variable_units.push_back(v.unit);
    for (size_t k = 0; k < v.derivatives.size(); ++k)
      context.derivatives.push_back({v.derivatives[k], v.name, static_cast<int>(k) + 1});
  }
  context.initial_equations = model.initial_equations;
  context.when_clauses = model.when_clauses;
  return context;
}

static Unknown unknown_of(const Variable& v) {
  return Unknown{v.name,    v.symbol, UnknownOrigin::Variable, "", v.start, v.fixed, v.description,
                 v.nominal, v.unit,   v.start_written};
}

FirstOrderSystem to_first_order(const Model& model, UnknownOrder unknown_order) {
  const ModelOrder numbering = model_order(model, unknown_order);
  FirstOrderSystem system{make_context(model), {}, {}, {}};
  for (size_t index : numbering.variables) {
    const Variable& v = model.variables[index];
    system.unknowns.push_back(unknown_of(v));
    system.derivative.push_back(v.is_differential() ? std::optional(v.derivatives[0])
                                                    : std::nullopt);
  }
  GiNaC::exmap lowered;  // x^(j) -> the state or derivative symbol that replaces it
  std::vector<SystemEquation> definitions;
  // The velocities of each declared variable (by its index), x_dot, x_ddot, ...: they join the
  // tables of the variables after the declared ones, in declaration order, so that the
  // simulator's output and the Python result hold them (docs/method.md, section 2).
  std::vector<std::vector<size_t>> velocity_positions(model.variables.size());
  for (size_t position = 0; position < numbering.variables.size(); ++position) {
    const Variable& v = model.variables[numbering.variables[position]];
    size_t previous = position;  // the state whose derivative the next velocity stands for
    for (int order = 1; order < v.highest_order(); ++order) {
      GiNaC::realsymbol velocity = system.context.fresh_symbol(velocity_name(v.name, order));
      std::string name = velocity.get_name();
      lowered[v.derivatives[order - 1]] = velocity;
      definitions.push_back(
          SystemEquation{derivative_name(system.unknowns[previous].name, 1) + " = " + name,
                         v.location, *system.derivative[previous], velocity});
      system.unknowns.push_back(Unknown{name, velocity, UnknownOrigin::Velocity,
                                        system.unknowns[previous].name, 0, false, "", 0,
                                        per_second(system.unknowns[previous].unit)});
      system.derivative.push_back(std::nullopt);
      previous = system.unknowns.size() - 1;
      velocity_positions[numbering.variables[position]].push_back(previous);
      GiNaC::realsymbol next = system.context.fresh_symbol(derivative_name(name, 1));
      system.derivative[previous] = next;
      lowered[v.derivatives[order]] = next;
    }
  }
  for (const std::vector<size_t>& positions : velocity_positions) {
    for (size_t position : positions) {
      const Unknown& velocity = system.unknowns[position];
      system.context.variable_names.push_back(velocity.name);
      system.context.variable_descriptions.push_back("");
      system.context.variable_units.push_back(velocity.unit);
    }
  }
  for (size_t index : numbering.equations) {
    const Equation& e = model.equations[index];
    system.equations.push_back(SystemEquation{e.label, e.location,
                                              substitute_symbols(e.lhs, lowered),
                                              substitute_symbols(e.rhs, lowered)});
  }
  system.equations.insert(system.equations.end(), definitions.begin(), definitions.end());
  for (WhenClause& clause : system.context.when_clauses)
    clause.condition = substitute_symbols(clause.condition, lowered);
  return system;
}

}  // namespace daec
