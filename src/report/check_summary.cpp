// Formatting the --check summary.
#include "report/check_summary.h"

#include "report/report_common.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "model/expression_printer.h"
#include "support/text.h"

namespace daec {

std::string shortest_double(double value) {
  if (!std::isfinite(value)) return std::isnan(value) ? "nan" : value < 0 ? "-inf" : "inf";
  char buffer[64];
  int precision = 1;
  for (; precision < 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*e", precision - 1, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  // %g would write 10 as 1e+01 (its exponent reaches the precision); plain decimals read better
  // for the magnitudes models use, scientific notation only for very small or large values.
  std::snprintf(buffer, sizeof buffer, "%.*e", precision - 1, value);
  int exponent = std::atoi(std::strchr(buffer, 'e') + 1);
  if (exponent < -5 || exponent >= 16) return buffer;
  std::snprintf(buffer, sizeof buffer, "%.*f", std::max(0, precision - 1 - exponent), value);
  return buffer;
}

static std::string join_names(const Model& model, const std::vector<size_t>& indices) {
  std::string text;
  for (size_t i : indices) text += (text.empty() ? "" : ", ") + model.variables[i].name;
  return text.empty() ? "(none)" : text;
}

static void append_dependency_table(std::string& out, const Classification& c) {
  size_t label_width = 8;
  for (const DependencyRow& row : c.rows) label_width = std::max(label_width, row.label.size());
  std::vector<size_t> widths;
  std::string header = fmt::format("  {:<{}} |", "equation", label_width);
  for (const DependencyColumn& column : c.columns) {
    widths.push_back(std::max<size_t>(column.name.size(), 1));
    header += " " + column.name;
  }
  out += header + "\n";
  out += "  " + std::string(label_width, '-') + "-+" +
         std::string(header.size() - label_width - 4, '-') + "\n";
  for (const DependencyRow& row : c.rows) {
    std::string line = fmt::format("  {:<{}} |", row.label, label_width);
    for (size_t k = 0; k < widths.size(); ++k) {
      line += fmt::format(" {:<{}}", row.contains(k) ? "1" : "0", widths[k]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
}

std::string format_check_summary(const Model& model, const Classification& c) {
  std::string out = fmt::format("model {}", model.name);
  // Quoted as in the model file, so that a '"' in the description cannot end it early.
  if (!model.description.empty()) {
    out += " " + quote_dae_string(printable_text(model.description));  // no escape sequences
  }
  out += fmt::format(": {}, {}, {}, {}\n", count_of(model.variables.size(), "variable"),
                     count_of(model.equations.size(), "equation"),
                     count_of(model.parameters.size(), "parameter"),
                     count_of(model.outputs.size(), "output"));
  out += fmt::format("  differential variables ({}): {}\n", c.differential.size(),
                     join_names(model, c.differential));
  out += fmt::format("  algebraic variables ({}): {}\n", c.algebraic.size(),
                     join_names(model, c.algebraic));
  if (!model.constants.empty()) {
    std::string constants;
    for (const Constant& constant : model.constants) {
      constants += fmt::format("{}{} = {}", constants.empty() ? "" : ", ", constant.name,
                               shortest_double(constant.value));
    }
    out += "  constants (fixed when compiled, -D NAME=VALUE): " + constants + "\n";
  }
  if (!model.parameters.empty()) {
    std::string parameters;
    for (const Parameter& p : model.parameters) {
      parameters += fmt::format("{}{} = {}", parameters.empty() ? "" : ", ", p.name,
                                shortest_double(p.value));
    }
    out += "  parameters: " + parameters + "\n";
  }
  if (!model.outputs.empty()) {
    std::string outputs;
    for (const Output& o : model.outputs) outputs += (outputs.empty() ? "" : ", ") + o.name;
    out += "  outputs: " + outputs + "\n";
  }
  out += "\nequations:\n";
  for (const Equation& e : model.equations) {
    out += fmt::format("  {}: {} = {}\n", e.label, to_dae(e.lhs), to_dae(e.rhs));
  }
  if (!model.when_clauses.empty()) out += "\nwhen clauses (no equations; resets at events):\n";
  for (const WhenClause& w : model.when_clauses) {
    std::string reinits;
    for (const Reinit& r : w.reinits)
      reinits +=
          (reinits.empty() ? "" : "; ") + fmt::format("reinit({}, {})", r.target, to_dae(r.value));
    out += fmt::format("  {}: {}\n", w.name, reinits);
  }
  if (!report::table_fits(c.rows.size(), c.columns.size())) {
    return out + fmt::format(
                     "\ndependency table: {} equations × {} unknowns and derivatives, left out "
                     "(more than {} cells; daec --report-json lists each round's table row by "
                     "row)\n",
                     grouped_digits(c.rows.size()), grouped_digits(c.columns.size()),
                     grouped_digits(report::kMaxTableCells));
  }
  out += "\ndependency table (1: the equation contains the unknown or derivative):\n";
  append_dependency_table(out, c);
  return out;
}

}  // namespace daec
