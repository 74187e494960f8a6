// Facts about a reduced system that several reports state (the --check summary, the Markdown and
// JSON reports), computed in one place so that the reports never disagree.
#pragma once

#include <string>
#include <vector>

#include "reduction/reduce.h"

namespace daec::report {

/// Tables of rows x columns (dependency tables, A, its block form) are written out while they
/// have at most this many cells; a larger model gets a note instead (the JSON report lists the
/// entries row by row), so that a report grows with the model, not with its square.
inline constexpr size_t kMaxTableCells = 10'000;

/// Whether a rows x columns table is written out.
inline bool table_fits(size_t rows, size_t columns) {
  return rows * columns <= kMaxTableCells;
}

/// The note that stands for a table left out: "(The table, 1,500 × 2,000, is left out: ...)".
std::string omitted_table(size_t rows, size_t columns);

/// The unknowns standing for a derivative (dummy variables of the semi-explicit stage and of the
/// reduction loop, and the rates v_n of promoted nonlinear unknowns), states first, then Z.
std::vector<const Unknown*> dummy_variables(const ReducedSystem& system);

/// The model's own variables still among the algebraic unknowns Z (multipliers such as lambda):
/// each needs one more differentiation, which is why they add one to the index (docs/method.md §6).
std::vector<std::string> multipliers(const ReducedSystem& system);

/// The round whose Step 3 introduced dummy `name`, or 0 if an earlier stage did.
int round_introducing(const ReducedSystem& system, const std::string& name);

/// The round that made `name` a state instead of combining rows (docs/reduction.md, "High
/// index"), or 0.
int round_promoting(const ReducedSystem& system, const std::string& name);

/// The index as the rounds count it: the differentiation rounds, plus one if a multiplier is
/// left. It is the index unless a round differentiated a combination of less-differentiated
/// constraints, a multiplier was determined before the last round, or a promoted derivative made
/// rounds of its own (reduction/differentiation_index.h).
int index_by_rounds(const ReducedSystem& system);

/// The short account of the index: "2 differentiation rounds + 1 for the algebraic variable
/// lambda".
std::string index_reason(const ReducedSystem& system);

/// The items separated by `separator`; `empty` when there are none.
std::string join(const std::vector<std::string>& items, const std::string& separator,
                 const std::string& empty = "");

/// The names of `unknowns`, in order.
std::vector<std::string> names_of(const std::vector<Unknown>& unknowns);

}  // namespace daec::report
