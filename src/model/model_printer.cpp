// Printing a whole model back as a .dae file (see the header): declarations grouped back into the
// arrays they were written as, then the equations and initial equations.
#include "model/model_printer.h"

#include <algorithm>
#include <sstream>

#include "model/expression_printer.h"

namespace daec {

static std::string description_suffix(const std::string& description) {
  return description.empty() ? "" : " " + quote_dae_string(description);
}

namespace {

// One declaration as printed: the elements of an array (consecutive in the model, row-major) or
// a scalar.
template <typename Item>
struct Group {
  const Item* first;
  size_t count;
};

template <typename Item>
std::vector<Group<Item>> groups_of(const std::vector<Item>& items) {
  std::vector<Group<Item>> groups;
  for (size_t i = 0; i < items.size();) {
    size_t count = 1;
    const std::string& array = items[i].element.array;
    while (!array.empty() && i + count < items.size() && items[i + count].element.array == array) {
      ++count;
    }
    groups.push_back({&items[i], count});
    i += count;
  }
  return groups;
}

// The declared name and shape: x, x[3], A[2, 3].
template <typename Item>
std::string declared_name(const Group<Item>& group) {
  const ArrayElement& element = group.first->element;
  if (element.array.empty()) return group.first->name;
  std::string text = element.array + "[";
  for (size_t d = 0; d < element.shape.size(); ++d) {
    text += (d ? ", " : "") + std::to_string(element.shape[d]);
  }
  return text + "]";
}

// The value of a declaration: one expression if every element has it, else an array literal
// (nested by rows for two dimensions).
template <typename Item, typename ValueOf>
std::string declared_value(const Group<Item>& group, ValueOf value_of) {
  std::vector<std::string> values;
  for (size_t k = 0; k < group.count; ++k) values.push_back(to_dae(value_of(group.first[k])));
  if (std::all_of(values.begin(), values.end(),
                  [&](const std::string& v) { return v == values.front(); }) &&
      !group.first->element.array.empty()) {
    return values.front();
  }
  if (group.first->element.array.empty()) return values.front();
  const std::vector<long>& shape = group.first->element.shape;
  size_t row = shape.size() == 2 ? static_cast<size_t>(shape[1]) : values.size();
  std::string text;
  for (size_t k = 0; k < values.size(); ++k) {
    bool row_start = k % row == 0;
    if (k > 0) text += row_start && shape.size() == 2 ? "}, " : ", ";
    if (row_start && shape.size() == 2) text += "{";
    text += values[k];
  }
  if (shape.size() == 2) text += "}";
  return "{" + text + "}";
}

}  // namespace

// Arrays print as declared (their elements are consecutive in the model); constants fixed at
// compile time do not print, since their uses hold their values. A label prints unless it is the
// automatic name of the equation's position.
std::string print_model(const Model& model) {
  std::ostringstream out;
  out << "model " << model.name << description_suffix(model.description) << ";\n";
  for (const Group<Parameter>& p : groups_of(model.parameters)) {
    out << "parameter " << declared_name(p) << " = "
        << declared_value(p, [](const Parameter& e) { return e.default_value; })
        << description_suffix(p.first->description) << ";\n";
  }
  for (const Group<Variable>& v : groups_of(model.variables)) {
    out << "variable " << declared_name(v)
        << "(start = " << declared_value(v, [](const Variable& e) { return e.start; })
        << ", fixed = " << (v.first->fixed ? "true" : "false");
    if (!v.first->nominal.is_zero())
      out << ", nominal = " << declared_value(v, [](const Variable& e) { return e.nominal; });
    out << ")" << description_suffix(v.first->description) << ";\n";
  }
  for (const Group<Output>& o : groups_of(model.outputs)) {
    out << "output " << declared_name(o) << " = "
        << declared_value(o, [](const Output& e) { return e.value; })
        << description_suffix(o.first->description) << ";\n";
  }
  out << "equation\n";
  for (size_t i = 0; i < model.equations.size(); ++i) {
    const Equation& e = model.equations[i];
    out << "  ";
    if (e.labelled || e.label != "eq" + std::to_string(i + 1)) out << e.label << ": ";
    out << to_dae(e.lhs) << " = " << to_dae(e.rhs) << ";\n";
  }
  for (const WhenClause& w : model.when_clauses) {
    out << "  when " << to_dae(w.condition) << " then\n";
    for (const Reinit& r : w.reinits)
      out << "    reinit(" << r.target << ", " << to_dae(r.value) << ");\n";
    out << "  end when;\n";
  }
  if (!model.initial_equations.empty()) out << "initial equation\n";
  for (size_t i = 0; i < model.initial_equations.size(); ++i) {
    const Equation& e = model.initial_equations[i];
    out << "  ";
    if (e.labelled || e.label != "eq" + std::to_string(model.equations.size() + i + 1))
      out << e.label << ": ";
    out << to_dae(e.lhs) << " = " << to_dae(e.rhs) << ";\n";
  }
  out << "end " << model.name << ";\n";
  return out.str();
}

}  // namespace daec
