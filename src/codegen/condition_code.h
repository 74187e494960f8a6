// The conditions of a generated Model (docs/language.md, "Conditions"): every relation `a < b` (<=,
// >, >=,
// ==, <>) of the reduced system is condition k, watched through its switching function
// g_k = a - b and taken, inside every generated function, from its mode: p[num_parameters + k]
// holds -1 (follow the live value, the default), 0 (false) or 1 (true). An integrator freezes the
// modes between events (set_modes), so that it sees a smooth right-hand side within a step, and
// locates each change of a relation by root finding on g. Keeping the modes in p, after the
// parameters, lets every function and every part read them without another argument.
// A relation may compare algebraic unknowns (i = if v > 0.7 then ... with v in Z): then A and b
// depend on its mode, and its live value needs Z. The generated code settles such modes together
// with Z (solve Z with the modes, evaluate the relations with that Z, set the modes, again, until
// they hold, and report a cycle), its switching function is measured at Z(X) solved with the
// current modes, and evaluate_A_b reads their modes alone (docs/generated-code.md).
// Models without relations get none of this: their code is what it was before conditions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "codegen/expression_code.h"
#include "codegen/linear_solve.h"
#include "reduction/reduce.h"

namespace daec {

/// The relations (indices into system.relations) that hold an algebraic unknown.
std::vector<size_t> algebraic_relations(const ReducedSystem& system);

/// Adds to `symbols` the code of each relation's mode, p[num_parameters + k]; with `settled`,
/// the relations that hold an algebraic unknown read their mode alone (kSettledMode), for the
/// code that computes Z.
void add_condition_modes(const ReducedSystem& system, SymbolCode& symbols, bool settled = false);

struct ConditionCode {
  size_t num_conditions = 0;          ///< relations: model_declaration.h.in declares their members
  std::string definitions;            ///< condition_names, conditions(), set_modes(); empty without
  std::string parameter_array_size;   ///< the size of p
  std::string parameter_initializer;  ///< defaults of p, then -1 for each mode
  /// Namespace-scope code of the algebraic solver (with `plan`): solve_algebraic, and where
  /// relations hold Z the settling of their modes; `settled_p`, the parameters evaluate_A_b reads
  /// outside solve_algebraic ("p", or p with those modes settled).
  std::string solve_algebraic, settled_p;
  std::string rhs_failure;  ///< the start of Model::rhs_failure where relations hold Z
};

/// `parameter_initializer`: the braced default values of the parameters; `plan`: the LU plan of
/// A, nullopt without algebraic unknowns.
ConditionCode condition_code(const ReducedSystem& system,
                             const std::optional<LinearSolvePlan>& plan,
                             const std::string& parameter_initializer);

/// "drive: t < 1": the label of the first equation of the model's text that relation `k` occurs in
/// (by its place in the file, docs/simulator.md) and the relation as written.
std::string condition_name(const ReducedSystem& system, size_t k);
/// Every relation's name, in the order of system.relations (one pass over the equations).
std::vector<std::string> condition_names(const ReducedSystem& system);

}  // namespace daec
