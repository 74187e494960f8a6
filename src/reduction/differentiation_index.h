// The differentiation index of the input model (docs/method.md §6), read off the reduced system:
// the number of differentiations of the model's equations needed to determine the derivative of
// every variable of the model as a function of the variables and t.
#pragma once

#include <string>
#include <vector>

#include "reduction/expression_matrix.h"
#include "reduction/numeric_rank.h"
#include "reduction/system.h"
#include "structure/block_triangular.h"

namespace daec {

struct DifferentiationIndex {
  int index = 0;
  std::string variable;  ///< a variable of the model whose derivative needs `index` ("" if 0)
};

/// The index of a reduced system X' = F(X, Z, t), A Z = b whose constraint rows carry their
/// `order` (differentiations of the model's equations behind each row) and whose algebraic
/// unknowns Z are in the columns of A, in block lower-triangular form `blocks`.
///
/// A block of A determines its unknowns from its rows and the unknowns of the blocks it uses; an
/// unknown needs the lowest order L such that the rows of order up to L determine it (decided on
/// `values`, A at a random point; without them, or for a block of more than 300 unknowns, the
/// block's highest order), or lower when the rows of order up to L determine it directly, whatever
/// blocks they belong to (a combination may cancel the unknowns that tie a row to other blocks).
/// Then the derivative of
/// - a state of the model (or a velocity of `x''`), x' = F: what the unknowns and the promoted
///   states in F need;
/// - an algebraic variable that stayed linear (a multiplier): one differentiation more than it;
/// - a nonlinear algebraic variable w made a state (w' = v): what v needs (where v is made a
///   state in turn, its value: one differentiation less than its own rate; v' = w'' is not asked).
/// A promoted unknown's own value needs one differentiation less than its rate v (the rate comes
/// from differentiating the constraint that determines the value). The index is the largest of
/// these; 0 for an ODE. Counting rounds instead overcounts when a round differentiates a
/// combination of less-differentiated constraints, when a multiplier is determined before the
/// last round, or when a derivative entering nonlinearly (x' + x'^3 = f) is promoted.
DifferentiationIndex differentiation_index(const std::vector<Unknown>& states,
                                           const std::vector<StateEquation>& differential,
                                           const std::vector<Unknown>& algebraic,
                                           const std::vector<Constraint>& constraints,
                                           const ExpressionMatrix& A,
                                           const BlockTriangularForm& blocks,
                                           const std::vector<NumericRow>& values);

}  // namespace daec
