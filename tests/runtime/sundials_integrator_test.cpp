// daec/simulator/sundials_integrator.hpp and its two methods (bdf on CVODE, ida on IDA) driven
// directly on the hand-written circle model: a failed setter is named with SUNDIALS' own message,
// a failed step carries SUNDIALS' message, and return flags are named as the library names them.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <cvode/cvode.h>
#include <ida/ida.h>
#include <daec/runtime/model_adapter.hpp>
#include <daec/simulator/cvode_bdf.hpp>
#include <daec/simulator/ida.hpp>

#include "circle_model.h"

namespace {

namespace sim = daec::simulator;

const daec::runtime::ModelAdapter<circle::Model> kCircle;
const std::vector<double> kStart = {1.5, 0.0};  // on the circle r = 1.5

/// The Failure that `construct_and_run` throws (an empty one, and a test failure, if none).
template <typename Run>
sim::Failure failure_of(Run construct_and_run) {
  try {
    construct_and_run();
  } catch (const sim::Failure& failure) {
    return failure;
  }
  ADD_FAILURE() << "no failure";
  return {};
}

TEST(SundialsIntegrator, FailedSetterIsNamedWithSundialsMessage) {
  sim::Options options;
  options.rtol = -1.0;  // the option parser refuses it; here it reaches CVODE
  sim::Failure cvode =
      failure_of([&] { sim::CvodeBdf(kCircle, options, kStart, sim::LinearSolver::dense); });
  EXPECT_EQ(cvode.status, 1);
  EXPECT_EQ(cvode.message,
            "cannot set up CVODE: CVodeSStolerances failed: invalid input to CVODE (CV_ILL_INPUT)");
  ASSERT_EQ(cvode.notes.size(), 1u);
  EXPECT_EQ(cvode.notes[0], "CVODE CVodeSStolerances: reltol < 0 illegal.");

  options.rtol = 1e-6;
  options.atol = -1.0;
  sim::Failure ida =
      failure_of([&] { sim::Ida(kCircle, options, kStart, sim::LinearSolver::klu); });
  EXPECT_EQ(ida.message,
            "cannot set up IDA: IDASStolerances failed: invalid input to IDA (IDA_ILL_INPUT)");
  ASSERT_EQ(ida.notes.size(), 1u);
  EXPECT_EQ(ida.notes[0], "IDA IDASStolerances: Some atol component < 0.0 illegal.");
}

TEST(SundialsIntegrator, FailedStepCarriesSundialsMessage) {
  circle::Model broken;
  broken.p[0] = std::nan("");  // w: the right-hand side fails from the start
  const daec::runtime::ModelAdapter<circle::Model> model(broken);
  sim::Options options;
  sim::CvodeBdf cvode(model, options, kStart, sim::LinearSolver::dense);
  std::vector<double> x = kStart;
  sim::Failure failure = failure_of([&] { cvode.step(options.t_end, x); });
  EXPECT_EQ(failure.message,
            "integration failed at t = 0: the right-hand side failed at the start "
            "(CV_FIRST_RHSFUNC_ERR)");
  ASSERT_EQ(failure.notes.size(), 2u);
  EXPECT_EQ(failure.notes[0],
            "at t = 0, rhs: the derivative of the state 'x' is not finite (sqrt or log of a "
            "negative number, log of 0, a division by 0 or an overflow in its equation?)");
  EXPECT_EQ(failure.notes[1], "CVODE CVode: The right-hand side routine failed at the first call.");
}

TEST(SundialsIntegrator, RestartStartsAgainAndKeepsTheCounts) {
  sim::Options options;
  options.t_end = 1.0;
  for (sim::LinearSolver solver : {sim::LinearSolver::dense, sim::LinearSolver::klu}) {
    sim::Ida ida(kCircle, options, kStart, solver);
    std::vector<double> x = kStart;
    double t = ida.step(options.t_end, x);
    const long steps = ida.statistics().steps;
    EXPECT_EQ(steps, 1);
    ida.restart(t, x);
    while (t < options.t_end) t = ida.step(options.t_end, x);
    EXPECT_GT(ida.statistics().steps, steps + 1);
    std::vector<double> middle(2);
    ida.interpolate(t, middle);
    EXPECT_NEAR(middle[0], 1.5 * std::cos(2.0), 1e-4);
    EXPECT_NEAR(middle[1], 1.5 * std::sin(2.0), 1e-4);
  }
}

TEST(SundialsIntegrator, FlagsAreNamedByTheLibrary) {
  EXPECT_EQ(sim::flag_name(CVodeGetReturnFlagName, CV_TOO_MUCH_WORK), "CV_TOO_MUCH_WORK");
  EXPECT_EQ(sim::flag_name(IDAGetReturnFlagName, IDA_CONV_FAIL), "IDA_CONV_FAIL");
  EXPECT_EQ(sim::flag_name(CVodeGetReturnFlagName, -12345), "");
  EXPECT_EQ(sim::cvode_flag_meaning(CV_TOO_MUCH_WORK), "too many steps (CV_TOO_MUCH_WORK)");
  EXPECT_EQ(sim::cvode_flag_meaning(CV_REPTD_PROJFUNC_ERR),
            "the projection onto the invariants failed repeatedly (CV_REPTD_PROJFUNC_ERR)");
  EXPECT_EQ(sim::ida_flag_meaning(IDA_REP_RES_ERR),
            "the residual failed repeatedly (IDA_REP_RES_ERR)");
  EXPECT_EQ(sim::ida_flag_meaning(IDA_NO_RECOVERY),
            "the residual or linear solver failed, no recovery (IDA_NO_RECOVERY)");
  // A flag without words keeps the library's name; one the library does not know, its number.
  EXPECT_EQ(sim::cvode_flag_meaning(CV_NLS_INIT_FAIL), "CV_NLS_INIT_FAIL");
  EXPECT_EQ(sim::cvode_flag_meaning(-12345), "CVODE flag -12345");
  EXPECT_EQ(sim::ida_flag_meaning(-12345), "IDA flag -12345");
}

// CVODE is handed a hundredth of the tolerances asked for (IDA a thousandth), never a relative
// tolerance below 1e-12, and atol by the same fraction as rtol.
TEST(SundialsIntegrator, HeldToAHundredthOfTheTolerancesDownToTheFloor) {
  const auto expect_held = [](double rtol, double atol, double held_rtol, double held_atol) {
    const sim::HeldTolerances held = sim::held_tolerances(rtol, atol);
    EXPECT_DOUBLE_EQ(held.rtol, held_rtol) << rtol;
    EXPECT_DOUBLE_EQ(held.atol, held_atol) << rtol;
  };
  expect_held(1e-4, 1e-6, 1e-6, 1e-8);
  expect_held(1e-8, 1e-8, 1e-10, 1e-10);
  expect_held(1e-10, 1e-12, 1e-12, 1e-14);
  expect_held(1e-11, 1e-11, 1e-12, 1e-12);
  expect_held(1e-13, 1e-13, 1e-13, 1e-13);
  // IDA: a thousandth, down to the same floor.
  const sim::HeldTolerances ida = sim::held_tolerances(1e-6, 1e-8, sim::kIdaToleranceFraction);
  EXPECT_DOUBLE_EQ(ida.rtol, 1e-9);
  EXPECT_DOUBLE_EQ(ida.atol, 1e-11);
  const sim::HeldTolerances ida_floor =
      sim::held_tolerances(1e-10, 1e-10, sim::kIdaToleranceFraction);
  EXPECT_DOUBLE_EQ(ida_floor.rtol, 1e-12);
  EXPECT_DOUBLE_EQ(ida_floor.atol, 1e-12);
}

}  // namespace
