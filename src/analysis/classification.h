// Classification of a checked model (spec §1, seed "Variable Classification" and the dependency
// tables of seed 12.2): which variables are differential or algebraic, and which unknowns and
// derivatives each equation contains.
#pragma once

#include <string>
#include <vector>

#include <ginac/ginac.h>

#include "model/model.h"

namespace daec {

/// A column of the dependency table: a variable, or one of its derivatives.
struct DependencyColumn {
  std::string name;  ///< x, x', x'', ...
  GiNaC::ex symbol;
  size_t variable;
  int order;  ///< 0 for the variable itself
};

struct DependencyRow {
  std::string label;
  std::vector<bool> contains;  ///< one entry per column
};

struct Classification {
  std::vector<size_t> differential;  ///< variable indices, in declaration order
  std::vector<size_t> algebraic;
  std::vector<DependencyColumn> columns;
  std::vector<DependencyRow> rows;  ///< one per equation, in source order
};

Classification classify(const Model& model);

}  // namespace daec
