// Code for A Z = b specialised to A's sparsity (docs/generated-code.md): one block of the block
// lower-triangular form at a time, each by an LU factorisation with partial pivoting unrolled over
// the entries that can be nonzero. Which entries those are, and which rows may hold each pivot, is
// the plan of structure/sparse_elimination_plan; this unit only writes the plan out as C++.
#pragma once

#include <string>
#include <vector>

#include "structure/sparse_elimination_plan.h"

namespace daec {

/// The steps of factor_A, one string of statements each, in order (each may `return` 1 + its
/// position when its pivot vanishes).
std::vector<std::string> factor_steps(const LinearSolvePlan& plan);

/// The statements of solve_A, one line each, in order.
std::vector<std::string> solve_statements(const LinearSolvePlan& plan);

/// The body of `int factor_A(double* a, int* pivot)`: factors the stored entries in place
/// (multipliers below the diagonal, U above it and the reciprocals of U's diagonal on it, so that
/// the solve multiplies instead of dividing) and records each step's pivot position; returns 0, or
/// 1 + the position as soon as a pivot is zero or not a number (Model::rhs_failure names it).
std::string factor_code(const LinearSolvePlan& plan);

/// The body of `void solve_A(const double* a, const int* pivot, double* r)`: on entry r holds
/// b by position, on return Z by position.
std::string solve_code(const LinearSolvePlan& plan);

}  // namespace daec
