// Writing the Markdown report of a reduction from the primitives of report/markdown.
#include "report/markdown_report.h"

#include <algorithm>

#include <fmt/format.h>

#include "model/expression_printer.h"
#include "reduction/system.h"
#include "report/check_summary.h"
#include "report/report_common.h"
#include "report/spy_svg.h"
#include "structure/matching.h"
#include "support/text.h"

namespace daec {

using report::join;

namespace {

using markdown::code;
using markdown::coded;
using markdown::heading;
using markdown::listing;
using markdown::table;

// A pattern as a table of 0 and 1 (as the dependency tables of docs/method.md §5), rows and columns
// labelled.
std::string pattern_table(const SparsityPattern& pattern, const std::string& corner,
                          const std::vector<std::string>& row_labels,
                          const std::vector<std::string>& col_labels) {
  size_t rows_count = static_cast<size_t>(pattern.rows()),
         cols = static_cast<size_t>(pattern.cols());
  if (!report::table_fits(rows_count, cols))
    return report::omitted_table(rows_count, cols) + "\n\n";
  std::vector<std::string> header{corner};
  for (const std::string& label : col_labels) header.push_back(code(label));
  std::vector<std::vector<std::string>> rows;
  for (int r = 0; r < pattern.rows(); ++r) {
    std::vector<std::string> row{code(row_labels[static_cast<size_t>(r)])};
    for (int c = 0; c < pattern.cols(); ++c) row.push_back(pattern.has(r, c) ? "1" : "0");
    rows.push_back(std::move(row));
  }
  return table(header, rows);
}

std::vector<std::string> labels_of(const std::vector<Constraint>& constraints) {
  std::vector<std::string> labels;
  for (const Constraint& c : constraints) labels.push_back(c.label);
  return labels;
}

bool is_promoted(const ReducedSystem& system, const std::string& name) {
  return std::count(system.promoted.begin(), system.promoted.end(), name) > 0;
}

// "`u_dot` for `u'`" for each dummy: what it stands for.
std::vector<std::string> dummy_meanings(const ReducedSystem& system,
                                        const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& name : names) {
    std::string of;
    for (const auto* list : {&system.states, &system.algebraic}) {
      for (const Unknown& u : *list) of = u.name == name ? u.derivative_of : of;
    }
    out.push_back(code(name) + " for " + code(derivative_name(of, 1)));
  }
  return out;
}

std::string title_and_summary(const Model& model, const ReducedSystem& system) {
  std::string out = heading(1, "Index reduction of " + code(model.name));
  out += "Model " + code(model.name);
  if (!model.description.empty()) out += " — " + markdown_text(model.description);
  out += ", reduced by daec with the dummy-variable method.\n\n";
  std::vector<std::string> dummies;
  for (const Unknown* d : report::dummy_variables(system)) dummies.push_back(d->name);
  out += fmt::format("- Differentiation index: **{}**\n", system.index);
  out += fmt::format("- States X ({}): {}\n", system.states.size(),
                     join(coded(report::names_of(system.states)), ", ", "none"));
  out += fmt::format("- Algebraic unknowns Z ({}): {}\n", system.algebraic.size(),
                     join(coded(report::names_of(system.algebraic)), ", ", "none"));
  out += fmt::format("- Dummy variables ({}): {}\n", dummies.size(),
                     join(dummy_meanings(system, dummies), ", ", "none"));
  out += fmt::format("- Hidden constraints ({}): {}\n", system.invariants.size(),
                     join(coded(labels_of(system.invariants)), ", ", "none"));
  out += fmt::format("- Reduction rounds: {}, constraints differentiated in {}\n\n",
                     system.rounds.size(), system.differentiations);
  return out;
}

std::string model_section(const Model& model) {
  std::string out = heading(2, "The model");
  std::vector<std::vector<std::string>> rows;
  for (const Equation& e : model.equations) {
    rows.push_back({code(e.label), code(to_dae(e.lhs) + " = " + to_dae(e.rhs))});
  }
  out += table({"Label", "Equation"}, rows, 2);
  if (model.parameters.empty()) return out;
  rows.clear();
  for (const Parameter& p : model.parameters) {
    rows.push_back({code(p.name), shortest_double(p.value), markdown_text(p.unit),
                    markdown_text(p.description)});
  }
  return out + table({"Parameter", "Value", "Unit", "Description"}, rows, 4);
}

std::string origin_text(const ReducedSystem& system, const Unknown& u) {
  std::string role = origin_words(u.origin).role;
  if (u.origin == UnknownOrigin::Variable) return role;
  std::string of = role + " " + code(derivative_name(u.derivative_of, 1));
  if (u.origin == UnknownOrigin::Velocity) return of + " (first-order form)";
  if (u.origin == UnknownOrigin::Nonlinear) return of + " (" + code(u.derivative_of) + " promoted)";
  int round = report::round_introducing(system, u.name);
  return of + (round == 0 ? " (semi-explicit form)" : fmt::format(" (round {})", round));
}

std::vector<std::string> unknown_row(const ReducedSystem& system, const Unknown& u, bool state) {
  const int promoting = report::round_promoting(system, u.name);
  std::string linearity = !state          ? "linear"
                          : promoting > 0 ? fmt::format("promoted in round {}", promoting)
                          : is_promoted(system, u.name) ? "nonlinear, promoted"
                                                        : "—";
  return {code(u.name), markdown_text(u.unit),  state ? "differential (X)" : "algebraic (Z)",
          linearity,    origin_text(system, u), markdown_text(u.description)};
}

std::string unknowns_section(const ReducedSystem& system) {
  std::string out =
      heading(2, "Unknowns") +
      "The unknowns of the reduced system: states X, whose derivatives X' = F(X, Z, t) gives, "
      "and algebraic unknowns Z, which the constraints determine. Every algebraic unknown enters "
      "linearly; an algebraic variable of the model that entered nonlinearly is promoted to a "
      "state with a dummy variable for its derivative (docs/method.md §4).\n\n";
  bool any_round_promoted = false;
  for (const ReductionRound& round : system.rounds)
    any_round_promoted = any_round_promoted || !round.promoted.empty();
  if (any_round_promoted) {
    out +=
        "At this index, the unknowns that nested combinations of the constraints would eliminate "
        "are promoted too, in the round that found them dependent (docs/reduction.md, \"High "
        "index\").\n\n";
  }
  std::vector<std::vector<std::string>> rows;
  for (const Unknown& u : system.states) rows.push_back(unknown_row(system, u, true));
  for (const Unknown& u : system.algebraic) rows.push_back(unknown_row(system, u, false));
  return out + table({"Unknown", "Unit", "Class", "Linearity", "Origin", "Description"}, rows, 6);
}

std::string rank_text(int rank) {
  return rank < 0 ? "unknown" : std::to_string(rank);
}

// Which path Step 2 took and what Step 3 did with the constraints it found.
std::string differentiation_text(const ReductionRound& round) {
  std::vector<std::string> derived;
  for (const std::string& label : round.differentiated) {
    derived.push_back(code(level_label(label, 1)));
  }
  bool one = round.differentiated.size() == 1;
  std::string names = listing(coded(round.differentiated));
  std::string out;
  if (!round.promoted.empty()) {
    out = fmt::format(
        "No row of B is zero, yet its rank is below {}: the rows {} hold fewer algebraic "
        "unknowns than there are of them. Rather than combining them (at this index combinations "
        "of combinations would nest and grow every round), their unknowns {} are made states, "
        "each with its rate a new algebraic unknown; the rows are then free of Z "
        "(docs/reduction.md, \"High index\").",
        round.table.pattern.cols(), names, listing(coded(round.promoted)));
  } else if (round.used_null_space) {
    out = fmt::format(
        "No row of B is zero, yet its rank is below {}: a basis of the left null space of B "
        "(fraction-free elimination) gives {} of the constraints free of Z, {}, which {} a "
        "constraint it combines (null-space path, docs/method.md §5, step 2).",
        round.table.pattern.cols(), one ? "a combination" : "combinations", names,
        one ? "replaces" : "each replace");
  } else {
    out = fmt::format(
        "The {} of {} {} all zero: {} none of the algebraic unknowns (zero-row path, "
        "docs/method.md §5, step 2).",
        one ? "row" : "rows", names, one ? "is" : "are", one ? "it contains" : "they contain");
  }
  std::string kept = round.used_null_space && round.promoted.empty()
                         ? (one ? "the combination itself is" : "the combinations themselves are")
                         : (one ? "the original is" : "the originals are");
  out += fmt::format(" Differentiated in t, {} {} {}; {} kept as {}.", one ? "it" : "they",
                     one ? "becomes" : "become", listing(derived), kept,
                     one ? "a hidden constraint" : "hidden constraints");
  if (round.decided_off_invariants) {
    out +=
        " This round was decided at points off the hidden constraints found before it: on them, "
        "a combination vanished wherever they hold (a consequence of them, which "
        "differentiation would only repeat; docs/reduction.md).";
  }
  return out;
}

std::string dummies_text(const ReducedSystem& system, const ReductionRound& round) {
  if (round.dummies.empty()) return "No dummy variable was introduced.";
  bool one = round.dummies.size() == 1;
  return fmt::format(
      "Differentiating met derivatives of states whose right-hand sides hold algebraic unknowns, "
      "so {} introduced {} (docs/method.md: the coupled pendulums): {}. {} joined the constraints, "
      "which is why the next "
      "table is larger.",
      one ? "a dummy variable was" : "dummy variables were", one ? "for it" : "for them",
      listing(dummy_meanings(system, round.dummies)),
      one ? "Its defining equation" : "Their defining equations");
}

std::string round_section(const ReducedSystem& system, const ReductionRound& round) {
  const SparsityPattern& B = round.table.pattern;
  std::string out = heading(3, fmt::format("Round {}", round.number));
  out += pattern_table(B, "Constraint", round.table.rows, round.table.columns);
  out += fmt::format(
      "{} × {}, structural rank {}, rank {}: ",
      count_of(static_cast<size_t>(B.rows()), "constraint", "constraints"),
      count_of(static_cast<size_t>(B.cols()), "algebraic unknown", "algebraic unknowns"),
      round.structural_rank, rank_text(round.rank));
  if (round.nonsingular) {
    return out +
           "B is nonsingular. The constraints determine Z, the system has index 1 and "
           "the loop stops: this B is the matrix A of the reduced system.\n\n";
  }
  if (round.differentiated.empty()) return out + "B is singular and could not be reduced.\n\n";
  return out + "B is singular. " + differentiation_text(round) + " " + dummies_text(system, round) +
         "\n\n";
}

std::string rounds_section(const ReducedSystem& system) {
  std::string out = heading(2, "Reduction rounds");
  if (system.rounds.empty()) return out + "None: the model has no constraints.\n\n";
  out +=
      "Each round writes the dependency table of the constraints against the algebraic "
      "unknowns — the sparsity pattern of B = ∂g/∂Z, 1 where the constraint contains the "
      "unknown — and checks B structurally (structural rank, by maximum matching, as MATLAB's "
      "sprank) and then symbolically (rank). While B is singular, the constraints or "
      "combinations of constraints free of Z are differentiated and the originals kept as hidden "
      "constraints (docs/method.md §5).\n\n";
  for (const ReductionRound& round : system.rounds) out += round_section(system, round);
  return out;
}

std::string differential_part(const ReducedSystem& system) {
  std::string out = heading(3, "Differential part X' = F(X, Z, t)");
  std::vector<std::vector<std::string>> rows;
  for (const StateEquation& e : system.differential) {
    std::string equation = derivative_name(system.states[e.state].name, 1) + " = " + to_dae(e.rhs);
    rows.push_back({code(equation), e.label == equation ? "introduced" : code(e.label)});
  }
  out += table({"Equation", "From"}, rows, 2);
  bool introduced =
      std::any_of(rows.begin(), rows.end(), [](const auto& row) { return row[1] == "introduced"; });
  if (!introduced) return out;
  return out + "“introduced”: an equation daec added, defining a dummy variable or a velocity.\n\n";
}

std::string algebraic_part(const ReducedSystem& system) {
  std::string out = heading(3, "Algebraic part A(X, t) Z = b(X, t)");
  out += "Z = (" + join(coded(report::names_of(system.algebraic)), ", ") +
         "). One row per constraint, linear in Z:\n\n";
  std::vector<std::vector<std::string>> rows;
  for (size_t r = 0; r < system.constraints.size(); ++r) {
    GiNaC::ex lhs = 0;
    for (const MatrixEntry& entry : system.A.row(r)) {
      lhs += entry.value * system.algebraic[entry.column].symbol;
    }
    rows.push_back({std::to_string(r + 1), code(system.constraints[r].label),
                    code(to_dae(lhs) + " = " + to_dae(system.b[r]))});
  }
  out += table({"Row", "Constraint", "A Z = b"}, rows, 3);
  out += "The matrix A and the right-hand side b (· for zero):\n\n";
  if (!report::table_fits(system.constraints.size(), system.algebraic.size() + 1))
    return out + report::omitted_table(system.constraints.size(), system.algebraic.size() + 1) +
           "\n\n";
  std::vector<std::string> header{"Constraint"};
  for (const Unknown& u : system.algebraic) header.push_back(code(u.name));
  header.push_back("b");
  rows.clear();
  std::vector<std::vector<GiNaC::ex>> A = system.A.to_dense();
  for (size_t r = 0; r < system.constraints.size(); ++r) {
    std::vector<std::string> row{code(system.constraints[r].label)};
    for (const GiNaC::ex& e : A[r]) row.push_back(e.is_zero() ? "·" : code(to_dae(e)));
    row.push_back(system.b[r].is_zero() ? "·" : code(to_dae(system.b[r])));
    rows.push_back(std::move(row));
  }
  return out + table(header, rows);
}

std::string final_system_section(const ReducedSystem& system) {
  std::string out = heading(2, "The reduced system") + differential_part(system);
  size_t n = system.constraints.size();
  if (n == 0 || system.A.rows() != n || system.b.size() != n) return out;
  return out + algebraic_part(system);
}

bool has_block_form(const ReducedSystem& system) {
  size_t n = system.constraints.size();
  return n > 0 && system.blocks.row_order.size() == n && system.blocks.col_order.size() == n &&
         system.algebraic.size() == n;
}

// Element `i` of a vector indexed by int, as the structure module's orders are.
template <class T>
const T& at(const std::vector<T>& items, int i) {
  return items[static_cast<size_t>(i)];
}

// The constraint and the unknown at position `i` of the block lower-triangular order.
const std::string& blt_row(const ReducedSystem& system, int i) {
  return at(system.constraints, at(system.blocks.row_order, i)).label;
}
const std::string& blt_col(const ReducedSystem& system, int i) {
  return at(system.algebraic, at(system.blocks.col_order, i)).name;
}

// The rows of the permuted pattern with the block each belongs to in front; the matched
// entries, on the diagonal, in bold.
std::string block_table(const ReducedSystem& system, const SparsityPattern& permuted) {
  size_t size = static_cast<size_t>(permuted.rows());
  if (!report::table_fits(size, size)) return report::omitted_table(size, size) + "\n\n";
  const BlockTriangularForm& form = system.blocks;
  std::vector<std::string> header{"Block", "Constraint"};
  for (int j = 0; j < permuted.cols(); ++j) header.push_back(code(blt_col(system, j)));
  std::vector<std::vector<std::string>> rows;
  for (int b = 0; b < form.block_count(); ++b) {
    for (int i = at(form.block_start, b); i < at(form.block_start, b + 1); ++i) {
      std::vector<std::string> row{std::to_string(b + 1), code(blt_row(system, i))};
      for (int j = 0; j < permuted.cols(); ++j) {
        row.push_back(!permuted.has(i, j) ? "0" : i == j ? "**1**" : "1");
      }
      rows.push_back(std::move(row));
    }
  }
  return table(header, rows, 2);
}

std::string block_list(const ReducedSystem& system) {
  const BlockTriangularForm& form = system.blocks;
  std::string out;
  for (int b = 0; b < form.block_count(); ++b) {
    std::vector<std::string> rows, cols;
    for (int i = at(form.block_start, b); i < at(form.block_start, b + 1); ++i) {
      rows.push_back(blt_row(system, i));
      cols.push_back(blt_col(system, i));
    }
    out += fmt::format("{}. {} × {}: {} for {}\n", b + 1, rows.size(), cols.size(),
                       join(coded(rows), ", "), join(coded(cols), ", "));
  }
  return out + "\n";
}

std::string block_form_text(const ReducedSystem& system, const std::string& svg) {
  const BlockTriangularForm& form = system.blocks;
  SparsityPattern permuted = system.A.pattern().permuted(form.row_order, form.col_order);
  std::string out =
      heading(3, "Block lower-triangular form") +
      "The rows and columns of A permuted (Dulmage–Mendelsohn decomposition, as MATLAB's "
      "dmperm, with Tarjan's algorithm on the matching) so that the matched entries, in bold, "
      "lie on the diagonal and every entry outside the diagonal blocks lies below them. A is "
      "square and structurally nonsingular, so all of it is the well-determined part: no "
      "equation is over-determined and no unknown under-determined. The generated code solves "
      "the blocks in order, each with the unknowns of the earlier blocks known.\n\n";
  out += block_table(system, permuted);
  out += form.block_count() == 1
             ? std::string("A single irreducible block:\n\n")
             : fmt::format("The {} irreducible blocks, in solve order:\n\n", form.block_count());
  out += block_list(system);
  if (!svg.empty()) {
    out += "![Spy plot of A in block lower-triangular form, blocks outlined](" + svg + ")\n\n";
  }
  return out;
}

std::string structure_section(const ReducedSystem& system, const std::string& svg) {
  if (system.constraints.empty() || system.A.rows() != system.constraints.size()) return "";
  size_t n = system.algebraic.size();
  SparsityPattern pattern = system.A.pattern();
  std::string out = heading(2, "Structure of A") + heading(3, "Sparsity pattern");
  out += pattern_table(pattern, "Constraint", labels_of(system.constraints),
                       report::names_of(system.algebraic));
  int rank = structural_rank(pattern);
  out += fmt::format(
      "{}; structural rank {} of {} (a maximum matching pairs {} with distinct unknowns through "
      "nonzero entries).\n\n",
      count_of(pattern.nonzeros(), "nonzero"), rank, n,
      count_of(static_cast<size_t>(rank), "constraint"));
  if (has_block_form(system)) out += block_form_text(system, svg);
  return out;
}

// The index when the rounds overcount it (reduction/differentiation_index.h).
std::string index_by_orders_sentence(const ReducedSystem& system) {
  std::string out =
      ", but the index counts the differentiations of the model's equations that determine the "
      "derivative of every variable, and the rounds overcount them (a round can differentiate a "
      "combination of constraints differentiated fewer times, or a constraint that only "
      "determines the derivative of a promoted unknown): ";
  if (system.index == 0)
    return out +
           "the equations as written determine every derivative, so index = 0 (docs/method.md §6).";
  return out + fmt::format("`{}'` needs {}, no derivative more, so index = {} (docs/method.md §6).",
                           system.index_variable,
                           count_of(static_cast<size_t>(system.index), "differentiation",
                                    "differentiations"),
                           system.index);
}

std::string index_sentence(const ReducedSystem& system) {
  if (system.constraints.empty() && system.rounds.empty()) {
    return "The model has no constraints: it is an ODE as written.";
  }
  int d = system.differentiations;
  std::string out = d == 0 ? "B is nonsingular without any differentiation"
                           : fmt::format(
                                 "B became nonsingular after {} in which constraints "
                                 "were differentiated",
                                 count_of(static_cast<size_t>(d), "round", "rounds"));
  if (system.index != report::index_by_rounds(system))
    return out + index_by_orders_sentence(system);
  std::vector<std::string> extra = report::multipliers(system);
  bool one = extra.size() == 1;
  if (extra.empty()) {
    return out + fmt::format(
                     ", and every algebraic unknown left is a dummy variable standing for the "
                     "derivative of a state, which these differentiations already determine: "
                     "index = {} (docs/method.md §6).",
                     d);
  }
  return out + fmt::format(
                   ", and the algebraic unknowns left include {}, {} of the model itself rather "
                   "than {} for a derivative: one more differentiation of A Z = b is needed to "
                   "get an ODE for {}, so index = {} + 1 = {} (docs/method.md §6).",
                   listing(coded(extra)), one ? "an algebraic variable" : "algebraic variables",
                   one ? "a dummy standing" : "dummies standing", one ? "it" : "them", d, d + 1);
}

std::string index_section(const ReducedSystem& system) {
  return heading(2, "Index") +
         fmt::format("**Index {}.** {}\n\n", system.index, index_sentence(system));
}

std::string hidden_constraints_section(const ReducedSystem& system) {
  std::string out = heading(2, "Hidden constraints");
  if (system.invariants.empty()) return out + "None: no constraint was differentiated.\n";
  out +=
      "The constraints differentiated away, kept as invariants h(X, t) = 0 of the reduced "
      "system (a prime marks each differentiation). Consistent initial values must satisfy "
      "them all; the generated code projects the solution back onto them.\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const Constraint& c : system.invariants) {
    rows.push_back({code(c.label), std::to_string(c.level), code(to_dae(c.residual) + " = 0")});
  }
  std::string table_text = table({"Label", "Level", "h(X, t) = 0"}, rows, 3);
  table_text.pop_back();  // the document ends with one newline
  return out + table_text;
}

}  // namespace

std::string markdown_report(const Model& model, const ReducedSystem& system,
                            const std::string& spy_svg_file_name) {
  return title_and_summary(model, system) + model_section(model) + unknowns_section(system) +
         rounds_section(system) + final_system_section(system) +
         structure_section(system, spy_svg_file_name) + index_section(system) +
         hidden_constraints_section(system);
}

std::string final_spy_svg(const ReducedSystem& system) {
  SparsityPattern pattern = system.A.pattern();
  if (!has_block_form(system)) {
    return spy_svg(pattern, labels_of(system.constraints), report::names_of(system.algebraic), {});
  }
  std::vector<std::string> rows, cols;
  for (size_t i = 0; i < system.constraints.size(); ++i) {
    rows.push_back(blt_row(system, static_cast<int>(i)));
    cols.push_back(blt_col(system, static_cast<int>(i)));
  }
  const BlockTriangularForm& form = system.blocks;
  return spy_svg(pattern.permuted(form.row_order, form.col_order), rows, cols, form.block_start);
}

}  // namespace daec
