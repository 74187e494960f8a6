// The order in which the reduction takes a model's variables and equations, and so the order of
// the generated code's X and Z (the declared variables' own tables, variable_names and
// variable_location, keep declaration order). A small model keeps its declaration order, which
// is what its author reads in the generated code; a large one is numbered by its structure, so
// that its cost does not depend on how it was written (docs/generated-code.md, "Large models").
#pragma once

#include <cstddef>
#include <vector>

#include "model/model.h"

namespace daec {

/// --unknown-order: declaration order, by structure, or by structure from
/// kStructuralOrderVariables scalar variables on.
enum class UnknownOrder { Automatic, Declared, Structural };

/// From this many scalar variables on, UnknownOrder::Automatic numbers by structure.
inline constexpr size_t kStructuralOrderVariables = 256;

/// Permutations of Model::variables and Model::equations: the reduction takes variables[0]
/// first, and so on.
struct ModelOrder {
  std::vector<size_t> variables;
  std::vector<size_t> equations;
};

/// Whether `order` numbers this model by its structure.
bool numbers_by_structure(const Model& model, UnknownOrder order);

/// Declaration order, or (where numbers_by_structure) the order of first visits of a
/// breadth-first walk (structure/breadth_first_order.h) over the graph joining each equation to
/// the variables it uses (directly or through a derivative): coupled variables and equations
/// come out near each other, along a chain from one end, whatever order the source gives them.
ModelOrder model_order(const Model& model, UnknownOrder order);

}  // namespace daec
