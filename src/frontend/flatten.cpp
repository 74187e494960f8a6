// Flattening: declarations to elements, loops to iterations, syntax trees to GiNaC.
#include "frontend/flatten.h"

#include <map>

#include <fmt/format.h>

#include "frontend/constants.h"
#include "frontend/when_clauses.h"
#include "model/expression_walk.h"
#include "support/text.h"

namespace daec {

using GiNaC::ex;

namespace {

// The subscripts of the element at row-major `position` of an array of `shape`.
std::vector<long> index_of(size_t position, const std::vector<long>& shape) {
  std::vector<long> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = static_cast<long>(position % static_cast<size_t>(shape[d])) + 1;
    position /= static_cast<size_t>(shape[d]);
  }
  return index;
}

std::string shape_text(const std::vector<long>& shape) {
  std::string text;
  for (long size : shape)
    text += (text.empty() ? "" : "x") + grouped_digits(static_cast<size_t>(size));
  return text;
}

// An equation's label as formed, and where it came from (for the checks on labels).
struct LabelOrigin {
  std::string label;
  size_t syntax;  ///< index into ModelSyntax::equations
};

// How deep an output's expression may nest and how many nodes it may have written out (each path
// of its graph anew): docs/limits.md, "Outputs". 10,000 outputs each the sine of the last nest
// 10,000 deep; a walk that recurses takes under 100 bytes of stack a level, so that twice that
// depth stays far within the 8 MB of a default stack.
constexpr size_t kMaxOutputDepth = 20000;
constexpr uint64_t kMaxOutputTree = 100000000;

class Flattener {
 public:
  Flattener(const ModelSyntax& syntax, Declarations& declarations, const FlattenOptions& options,
            DiagnosticEngine& diags)
      : syntax_(syntax),
        declarations_(declarations),
        options_(options),
        diags_(diags),
        budget_(options.max_elements),
        lowering_(model_, declarations, syntax, diags, budget_) {}

  Model run();

 private:
  std::optional<std::vector<long>> shape_of(const NameToken& name, const Dimensions& dimensions,
                                            size_t parameter_limit);
  bool take_elements(const NameToken& name, const std::vector<long>& shape, size_t& count);
  std::optional<std::vector<long>> sized(const NameToken& name, const Dimensions& dimensions,
                                         size_t parameter_limit, size_t& count);
  ArrayElement element(const NameToken& name, const std::vector<long>& shape, size_t k) const;
  void expand_parameter(size_t i, Declaration& decl);
  std::optional<std::vector<ex>> parameter_values(size_t i, const std::vector<long>& shape);
  void expand_variable(size_t i, Declaration& decl);
  void expand_output(size_t i, Declaration& decl);
  void expand_statements(const std::vector<Statement>& statements, std::vector<Binding>& bindings);
  void expand_equation(size_t index, const std::vector<Binding>& bindings);
  bool nominal_values(const VariableDecl& v, const std::vector<long>& shape, std::vector<ex>& out);
  void check_derivative_uses();
  std::optional<std::string> label_of(const EquationDecl& decl, size_t index, Context& context);
  void check_labels();

  const ModelSyntax& syntax_;
  Declarations& declarations_;
  const FlattenOptions& options_;
  DiagnosticEngine& diags_;
  Model model_;
  ElementBudget budget_;
  ExpressionLowering lowering_;
  GiNaC::exmap exact_parameter_values_;
  std::vector<LabelOrigin> labels_;  ///< every equation whose label could be formed
  ExpressionExtent extents_;         ///< of the outputs, which use one another
};

Model Flattener::run() {
  model_.name = syntax_.name.name;
  model_.description = syntax_.description;
  model_.location = syntax_.name.location.valid() ? syntax_.name.location : syntax_.end_location;
  if (model_.location.file) model_.file_name = model_.location.file->name();
  for (size_t i = 0; i < syntax_.parameters.size(); ++i) {
    Declaration* decl =
        declarations_.registered(syntax_.parameters[i].name.name, DeclKind::Parameter, i);
    if (decl) expand_parameter(i, *decl);
  }
  for (size_t i = 0; i < syntax_.variables.size(); ++i) {
    Declaration* decl =
        declarations_.registered(syntax_.variables[i].name.name, DeclKind::Variable, i);
    if (decl) expand_variable(i, *decl);
  }
  for (size_t i = 0; i < syntax_.outputs.size(); ++i) {
    Declaration* decl = declarations_.registered(syntax_.outputs[i].name.name, DeclKind::Output, i);
    if (decl) expand_output(i, *decl);
  }
  std::vector<Binding> bindings;
  expand_statements(syntax_.statements, bindings);
  expand_statements(syntax_.initial_statements, bindings);
  check_labels();
  check_derivative_uses();
  return std::move(model_);
}

// ---- declarations ----

// The sizes of a declaration (empty for a scalar): at most two, constant whole numbers >= 0.
std::optional<std::vector<long>> Flattener::shape_of(const NameToken& name,
                                                     const Dimensions& dimensions,
                                                     size_t parameter_limit) {
  if (dimensions.size() > 2) {
    lowering_.error(dimensions[2]->location, "'" + name.name + "' has " +
                                                 std::to_string(dimensions.size()) +
                                                 " dimensions; arrays have one or two");
    return std::nullopt;
  }
  std::vector<long> shape;
  bool ok = true;
  for (const ExprPtr& size : dimensions) {
    Context context{
        Role::Constant, name.name, parameter_limit, "the size of '" + name.name + "'", {}};
    std::optional<long> value = lowering_.integer(*size, context);
    if (value && *value < 0) {
      lowering_.error(
          size->location,
          "the size of '" + name.name + "' must not be negative, but is " + std::to_string(*value));
      value.reset();
    }
    ok = ok && value;
    if (value) shape.push_back(*value);
  }
  if (!ok) return std::nullopt;
  return shape;
}

// Takes the elements of an array from the budget; `count` receives their number.
bool Flattener::take_elements(const NameToken& name, const std::vector<long>& shape,
                              size_t& count) {
  count = 1;
  bool fits = true;
  for (long size : shape) {
    size_t n = static_cast<size_t>(size);
    if (n != 0 && count > budget_.limit() / n) fits = false;
    count = fits ? count * n : 0;
  }
  if (budget_.exhausted()) return false;
  if (fits && budget_.take(count)) return true;
  // A scalar counts as one element: the one that passes a limit reached by the arrays before it.
  std::string what = shape.empty()
                         ? "'" + name.name + "' (one element)"
                         : "array '" + name.name + "' of " + shape_text(shape) + " elements";
  lowering_.error(name.location, what + " takes the model past the limit of " +
                                     grouped_digits(budget_.limit()) +
                                     " array elements and loop iterations (see docs/limits.md)");
  budget_.take(budget_.limit() + 1);  // nothing more is expanded after this
  return false;
}

// The shape of a declaration whose elements the budget allows; `count` receives their number.
std::optional<std::vector<long>> Flattener::sized(const NameToken& name,
                                                  const Dimensions& dimensions,
                                                  size_t parameter_limit, size_t& count) {
  std::optional<std::vector<long>> shape = shape_of(name, dimensions, parameter_limit);
  if (!shape || !take_elements(name, *shape, count)) return std::nullopt;
  return shape;
}

ArrayElement Flattener::element(const NameToken& name, const std::vector<long>& shape,
                                size_t k) const {
  if (shape.empty()) return {};
  return ArrayElement{name.name, index_of(k, shape), shape};
}

static std::string name_of(const ArrayElement& element, const std::string& scalar) {
  return element.array.empty() ? scalar : element_name(element.array, element.index);
}

// The values of parameter i's elements, as written or as -D gives them.
std::optional<std::vector<ex>> Flattener::parameter_values(size_t i,
                                                           const std::vector<long>& shape) {
  const ParameterDecl& p = syntax_.parameters[i];
  for (const Define& define : options_.defines) {
    if (define.name != p.name.name) continue;
    size_t count = 1;
    for (long size : shape) count *= static_cast<size_t>(size);
    return std::vector<ex>(count, exact_number(define.value));
  }
  Context context{Role::ParameterValue, p.name.name, i, "", {}};
  return lowering_.array_value(*p.value, shape, p.name.name, context);
}

void Flattener::expand_parameter(size_t i, Declaration& decl) {
  const ParameterDecl& p = syntax_.parameters[i];
  size_t count;
  std::optional<std::vector<long>> shape = sized(p.name, p.dimensions, i, count);
  if (!shape) return;
  std::optional<std::vector<ex>> values = parameter_values(i, *shape);
  if (!values) return;
  std::vector<Parameter> parameters;
  std::vector<Constant> constants;
  std::vector<ex> exact_values;
  bool ok = true;
  for (size_t k = 0; k < count; ++k) {
    ArrayElement where = element(p.name, *shape, k);
    std::string name = name_of(where, p.name.name);
    double value;
    ex exact;
    std::optional<std::string> problem =
        to_finite_double((*values)[k], exact_parameter_values_, value, &exact);
    if (problem) {
      lowering_.error(p.name.location,
                      "value of parameter '" + name + "' cannot be evaluated: " + *problem);
      ok = false;
      continue;
    }
    exact_values.push_back(exact);
    if (decl.structural) {
      constants.push_back(Constant{name, p.description, p.name.location, value});
    } else {
      parameters.push_back(Parameter{name, p.description, p.name.location, where,
                                     model_.symbols.get(name), (*values)[k], value, p.unit});
    }
  }
  // A parameter without a value is left out, so that the parameters and start values that use
  // it are not reported as well.
  if (!ok) return;
  decl.shape = *shape;
  if (decl.structural) decl.values = exact_values;
  for (size_t k = 0; k < parameters.size(); ++k) {
    exact_parameter_values_[parameters[k].symbol] = exact_values[k];
    decl.elements.push_back(parameters[k].symbol);
    decl.slots.push_back(model_.parameters.size());
    model_.parameters.push_back(std::move(parameters[k]));
  }
  model_.constants.insert(model_.constants.end(), constants.begin(), constants.end());
  decl.expanded = true;
}

void Flattener::expand_variable(size_t i, Declaration& decl) {
  const VariableDecl& v = syntax_.variables[i];
  size_t count;
  std::optional<std::vector<long>> shape = sized(v.name, v.dimensions, SIZE_MAX, count);
  if (!shape) return;
  std::vector<ex> starts(count, ex(0));
  if (v.start) {
    Context context{Role::StartValue, v.name.name, SIZE_MAX, "", {}};
    std::optional<std::vector<ex>> given =
        lowering_.array_value(*v.start, *shape, v.name.name, context);
    if (!given) return;
    starts = *given;
  }
  std::vector<ex> nominals(count, ex(0));
  if (v.nominal && !nominal_values(v, *shape, nominals)) return;
  std::vector<Variable> variables;
  bool ok = true;
  for (size_t k = 0; k < count; ++k) {
    Variable variable;
    variable.element = element(v.name, *shape, k);
    variable.name = name_of(variable.element, v.name.name);
    variable.description = v.description;
    variable.unit = v.unit;
    variable.location = v.name.location;
    variable.symbol = model_.symbols.get(variable.name);
    variable.fixed = v.fixed;
    variable.start_written = v.start != nullptr;
    variable.start = starts[k];
    variable.nominal = nominals[k];
    double value;
    if (auto problem = to_finite_double(starts[k], exact_parameter_values_, value)) {
      lowering_.error(v.start->location,
                      "start value of '" + variable.name + "' cannot be evaluated: " + *problem);
      ok = false;
      continue;
    }
    variables.push_back(std::move(variable));
  }
  if (!ok) return;
  decl.shape = *shape;
  for (Variable& variable : variables) {
    decl.elements.push_back(variable.symbol);
    decl.slots.push_back(model_.variables.size());
    lowering_.register_variable(variable.symbol, model_.variables.size());
    model_.variables.push_back(std::move(variable));
  }
  decl.expanded = true;
}

// The nominal values of a variable's elements: constant and positive.
bool Flattener::nominal_values(const VariableDecl& v, const std::vector<long>& shape,
                               std::vector<ex>& out) {
  Context context{Role::StartValue, v.name.name, SIZE_MAX, "", {}};
  std::optional<std::vector<ex>> given =
      lowering_.array_value(*v.nominal, shape, v.name.name, context);
  if (!given) return false;
  for (size_t k = 0; k < given->size(); ++k) {
    double value;
    std::string name = name_of(element(v.name, shape, k), v.name.name);
    std::optional<std::string> problem =
        to_finite_double((*given)[k], exact_parameter_values_, value);
    if (!problem && !(value > 0))
      problem = "it must be positive, but is " + fmt::format("{}", value);
    if (problem) {
      lowering_.error(v.nominal->location,
                      "nominal value of '" + name + "' cannot be used: " + *problem);
      return false;
    }
  }
  out = *given;
  return true;
}

void Flattener::expand_output(size_t i, Declaration& decl) {
  const OutputDecl& o = syntax_.outputs[i];
  size_t count;
  std::optional<std::vector<long>> shape = sized(o.name, o.dimensions, SIZE_MAX, count);
  if (!shape) return;
  Context context{Role::OutputValue, o.name.name, SIZE_MAX, "", {}};
  std::optional<std::vector<ex>> values =
      lowering_.array_value(*o.value, *shape, o.name.name, context);
  if (!values) return;
  for (size_t k = 0; k < count; ++k) {
    // Outputs that use earlier outputs nest them. Walks that recurse (GiNaC's own, freeing an
    // expression among them) must not run out of stack, and GiNaC walks some expressions as
    // trees, each path of their graph anew (docs/limits.md, "Outputs"): an output past either
    // limit is an error here, before anything walks it.
    ExpressionExtent::Extent extent = extents_.of((*values)[k]);
    std::string name = name_of(element(o.name, *shape, k), o.name.name);
    if (extent.depth > kMaxOutputDepth) {
      lowering_.error(
          o.name.location,
          fmt::format("output '{}' nests its expression {} levels deep, past the limit "
                      "of {} (see docs/limits.md)",
                      name, grouped_digits(extent.depth), grouped_digits(kMaxOutputDepth)));
      return;
    }
    if (extent.tree > kMaxOutputTree) {
      lowering_.error(o.name.location,
                      fmt::format("output '{}' written out has {} nodes, past the limit of {} "
                                  "(see docs/limits.md)",
                                  name, grouped_digits(static_cast<size_t>(extent.tree)),
                                  grouped_digits(static_cast<size_t>(kMaxOutputTree))));
      return;
    }
  }
  decl.shape = *shape;
  for (size_t k = 0; k < count; ++k) {
    ArrayElement where = element(o.name, *shape, k);
    decl.slots.push_back(model_.outputs.size());
    model_.outputs.push_back(Output{name_of(where, o.name.name), o.description, o.name.location,
                                    where, (*values)[k], o.unit});
  }
  decl.expanded = true;
}

// ---- equations ----

void Flattener::expand_statements(const std::vector<Statement>& statements,
                                  std::vector<Binding>& bindings) {
  for (const Statement& statement : statements) {
    if (budget_.exhausted()) return;
    if (statement.when) {
      lower_when_clause(*statement.when, Context{Role::Equation, "", SIZE_MAX, "", bindings},
                        lowering_, model_);
      continue;
    }
    if (!statement.loop) {
      expand_equation(statement.equation, bindings);
      continue;
    }
    const ForLoop& loop = *statement.loop;
    Context context{Role::Equation, "", SIZE_MAX, "", bindings};
    std::optional<std::pair<long, long>> range =
        lowering_.range(loop.variable, *loop.first, *loop.last, context, loop.location);
    if (!range) continue;
    for (long i = range->first; i <= range->second && !budget_.exhausted(); ++i) {
      bindings.push_back({loop.variable.name, i});
      expand_statements(loop.body, bindings);
      bindings.pop_back();
    }
  }
}

// rod, rod[3], or eqN, eqN[i] for an unlabelled equation (N its position in the source).
std::optional<std::string> Flattener::label_of(const EquationDecl& decl, size_t index,
                                               Context& context) {
  if (decl.label.name.empty()) {
    std::vector<long> loops;
    for (const Binding& b : context.bindings) loops.push_back(b.value);
    std::string automatic = "eq" + std::to_string(index + 1);
    return loops.empty() ? automatic : element_name(automatic, loops);
  }
  if (decl.label_subscripts.empty()) return decl.label.name;
  Context subscript = context;
  subscript.role = Role::Constant;
  subscript.what = "the index of label '" + decl.label.name + "'";
  std::vector<long> index_values;
  bool ok = true;
  for (const ExprPtr& e : decl.label_subscripts) {
    std::optional<long> value = lowering_.integer(*e, subscript);
    ok = ok && value;
    if (value) index_values.push_back(*value);
  }
  if (!ok) return std::nullopt;
  return element_name(decl.label.name, index_values);
}

void Flattener::expand_equation(size_t index, const std::vector<Binding>& bindings) {
  const EquationDecl& decl = syntax_.equations[index];
  Context context{decl.initial ? Role::InitialEquation : Role::Equation, "", SIZE_MAX, "",
                  bindings};
  std::optional<std::string> label = label_of(decl, index, context);
  if (!label) return;
  labels_.push_back({*label, index});
  context.owner = *label;
  std::optional<ex> lhs = lowering_.number(*decl.lhs, context);
  std::optional<ex> rhs = lowering_.number(*decl.rhs, context);
  if (!lhs || !rhs) return;
  std::string beyond = number_beyond_double(*lhs);
  if (beyond.empty()) beyond = number_beyond_double(*rhs);
  if (!beyond.empty()) {
    // The numbers of an equation are exact: written separately they may combine to a constant
    // that no double holds, which the generated code could not carry.
    lowering_.error(decl.location, "equation '" + *label +
                                       "': its numbers, combined exactly, give a constant " +
                                       beyond.substr(6));  // without "it is "
    return;
  }
  std::string noun = decl.initial ? "initial equation '" : "equation '";
  if ((*lhs - *rhs).is_zero()) {
    lowering_.error(decl.location, noun + *label +
                                       "' is always true (its two sides are identical), so it "
                                       "determines nothing");
    return;
  }
  (decl.initial ? model_.initial_equations : model_.equations)
      .push_back(Equation{*label, !decl.label.name.empty(), decl.location, *lhs, *rhs});
}

// An output or initial equation may use a derivative only where the equations give it a value:
// x' of a differential variable, and higher orders up to the highest the equations use.
void Flattener::check_derivative_uses() {
  std::vector<int> highest(model_.variables.size(), 0);
  for (const Equation& e : model_.equations) {
    for (const ex& symbol : symbols_in(e.residual())) {
      if (auto d = model_.derivative_of(symbol))
        highest[d->variable] = std::max(highest[d->variable], d->order);
    }
  }
  for (const ExpressionLowering::DerivativeUse& use : lowering_.derivative_uses()) {
    auto d = model_.derivative_of(use.symbol);
    if (!d || d->order <= highest[d->variable]) continue;
    const std::string& name = model_.variables[d->variable].name;
    std::string written = derivative_name(name, d->order);
    if (highest[d->variable] == 0) {
      lowering_.error(use.location, use.where + " uses " + written + ", but '" + name +
                                        "' is algebraic (no equation has its derivative), so " +
                                        written + " has no value");
    } else {
      lowering_.error(use.location, use.where + " uses " + written + ", but the equations use '" +
                                        name + "' only up to " +
                                        derivative_name(name, highest[d->variable]) + ", so " +
                                        written + " has no value");
    }
  }
}

// Labels name equations in reports and diagnostics: each must name one equation.
void Flattener::check_labels() {
  std::map<std::string, size_t> first;  // label -> index into labels_
  for (size_t k = 0; k < labels_.size(); ++k) {
    auto [it, inserted] = first.emplace(labels_[k].label, k);
    if (inserted) continue;
    const EquationDecl& earlier = syntax_.equations[labels_[it->second].syntax];
    const EquationDecl& later = syntax_.equations[labels_[k].syntax];
    const std::string& label = labels_[k].label;
    if (&earlier == &later) {  // one equation of a loop, the same label in several iterations
      lowering_.error(later.label.location,
                      "label '" + label + "' names the equation of more than one iteration of " +
                          "the loop; index it with the loop variable (" + later.label.name +
                          "[i])");
    } else if (earlier.label.name.empty() || later.label.name.empty()) {
      const EquationDecl& written = earlier.label.name.empty() ? later : earlier;
      size_t automatic = labels_[earlier.label.name.empty() ? it->second : k].syntax + 1;
      if (lowering_.error(written.label.location,
                          "label '" + label +
                              "' clashes with the automatic name of unlabelled equation " +
                              std::to_string(automatic))) {
        diags_.note((&written == &earlier ? later : earlier).location,
                    "equation " + std::to_string(automatic) + " is here");
      }
    } else if (lowering_.error(later.label.location, "duplicate equation label '" + label + "'")) {
      diags_.note(earlier.label.location, "label '" + label + "' is first used here");
    }
  }
}

}  // namespace

Model flatten(const ModelSyntax& syntax, Declarations& declarations, const FlattenOptions& options,
              DiagnosticEngine& diags) {
  return Flattener(syntax, declarations, options, diags).run();
}

}  // namespace daec
