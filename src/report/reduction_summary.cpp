// Formatting the reduction part of the --check summary.
#include "report/reduction_summary.h"

#include <algorithm>

#include <fmt/format.h>

#include "model/expression_printer.h"
#include "model/model.h"
#include "report/report_common.h"
#include "support/text.h"

namespace daec {

using report::join;

static std::string rank_text(int rank) {
  return rank < 0 ? "?" : std::to_string(rank);
}

static std::string round_line(const ReductionRound& round) {
  const SparsityPattern& B = round.table.pattern;
  std::string line = fmt::format("  round {}: B {}x{}, structural rank {}, rank {}: ", round.number,
                                 B.rows(), B.cols(), round.structural_rank, rank_text(round.rank));
  if (round.nonsingular) return line + "nonsingular, index 1 reached\n";
  if (round.differentiated.empty()) return line + "singular, could not be reduced\n";
  line += "differentiated " + join(round.differentiated, ", ");
  if (round.used_null_space && round.promoted.empty())
    line += " (combinations from the left null space of B)";
  if (round.decided_off_invariants)
    line +=
        " (decided off the hidden constraints: on them a combination was a consequence of them)";
  if (!round.promoted.empty())
    line += "; made states instead of combining: " + join(round.promoted, ", ");
  if (!round.dummies.empty()) line += "; new dummy variables " + join(round.dummies, ", ");
  return line + "\n";
}

std::string format_counts(const ReducedSystem& system) {
  return fmt::format(
      "{}, {}, {}, {}", count_of(system.states.size(), "state", "states"),
      count_of(system.algebraic.size(), "algebraic unknown", "algebraic unknowns"),
      count_of(report::dummy_variables(system).size(), "dummy variable", "dummy variables"),
      count_of(system.invariants.size(), "invariant", "invariants"));
}

std::string format_reduction_summary(const ReducedSystem& system) {
  std::vector<const Unknown*> dummies = report::dummy_variables(system);
  std::string out =
      fmt::format("reduction: index {} ({})\n", system.index, report::index_reason(system));
  out += "  " + format_counts(system) + "\n";
  // Unknowns made states in a round are named on its line.
  std::vector<std::string> nonlinear = system.promoted;
  for (const ReductionRound& round : system.rounds) {
    for (const std::string& name : round.promoted)
      nonlinear.erase(std::remove(nonlinear.begin(), nonlinear.end(), name), nonlinear.end());
  }
  if (!nonlinear.empty())
    out += "  promoted to states (nonlinear): " + join(nonlinear, ", ") + "\n";
  if (!dummies.empty()) {
    std::vector<std::string> meanings;
    for (const Unknown* d : dummies) {
      meanings.push_back(d->name + " = " + derivative_name(d->derivative_of, 1));
    }
    out += "  dummy variables: " + join(meanings, ", ") + "\n";
  }
  for (const ReductionRound& round : system.rounds) out += round_line(round);
  std::vector<std::string> labels;
  for (const Constraint& c : system.invariants) labels.push_back(c.label);
  out += "  hidden constraints: " + join(labels, ", ", "(none)") + "\n";
  if (!system.relations.empty()) {
    std::vector<std::string> relations;
    for (const GiNaC::ex& r : system.relations) relations.push_back(to_dae(r));
    out +=
        "  relations (the solution may jump or kink where one changes): " + join(relations, ", ") +
        "\n";
  }
  return out;
}

}  // namespace daec
