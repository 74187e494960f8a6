// The bodies of the generated Model's functions (docs/generated-code.md), from the reduced system:
// the expressions of each function compiled together (common subexpressions across all its
// outputs), the algebraic unknowns solved through the block-structured LU of linear_solve.h, and
// the Jacobians by symbolic differentiation, in compressed sparse columns (rhs_jacobian by implicit
// differentiation of A Z = b). Long bodies are cut into parts (function_parts.h).
#pragma once

#include <optional>
#include <string>

#include "codegen/function_parts.h"
#include "codegen/jacobian_structure.h"
#include "codegen/linear_solve.h"
#include "reduction/reduce.h"

namespace daec {

/// The dense Jacobians (rhs_jacobian, residual_jacobian, invariants_jacobian) are generated when
/// none of their arrays has more entries than this (docs/generated-code.md).
inline constexpr size_t kMaxDenseJacobianEntries = 1'000'000;

/// The sparse d(X')/dX is generated when it has at most this many entries, or at most as many as
/// the residual's iteration matrix (so always for a model without algebraic unknowns).
inline constexpr size_t kMaxSparseRhsJacobianEntries = 100'000;

/// The most work (blocks reached, over all columns) spent listing the blocks of A that each column
/// of d(X')/dX or d(X')/dp reaches exactly (jacobian_structure.h, algebraic_reach).
inline constexpr size_t kMaxReachWork = 4'000'000;

struct FunctionBodies {
  /// Bodies of the Model's member functions. rhs_jacobian_values is empty when the sparse
  /// d(X')/dX is not generated; the three dense Jacobians are empty when they are not.
  std::string initial_state, rhs, rhs_failure, residual, invariants, outputs;
  std::string when_members;  ///< when_code.h; empty without when clauses
  std::string initial_algebraic, state_nominal, initial_equations;
  std::string rhs_jacobian, rhs_jacobian_values, residual_jacobian, residual_jacobian_values,
      invariants_jacobian, invariants_jacobian_values;
  /// Namespace-scope code: A Z = b (evaluate_A_b, factor_A, solve_A bodies and the tables
  /// kRowStart, kUnknownAt, and kDiagonalAt, kBlockEntryStart, kPivotCanVanish that
  /// algebraic_condition reads), the support of the rhs Jacobians (tables and helpers), and the
  /// projection's Gram factorisation (gram_cholesky.h).
  std::string evaluate_algebraic, factor, solve, row_start, unknown_at, pivot_tables;
  std::string rhs_jacobian_support, gram_cholesky;
  /// d(X')/dp, dr/dp and dh/dp (docs/generated-code.md, "Parameter Jacobians"): the bodies of
  /// NAME_values (always) and of the dense NAME (with the other dense Jacobians), their patterns,
  /// and their namespace-scope tables and helpers (empty where no entry can be nonzero).
  std::string rhs_parameter_jacobian, rhs_parameter_jacobian_values, residual_parameter_jacobian,
      residual_parameter_jacobian_values, invariants_parameter_jacobian,
      invariants_parameter_jacobian_values, parameter_jacobian_support;
  ColumnPattern rhs_parameter_pattern, residual_parameter_pattern, invariants_parameter_pattern;
  /// The patterns of the sparse Jacobians (docs/generated-code.md).
  std::optional<ColumnPattern> rhs_pattern;
  ColumnPattern residual_pattern, invariants_pattern;
  bool dense_jacobians = true;
  size_t rhs_operations = 0;  ///< in evaluating A, b and F (the LU not counted)
};

/// `plan` is the LU plan of system.A, or nullopt when there are no algebraic unknowns; the parts
/// of long bodies are added to `parts`. Throws LimitExceeded when a derivative has more than
/// `max_expression_size` nodes (0: no limit) or the time limit is reached.
FunctionBodies function_bodies(const ReducedSystem& system,
                               const std::optional<LinearSolvePlan>& plan,
                               size_t max_expression_size, FunctionParts& parts);

}  // namespace daec
