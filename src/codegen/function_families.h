// The families of the Model's function bodies (model_functions.h), one file each: the start
// values and the outputs (value_functions.cpp), rhs with the solve of A Z = b
// (algebraic_functions.cpp), d(X')/dX (rhs_jacobian_functions.cpp), the residual and its Jacobian
// (residual_functions.cpp), the invariants and their Jacobian (invariant_functions.cpp), the
// derivatives in the parameters (parameter_jacobian_functions.cpp); the
// projection's Gram factorisation is gram_cholesky.h's. Internal to codegen: function_bodies calls
// them in turn.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "codegen/function_generator.h"
#include "codegen/model_functions.h"

namespace daec::function_code {

// value_functions.cpp
/// `target[i] = value` of each unknown, in terms of the parameters: the start values of X
/// (initial_state) and of Z (initial_algebraic: the dummies' are 0; the values that fixed
/// algebraic unknowns must take), the nominal values of X (state_nominal: 0 where none is given).
std::string unknown_values(Generator& gen, const char* function, const char* target,
                           const std::vector<Unknown>& unknowns, GiNaC::ex Unknown::*value);
/// The residuals lhs - rhs of the initial equations at (t, X) with X' and Z given.
std::string initial_equations(Generator& gen);
/// The outputs y at (t, X), computing X' (through rhs) and Z first when they use them; NaN when
/// those cannot be computed.
std::string outputs(Generator& gen);
/// The values of every reinit of the when clauses (in clause order) at (t, X), likewise.
std::string reinit_values(Generator& gen);

// algebraic_functions.cpp
/// evaluate_A_b: the stored entries of A and b by position; adds its operations to `operations`.
std::string evaluate_algebraic(Generator& gen, size_t& operations);
/// factor_A and solve_A, cut into parts when long (linear_solve.h).
std::string factor(Generator& gen);
std::string solve(Generator& gen);
/// rhs: Z solved (when there are algebraic unknowns), then X' = F(X, Z, t).
std::string rhs(Generator& gen, size_t& operations);
/// The tables locate_algebraic_failure and rhs read: the storage of A is sorted by row
/// position, so that each position's row is one range of a.
void solver_tables(const Generator& gen, FunctionBodies& bodies);

// rhs_jacobian_functions.cpp
/// The namespace-scope code of d(X')/dX = dF/dX + dF/dZ dZ/dX, dZ/dX = -A^-1 dg/dX: the entries
/// of dF/dX, -dg/dX and dF/dZ located by tables (rhs_jacobian_entries computes their values),
/// and add_rhs_jacobian_column, which adds one column of d(X')/dX to a dense vector.
std::string rhs_jacobian_support(Generator& gen, const AlgebraicReach* reach);
/// The body of rhs_jacobian (`dense`: J, row-major) or of rhs_jacobian_values: each column of
/// d(xdot)/dx is added into w, then moved from w into its place.
std::string rhs_jacobian_body(const Generator& gen, bool dense);

// residual_functions.cpp
/// r = (X' - F, g) at (t, X, X', Z).
std::string residual(Generator& gen);
/// dr/d(X, Z) + alpha dr/dX' in the order of `pattern` (residual_iteration_pattern).
std::string residual_jacobian_values(Generator& gen, const ColumnPattern& pattern);
/// The dense residual_jacobian from the sparse values (alpha = 0), and dr/dX' = [I; 0].
std::string dense_residual_jacobian(const Generator& gen, const ColumnPattern& pattern);

// invariant_functions.cpp
/// h(t, X), and dh/dX by columns (its pattern stored in `pattern`), and dense from those values.
std::string invariants(Generator& gen);
std::string invariants_jacobian_values(Generator& gen, ColumnPattern& pattern);
std::string dense_invariants_jacobian(const Generator& gen, const ColumnPattern& pattern);

// parameter_jacobian_functions.cpp
/// d(X')/dp, dr/dp and dh/dp: their patterns, member bodies (the dense ones when
/// bodies.dense_jacobians) and namespace-scope support, into `bodies`; reads the residual's
/// pattern (bodies.residual_pattern) for dF/dZ.
void parameter_jacobians(Generator& gen, FunctionBodies& bodies);

}  // namespace daec::function_code
