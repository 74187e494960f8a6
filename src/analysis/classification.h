// Classification of a checked model (docs/language.md, docs/method.md §4 and the dependency
// tables of docs/method.md): which variables are differential or algebraic, and which unknowns and
// derivatives each equation contains.
#pragma once

#include <algorithm>
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

/// One equation's row, sparse: a model of n scalar equations has n^2 cells, of which each row
/// holds a few (a dense row made --check quadratic in time and memory).
struct DependencyRow {
  std::string label;
  std::vector<size_t> columns;  ///< the columns the equation contains, ascending

  bool contains(size_t column) const {
    return std::binary_search(columns.begin(), columns.end(), column);
  }
};

struct Classification {
  std::vector<size_t> differential;  ///< variable indices, in declaration order
  std::vector<size_t> algebraic;
  std::vector<DependencyColumn> columns;
  std::vector<DependencyRow> rows;  ///< one per equation, in source order
};

Classification classify(const Model& model);

}  // namespace daec
