// End-to-end tests where features meet (docs/language.md, "Initial values" and "When clauses
// and reinit"; docs/simulator.md, "Resets" and "Sensitivities"): each model exercises two
// features together and is checked against its exact answer on every method. Unknowns promoted
// for nonlinearity beside a written start, a reset that switches the branch of a promoted
// unknown, a reset of a state other than the one its condition watches, evenly spaced resets
// that are no accumulation, sensitivities through starts, initial equations, resets and
// dependent parameters, a singular 1 x 1 block, ideal diodes switching at their switching points,
// starts from a stationary point of their conditions, surplus starts that agree.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace daec::test {
namespace {

const char* const kTolerances = " --rtol 1e-10 --atol 1e-10";

Csv run_csv(const Build& build, const std::string& arguments, std::string* err = nullptr) {
  CommandResult run = run_program(build.executable, arguments + kTolerances);
  EXPECT_EQ(0, run.status) << arguments << "\n" << run.err;
  if (err != nullptr) *err = run.err;
  return parse_csv(run.out);
}

// The diode's voltage v enters exp(v/Vt): the reduction makes it a state without a start. The
// capacitor's written u = 5 is the start, not a guess traded against v's default 0 (which gave
// u = 0.192), with or without a start written for v (an algebraic unknown's start is a guess:
// 0.6 gave u = 4.984).
TEST(FeaturesMeet, AWrittenStartOutweighsThePromotedUnknownsDefault) {
  std::string dir = make_scratch_dir("meet_diode");
  Build build = build_simulator("tests/data/meet/diode_discharge.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  const double R = 100, Is = 1e-12, Vt = 0.025;
  for (const char* method : kMethods) {
    for (const char* v_start : {"", " --set v=0.6", " --set v=-3"}) {
      SCOPED_TRACE(std::string(method) + v_start);
      std::string err;
      Csv csv = run_csv(build, std::string("--t-end 1e-4 --step 2e-5 --method ") + method + v_start,
                        &err);
      ASSERT_FALSE(csv.rows.empty());
      EXPECT_EQ(5.0, csv.at(0, "u"));
      EXPECT_EQ(err.find("u: 5 ->"), std::string::npos) << err;
      for (size_t row = 0; row < csv.rows.size(); ++row) {
        const double u = csv.at(row, "u"), i = csv.at(row, "i"), v = csv.at(row, "v");
        EXPECT_NEAR(u, R * i + v, 1e-8 * u);
        EXPECT_NEAR(i, Is * std::expm1(v / Vt), 1e-8 * i);
      }
      EXPECT_LT(csv.last("u"), 5.0);
    }
  }
}

// reinit(y, 1) at t = 1 turns on the branch of the promoted unknown i = 1/(1 + 0.1 T): the
// re-initialization solves for i and keeps T, which nothing reset, at 0 (it jumped to 0.099, and
// T(2) was 0.99725). Exact: (1 + 0.1 T)^3 = 1 + 0.3 (t - 1).
TEST(FeaturesMeet, AResetThatSwitchesAPromotedUnknownsBranchKeepsTheOtherStates) {
  std::string dir = make_scratch_dir("meet_reset_promoted");
  Build build = build_simulator("tests/data/meet/reset_promoted.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  for (const char* method : kMethods) {
    SCOPED_TRACE(method);
    std::string err;
    Csv csv = run_csv(
        build, std::string("--t-end 2 --output-times 0.5,1,1.000001,1.5,2 --method ") + method,
        &err);
    ASSERT_EQ(5u, csv.rows.size());
    EXPECT_EQ(err.find("continuous state"), std::string::npos) << err;
    for (size_t row = 0; row < csv.rows.size(); ++row) {
      const double t = csv.at(row, "t");
      const double T = t <= 1 ? 0.0 : 10 * (std::cbrt(1 + 0.3 * (t - 1)) - 1);
      EXPECT_NEAR(T, csv.at(row, "T"), 1e-7) << "t = " << t;
      if (t > 1) {
        EXPECT_NEAR(1 / (1 + 0.1 * T), csv.at(row, "i"), 1e-7) << "t = " << t;
      }
    }
  }
}

// `when x < 0.5 then reinit(c, c + 1)`: c = 1 from t = 0.5, once (the state after the reset
// carried x from before the instant, so the condition turned false and fired again at once:
// "chattering"). The sawtooth resets every 5 us for a millisecond of a run of 1e4 s, closer
// than the accumulation guard's window (1e-9 of the run) but evenly spaced: 200 resets, no
// error.
TEST(FeaturesMeet, ResetsOfOtherStatesAndEvenlySpacedResetsRunThrough) {
  std::string dir = make_scratch_dir("meet_reset_other");
  Build build = build_simulator("tests/data/meet/reset_other_state.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  for (const char* method : kMethods) {
    SCOPED_TRACE(method);
    Csv csv =
        run_csv(build, std::string("--t-end 1e4 --output-times 0.4,0.6,1e4 --method ") + method);
    ASSERT_EQ(3u, csv.rows.size());
    EXPECT_EQ(0.0, csv.at(0, "c"));
    EXPECT_EQ(1.0, csv.at(1, "c"));
    EXPECT_EQ(1.0, csv.at(2, "c"));
    EXPECT_NEAR(-9999.0, csv.at(2, "x"), 1e-6);
    EXPECT_EQ(200.0, csv.at(2, "n"));
    EXPECT_NEAR(2.5e-6, csv.at(2, "w"), 1e-12);
  }
}

// Sensitivities of every declared variable and output through what the parameters move at the
// start and at a reset, against the exact derivatives (tests/data/meet/sensitivities.dae): the
// start's columns were 0 (d(x)/d(x0), d(z)/d(c)), d(q)/d(p) missed the initial equation q = 3 p,
// d(y)/d(tau) missed the reset through e = 1/tau, and the algebraic unknown lambda and the
// output speed2 had no columns.
TEST(FeaturesMeet, SensitivitiesFollowStartsInitialEquationsResetsAndBindings) {
  std::string dir = make_scratch_dir("meet_sensitivities");
  Build build = build_simulator("tests/data/meet/sensitivities.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  Csv csv = run_csv(build, "--t-end 1 --output-times 0,0.2,0.5,1 --sensitivities x0,c,p,tau,e,a,w");
  ASSERT_EQ(4u, csv.rows.size());
  const double p = 1.5, tau = 2, e = 1 / tau, w = 2;
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    const double t = csv.at(row, "t"), decay = std::exp(-t);
    const double after = t > 0.25 ? std::exp(0.25 - t) : 0.0;  // y's decay since the reset
    SCOPED_TRACE("t = " + std::to_string(t));
    const auto near = [&](const char* column, double exact) {
      EXPECT_NEAR(exact, csv.at(row, column), 1e-6 * std::max(1.0, std::fabs(exact))) << column;
    };
    near("d(x)/d(x0)", decay);
    near("d(z)/d(c)", decay);
    near("d(q)/d(p)", 3 * std::exp(-p * t) * (1 - p * t));
    near("d(x)/d(p)", 0.0);
    near("d(y)/d(tau)", -std::exp(-0.25) * after / (tau * tau));
    near("d(y)/d(e)", std::exp(-0.25) * after);
    near("d(y)/d(a)", after);
    near("d(X)/d(w)", -t * std::sin(w * t));
    near("d(Y)/d(w)", t * std::cos(w * t));
    near("d(lambda)/d(w)", 2 * w);
    near("d(speed2)/d(w)", 2 * w);
    near("d(lambda)/d(x0)", 0.0);
    (void)e;
  }
}

// x z = x cos(t) leaves z to rounding at t = 1, where x = 0: radau5, bdf and ida went through it
// with status 0. The 1 x 1 block's scaled pivot is always 1; its determinant vanishes.
TEST(FeaturesMeet, ASingularOneByOneBlockStopsEveryMethod) {
  std::string dir = make_scratch_dir("meet_singular_block");
  Build build = build_simulator("tests/data/meet/singular_block.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  for (const char* method : kMethods) {
    SCOPED_TRACE(method);
    CommandResult run =
        run_program(build.executable, std::string("--t-end 2 --step 0.5 --method ") + method);
    EXPECT_EQ(1, run.status) << run.err;
    if (std::string(method) == "radau5-dae") continue;  // its Newton iteration fails at t = 1
    const std::string prefix = "sim: error: the reduced system is singular at t = ";
    ASSERT_EQ(0u, run.err.find(prefix)) << run.err;
    EXPECT_NEAR(1.0, std::stod(run.err.substr(prefix.size())), 1e-9) << run.err;
    EXPECT_NE(run.err.find("the equations c do not determine z"), std::string::npos) << run.err;
  }
}

// The bridge rectifier's current from its piecewise solution: blocked (i = 0) until the source
// passes 2 Vknee in magnitude; then Lh i' + R i = A sin(w t) - sg 2 Vknee (sg the sign of the
// current) until i returns to 0, where the other pair conducts at once if the source has passed
// -sg 2 Vknee by then (with this inductance it has), else the bridge blocks again.
class BridgeReference {
 public:
  explicit BridgeReference(double t_end) {
    double t = 0.0;
    while (t < t_end) {
      int sign = 0;
      t = next_above_threshold(t, t_end, &sign);
      while (sign != 0 && t < t_end) {
        const double off = current_zero(t, sign, t_end);
        pieces_.push_back({t, off, sign});
        t = off;
        const double source = A * std::sin(w * t);
        sign = -sign * source > 2 * Vknee ? -sign : 0;
      }
    }
  }
  double current(double t) const {
    for (const Piece& piece : pieces_)
      if (t >= piece.on && t <= piece.off) return conducting(t, piece.on, piece.sign);
    return 0.0;
  }
  size_t switches() const { return pieces_.size(); }

 private:
  static constexpr double A = 10, w = 314.1592653589793, Lh = 0.01, R = 10, Vknee = 0.7;
  struct Piece {
    double on, off;
    int sign;
  };
  static double forced(double t, int sign) {
    const double Z = std::hypot(R, w * Lh), phi = std::atan2(w * Lh, R);
    return A / Z * std::sin(w * t - phi) - sign * 2 * Vknee / R;
  }
  static double conducting(double t, double on, int sign) {
    return forced(t, sign) - forced(on, sign) * std::exp(-(R / Lh) * (t - on));
  }
  // The first time after t where |A sin(w t)| > 2 Vknee, its sign in *sign (0: none before end).
  static double next_above_threshold(double t, double end, int* sign) {
    *sign = 0;
    for (; t < end; t += kScan) {
      const double source = A * std::sin(w * (t + kScan));
      if (std::fabs(source) > 2 * Vknee) {
        *sign = source > 0 ? 1 : -1;
        return bisect(t, t + kScan,
                      [&](double s) { return std::fabs(A * std::sin(w * s)) > 2 * Vknee; });
      }
    }
    return end;
  }
  static double current_zero(double on, int sign, double end) {
    for (double t = on + kScan; t < end + kScan; t += kScan)
      if (sign * conducting(t, on, sign) <= 0)
        return bisect(t - kScan, t, [&](double s) { return sign * conducting(s, on, sign) <= 0; });
    return end + 1;
  }
  // The point in [lo, hi] where `past` turns true (false at lo, true at hi), to rounding.
  static double bisect(double lo, double hi, const std::function<bool(double)>& past) {
    for (int k = 0; k < 80; ++k) {
      const double middle = 0.5 * (lo + hi);
      (past(middle) ? hi : lo) = middle;
    }
    return hi;
  }
  static constexpr double kScan = 1e-6;
  std::vector<Piece> pieces_;
};

// Ideal diodes in the curve-parameter form stopped every method at the first switch: at the
// located instant s is 0 in both branches, rounding flipped its sign from round to round of the
// modes' settling, and "the modes of the conditions do not settle". Now every method goes
// through a hundred switches, pairs of diodes swapping at one instant, on the exact solution.
TEST(FeaturesMeet, IdealDiodesOfABridgeSwitchAtTheirSwitchingPoints) {
  std::string dir = make_scratch_dir("meet_bridge");
  Build build = build_simulator("tests/data/meet/bridge_rectifier.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  const BridgeReference reference(0.5);
  EXPECT_GT(reference.switches(), 40u);
  for (const char* method : kMethods) {
    SCOPED_TRACE(method);
    Csv csv = run_csv(build, std::string("--t-end 0.5 --step 0.001 --method ") + method);
    ASSERT_EQ(501u, csv.rows.size());
    for (size_t row = 0; row < csv.rows.size(); ++row) {
      const double t = csv.at(row, "t");
      EXPECT_NEAR(reference.current(t), csv.at(row, "i"), 1e-5) << "t = " << t;
    }
  }
}

// From the guesses u = v = 0 the condition u^2 + v^2 = 4 has a Jacobian of 0: "contradict each
// other", though a start exists; --set u=0.1 found it. The search now leaves the stationary
// point: the speed is 2 along the circle.
TEST(FeaturesMeet, AStartFromAStationaryPointOfItsConditionsIsFound) {
  std::string dir = make_scratch_dir("meet_rest_start");
  Build build = build_simulator("tests/data/meet/rest_start.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  for (const char* method : kMethods) {
    SCOPED_TRACE(method);
    Csv csv = run_csv(build, std::string("--t-end 0.1 --step 0.1 --method ") + method);
    ASSERT_EQ(2u, csv.rows.size());
    const double x = csv.at(0, "x"), y = csv.at(0, "y"), u = csv.at(0, "u"), v = csv.at(0, "v");
    EXPECT_EQ(0.6, x);
    EXPECT_NEAR(-0.8, y, 1e-12);
    EXPECT_NEAR(4.0, u * u + v * v, 1e-10);
    EXPECT_NEAR(0.0, x * u + y * v, 1e-10);
  }
  // A lambda fixed at the start: from rest the constraints' own level, u^2 + v^2 = lambda + g y,
  // has the same stationary point.
  Build lambda = build_simulator("tests/data/meet/rest_lambda.dae", dir);
  ASSERT_TRUE(lambda.ok) << lambda.log;
  Csv fixed = run_csv(lambda, "--t-end 0.1 --step 0.1 --fix lambda=12 --quiet");
  ASSERT_EQ(2u, fixed.rows.size());
  EXPECT_NEAR(12.0, fixed.at(0, "lambda"), 1e-9);
  const double u = fixed.at(0, "u"), v = fixed.at(0, "v");
  EXPECT_NEAR(12.0 - 9.81 * 0.8, u * u + v * v, 1e-9);
}

// x and y both fixed on the circle: three conditions on two coordinates, which agree at (1, 0).
// daec refused the model ("over-determined"); now it warns, and the run warns naming the surplus
// condition and goes on. At (1, 0.1) they contradict each other: an error, as before.
TEST(FeaturesMeet, SurplusStartsThatAgreeRunWithAWarning) {
  std::string dir = make_scratch_dir("meet_surplus_start");
  Build build = build_simulator("tests/data/meet/surplus_start.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  std::string err;
  Csv csv = run_csv(build, "--t-end 1 --step 0.5", &err);
  ASSERT_EQ(3u, csv.rows.size());
  EXPECT_NE(err.find("sim: warning: the start at t = 0 meets 1 more condition than the model's "
                     "freedom allows, and they agree: rod follows from the others with the fixed "
                     "starts x, y held\n"),
            std::string::npos)
      << err;
  EXPECT_NEAR(std::cos(1.0), csv.last("x"), 1e-8);
  EXPECT_NEAR(std::sin(1.0), csv.last("y"), 1e-8);
  CommandResult contradicted = run_program(build.executable, "--t-end 1 --set y=0.1");
  EXPECT_EQ(1, contradicted.status);
  EXPECT_NE(contradicted.err.find("sim: error: consistent initialization failed at t = 0: the "
                                  "fixed starts and initial equations contradict each other"),
            std::string::npos)
      << contradicted.err;
  EXPECT_NE(contradicted.err.find("sim: note: the start is over-determined: 2 constraints, the "
                                  "fixed starts and the initial equations make 5 conditions on 4 "
                                  "states, which hold together only where they agree"),
            std::string::npos)
      << contradicted.err;
}

}  // namespace
}  // namespace daec::test
