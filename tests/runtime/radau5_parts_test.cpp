// Direct tests of the parts of the Radau5 integrator (docs/integrators.md, "How the Radau code is
// organised"): the collocation solve (radau5_collocation.hpp), the step control
// (radau5_step_control.hpp), the dense output (radau5_dense_output.hpp) and the event search
// (radau5_events.hpp), each alone.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "daec/integrators/dense_lu.hpp"
#include "daec/integrators/jacobian_matrix.hpp"
#include "daec/integrators/radau5_collocation.hpp"
#include "daec/integrators/radau5_dense_output.hpp"
#include "daec/integrators/radau5_events.hpp"
#include "daec/integrators/radau5_step_control.hpp"

namespace daec::integrators::detail {
namespace {

const Radau5Coefficients& coefficients() {
  return Radau5Coefficients::get();
}

// ----- Step control ------------------------------------------------------------------------------

TEST(Radau5StepControl, ProposedStepFollowsTheErrorToTheQuarterPower) {
  Radau5Options options;  // safety 0.9, 7 Newton iterations, 0.2 <= hnew/h <= 8
  Radau5StepControl control(options);
  control.start(1.0);
  // One iteration: the full safety factor 0.9; err^(1/4) = 0.3.
  EXPECT_NEAR(control.proposed_step(0.0081, 1), 0.9 / 0.3, 1e-14);
  // Seven iterations: safety 0.9 * 15 / 21.
  EXPECT_NEAR(control.proposed_step(0.0081, 7), (0.9 * 15.0 / 21.0) / 0.3, 1e-14);
  // The ratio limits: at most 8 times longer, at least 5 times shorter.
  EXPECT_DOUBLE_EQ(control.proposed_step(1e-12, 1), 8.0);
  EXPECT_DOUBLE_EQ(control.proposed_step(1e6, 1), 0.2);
  EXPECT_DOUBLE_EQ(control.proposed_step(kFailedErrorNorm, 1), 0.2);
}

TEST(Radau5StepControl, GustafssonPredictsFromTheLastAcceptedStep) {
  Radau5Options options;
  Radau5StepControl control(options);
  control.start(1.0);
  NextStep next = control.accept(0.0081, 2.0, 1.0);  // h = 1 accepted with err 0.0081
  EXPECT_TRUE(next.new_factorization);
  EXPECT_TRUE(next.new_jacobian);  // rate 1 > jacobian_reuse_theta
  ASSERT_DOUBLE_EQ(control.h(), 2.0);
  const double classical = std::pow(0.5, 0.25) / 0.9;
  // The remembered error is floored at 0.01.
  const double gustafsson = (1.0 / 2.0) * std::pow(0.25 / 0.01, 0.25) / 0.9;
  ASSERT_GT(gustafsson, classical);  // the predictive controller asks for the shorter step
  EXPECT_NEAR(control.proposed_step(0.5, 1), 2.0 / gustafsson, 1e-14);
  // A rejected error is judged by the classical formula alone.
  EXPECT_NEAR(control.proposed_step(4.0, 1), 2.0 / (std::pow(4.0, 0.25) / 0.9), 1e-14);

  options.predictive_controller = false;
  Radau5StepControl classical_control(options);
  classical_control.start(1.0);
  classical_control.accept(0.0081, 2.0, 1.0);
  EXPECT_NEAR(classical_control.proposed_step(0.5, 1), 2.0 / classical, 1e-14);
}

TEST(Radau5StepControl, SmallChangesKeepTheStepAndItsMatrices) {
  Radau5Options options;
  Radau5StepControl control(options);
  control.start(1.0);
  NextStep next = control.accept(0.5, 1.1, 0.0005);  // J reused, 1 <= 1.1 <= 1.2
  EXPECT_FALSE(next.new_factorization);
  EXPECT_FALSE(next.new_jacobian);
  EXPECT_EQ(control.h(), 1.0);
  next = control.accept(0.5, 1.5, 0.0005);
  EXPECT_TRUE(next.new_factorization);
  EXPECT_FALSE(next.new_jacobian);
  EXPECT_EQ(control.h(), 1.5);
  control.accept(0.5, 10.0, 0.0005);
  EXPECT_EQ(control.h(), 10.0);
  options.max_step = 2.0;  // the control reads the options it was given

  next = control.accept(0.5, 10.0, 0.0005);
  EXPECT_EQ(control.h(), 2.0);
}

TEST(Radau5StepControl, RejectionsShortenTheStep) {
  Radau5Options options;
  Radau5StepControl control(options);
  control.start(1.0);
  control.reject(0.5);  // no step accepted yet: ten times shorter, whatever the proposal
  EXPECT_DOUBLE_EQ(control.h(), 0.1);
  control.accept(0.5, 0.1, 1.0);
  control.reject(0.04);
  EXPECT_DOUBLE_EQ(control.h(), 0.04);
  // After a rejection the next step may not grow.
  control.accept(0.5, 1.0, 1.0);
  EXPECT_DOUBLE_EQ(control.h(), 0.04);
  control.shorten(0.5);
  EXPECT_DOUBLE_EQ(control.h(), 0.02);
}

TEST(Radau5StepControl, StepsEndExactlyAtANearbyLimit) {
  Radau5Options options;
  Radau5StepControl control(options);
  control.start(1.0);
  EXPECT_FALSE(control.fit_to_limits(0.0, 2.0));
  EXPECT_FALSE(control.cut_short());
  EXPECT_EQ(control.step_end(0.5), 1.5);
  // Within 0.01% beyond the step: the step is stretched to the limit.
  EXPECT_TRUE(control.fit_to_limits(0.0, 1.00005));
  EXPECT_TRUE(control.cut_short());
  EXPECT_EQ(control.step_end(0.0), 1.00005);
  EXPECT_EQ(control.h(), 1.00005);
  // A cut-short step's successor is proposed from the step it replaced.
  control.start(1.0);
  control.fit_to_limits(0.0, 0.25);
  EXPECT_EQ(control.h(), 0.25);
  control.accept(0.5, 0.3, 1.0);
  EXPECT_EQ(control.h(), 1.0);
}

TEST(Radau5StepControl, TooSmallWhenTheStepCannotAdvanceTime) {
  Radau5Options options;
  Radau5StepControl control(options);
  control.start(1e-18);
  EXPECT_FALSE(control.too_small(0.0 + 1e-30));
  EXPECT_TRUE(control.too_small(1.0));
  options.min_step = 1e-3;
  control.start(1e-4);
  EXPECT_TRUE(control.too_small(0.0));
  control.fit_to_limits(0.0, 1e-4);  // the remainder up to a limit may be short
  EXPECT_FALSE(control.too_small(0.0));
}

/// A linear solver that leaves its right-hand side as it is: (gamma M - J) = I.
struct IdentitySolver {
  void solve_real(double*) {}
};

TEST(Radau5StepControl, ErrorEstimateIsTheWeightedRmsOfTheEmbeddedDifference) {
  Radau5Options options;
  Radau5StepControl control(options);
  control.resize(2);
  control.start(0.5);
  control.accept(0.5, 0.5, 1.0);  // no longer the first step: no refinement
  const auto& c = coefficients();
  Radau5Stages stages;
  stages.resize(2);
  stages.z1 = {1e-3, 2e-3};
  stages.z2 = {-1e-3, 0.0};
  stages.z3 = {2e-3, 1e-3};
  const std::vector<double> y = {1.0, 2.0}, f0 = {1e-3, -1e-3}, mass = {1.0, 0.0},
                            scale = {1e-3, 1e-2};
  double expected_sum = 0.0;
  for (int i = 0; i < 2; ++i) {
    const double e = mass[i] * (c.dd1 / 0.5 * stages.z1[i] + c.dd2 / 0.5 * stages.z2[i] +
                                c.dd3 / 0.5 * stages.z3[i]) +
                     f0[i];
    expected_sum += (e / scale[i]) * (e / scale[i]);
  }
  int rhs_calls = 0;
  auto rhs = [&](double, const double*, double*) { return ++rhs_calls, true; };
  auto keep = [](std::vector<double>&) { return true; };
  IdentitySolver solver;
  Radau5Statistics stats;
  const double err =
      control.estimate_error(0.0, y, f0, mass, scale, stages, rhs, keep, solver, stats);
  EXPECT_NEAR(err, std::sqrt(expected_sum / 2.0), 1e-12);
  EXPECT_EQ(rhs_calls, 0);
  EXPECT_EQ(stats.linear_solves, 1);

  // A failed projection rejects the step by the largest factor.
  auto fail = [](std::vector<double>&) { return false; };
  EXPECT_EQ(control.estimate_error(0.0, y, f0, mass, scale, stages, rhs, fail, solver, stats),
            kFailedErrorNorm);
  // An exact step is floored.
  auto zero = [](std::vector<double>& e) { return e.assign(e.size(), 0.0), true; };
  EXPECT_EQ(control.estimate_error(0.0, y, f0, mass, scale, stages, rhs, zero, solver, stats),
            kMinErrorNorm);
}

TEST(Radau5StepControl, FirstStepRefinesALargeEstimateWithFAtTheEstimate) {
  Radau5Options options;
  Radau5StepControl control(options);
  control.resize(1);
  control.start(1.0);
  Radau5Stages stages;
  stages.resize(1);  // Z = 0: the estimate is f0 itself
  const std::vector<double> y = {1.0}, f0 = {5.0}, mass = {1.0}, scale = {1.0};
  std::vector<double> probed;
  auto rhs = [&](double, const double* at, double* f) {
    probed.push_back(at[0]);
    f[0] = 0.25;
    return true;
  };
  auto keep = [](std::vector<double>&) { return true; };
  IdentitySolver solver;
  Radau5Statistics stats;
  EXPECT_DOUBLE_EQ(
      control.estimate_error(0.0, y, f0, mass, scale, stages, rhs, keep, solver, stats), 0.25);
  ASSERT_EQ(probed.size(), 1u);
  EXPECT_DOUBLE_EQ(probed[0], 6.0);  // y + the first estimate
  EXPECT_EQ(stats.linear_solves, 2);
  // If f fails there, the first estimate stands.
  auto failing = [](double, const double*, double*) { return false; };
  EXPECT_DOUBLE_EQ(
      control.estimate_error(0.0, y, f0, mass, scale, stages, failing, keep, solver, stats), 5.0);
}

TEST(Radau5StepControl, InitialStepFromTheDifferentialComponents) {
  std::vector<double> work(2), f_work(2);
  const std::vector<double> y = {1.0, 1e9}, f0 = {1.0, 1e9}, mass = {1.0, 0.0}, scale = {1.0, 1.0};
  auto constant = [](double, const double*, double* f) {
    f[0] = 1.0;
    f[1] = 0.0;
    return true;
  };
  const double inf = std::numeric_limits<double>::infinity();
  // d0 = d1 = 1 (the algebraic component is ignored): h0 = 0.01, d2 = 0, h = 0.01^(1/4).
  EXPECT_DOUBLE_EQ(initial_step(0.0, y, f0, mass, scale, inf, inf, constant, work, f_work),
                   std::pow(0.01, 0.25));
  // A probe that fails counts as f not changing.
  auto failing = [](double, const double*, double*) { return false; };
  EXPECT_DOUBLE_EQ(initial_step(0.0, y, f0, mass, scale, inf, inf, failing, work, f_work),
                   std::pow(0.01, 0.25));
  // The probe stays before the stop time; then at most 100 probes.
  EXPECT_DOUBLE_EQ(initial_step(0.0, y, f0, mass, scale, inf, 1e-4, constant, work, f_work), 1e-2);
}

// ----- Collocation solve ------------------------------------------------------------------------

TEST(Radau5Newton, DefaultToleranceFollowsRtol) {
  EXPECT_EQ(newton_tolerance(1e-3, 1e-6), 1e-3);
  EXPECT_DOUBLE_EQ(newton_tolerance(0.0, 1e-6), 1e-3);  // sqrt(rtol)
  EXPECT_EQ(newton_tolerance(0.0, 1e-2), 0.03);
  EXPECT_DOUBLE_EQ(newton_tolerance(0.0, 1e-14), 0.1);  // 10 uround / rtol
}

/// y' = lambda y, with the Jacobian `slope` handed to the linear solver.
struct Linear {
  double lambda;
  bool fails = false;
  bool operator()(double, const double* y, double* f) const {
    f[0] = lambda * y[0];
    return !fails;
  }
};

struct NewtonRun {
  NewtonResult result;
  Radau5Stages stages;
  Radau5Statistics stats;
};

NewtonRun solve_linear(Linear f, double slope, double h, double tolerance) {
  const auto& c = coefficients();
  JacobianMatrix jacobian = JacobianMatrix::dense(1);
  jacobian.values[0] = slope;
  const std::vector<double> mass = {1.0}, scale = {1.0}, y = {1.0};
  DenseLinearSolver solver;
  EXPECT_EQ(solver.analyze(jacobian, mass), "");
  EXPECT_EQ(solver.factor(jacobian, c.u1 / h, c.alpha / h, c.beta / h), 0);
  Radau5Newton newton;
  newton.configure(1, 7, tolerance, 0.001);
  newton.reset();
  NewtonRun run;
  run.stages.resize(1);
  run.result = newton.solve(0.0, y, h, mass, scale, f, solver, run.stats, run.stages);
  return run;
}

TEST(Radau5Newton, LinearProblemWithExactJacobianGivesTheRadauSolution) {
  const double lambda = -3.0, h = 0.5, z = lambda * h;
  NewtonRun run = solve_linear({lambda}, lambda, h, 1e-10);
  ASSERT_EQ(run.result.outcome, NewtonOutcome::converged);
  EXPECT_LE(run.result.iterations, 2);
  // y1 = R(z) y0, the (2, 3) Pade approximant of exp(z) that is Radau IIA's stability function.
  const double r = (1.0 + 2.0 * z / 5.0 + z * z / 20.0) /
                   (1.0 - 3.0 * z / 5.0 + 3.0 * z * z / 20.0 - z * z * z / 60.0);
  EXPECT_NEAR(1.0 + run.stages.z3[0], r, 1e-14);
  // The stage equations Z = h A f(y + Z) hold, with Radau IIA's matrix A.
  const double s6 = std::sqrt(6.0);
  const double a[3][3] = {{(88 - 7 * s6) / 360, (296 - 169 * s6) / 1800, (-2 + 3 * s6) / 225},
                          {(296 + 169 * s6) / 1800, (88 + 7 * s6) / 360, (-2 - 3 * s6) / 225},
                          {(16 - s6) / 36, (16 + s6) / 36, 1.0 / 9}};
  const double zs[3] = {run.stages.z1[0], run.stages.z2[0], run.stages.z3[0]};
  for (int k = 0; k < 3; ++k) {
    double sum = 0.0;
    for (int j = 0; j < 3; ++j) sum += a[k][j] * lambda * (1.0 + zs[j]);
    EXPECT_NEAR(zs[k], h * sum, 1e-14) << "stage " << k;
  }
  EXPECT_EQ(run.stats.newton_iterations, run.result.iterations);
  EXPECT_EQ(run.stats.rhs_evaluations, 0);  // the caller's f counts its own calls
}

TEST(Radau5Newton, WrongJacobianOnAStiffProblemDiverges) {
  NewtonRun run = solve_linear({-1e6}, 0.0, 0.1, 1e-6);
  EXPECT_EQ(run.result.outcome, NewtonOutcome::diverged);
}

TEST(Radau5Newton, SlowContractionAsksForAShorterStep) {
  // J = lambda / 2: contraction rate about 1/2, too slow for a tolerance of 1e-13.
  NewtonRun run = solve_linear({-40.0}, -20.0, 0.5, 1e-13);
  ASSERT_EQ(run.result.outcome, NewtonOutcome::slow);
  EXPECT_GT(run.result.step_factor, 0.0);
  EXPECT_LE(run.result.step_factor, kSlowStepSafety);
}

TEST(Radau5Newton, FailingFunctionEndsTheIteration) {
  NewtonRun run = solve_linear({-1.0, true}, -1.0, 0.1, 1e-6);
  EXPECT_EQ(run.result.outcome, NewtonOutcome::f_failed);
}

// ----- Dense output ------------------------------------------------------------------------------

/// A cubic in t: the collocation polynomial through four of its values is the cubic itself.
double cubic(double t) {
  return 0.5 - 2.0 * t + 1.5 * t * t + 0.75 * t * t * t;
}

TEST(Radau5DenseOutput, ReproducesTheStageValuesAndTheCubicThroughThem) {
  const auto& c = coefficients();
  const double t0 = 0.5, h = 0.25, t1 = t0 + h;
  Radau5Stages stages;
  stages.resize(1);
  stages.z1[0] = cubic(t0 + c.c1 * h) - cubic(t0);
  stages.z2[0] = cubic(t0 + c.c2 * h) - cubic(t0);
  stages.z3[0] = cubic(t1) - cubic(t0);
  Radau5DenseOutput dense;
  dense.resize(1);
  dense.fit(stages, h);
  EXPECT_EQ(dense.step(), h);
  const std::vector<double> y_end = {cubic(t0) + stages.z3[0]};
  double out = 0.0;
  ASSERT_TRUE(dense.evaluate(t1, y_end, t0 + c.c1 * h, &out));
  EXPECT_NEAR(out, cubic(t0) + stages.z1[0], 1e-15);
  ASSERT_TRUE(dense.evaluate(t1, y_end, t0 + c.c2 * h, &out));
  EXPECT_NEAR(out, cubic(t0) + stages.z2[0], 1e-15);
  ASSERT_TRUE(dense.evaluate(t1, y_end, t1, &out));
  EXPECT_EQ(out, y_end[0]);
  ASSERT_TRUE(dense.evaluate(t1, y_end, t0, &out));
  EXPECT_NEAR(out, cubic(t0), 1e-15);
  for (double t = t0; t <= t1; t += h / 7) {
    ASSERT_TRUE(dense.evaluate(t1, y_end, t, &out));
    EXPECT_NEAR(out, cubic(t), 1e-14) << t;
  }
  EXPECT_FALSE(dense.evaluate(t1, y_end, t1 + 1e-9, &out));
  EXPECT_FALSE(dense.evaluate(t1, y_end, t0 - 1e-9, &out));
}

TEST(Radau5DenseOutput, StartsNewtonFromTheExtrapolatedPolynomial) {
  const auto& c = coefficients();
  const double t0 = 0.5, h = 0.25, t1 = t0 + h, h_next = 0.4;
  Radau5Stages stages;
  stages.resize(1);
  stages.z1[0] = cubic(t0 + c.c1 * h) - cubic(t0);
  stages.z2[0] = cubic(t0 + c.c2 * h) - cubic(t0);
  stages.z3[0] = cubic(t1) - cubic(t0);
  Radau5DenseOutput dense;
  dense.resize(1);
  dense.fit(stages, h);
  Radau5Stages next;
  next.resize(1);
  dense.start_stages(h_next, next);
  // Extrapolated beyond the step, the rounding of the fit grows a little.
  EXPECT_NEAR(next.z1[0], cubic(t1 + c.c1 * h_next) - cubic(t1), 1e-13);
  EXPECT_NEAR(next.z2[0], cubic(t1 + c.c2 * h_next) - cubic(t1), 1e-13);
  EXPECT_NEAR(next.z3[0], cubic(t1 + h_next) - cubic(t1), 1e-13);
  // W = T^-1 Z: T W gives Z back.
  EXPECT_NEAR(c.t11 * next.w1[0] + c.t12 * next.w2[0] + c.t13 * next.w3[0], next.z1[0], 1e-14);
  EXPECT_NEAR(c.t21 * next.w1[0] + c.t22 * next.w2[0] + c.t23 * next.w3[0], next.z2[0], 1e-14);
  EXPECT_NEAR(c.t31 * next.w1[0] + next.w2[0], next.z3[0], 1e-14);
}

TEST(Radau5DenseOutput, WithoutAStepItIsTheConstantStateAndNewtonStartsAtZero) {
  Radau5DenseOutput dense;
  dense.resize(1);
  Radau5Stages stages;
  stages.resize(1);
  stages.z1[0] = stages.w1[0] = 1.0;
  dense.fit(stages, 0.5);
  dense.clear();
  EXPECT_EQ(dense.step(), 0.0);
  double out = 0.0;
  EXPECT_TRUE(dense.evaluate(2.0, {3.0}, 2.0, &out));
  EXPECT_EQ(out, 3.0);
  EXPECT_FALSE(dense.evaluate(2.0, {3.0}, 1.9, &out));
  dense.start_stages(0.1, stages);
  EXPECT_EQ(stages.z1[0], 0.0);
  EXPECT_EQ(stages.w1[0], 0.0);
}

// ----- Event search ------------------------------------------------------------------------------

/// Event functions given as functions of t alone, with a count of their evaluations; they fail
/// for t in [fail_from, fail_until).
struct EventFunctions {
  std::vector<double (*)(double)> g;
  double fail_from = std::numeric_limits<double>::infinity();
  double fail_until = std::numeric_limits<double>::infinity();
  int evaluations = 0;
  bool operator()(double t, double* out) {
    ++evaluations;
    if (t >= fail_from && t < fail_until) return false;
    for (size_t i = 0; i < g.size(); ++i) out[i] = g[i](t);
    return true;
  }
};

Radau5EventSearch started_search(EventFunctions& functions, double t0) {
  Radau5EventSearch search;
  search.resize(functions.g.size());
  EXPECT_TRUE(search.start(t0, functions));
  return search;
}

TEST(Radau5EventSearch, DefaultToleranceIsRelativeToTheSmallerTime) {
  EXPECT_EQ(root_tolerance(1e-6, 0.0, 1e9), 1e-6);
  EXPECT_EQ(root_tolerance(0.0, 0.25, 0.5), kRootTolerance);
  EXPECT_EQ(root_tolerance(0.0, 100.0, 200.0), 100.0 * kRootTolerance);
  EXPECT_EQ(root_tolerance(0.0, -300.0, -100.0), 100.0 * kRootTolerance);
}

TEST(Radau5EventSearch, LocatesTheFirstSignChangeWithinTheTolerance) {
  EventFunctions functions{{[](double t) { return t * t - 0.49; },  // rises through 0 at 0.7
                            [](double t) { return 0.3 - t; }}};     // falls through 0 at 0.3
  Radau5EventSearch search = started_search(functions, 0.0);
  ASSERT_EQ(search.scan(1.0, 0.0, functions), EventScan::root_found);
  EXPECT_NEAR(search.root(), 0.3, kRootTolerance);
  EXPECT_GE(search.root(), 0.3);  // the right end of the final bracket: at or past the root
  EXPECT_EQ(search.searched_until(), search.root());
  EXPECT_EQ(search.directions(), (std::vector<int>{0, -1}));
  // The next scan starts after that root and finds the other one.
  ASSERT_EQ(search.scan(1.0, 1e-9, functions), EventScan::root_found);
  EXPECT_NEAR(search.root(), 0.7, 1e-9);
  EXPECT_EQ(search.directions(), (std::vector<int>{1, 0}));
  EXPECT_EQ(search.scan(1.0, 0.0, functions), EventScan::none);
  EXPECT_EQ(search.searched_until(), 1.0);
}

TEST(Radau5EventSearch, NoEventWithoutASignChange) {
  EventFunctions functions{{[](double t) { return 1.0 + t * t; },
                            [](double t) { return (t - 0.5) * (t - 0.5) + 1e-3; }}};
  Radau5EventSearch search = started_search(functions, 0.0);
  EXPECT_EQ(search.scan(1.0, 0.0, functions), EventScan::none);
  EXPECT_EQ(search.searched_until(), 1.0);
  EXPECT_EQ(functions.evaluations, 2);  // the start and the end only: no refinement
  EXPECT_EQ(search.directions(), (std::vector<int>{0, 0}));
  // Behind what was searched there is nothing to do: no evaluation.
  EXPECT_EQ(search.scan(0.5, 0.0, functions), EventScan::none);
  EXPECT_EQ(search.searched_until(), 1.0);
  EXPECT_EQ(functions.evaluations, 2);
}

TEST(Radau5EventSearch, ARootAtTheStartIsNotReportedAgain) {
  EventFunctions functions{{[](double t) { return t - 0.5; }}};
  Radau5EventSearch search = started_search(functions, 0.5);  // as after the event at 0.5
  EXPECT_EQ(search.scan(1.0, 0.0, functions), EventScan::none);
  // A function that turns back through 0 right after the restart offset is still found.
  EventFunctions back{{[](double t) { return (t - 0.5) * (0.5 + 1e-9 - t); }}};
  Radau5EventSearch again = started_search(back, 0.5);
  ASSERT_EQ(again.scan(1.0, 1e-12, back), EventScan::root_found);
  EXPECT_NEAR(again.root(), 0.5 + 1e-9, 2e-12);
  EXPECT_EQ(again.directions(), (std::vector<int>{-1}));
}

TEST(Radau5EventSearch, FailingEventFunctionsFailTheScanAndChangeNothing) {
  EventFunctions at_start{{[](double t) { return t - 0.3; }}, 0.0, 0.1};
  Radau5EventSearch unstarted;
  unstarted.resize(1);
  EXPECT_FALSE(unstarted.start(0.0, at_start));
  EventFunctions at_end{{[](double t) { return t - 0.3; }}, 1.0};
  Radau5EventSearch search = started_search(at_end, 0.0);
  EXPECT_EQ(search.scan(1.0, 0.0, at_end), EventScan::failed);
  EXPECT_EQ(search.searched_until(), 0.0);
  // Fine at both ends, failing inside while the root is refined: a failure, not a root.
  EventFunctions inside{{[](double t) { return t - 0.3; }}, 0.1, 1.0};
  Radau5EventSearch refining = started_search(inside, 0.0);
  EXPECT_EQ(refining.scan(1.0, 0.0, inside), EventScan::failed);
  EXPECT_EQ(refining.searched_until(), 0.0);
  EXPECT_EQ(refining.directions(), (std::vector<int>{0}));
  // Failing where the scan steps off a root at its start.
  EventFunctions off{{[](double t) { return t - 0.5; }}, 0.5 + 1e-13, 0.9};
  Radau5EventSearch stepping = started_search(off, 0.5);
  EXPECT_EQ(stepping.scan(1.0, 0.0, off), EventScan::failed);
  EXPECT_EQ(stepping.searched_until(), 0.5);
}

TEST(Radau5EventSearch, WithoutEventFunctionsNothingIsEvaluated) {
  EventFunctions none{{}};
  Radau5EventSearch search = started_search(none, 0.0);
  EXPECT_EQ(search.scan(2.0, 0.0, none), EventScan::none);
  EXPECT_EQ(search.searched_until(), 2.0);
  EXPECT_EQ(none.evaluations, 0);
}

}  // namespace
}  // namespace daec::integrators::detail
