// The data that flows through the reduction stages (docs/method.md): unknowns with their origin,
// the first-order system, the semi-explicit system x' = f(x, z, t), 0 = g(x, z, t), and the reduced
// index-1 system with its hidden constraints.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <ginac/ginac.h>

#include "model/model.h"
#include "model/symbols.h"
#include "support/source.h"

namespace daec {

/// Why an unknown exists.
enum class UnknownOrigin {
  Variable,   ///< a variable of the model
  Velocity,   ///< x_dot introduced for x'' by the first-order stage
  Dummy,      ///< a dummy variable standing for the derivative of a state
  Nonlinear,  ///< v_n standing for x_n' of a nonlinear algebraic variable (docs/method.md §4)
};

/// The words for an origin, in one place so that the generated code, the JSON report and the
/// Markdown report name it alike.
struct OriginWords {
  const char* key;          ///< JSON: variable, velocity, dummy, nonlinear_dummy
  const char* description;  ///< generated comments: "dummy derivative", ...
  const char* role;         ///< Markdown, before the derivative it stands for: "dummy for", ...
};
const OriginWords& origin_words(UnknownOrigin origin);

struct Unknown {
  std::string name;
  GiNaC::realsymbol symbol;
  UnknownOrigin origin = UnknownOrigin::Variable;
  std::string derivative_of;  ///< Velocity, Dummy, Nonlinear: the unknown it is the derivative of
  GiNaC::ex start = 0;        ///< in terms of parameters
  bool fixed = false;
  std::string description;
  GiNaC::ex nominal = 0;       ///< the scale of its changes, in terms of parameters; 0: not given
  std::string unit;            ///< as declared, or per second of derivative_of's; "" if none
  bool start_written = false;  ///< Variable: its `start = ...` was written (model.h)
  /// Variable: an algebraic unknown of the model made a state (it enters nonlinearly, or its
  /// rows were dependent): its start is solved for, never held (docs/language.md, "Initial
  /// values"), and a reset recomputes it.
  bool promoted = false;
};

/// An equation lhs = rhs of the first-order system; derivatives are first order only.
struct SystemEquation {
  std::string label;
  SourceLocation location;
  GiNaC::ex lhs, rhs;

  GiNaC::ex residual() const { return lhs - rhs; }
};

/// A derivative symbol of the model (x', x''): the variable and the order it stands for.
struct ModelDerivative {
  GiNaC::realsymbol symbol;
  std::string variable;
  int order;
};

/// Everything the stages share about the model: its name, parameters, outputs, time, symbols.
struct ModelContext {
  std::string name;
  std::string description;
  std::string file_name;
  SymbolTable symbols;  ///< the model's symbols plus those the stages add (x_dot, dummies)
  GiNaC::realsymbol time;
  std::vector<Parameter> parameters;
  std::vector<Output> outputs;
  std::vector<std::string> variable_names;         ///< the model's variables in declaration order
  std::vector<std::string> variable_descriptions;  ///< and their descriptions ("" if none)
  std::vector<std::string> variable_units;         ///< and their units ("" if none)
  /// The derivative symbols outputs and initial equations may use (model level: x', x'').
  std::vector<ModelDerivative> derivatives;
  /// The initial equations, in the model's symbols (variables, their derivatives, parameters, t).
  std::vector<Equation> initial_equations;
  /// The orders of the interp tables' breakpoints, indices into `parameters` (model.h).
  std::vector<ParameterOrder> parameter_orders;
  /// The when clauses (docs/language.md): their values in the model's symbols, their conditions
  /// in the states' (x' of x'' is the velocity x_dot). Passed through the stages untouched.
  std::vector<WhenClause> when_clauses;

  /// A fresh symbol named `base`, or `base_2`, ... if that name is taken.
  GiNaC::realsymbol fresh_symbol(const std::string& base);
  /// Parameter symbols mapped to their default values (exact), for numeric evaluation.
  GiNaC::exmap parameter_values() const;
};

/// After the first-order stage: every derivative is of order one.
struct FirstOrderSystem {
  ModelContext context;
  std::vector<Unknown> unknowns;  ///< the model's variables in order, then the velocity states
  /// derivative[i]: the symbol of unknowns[i]' if it appears anywhere, else nullopt.
  std::vector<std::optional<GiNaC::realsymbol>> derivative;
  std::vector<SystemEquation> equations;  ///< the model's equations, then x' = x_dot
};

/// state' = rhs
struct StateEquation {
  size_t state;  ///< index into SemiExplicitSystem::states
  GiNaC::ex rhs;
  std::string label;  ///< the equation it came from
  SourceLocation location;
};

/// 0 = residual, a constraint on the algebraic unknowns.
struct Constraint {
  std::string label;       ///< rod, rod', rod'' for differentiated constraints
  std::string base_label;  ///< the label of the equation it descends from
  int level = 0;           ///< times differentiated
  SourceLocation location;
  GiNaC::ex residual;
  /// Differentiations of the model's equations behind this row: its level, or for a combination
  /// of rows (docs/method.md §5, step 2) the highest order it combines plus its later levels.
  int order = 0;
  /// Combinations nested in this row: 0 for a model equation (or its derivatives), one more than
  /// the most nested row it combines for a combination.
  int nesting = 0;
};

/// docs/method.md §3: x_d' = f(x_d, x_a, t), 0 = g(x_d, x_a, t).
struct SemiExplicitSystem {
  ModelContext context;
  std::vector<Unknown> states;              ///< x_d
  std::vector<Unknown> algebraic;           ///< x_a
  std::vector<StateEquation> differential;  ///< one per state, in state order
  std::vector<Constraint> constraints;      ///< g
};

/// The label of a constraint differentiated `level` times: rod, rod', rod''.
std::string level_label(const std::string& base, int level);

}  // namespace daec
