// The reduction loop (docs/method.md §5) and the index count.
#include "reduction/reduce.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "model/conditions.h"
#include "model/expression_printer.h"
#include "reduction/contradiction.h"
#include "reduction/differentiation_index.h"
#include "reduction/left_null_space.h"
#include "reduction/linearity.h"
#include "reduction/manifold_points.h"
#include "reduction/numeric_rank.h"
#include "reduction/parameter_degeneracy.h"
#include "reduction/shared_expressions.h"
#include "reduction/symbolic.h"
#include "structure/matching.h"
#include "support/text.h"
#include "support/watchdog.h"
#include "support/work_counters.h"
#include "units/unit_text.h"

namespace daec {

ExpressionMatrix jacobian(const std::vector<Constraint>& constraints,
                          const std::vector<Unknown>& unknowns) {
  return jacobian_matrix(
      residuals_of(constraints), unknowns, [](size_t) {}, [](const GiNaC::ex&) {});
}

namespace {

// The start values of the states and algebraic unknowns that evaluate to numbers: where the
// random points of the rank decisions are drawn (RandomPoints).
std::map<GiNaC::ex, double, GiNaC::ex_is_less> start_centers(const SemiExplicitSystem& system) {
  GiNaC::exmap parameters = system.context.parameter_values();
  std::map<GiNaC::ex, double, GiNaC::ex_is_less> centers;
  for (const auto* unknowns : {&system.states, &system.algebraic}) {
    for (const Unknown& u : *unknowns) {
      std::optional<double> start = evaluate(u.start, parameters);
      if (start) centers[u.symbol] = *start;
    }
  }
  return centers;
}

// Sample points at which a combination must vanish to be taken for a consequence of the
// invariants (Reducer::vanishes_on_invariants).
constexpr int kConsequencePoints = 2;
// Invariants this small hold at a point (the projection refines them to about 1e-48 or less);
// a value this small there is zero: functions that are not consequences are of order one.
GiNaC::numeric on_invariants_bound() {
  return GiNaC::numeric(10).power(-40);
}
GiNaC::numeric consequence_bound() {
  return GiNaC::numeric(10).power(-30);
}

// Combinations of combinations nest: each round's combination holds the last one's derivative
// times minors of B, and the distinct subexpressions grow about threefold a round (the N-pendulum
// of bench/high_index.sh). Rows that would nest deeper than this are not combined: the reduction
// starts again with the unknowns of structural dependencies made states (docs/reduction.md,
// "High index").
constexpr int kMaxCombinationNesting = 2;

class Reducer {
 public:
  Reducer(SemiExplicitSystem system, const ReductionOptions& options, DiagnosticEngine& diags)
      : system_(std::move(system)),
        options_(options),
        diags_(diags),
        points_(system_.context.parameter_values(), start_centers(system_)),
        state_columns_(system_.states),
        algebraic_columns_(system_.algebraic) {}

  std::optional<ReducedSystem> run();

 private:
  bool run_round(ReductionRound& round);
  std::optional<bool> decide_round(ReductionRound& round);
  void sample_on_invariants();
  std::optional<std::vector<size_t>> null_space_rows(const ExpressionMatrix& B,
                                                     const std::vector<RowDependency>& dependencies,
                                                     int round);
  bool nests_too_deep(const std::vector<RowDependency>& dependencies) const;
  std::string rate_name(const std::string& name) const;
  std::vector<size_t> promote_shared_unknowns(const ExpressionMatrix& B,
                                              const std::vector<RowDependency>& dependencies,
                                              ReductionRound& round);
  bool vanishes_on_invariants(const GiNaC::ex& h) const;
  bool differentiate(size_t row, ReductionRound& round);
  void warn_nondifferentiable(const Constraint& c);
  SourceLocation file_location() const;
  GiNaC::ex total_derivative(const GiNaC::ex& h, ReductionRound& round);
  GiNaC::ex rate_of(size_t state, ReductionRound& round);
  bool is_algebraic_free(const GiNaC::ex& e) const;
  std::vector<GiNaC::ex> all_symbols() const;
  const GiNaC::exmap& algebraic_at_zero();
  void report_singular(const std::vector<size_t>& rows, const std::string& why);
  void warn_rank_lowering_parameters(const ExpressionMatrix& B, int rank);
  std::string contradiction_of(const RowDependency& dependency,
                               const std::vector<GiNaC::ex>& weights,
                               const std::vector<size_t>& rows) const;
  void check_start_values(const ReducedSystem& result);
  std::vector<NumericRow> values_at_random_point(const ExpressionMatrix& A);
  ReducedSystem finish();

  SemiExplicitSystem system_;
  ReductionOptions options_;
  DiagnosticEngine& diags_;
  RandomPoints points_;
  bool on_invariants_ = false;  ///< whether points_ are moved onto the invariants this round
  std::vector<Constraint> invariants_;
  std::vector<ReductionRound> rounds_;
  ExpressionMatrix final_B_;
  SymbolColumns state_columns_;      ///< states by symbol
  SymbolColumns algebraic_columns_;  ///< algebraic unknowns by symbol (dummies join as made)
  /// Combinations whose constraints as written contradict one another, by label: the error to
  /// report when the combination reduces to 0 = 0.
  std::map<std::string, std::string> contradictions_;
  /// The places (source offsets) already warned of differentiating abs or sign.
  std::set<size_t> warned_nondifferentiable_;
  /// algebraic_at_zero(): the map and how many of system_.algebraic it holds.
  GiNaC::exmap at_zero_;
  size_t at_zero_count_ = 0;
};

std::vector<GiNaC::ex> Reducer::all_symbols() const {
  std::vector<GiNaC::ex> symbols{system_.context.time};
  for (const Unknown& u : system_.states) symbols.push_back(u.symbol);
  for (const Unknown& u : system_.algebraic) symbols.push_back(u.symbol);
  return symbols;
}

// The model's file, for stages that concern no equation in particular.
SourceLocation Reducer::file_location() const {
  for (const Constraint& c : system_.constraints) {
    if (c.location.file) return SourceLocation{c.location.file};
  }
  return {};
}

// Substituting this into an affine constraint g0 + B z leaves g0. Kept and extended as dummies
// join (rebuilt when unknowns are made states): built afresh for each differentiated row, it made
// the reduction quadratic in the size of the model.
const GiNaC::exmap& Reducer::algebraic_at_zero() {
  for (; at_zero_count_ < system_.algebraic.size(); ++at_zero_count_) {
    at_zero_.emplace(system_.algebraic[at_zero_count_].symbol, 0);
    count_work(WorkKind::Entries);
  }
  return at_zero_;
}

// Whether `h` (a function of X and t) vanishes wherever the invariants found so far hold: it is
// zero to many digits at two sample points moved onto them and refined to kPreciseDigits digits
// (reduction/manifold_points.h), where the invariants hold to far more digits than any other
// function's value could be small by chance. The points come from a copy of the generator, so
// that asking does not change the points of later decisions.
bool Reducer::vanishes_on_invariants(const GiNaC::ex& h) const {
  RandomPoints probe = points_;
  for (int attempt = 0; attempt < kConsequencePoints; ++attempt) {
    GiNaC::exmap exact = exact_point(probe.next(all_symbols(), attempt));
    BoundedEvaluator at_exact(exact);
    for (const Constraint& invariant : invariants_) {
      std::optional<GiNaC::numeric> v = evaluate_precisely(invariant.residual, at_exact);
      if (!v || GiNaC::abs(*v) > on_invariants_bound()) return false;  // the projection failed
    }
    std::optional<GiNaC::numeric> value = evaluate_precisely(h, at_exact);
    if (!value || GiNaC::abs(*value) > consequence_bound()) return false;
  }
  return true;
}

bool Reducer::is_algebraic_free(const GiNaC::ex& e) const {
  return !algebraic_columns_.occurs_in(e);
}

std::optional<ReducedSystem> Reducer::run() {
  if (system_.constraints.empty()) return finish();  // an ODE: index 0
  for (int number = 1;; ++number) {
    ReductionRound round;
    round.number = number;
    bool done = run_round(round);
    bool failed = !done && round.differentiated.empty();
    rounds_.push_back(std::move(round));
    if (done) return finish();
    if (failed) return std::nullopt;
  }
}

// One pass of Steps 1-3. Returns true when B is nonsingular; otherwise differentiates (and leaves
// round.differentiated empty if that was impossible, after reporting why).
//
// The round is decided at points on the invariants found so far (docs/reduction.md). There a
// combination may come out that vanishes wherever they hold: the rows it combines are dependent
// on the invariants, it is a consequence of them, and its derivative would be one again, larger
// each round, without ever determining the algebraic unknowns. Such a round is decided again at
// points off the invariants, where the rows are independent or combine into a constraint that
// says something new.
bool Reducer::run_round(ReductionRound& round) {
  checkpoint(file_location(),
             fmt::format("computing the rank of the constraints in round {}", round.number));
  sample_on_invariants();
  std::vector<Constraint> before = system_.constraints;
  std::optional<bool> done = decide_round(round);
  if (done) return *done;
  system_.constraints = std::move(before);
  points_.set_projection({});
  on_invariants_ = false;
  ReductionRound again;
  again.number = round.number;
  round = std::move(again);
  round.decided_off_invariants = true;
  done = decide_round(round);
  return done.value_or(false);
}

// run_round at the current sample points; nullopt if a combination found there vanishes on the
// invariants (run_round), with the constraints then partly replaced.
std::optional<bool> Reducer::decide_round(ReductionRound& round) {
  // Each row at its constraint, so that what GiNaC throws from one (log(0) in the derivative of
  // 0^x) is reported there.
  std::string stage =
      fmt::format("computing the rank of the constraints in round {}", round.number);
  ExpressionMatrix B = jacobian_matrix(
      residuals_of(system_.constraints), system_.algebraic,
      [&](size_t r) { enter_stage(system_.constraints[r].location, stage); },
      [](const GiNaC::ex&) {});
  enter_stage(file_location(), stage);  // the rank concerns them all
  size_t n = system_.algebraic.size();
  round.table.pattern = B.pattern();
  for (const Constraint& c : system_.constraints) round.table.rows.push_back(c.label);
  for (const Unknown& u : system_.algebraic) round.table.columns.push_back(u.name);
  round.structural_rank = structural_rank(round.table.pattern);
  round.rank = round.structural_rank == 0 ? 0 : generic_rank(B, all_symbols(), points_);
  if (round.rank < 0) {
    std::vector<size_t> all(B.rows());
    for (size_t r = 0; r < all.size(); ++r) all[r] = r;
    report_singular(all,
                    "no sample point near the start values lies in the domain of every function "
                    "in their Jacobian with respect to the algebraic unknowns; give start values "
                    "where the model is defined");
    return false;
  }
  if (round.rank < round.structural_rank) warn_rank_lowering_parameters(B, round.rank);
  if (round.rank == static_cast<int>(n) && B.rows() == n) {
    round.nonsingular = true;
    final_B_ = std::move(B);
    return true;
  }
  std::vector<size_t> rows;
  for (size_t r = 0; r < B.rows(); ++r) {
    if (B.row(r).empty()) rows.push_back(r);
  }
  if (rows.empty()) {
    round.used_null_space = true;
    checkpoint(file_location(),
               fmt::format("finding the dependent constraints in round {}", round.number));
    // Structural: B's rank is its structural rank, so every dependency is there because rows
    // hold fewer unknowns than there are rows, whatever the coefficients.
    const bool promote = options_.combinations == CombinationPolicy::PromoteStructural &&
                         round.rank == round.structural_rank;
    std::vector<RowDependency> dependencies = row_dependencies(B, all_symbols(), points_, !promote);
    if (promote && !dependencies.empty()) {
      rows = promote_shared_unknowns(B, dependencies, round);
    } else {
      if (options_.combinations == CombinationPolicy::LimitNesting && nests_too_deep(dependencies))
        throw NestedCombinations(round.number);
      std::optional<std::vector<size_t>> combined = null_space_rows(B, dependencies, round.number);
      if (!combined) return std::nullopt;
      rows = std::move(*combined);
    }
  }
  if (rows.empty()) {
    std::vector<size_t> all(B.rows());
    for (size_t r = 0; r < all.size(); ++r) all[r] = r;
    report_singular(all,
                    "no combination of them is free of the algebraic unknowns, yet they "
                    "do not determine them");
    return false;
  }
  if (round.number > options_.max_rounds) {
    report_singular(rows, "they are still singular after " +
                              count_of(static_cast<size_t>(options_.max_rounds), "round") +
                              " of index reduction (raise --max-rounds if the model really has "
                              "a higher index)");
    return false;
  }
  for (size_t row : rows) {
    if (!differentiate(row, round)) {
      round.differentiated.clear();
      return false;
    }
  }
  return false;
}

// Rank decisions from here on at points where the invariants found so far hold
// (reduction/manifold_points.h), where there are not too many of them.
void Reducer::sample_on_invariants() {
  on_invariants_ = !invariants_.empty() && invariants_.size() <= kMaxProjectedInvariants &&
                   system_.states.size() <= kMaxProjectedStates;
  if (!on_invariants_) {
    points_.set_projection({});
    return;
  }
  std::vector<GiNaC::ex> residuals, states;
  for (const Constraint& h : invariants_) residuals.push_back(h.residual);
  for (const Unknown& x : system_.states) states.push_back(x.symbol);
  auto projection = std::make_shared<ManifoldProjection>(residuals, states);
  points_.set_projection([projection](GiNaC::exmap& point) { return projection->project(point); });
}

// The error for the constraints `rows` of `dependency` if they contradict one another (see
// reduction/contradiction.h), or "". Only rows differentiated the same number of times, at least
// once, are compared through the constraints they were as written.
std::string Reducer::contradiction_of(const RowDependency& dependency,
                                      const std::vector<GiNaC::ex>& weights,
                                      const std::vector<size_t>& rows) const {
  int level = system_.constraints[rows.front()].level;
  if (level < 1) return {};
  std::vector<GiNaC::ex> originals(system_.constraints.size(), 0);
  std::string names;
  for (size_t k : rows) {
    const Constraint& c = system_.constraints[k];
    if (c.level != level) return {};
    auto original = std::find_if(invariants_.begin(), invariants_.end(), [&](const Constraint& i) {
      return i.base_label == c.base_label && i.level == 0;
    });
    if (original == invariants_.end()) return {};
    originals[k] = original->residual;
    names += (names.empty() ? "'" : ", '") + c.base_label + "'";
  }
  std::optional<GiNaC::numeric> constant = contradicting_constant(dependency, weights, originals);
  if (!constant) return {};
  return "equations " + names + " contradict one another: a combination of them reduces to " +
         to_dae(*constant) + " = 0 (the equations are inconsistent: no state satisfies them all)";
}

// Constraints singular only at the parameters' values: the reduction follows those values, which
// the user should know (a parameter set to 0 to "switch off" a term changes the index).
void Reducer::warn_rank_lowering_parameters(const ExpressionMatrix& B, int rank) {
  for (const RankLoweringParameter& found :
       rank_lowering_parameters(B, all_symbols(), system_.context, rank)) {
    const Parameter& p = *found.parameter;
    diags_.warning(system_.constraints[found.row].location,
                   fmt::format("the value of parameter '{}' ({}) makes the constraints singular "
                               "in the algebraic unknowns (rank {}; other values give {}): the "
                               "index and the generated code follow this value, and do not hold "
                               "for values of '{}' that give the larger rank",
                               p.name, p.value, rank, found.free_rank, p.name));
    diags_.note(p.location, "'" + p.name + "' is declared here");
  }
}

void Reducer::report_singular(const std::vector<size_t>& rows, const std::string& why) {
  std::string names;
  for (size_t r : rows) names += (names.empty() ? "'" : ", '") + system_.constraints[r].label + "'";
  const Constraint& first = system_.constraints[rows.front()];
  diags_.error(first.location, "cannot reduce the index: constraint" +
                                   std::string(rows.size() == 1 ? " " : "s ") + names + ": " + why);
}

// docs/method.md §5, step 2, general case: rows of B that are dependent without being zero. Each
// dependent row r is spanned by a few earlier rows (reduction/left_null_space.h); the bordered
// determinant of those rows is the combination q^T g free of the algebraic unknowns, and it
// replaces row r. nullopt if a combination vanishes on the invariants (run_round).
std::optional<std::vector<size_t>> Reducer::null_space_rows(
    const ExpressionMatrix& B, const std::vector<RowDependency>& dependencies, int round) {
  checkpoint(file_location(),
             fmt::format("combining constraints for the left null space in round {}", round));
  const GiNaC::exmap& at_zero = algebraic_at_zero();
  std::vector<GiNaC::ex> residuals;
  for (const Constraint& c : system_.constraints)
    residuals.push_back(substitute_outside_conditions(c.residual, at_zero));
  std::vector<size_t> replaced;
  for (const RowDependency& dependency : dependencies) {
    std::vector<size_t> rows = dependency.basis;
    rows.push_back(dependency.row);
    std::sort(rows.begin(), rows.end());
    std::string label;
    int order = 0, nesting = 0;
    for (size_t k : rows) {
      label += (label.empty() ? "" : ",") + system_.constraints[k].label;
      order = std::max(order, system_.constraints[k].order);
      nesting = std::max(nesting, system_.constraints[k].nesting);
    }
    std::vector<GiNaC::ex> weights = dependency_weights(B, dependency);
    std::string contradiction = contradiction_of(dependency, weights, rows);
    size_t row = replaced_row(dependency, weights, dependencies);
    Constraint& target = system_.constraints[row];
    target.residual = combination_of(dependency, weights, residuals);
    check_expression(target.residual, options_.max_expression_size);
    if (on_invariants_ &&
        vanishes_on_invariants(substitute_outside_conditions(target.residual, at_zero)))
      return std::nullopt;
    target.base_label = "comb(" + label + ")";
    if (!contradiction.empty()) contradictions_[target.base_label] = contradiction;
    target.label = target.base_label;
    target.level = 0;
    target.order = order;
    target.nesting = nesting + 1;
    replaced.push_back(row);
  }
  return replaced;
}

// Whether combining the rows of `dependencies` would nest combinations deeper than
// kMaxCombinationNesting.
bool Reducer::nests_too_deep(const std::vector<RowDependency>& dependencies) const {
  for (const RowDependency& dependency : dependencies) {
    int nesting = system_.constraints[dependency.row].nesting;
    for (size_t k : dependency.basis) nesting = std::max(nesting, system_.constraints[k].nesting);
    if (nesting + 1 > kMaxCombinationNesting) return true;
  }
  return false;
}

// The name of the rate of `name` made a state: lam_dot for a model variable, lam_dot_dot for
// lam_dot's, x_d3 for x_dot_dot's (x'''), x_d4 for x_d3's: chains of _dot would be unreadable at
// high index.
std::string Reducer::rate_name(const std::string& name) const {
  std::map<std::string, std::string> derivative_of;
  for (const auto* unknowns : {&system_.states, &system_.algebraic}) {
    for (const Unknown& u : *unknowns) derivative_of[u.name] = u.derivative_of;
  }
  std::string root = name;
  int order = 1;
  for (auto of = derivative_of.find(root); of != derivative_of.end() && !of->second.empty();
       of = derivative_of.find(root)) {
    root = of->second;
    ++order;
  }
  if (order == 1) return name + "_dot";
  return order == 2 ? root + "_dot_dot" : root + "_d" + std::to_string(order);
}

// In place of combining the dependent rows: every algebraic unknown they hold becomes a state
// w with its rate w' = w_dot a new algebraic unknown, as a nonlinear unknown does
// (promote_to_states, reduction/linearity.h). The rows are then free of Z: they are returned to be
// kept as hidden constraints and differentiated, each a model equation's derivative, so that
// nothing nests.
std::vector<size_t> Reducer::promote_shared_unknowns(const ExpressionMatrix& B,
                                                     const std::vector<RowDependency>& dependencies,
                                                     ReductionRound& round) {
  std::vector<bool> shared(system_.algebraic.size(), false);
  std::vector<size_t> rows;
  for (const RowDependency& dependency : dependencies) {
    std::vector<size_t> members = dependency.basis;
    members.push_back(dependency.row);
    for (size_t r : members) {
      for (const MatrixEntry& entry : B.row(r)) shared[entry.column] = true;
      if (std::find(rows.begin(), rows.end(), r) == rows.end()) rows.push_back(r);
    }
  }
  std::sort(rows.begin(), rows.end());
  round.promoted = promote_to_states(
      system_, shared, [this](const Unknown& unknown) { return rate_name(unknown.name); });
  state_columns_ = SymbolColumns(system_.states);
  algebraic_columns_ = SymbolColumns(system_.algebraic);
  at_zero_.clear();
  at_zero_count_ = 0;
  return rows;
}

// Replaces constraint `row` (free of algebraic unknowns) by its time derivative, keeping the
// original as a hidden constraint.
bool Reducer::differentiate(size_t row, ReductionRound& round) {
  Constraint c = system_.constraints[row];  // a copy: differentiating may append rows
  // Free of the algebraic unknowns (its row of B vanishes), it may still hold them with
  // coefficients that cancel (59*4500*z - 265500*z, unexpanded). Affine in them, it equals its
  // value at Z = 0, which the hidden constraint must be: a function of X and t alone.
  c.residual = substitute_outside_conditions(c.residual, algebraic_at_zero());
  // What holds Z now holds it in a relation only: a hidden constraint h(X, t) cannot.
  if (algebraic_columns_.occurs_in(c.residual)) throw AlgebraicInCondition(c.label);
  if (!state_columns_.occurs_in(c.residual)) {
    auto contradiction = contradictions_.find(c.base_label);
    if (is_identically_zero(c.residual) && contradiction != contradictions_.end()) {
      diags_.error(c.location, contradiction->second);
    } else if (is_identically_zero(c.residual)) {
      diags_.error(c.location, "equation '" + c.base_label +
                                   "' is redundant: after eliminating the other equations it "
                                   "reduces to 0 = 0 (the equations are dependent)");
    } else {
      diags_.error(c.location, "equation '" + c.base_label +
                                   "' is inconsistent with the others: it reduces to a condition "
                                   "on time and parameters alone");
    }
    return false;
  }
  invariants_.push_back(c);
  checkpoint(c.location,
             fmt::format("differentiating constraint '{}' in round {}", c.label, round.number));
  warn_nondifferentiable(c);
  GiNaC::ex derivative_of_c = total_derivative(c.residual, round);
  Constraint& target = system_.constraints[row];  // total_derivative may have appended rows
  round.differentiated.push_back(target.label);
  target.level += 1;
  target.order += 1;
  target.label = level_label(target.base_label, target.level);
  target.residual = derivative_of_c;
  return true;
}

// abs and sign have no derivative where their argument is 0 (docs/language.md): a constraint
// that holds them is differentiated as if the argument stayed off 0, which the user should know
// (the reduced system does not hold where it crosses 0). Once per equation, whatever the rounds.
void Reducer::warn_nondifferentiable(const Constraint& c) {
  std::vector<std::string> found;
  for (const std::string& name : differentiated_functions(c.residual))
    if (name == "abs" || name == "sign") found.push_back(name);
  if (found.empty() || !warned_nondifferentiable_.insert(c.location.offset).second) return;
  bool both = found.size() == 2;
  diags_.warning(c.location,
                 fmt::format("differentiating constraint '{}' to reduce the index: {} {} not "
                             "differentiable at 0; {} derivative{} taken where {} argument{} "
                             "nonzero",
                             c.label, both ? "abs and sign" : found.front(), both ? "are" : "is",
                             both ? "their" : "its", both ? "s are" : " is", both ? "their" : "its",
                             both ? "s are" : " is"));
}

GiNaC::ex Reducer::total_derivative(const GiNaC::ex& h, ReductionRound& round) {
  GiNaC::ex result = derivative(h, system_.context.time);
  for (int i : state_columns_.columns_in(h)) {  // in state order: rate_of names dummies
    result += derivative(h, system_.states[i].symbol) * rate_of(i, round);
    // Checked term by term: substituting x' = f (--dummies=never) can grow the sum a lot.
    check_expression(result, options_.max_expression_size);
  }
  return result;
}

// What replaces x_i' in a differentiated constraint (docs/method.md §5, step 3).
GiNaC::ex Reducer::rate_of(size_t state, ReductionRound& round) {
  StateEquation& equation = system_.differential[state];
  const GiNaC::ex& f = equation.rhs;
  bool is_single_unknown = GiNaC::is_a<GiNaC::symbol>(f) && !is_algebraic_free(f);
  if (is_algebraic_free(f) || is_single_unknown || options_.dummies == DummyPolicy::Never) {
    return f;
  }
  const Unknown& x = system_.states[state];
  GiNaC::realsymbol dummy = system_.context.fresh_symbol(x.name + "_dot");
  algebraic_columns_.add(dummy, static_cast<int>(system_.algebraic.size()));
  system_.algebraic.push_back(Unknown{dummy.get_name(), dummy, UnknownOrigin::Dummy, x.name, 0,
                                      false, "", 0, per_second(x.unit)});
  system_.constraints.push_back(
      Constraint{equation.label, equation.label, 0, equation.location, dummy - f});
  equation.rhs = dummy;
  round.dummies.push_back(dummy.get_name());
  return dummy;
}

ReducedSystem Reducer::finish() {
  WorkStageScope stage(WorkStage::Index);
  ReducedSystem result;
  result.context = system_.context;
  result.states = system_.states;
  result.differential = system_.differential;
  result.algebraic = system_.algebraic;
  result.constraints = system_.constraints;
  result.A = final_B_;
  const GiNaC::exmap& at_zero = algebraic_at_zero();
  for (const Constraint& c : system_.constraints)
    result.b.push_back(-substitute_outside_conditions(c.residual, at_zero));
  result.invariants = invariants_;
  result.rounds = rounds_;
  std::vector<GiNaC::ex> expressions;
  for (const StateEquation& f : result.differential) expressions.push_back(f.rhs);
  for (const Constraint& g : result.constraints) expressions.push_back(g.residual);
  for (const Constraint& h : result.invariants) expressions.push_back(h.residual);
  // The when conditions' relations are watched like the others (after them, so that a model
  // without when clauses numbers its conditions as before).
  for (const WhenClause& w : result.context.when_clauses) expressions.push_back(w.condition);
  result.relations = collect_relations(expressions);
  for (const ReductionRound& round : rounds_) result.differentiations += !round.nonsingular;
  if (!result.A.empty()) {
    result.blocks = block_triangular_form(result.A.pattern());
    check_start_values(result);
  }
  DifferentiationIndex index = differentiation_index(
      result.states, result.differential, result.algebraic, result.constraints, result.A,
      result.blocks, values_at_random_point(result.A));
  result.index = index.index;
  result.index_variable = index.variable;
  return result;
}

// A at a random point where every entry is finite; empty if five points fail.
std::vector<NumericRow> Reducer::values_at_random_point(const ExpressionMatrix& A) {
  for (int attempt = 0; attempt < 5; ++attempt) {
    GiNaC::exmap point = points_.next(all_symbols(), attempt);
    std::vector<NumericRow> rows;
    bool finite = true;
    BoundedEvaluator at_point(point);
    for (size_t r = 0; r < A.rows() && finite; ++r) {
      NumericRow row;
      for (const MatrixEntry& entry : A.row(r)) {
        std::optional<double> value = evaluate(entry.value, at_point);
        finite = finite && value.has_value();
        if (value) row.push_back({entry.column, *value});
      }
      rows.push_back(std::move(row));
    }
    if (finite) return rows;
  }
  return {};
}

// A singular A at the start values (t = 0) means the generated code cannot start there: warn,
// naming the first block of the block-triangular form that is singular.
void Reducer::check_start_values(const ReducedSystem& result) {
  GiNaC::exmap point = system_.context.parameter_values();
  point[system_.context.time] = 0;
  for (const Unknown& u : result.states) point[u.symbol] = substitute_symbols(u.start, point);
  // A holds algebraic unknowns only inside relations (a diode's `if vd > 0.7`): evaluated at
  // their start values, as the generated code's first solve sets its modes.
  for (const Unknown& u : result.algebraic) point[u.symbol] = substitute_symbols(u.start, point);
  const BlockTriangularForm& blt = result.blocks;
  // Each column's block and its offset in it.
  std::vector<int> block_of(result.algebraic.size()), offset(result.algebraic.size());
  for (size_t b = 0; b + 1 < blt.block_start.size(); ++b) {
    for (int i = blt.block_start[b]; i < blt.block_start[b + 1]; ++i) {
      block_of[blt.col_order[i]] = static_cast<int>(b);
      offset[blt.col_order[i]] = i - blt.block_start[b];
    }
  }
  for (size_t b = 0; b + 1 < blt.block_start.size(); ++b) {
    std::vector<int> rows(blt.row_order.begin() + blt.block_start[b],
                          blt.row_order.begin() + blt.block_start[b + 1]);
    std::vector<int> cols(blt.col_order.begin() + blt.block_start[b],
                          blt.col_order.begin() + blt.block_start[b + 1]);
    std::vector<NumericRow> block;
    for (int r : rows) {
      NumericRow values;
      for (const MatrixEntry& entry : result.A.row(r)) {
        if (block_of[entry.column] != static_cast<int>(b)) continue;
        // Undefined there (1/(2 sqrt(x)) at x = 0): the code cannot start there either.
        values.push_back({offset[entry.column], evaluate(entry.value, point).value_or(0.0)});
      }
      block.push_back(std::move(values));
    }
    if (numeric_rank(block, cols.size()) == static_cast<int>(cols.size())) continue;
    std::string constraints, unknowns;
    for (int r : rows)
      constraints += (constraints.empty() ? "'" : ", '") + result.constraints[r].label + "'";
    for (int c : cols)
      unknowns += (unknowns.empty() ? "'" : ", '") + result.algebraic[c].name + "'";
    diags_.warning(result.constraints[rows.front()].location,
                   "the reduced system is singular at the start values (t = 0): constraints " +
                       constraints + " do not determine " + unknowns +
                       " there; choose start values that satisfy the constraints");
    return;
  }
}

}  // namespace

std::optional<ReducedSystem> reduce(SemiExplicitSystem system, const ReductionOptions& options,
                                    DiagnosticEngine& diags) {
  return Reducer(std::move(system), options, diags).run();
}

}  // namespace daec
