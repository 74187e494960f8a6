// The bodies of the generated Model's functions (spec §4), from the reduced system: the
// expressions of each function compiled together (common subexpressions across all its outputs),
// the algebraic unknowns solved through the block-structured LU of linear_solve.h, and the
// Jacobians by symbolic differentiation (rhs_jacobian by implicit differentiation of A Z = b).
#pragma once

#include <optional>
#include <string>

#include "codegen/linear_solve.h"
#include "reduction/reduce.h"

namespace daec {

struct FunctionBodies {
  std::string initial_state, rhs, rhs_jacobian, residual, residual_jacobian, invariants,
      invariants_jacobian, outputs;
  std::string evaluate_algebraic;  ///< fills a (A by storage index) and r (b by position)
  /// The solver's tables (namespace scope): kRowStart, where each position's row of A starts in
  /// a, and kUnknownAt, the algebraic unknown solved at each position. Empty without unknowns.
  std::string row_start, unknown_at;
  std::string rhs_failure;    ///< the part of Model::rhs_failure that locates A Z = b failing
  size_t rhs_operations = 0;  ///< in evaluating A, b and F (the LU not counted)
};

/// `plan` is the LU plan of system.A, or nullopt when there are no algebraic unknowns. Throws
/// LimitExceeded when a derivative has more than `max_expression_size` nodes (0: no limit) or
/// the time limit is reached.
FunctionBodies function_bodies(const ReducedSystem& system,
                               const std::optional<LinearSolvePlan>& plan,
                               size_t max_expression_size);

}  // namespace daec
