// Stage 5 (docs/method.md §5, steps 1–4): the reduction loop. Works on B = dg/dz: while B is
// singular, the constraints free of z (zero rows of B, or combinations Q_a^T g from a symbolic left
// null space) are differentiated in t and the originals kept as hidden constraints. The result
// is the index-1 system X' = F(X, Z, t), A(X, t) Z = b(X, t) with invariants h(X, t) = 0.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <ginac/ginac.h>

#include "reduction/expression_matrix.h"
#include "reduction/limits.h"
#include "reduction/structural_order.h"
#include "reduction/system.h"
#include "structure/block_triangular.h"
#include "structure/sparsity.h"
#include "support/diagnostics.h"

namespace daec {

/// How derivatives of states met while differentiating are handled (docs/method.md §5, step 3).
enum class DummyPolicy {
  Auto,   ///< dummy variables for derivatives whose right-hand side holds algebraic unknowns
  Never,  ///< always substitute x' = f (the expressions grow)
};

enum class CombinationPolicy {
  /// Combine them, and throw NestedCombinations before nesting deeper than
  /// kMaxCombinationNesting (reduce.cpp).
  LimitNesting,
  /// Where B's rank deficiency is structural (its rank is its structural rank: rows hold fewer
  /// unknowns than there are rows), make the unknowns the dependent rows hold states instead;
  /// otherwise combine them.
  PromoteStructural,
  /// Combine them, however deep.
  NestFreely,
};

struct ReductionOptions {
  DummyPolicy dummies = DummyPolicy::Auto;
  int max_rounds = 10;
  /// Nodes an expression may reach (reduction/limits.h); 0: no limit.
  size_t max_expression_size = kDefaultMaxExpressionSize;
  /// How dependent rows of B are treated: set by the pipeline (docs/reduction.md, "High index").
  CombinationPolicy combinations = CombinationPolicy::LimitNesting;
  /// The order of the model's variables and equations (reduction/structural_order.h).
  UnknownOrder unknown_order = UnknownOrder::Automatic;
};

/// The dependency table (docs/method.md §5) of a round: constraints (rows) against algebraic
/// unknowns.
struct DependencyTable {
  std::vector<std::string> rows;
  std::vector<std::string> columns;
  SparsityPattern pattern;
};

struct ReductionRound {
  int number = 0;         ///< 1-based
  DependencyTable table;  ///< B at the start of the round
  int structural_rank = 0;
  int rank = 0;              ///< generic (numerical at random points) rank of B
  bool nonsingular = false;  ///< B was nonsingular: the loop stopped here
  /// Step 2's general case (the linear example of docs/method.md) rather than zero rows.
  bool used_null_space = false;
  /// Decided at points off the invariants found so far: on them, a combination came out that
  /// vanishes wherever they hold (docs/reduction.md).
  bool decided_off_invariants = false;
  std::vector<std::string> differentiated;  ///< labels of the constraints differentiated
  std::vector<std::string> dummies;         ///< dummy variables introduced while differentiating
  /// Algebraic unknowns made states in this round instead of combining the dependent rows that
  /// hold them (CombinationPolicy; docs/reduction.md, "High index").
  std::vector<std::string> promoted;
};

struct ReducedSystem {
  ModelContext context;
  std::vector<Unknown> states;              ///< X
  std::vector<StateEquation> differential;  ///< X' = F(X, Z, t), one per state
  std::vector<Unknown> algebraic;           ///< Z
  std::vector<Constraint> constraints;      ///< 0 = g(X, Z, t), affine in Z
  ExpressionMatrix A;                       ///< dg/dZ, square and nonsingular
  std::vector<GiNaC::ex> b;                 ///< A Z = b
  std::vector<Constraint> invariants;       ///< hidden constraints h(X, t) = 0
  std::vector<ReductionRound> rounds;
  std::vector<std::string> promoted;  ///< algebraic unknowns made states (nonlinear)
  BlockTriangularForm blocks;         ///< block lower-triangular form of A
  /// The distinct relations (daec_lt ... daec_ne calls, model/conditions.h) of F, of the
  /// constraints (A and b) and of the invariants, in the order of first occurrence: where one
  /// changes its value the solution has a kink or a jump, and an integrator must stop there.
  /// A relation may hold algebraic unknowns (linear in every branch, reduction/linearity.h):
  /// then A and b depend on its mode, and the generated code settles such modes together with Z
  /// (codegen/condition_code.h).
  std::vector<GiNaC::ex> relations;
  int differentiations = 0;    ///< rounds in which constraints were differentiated
  int index = 0;               ///< differentiation index of the input model (docs/method.md §6)
  std::string index_variable;  ///< a variable whose derivative needs `index` differentiations
};

/// Thrown by reduce when a constraint to be differentiated is free of the algebraic unknowns
/// except inside a relation: its hidden constraint would depend on Z. The pipeline then makes
/// the unknowns in conditions states (reduction/linearity.h) and reduces again.
struct AlgebraicInCondition : std::runtime_error {
  explicit AlgebraicInCondition(const std::string& constraint)
      : std::runtime_error("constraint '" + constraint +
                           "' depends on an algebraic unknown only through a condition") {}
};

/// Thrown by reduce when a round would combine rows that already hold combinations nested
/// kMaxCombinationNesting deep (reduce.cpp): the constraints would grow about threefold a round.
/// The pipeline then reduces again with CombinationPolicy::PromoteStructural, and where that
/// fails with CombinationPolicy::NestFreely.
struct NestedCombinations : std::runtime_error {
  explicit NestedCombinations(int round)
      : std::runtime_error("combinations nested too deep in round " + std::to_string(round)) {}
};

/// Runs the loop on a semi-explicit system whose algebraic unknowns enter affinely. Reports
/// failures (constraints still singular after the round limit, inconsistent or redundant
/// equations) to `diags` and returns nullopt. Throws LimitExceeded when an expression grows past
/// options.max_expression_size or the time limit is reached.
std::optional<ReducedSystem> reduce(SemiExplicitSystem system, const ReductionOptions& options,
                                    DiagnosticEngine& diags);

/// dg/dz, rows = constraints, columns = unknowns.
ExpressionMatrix jacobian(const std::vector<Constraint>& constraints,
                          const std::vector<Unknown>& unknowns);

}  // namespace daec
