// The unit of an expression of the syntax tree (docs/language.md, "Units"), computed bottom-up
// and reporting every dimensional mismatch once, where it is. A subexpression with a mismatch has
// no unit for its parents, so that one mistake gives one message.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "support/diagnostics.h"
#include "units/unit_system.h"

namespace daec {

/// What is known about the unit of an expression.
struct Quantity {
  enum class Kind {
    Number,     ///< a number literal (or made of them): takes whatever unit its neighbours have
    Unknown,    ///< uses a name without a unit, or held a mismatch: not checked
    Known,      ///< `unit`
    Condition,  ///< a relation or logical operator: no unit
  };
  Kind kind = Kind::Unknown;
  std::optional<Unit> unit;
  /// The declared names that are factors of the expression, each once and to the power 1 (`g`,
  /// `-g`, `x[i]`, `m*g`, `m*g/2`), for pointing at a declaration: a name declared in a wrong
  /// unit makes every such product wrong by the same unit. Empty for anything else (sums,
  /// powers, derivatives, calls).
  std::vector<std::string> names;

  static Quantity number() { return {Kind::Number, std::nullopt, {}}; }
  static Quantity unknown() { return {Kind::Unknown, std::nullopt, {}}; }
  static Quantity condition() { return {Kind::Condition, std::nullopt, {}}; }
  static Quantity known(Unit u) { return {Kind::Known, std::move(u), {}}; }
  /// This quantity, no longer a product of names.
  Quantity computed() const { return {kind, unit, {}}; }
  bool is_known() const { return kind == Kind::Known; }
};

/// Computes units of expressions, reporting mismatches through `report`.
class UnitInference {
 public:
  /// How mismatches are reported: a warning or an error at a location.
  using Report = std::function<void(const SourceLocation&, const std::string&)>;
  /// The unit of a declared name (a parameter, variable or output); unknown when none.
  using Lookup = std::function<Quantity(const std::string&)>;
  /// The value of a constant parameter (exponents: x^n), if it has one.
  using ConstantValue = std::function<std::optional<double>(const std::string&)>;
  /// Whether a name is a parameter that can be set at run time: its value is no constant
  /// exponent for a base with a unit, whose unit would change with it.
  using Settable = std::function<bool(const std::string&)>;
  /// Told, after two sides are compared, of each declared name that is a factor of one of them
  /// (Quantity::names) and where: after a mismatch, the unit the name would need for the sides
  /// to agree (`needed`); after a match, nullopt (its declared unit fits there). A declaration
  /// may be what is wrong.
  using Blame = std::function<void(const std::string& name, const std::optional<Unit>& needed,
                                   const SourceLocation& where)>;

  UnitInference(const UnitSystem& units, Lookup lookup, ConstantValue constant, Report report,
                Settable settable = {}, Blame blame = {})
      : units_(units),
        lookup_(std::move(lookup)),
        constant_(std::move(constant)),
        report_(std::move(report)),
        settable_(std::move(settable)),
        blame_(std::move(blame)) {}

  /// The unit of `e`; mismatches inside it are reported.
  Quantity unit_of(const Expr& e);
  /// Whether `a` and `b` may stand side by side (`what`: "the terms of this sum"); if not, reports
  /// at `where` naming both units. Numbers and unknown units are alike with everything.
  bool check_alike(const Quantity& a, const Quantity& b, const SourceLocation& where,
                   const std::string& what);
  /// The unit of the `order`-th time derivative of a quantity `q`: per second, per second
  /// squared, ... (a number stays a number, an unknown unit unknown).
  Quantity per_second(const Quantity& q, int order) const;
  /// Names bound by an enclosing loop: plain numbers.
  void bind(const std::string& name) { iterators_.push_back(name); }
  void unbind() { iterators_.pop_back(); }

 private:
  Quantity name_unit(const std::string& name);
  Quantity sum_unit(const Expr& e);
  Quantity product_unit(const Expr& e);
  Quantity power_unit(const Expr& base, const Expr& exponent, const SourceLocation& where);
  Quantity derivative_unit(const Expr& e);
  Quantity call_unit(const Expr& e);
  Quantity dimensionless_call(const Expr& e);
  Quantity alike_call(const Expr& e, size_t first, size_t last);
  /// The values that must share one unit (the arguments of min, the branches of an if), met one
  /// at a time: their common unit, unknown after a mismatch or an unknown value.
  struct Alike {
    std::optional<Quantity> known;
    bool unknown = false, mismatch = false;
    Quantity result() const;
  };
  void add_alike(Alike& alike, const Quantity& q, const Expr& operand, const std::string& what);
  Quantity interp_unit(const Expr& e);
  Quantity if_unit(const Expr& e);
  Quantity relation_unit(const Expr& e);
  Quantity reduction_unit(const Expr& e);
  Quantity root_unit(const Quantity& q, int n, const SourceLocation& where);
  bool fits(long long largest, const std::string& what, const SourceLocation& where);
  bool check_dimensionless(const Quantity& q, const SourceLocation& where, const std::string& what);
  std::optional<double> constant_value(const Expr& e);
  std::string settable_parameter_in(const Expr& e) const;

  const UnitSystem& units_;
  Lookup lookup_;
  ConstantValue constant_;
  Report report_;
  Settable settable_;
  Blame blame_;
  std::vector<std::string> iterators_;
};

/// " (the same dimension, but 1 km = 1000 m: a conversion factor is missing)" when `a` and `b`
/// differ by a factor only; "" otherwise.
std::string factor_note(const Unit& a, const Unit& b);

/// Where the text of `e` starts (a binary operator's node is located at its operator).
SourceLocation start_of(const Expr& e);

}  // namespace daec
