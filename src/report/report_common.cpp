// Facts shared by the reports of a reduction.
#include "report/report_common.h"
#include "support/text.h"

#include <algorithm>

#include <fmt/format.h>

namespace daec::report {

static bool stands_for_derivative(const Unknown& u) {
  return u.origin == UnknownOrigin::Dummy || u.origin == UnknownOrigin::Nonlinear;
}

std::vector<const Unknown*> dummy_variables(const ReducedSystem& system) {
  std::vector<const Unknown*> dummies;
  for (const auto* list : {&system.states, &system.algebraic}) {
    for (const Unknown& u : *list) {
      if (stands_for_derivative(u)) dummies.push_back(&u);
    }
  }
  return dummies;
}

std::vector<std::string> multipliers(const ReducedSystem& system) {
  std::vector<std::string> names;
  for (const Unknown& u : system.algebraic) {
    if (u.origin == UnknownOrigin::Variable) names.push_back(u.name);
  }
  return names;
}

// The first round whose `names` (dummies, promoted) hold `name`, or 0.
static int round_naming(const ReducedSystem& system, const std::string& name,
                        std::vector<std::string> ReductionRound::*names) {
  for (const ReductionRound& round : system.rounds) {
    const std::vector<std::string>& list = round.*names;
    if (std::count(list.begin(), list.end(), name)) return round.number;
  }
  return 0;
}

int round_introducing(const ReducedSystem& system, const std::string& name) {
  return round_naming(system, name, &ReductionRound::dummies);
}

int round_promoting(const ReducedSystem& system, const std::string& name) {
  return round_naming(system, name, &ReductionRound::promoted);
}

int index_by_rounds(const ReducedSystem& system) {
  if (system.constraints.empty()) return 0;
  return system.differentiations + (multipliers(system).empty() ? 0 : 1);
}

std::string index_reason(const ReducedSystem& system) {
  if (system.constraints.empty() && system.rounds.empty()) return "an ODE: no constraints";
  std::string rounds = count_of(static_cast<size_t>(system.differentiations),
                                "differentiation round", "differentiation rounds");
  if (system.index != index_by_rounds(system)) {
    if (system.index == 0)
      return rounds + "; every derivative is determined without differentiating the equations";
    return fmt::format(
        "{}; {}' needs {} of the equations, no derivative more", rounds, system.index_variable,
        count_of(static_cast<size_t>(system.index), "differentiation", "differentiations"));
  }
  std::vector<std::string> extra = multipliers(system);
  if (extra.empty()) return rounds + "; every algebraic unknown left stands for a derivative";
  return rounds + " + 1 for the algebraic " + (extra.size() == 1 ? "variable " : "variables ") +
         join(extra, ", ");
}

std::string join(const std::vector<std::string>& items, const std::string& separator,
                 const std::string& empty) {
  if (items.empty()) return empty;
  std::string text = items.front();
  for (size_t i = 1; i < items.size(); ++i) text += separator + items[i];
  return text;
}

std::vector<std::string> names_of(const std::vector<Unknown>& unknowns) {
  std::vector<std::string> names;
  for (const Unknown& u : unknowns) names.push_back(u.name);
  return names;
}

std::string omitted_table(size_t rows, size_t columns) {
  return fmt::format(
      "(The table, {} × {}, is left out: it has more than {} cells. `daec --report-json` lists "
      "its entries row by row.)",
      grouped_digits(rows), grouped_digits(columns), grouped_digits(kMaxTableCells));
}

}  // namespace daec::report
