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

struct Parameter {
  std::string name;
  std::string description;
  SourceLocation location;
  GiNaC::realsymbol symbol;
  GiNaC::ex default_value;  ///< as written, in terms of earlier parameters
  double value = 0;         ///< default_value evaluated in declaration order
};

struct Variable {
  std::string name;
  std::string description;
  SourceLocation location;
  GiNaC::realsymbol symbol;
  GiNaC::ex start = 0;  ///< in terms of parameters
  bool fixed = false;
  /// derivatives[k] is the symbol of the (k+1)-th time derivative, named x', x'', ...; only the
  /// orders the equations use (and all lower ones) are present.
  std::vector<GiNaC::realsymbol> derivatives;

  bool is_differential() const { return !derivatives.empty(); }
  int highest_order() const { return static_cast<int>(derivatives.size()); }
};

struct Output {
  std::string name;
  std::string description;
  SourceLocation location;
  GiNaC::ex value;  ///< in terms of t, parameters and variables
};

struct Equation {
  std::string label;      ///< as written, or eq<N> (1-based, in source order)
  bool labelled = false;  ///< the label was written in the model
  SourceLocation location;
  GiNaC::ex lhs, rhs;

  GiNaC::ex residual() const { return lhs - rhs; }
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

  std::vector<Parameter> parameters;
  std::vector<Variable> variables;
  std::vector<Output> outputs;
  std::vector<Equation> equations;

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
