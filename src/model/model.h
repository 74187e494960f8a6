// The checked model: declarations and equations as GiNaC expressions. This is what the front end
// hands to the reduction pipeline; every name in it maps to one symbol of `symbols`.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <ginac/ginac.h>

#include "model/symbols.h"
#include "support/source.h"

namespace daec {

/// The array a scalar of the model belongs to: `x[3]` is element (3) of `x`, of shape (8). The
/// model itself is scalar (docs/language.md: arrays and loops are flattened); this is kept for
/// printing the model back with its arrays.
struct ArrayElement {
  std::string array;        ///< the declared name; empty for a scalar declaration
  std::vector<long> index;  ///< 1-based subscripts
  std::vector<long> shape;  ///< the array's sizes
};

struct Parameter {
  std::string name;
  std::string description;
  SourceLocation location;
  ArrayElement element;
  GiNaC::realsymbol symbol;
  GiNaC::ex default_value;  ///< as written, in terms of earlier parameters
  double value = 0;         ///< default_value evaluated in declaration order
  std::string unit;         ///< `unit = "..."` as written (docs/language.md, "Units"); "" if none
};

struct Variable {
  std::string name;
  std::string description;
  SourceLocation location;
  ArrayElement element;
  GiNaC::realsymbol symbol;
  GiNaC::ex start = 0;  ///< in terms of parameters
  bool fixed = false;
  /// `start = ...` was written: only such a start weighs at the start time (docs/language.md,
  /// "Initial values"); an unwritten one (0) is a guess that consistent initialization solves for.
  bool start_written = false;
  /// The scale of the variable's changes (`nominal = ...`, in terms of parameters); 0 when not
  /// given, and consistent initialization scales by max(|start|, 1).
  GiNaC::ex nominal = 0;
  /// derivatives[k] is the symbol of the (k+1)-th time derivative, named x', x'', ...; only the
  /// orders the equations use (and all lower ones) are present.
  std::vector<GiNaC::realsymbol> derivatives;
  std::string unit;  ///< `unit = "..."` as written (docs/language.md, "Units"); "" if none

  bool is_differential() const { return !derivatives.empty(); }
  int highest_order() const { return static_cast<int>(derivatives.size()); }
};

struct Output {
  std::string name;
  std::string description;
  SourceLocation location;
  ArrayElement element;
  GiNaC::ex value;   ///< in terms of t, parameters and variables
  std::string unit;  ///< `unit = "..."` as written (docs/language.md, "Units"); "" if none
};

/// A parameter that sizes, loop ranges or indices use: fixed when the model is compiled (-D
/// changes it), its uses replaced by its value; it is not a parameter of the generated code.
struct Constant {
  std::string name;
  std::string description;
  SourceLocation location;
  double value = 0;
};

struct Equation {
  std::string label;      ///< as written (rod, rod[3]), or eq<N>, eq<N>[i] (N: source position)
  bool labelled = false;  ///< the label was written in the model
  SourceLocation location;
  GiNaC::ex lhs, rhs;

  GiNaC::ex residual() const { return lhs - rhs; }
};

/// Two parameters that must stay in order, p[lower] < p[upper] (indices into Model::parameters):
/// consecutive breakpoints of an interp table (docs/language.md, "Tables: interp").
struct ParameterOrder {
  size_t lower = 0, upper = 0;
};

/// `reinit(x, value)` in a when clause: variable `variable` (order 0), or the velocity x' of a
/// variable whose x'' appears (order 1), is set to `value` at the clause's instants.
struct Reinit {
  size_t variable = 0;
  int order = 0;
  std::string target;  ///< as written: v, x', x[2]
  GiNaC::ex value;     ///< in terms of t, parameters, variables and their derivatives
  SourceLocation location;
};

/// `when condition then reinit(...); ... end when;` (docs/language.md, "When clauses and
/// reinit"): adds no equation; the simulator applies the reinits where the condition becomes true.
struct WhenClause {
  std::string name;     ///< "when h < 0": the condition as written (and " (at i = 2)" in loops)
  GiNaC::ex condition;  ///< a relation, or and/or/not of relations (model/conditions.h)
  std::vector<Reinit> reinits;
  SourceLocation location;
};

/// Which variable a derivative symbol belongs to, and its order.
struct DerivativeOf {
  size_t variable;
  int order;
};

struct Model {
  std::string name;
  std::string description;
  SourceLocation location;
  std::string file_name;

  SymbolTable symbols;
  GiNaC::realsymbol time;  ///< `t`, from `symbols`

  std::vector<Constant> constants;
  std::vector<Parameter> parameters;
  std::vector<Variable> variables;
  std::vector<Output> outputs;
  std::vector<Equation> equations;
  /// The `initial equation` section: hold at the start time only, in the variables, their
  /// derivatives up to the orders `equations` use, parameters and t.
  std::vector<Equation> initial_equations;
  /// The orders the generated set_parameter keeps (each pair once, in order of first use).
  std::vector<ParameterOrder> parameter_orders;
  std::vector<WhenClause> when_clauses;  ///< in source order

  Model() : time(symbols.get("t")) {}

  const Variable* find_variable(const std::string& name) const;
  const Parameter* find_parameter(const std::string& name) const;
  /// The symbol of the `order`-th derivative of variable `index`, created with all lower orders.
  const GiNaC::realsymbol& derivative(size_t index, int order);
  /// If `symbol` is a derivative symbol, which variable and order it stands for.
  std::optional<DerivativeOf> derivative_of(const GiNaC::ex& symbol) const;
  /// Drops derivative symbols above order `order` of variable `index` (after simplification
  /// cancelled them out of every equation).
  void truncate_derivatives(size_t index, int order);

 private:
  std::map<GiNaC::ex, DerivativeOf, GiNaC::ex_is_less> derivative_index_;
};

using SymbolSet = std::set<GiNaC::ex, GiNaC::ex_is_less>;

/// The symbols occurring in `e` (variables, derivatives, parameters, t).
SymbolSet symbols_in(const GiNaC::ex& e);

/// The name of the `order`-th derivative of `name`: x', x'', x'''...
std::string derivative_name(const std::string& name, int order);

}  // namespace daec
