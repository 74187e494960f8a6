// Structural singularity of the original model, named through Dulmage–Mendelsohn.
#include "reduction/structural_check.h"

#include <functional>
#include <map>

#include "model/conditions.h"
#include "structure/dulmage_mendelsohn.h"
#include "support/text.h"

namespace daec {

SparsityPattern incidence_pattern(const Model& model) {
  std::map<GiNaC::ex, int, GiNaC::ex_is_less> column_of;
  for (size_t v = 0; v < model.variables.size(); ++v) {
    column_of[model.variables[v].symbol] = static_cast<int>(v);
    for (const GiNaC::realsymbol& d : model.variables[v].derivatives) {
      column_of[d] = static_cast<int>(v);
    }
  }
  std::vector<std::vector<int>> rows;
  for (const Equation& e : model.equations) {
    std::vector<int> columns;
    // The branches of conditional expressions, not their conditions: nothing is solved for from a
    // condition (its derivative is 0).
    for (const GiNaC::ex& s : value_symbols(e.residual())) {
      auto it = column_of.find(s);
      if (it != column_of.end()) columns.push_back(it->second);
    }
    rows.push_back(std::move(columns));
  }
  return SparsityPattern::from_rows(static_cast<int>(model.variables.size()), rows);
}

// "2 equations ('e2', 'e3')", or "no equation" (an equation whose unknowns are all inside
// conditions has no incidence at all).
static std::string counted_names(const std::vector<int>& indices, const std::string& noun,
                                 const std::function<std::string(int)>& name) {
  if (indices.empty()) return "no " + noun;
  std::string text;
  for (int i : indices) text += (text.empty() ? "'" : ", '") + name(i) + "'";
  return count_of(indices.size(), noun) + " (" + text + ")";
}

bool check_structure(const Model& model, DiagnosticEngine& diags) {
  SparsityPattern pattern = incidence_pattern(model);
  DulmageMendelsohn dm = dulmage_mendelsohn(pattern);
  if (dm.structural_rank == pattern.rows() && pattern.rows() == pattern.cols()) return true;
  auto equation = [&](int i) { return model.equations[static_cast<size_t>(i)].label; };
  auto variable = [&](int i) { return model.variables[static_cast<size_t>(i)].name; };
  diags.error(model.location, "model '" + model.name + "' is structurally singular: no " +
                                  "assignment of one variable to each equation exists");
  if (!dm.over_rows.empty()) {
    diags.note(model.equations[static_cast<size_t>(dm.over_rows.front())].location,
               "over-determined: " + counted_names(dm.over_rows, "equation", equation) + " for " +
                   counted_names(dm.over_cols, "variable", variable));
  }
  if (!dm.under_cols.empty()) {
    diags.note(model.variables[static_cast<size_t>(dm.under_cols.front())].location,
               "under-determined: " + counted_names(dm.under_cols, "variable", variable) +
                   (dm.under_rows.empty() ? " with " : " with only ") +
                   counted_names(dm.under_rows, "equation", equation));
  }
  return false;
}

}  // namespace daec
