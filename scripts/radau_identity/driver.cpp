// The Radau5 integrator run directly (without the simulator) on the test problems of
// tests/runtime/radau5_problems.h, with every option that changes its path: the trajectory in hexadecimal
// floating point and every counter of Radau5Statistics (rejections and Newton iterations too, which
// the simulator's statistics line does not show). scripts/radau_identity.sh compares its output
// before and after a change of the integrator's code, which must not change a bit.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "daec/integrators/klu_lu.hpp"
#include "daec/integrators/radau5.hpp"
#include "radau5_problems.h"

namespace {

using namespace daec::integrators;

/// y' = -y with an event function g = y - 0.5 (one root at t = ln 2) and a second g = t - 1.5.
struct DecayWithEvents {
  int size() const { return 1; }
  int rhs(double, const double* y, double* f) {
    f[0] = -y[0];
    return 0;
  }
  int num_roots() const { return 2; }
  int roots(double t, const double* y, double* g) {
    g[0] = y[0] - 0.5;
    g[1] = t - 1.5;
    return 0;
  }
};

/// Van der Pol whose f fails (returns 1) where |y1| > 50: a long first step trips it.
struct VanDerPolFailing {
  problems::VanDerPol vdp;
  int size() const { return 2; }
  int rhs(double t, const double* y, double* f) {
    if (std::fabs(y[1]) > 50.0) return 1;
    return vdp.rhs(t, y, f);
  }
  int jacobian(double t, const double* y, double* J) { return vdp.jacobian(t, y, J); }
};

void print_statistics(const char* name, const Radau5Statistics& s) {
  std::printf(
      "%s stats steps %ld accepted %ld rejected %ld rhs %ld jac %ld lu %ld solves %ld "
      "newton %ld failures %ld projections %ld roots %ld\n",
      name, s.steps, s.accepted_steps, s.rejected_steps, s.rhs_evaluations, s.jacobian_evaluations,
      s.factorizations, s.linear_solves, s.newton_iterations, s.convergence_failures, s.projections,
      s.root_evaluations);
}

void print_state(const char* name, double t, const std::vector<double>& y) {
  std::printf("%s t %a y", name, t);
  for (double v : y) std::printf(" %a", v);
  std::printf("\n");
}

/// integrate_to at `outputs` equally spaced times in [t0, t1], printing each.
template <class Problem, class Solver = DenseLinearSolver>
void run(const std::string& name, Problem problem, std::vector<double> y, double t0, double t1,
         int outputs, Radau5Options options) {
  Radau5<Problem, Solver> radau(problem, options);
  radau.set_stop_time(t1);
  Radau5Result result = radau.initialize(t0, y.data());
  for (int k = 1; k <= outputs && result.ok(); ++k) {
    const double t = t0 + (t1 - t0) * k / outputs;
    result = radau.integrate_to(t, y.data());
    while (result.status == Radau5Status::root_found) {
      std::printf("%s root at %a:", name.c_str(), result.t);
      for (int d : radau.root_directions()) std::printf(" %d", d);
      std::printf("\n");
      result = radau.integrate_to(t, y.data());
    }
    print_state(name.c_str(), result.t, y);
  }
  if (!result.ok()) std::printf("%s failed: %s\n", name.c_str(), radau.message().c_str());
  print_statistics(name.c_str(), radau.statistics());
}

/// step() to the end, printing every step and the dense output at each step's midpoint.
template <class Problem>
void run_steps(const std::string& name, Problem problem, std::vector<double> y, double t0,
               double t1, Radau5Options options) {
  Radau5<Problem> radau(problem, options);
  radau.set_stop_time(t1);
  Radau5Result result = radau.initialize(t0, y.data());
  std::vector<double> middle(y.size());
  while (result.ok() && result.status != Radau5Status::stop_time_reached) {
    result = radau.step();
    print_state(name.c_str(), radau.t(), radau.y());
    radau.interpolate(0.5 * (radau.t_old() + radau.t_internal()), middle.data());
    print_state((name + " middle").c_str(), radau.next_step_size(), middle);
  }
  if (!result.ok()) std::printf("%s failed: %s\n", name.c_str(), radau.message().c_str());
  print_statistics(name.c_str(), radau.statistics());
}

}  // namespace

int main() {
  using namespace daec::integrators::problems;
  for (double rtol : {1e-4, 1e-6, 1e-8, 1e-10}) {
    char text[32];
    std::snprintf(text, sizeof text, " rtol %g", rtol);
    const std::string tag = text;
    Radau5Options options;
    options.rtol = options.atol = rtol;
    run("vdp" + tag, VanDerPol{}, {2.0, -0.66}, 0.0, 2.0, 20, options);
    run("vdp-fd" + tag, VanDerPolNoJacobian{}, {2.0, -0.66}, 0.0, 2.0, 5, options);
    run("pr" + tag, ProtheroRobinson{}, {0.0}, 0.0, 10.0, 10, options);
    run("q1" + tag, RheinboldtQ1{}, RheinboldtQ1::exact(1.0), 1.0, 10.0, 9, options);
    run("pendulum" + tag, PendulumIndex1{}, {1.0, 0.0, 0.0, 0.0, 0.0}, 0.0, 3.0, 6, options);
    run<Heat, KluLinearSolver>("heat-klu" + tag, Heat(60), Heat(60).exact(0.0), 0.0, 0.1, 4,
                               options);
    run("events" + tag, DecayWithEvents{}, {1.0}, 0.0, 2.0, 4, options);
    run_steps("vdp-steps" + tag, VanDerPol{}, {2.0, -0.66}, 0.0, 0.5, options);
    Radau5Options variant = options;
    variant.stop_at_output_times = false;
    run("vdp-interpolated" + tag, VanDerPol{}, {2.0, -0.66}, 0.0, 2.0, 20, variant);
    variant = options;
    variant.initial_step = 0.3;
    run("vdp-long-start" + tag, VanDerPolFailing{}, {2.0, -0.66}, 0.0, 2.0, 4, variant);
    variant = options;
    variant.calibrate_tolerances = true;
    run("vdp-calibrated" + tag, VanDerPol{}, {2.0, -0.66}, 0.0, 2.0, 4, variant);
    variant = options;
    variant.predictive_controller = false;
    variant.extrapolate_start = false;
    run("vdp-classical" + tag, VanDerPol{}, {2.0, -0.66}, 0.0, 2.0, 4, variant);
  }
  Radau5Options fixed;
  fixed.fixed_step = 0.01;
  run("riccati-fixed", Riccati{}, {0.0}, 0.0, 1.0, 4, fixed);
  Radau5Options failing;
  failing.max_steps = 50;
  run("vdp-max-steps", VanDerPol{}, {2.0, -0.66}, 0.0, 2.0, 2, failing);
  return 0;
}
