// Radau5 with dense LU against KLU on the method-of-lines heat equation (tests/runtime/radau5_problems.h)
// at several sizes n: the whole integration to t = 0.1 at rtol = atol = 1e-8, timed by Google
// Benchmark. The counters give the steps and LU factorizations (the same for both solvers) and
// the figure of merit against the exact solution. Built and run by bench/integrators/run.sh.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "daec/integrators/klu_lu.hpp"
#include "daec/integrators/radau5.hpp"
#include "radau5_problems.h"

namespace {

using daec::integrators::problems::Heat;

template <class LinearSolver>
void heat_equation(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Heat problem(n);
  daec::integrators::Radau5Options options;
  options.rtol = options.atol = 1e-8;
  const std::vector<double> exact = problem.exact(0.1);
  double worst = 0.0;
  daec::integrators::Radau5Statistics statistics;
  for (auto _ : state) {
    daec::integrators::Radau5<Heat, LinearSolver> radau(problem, options);
    std::vector<double> y = problem.exact(0.0);
    radau.set_stop_time(0.1);
    radau.initialize(0.0, y.data());
    if (!radau.integrate_to(0.1, y.data()).ok()) state.SkipWithError(radau.message().c_str());
    statistics = radau.statistics();
    worst = 0.0;
    for (int i = 0; i < n; ++i) {
      const double error = std::fabs(y[static_cast<size_t>(i)] - exact[static_cast<size_t>(i)]);
      worst = std::max(worst, error / (1e-8 * std::fabs(exact[static_cast<size_t>(i)]) + 1e-8));
    }
  }
  state.counters["steps"] = static_cast<double>(statistics.steps);
  state.counters["LU"] = static_cast<double>(statistics.factorizations);
  state.counters["fom"] = worst;
}

BENCHMARK_TEMPLATE(heat_equation, daec::integrators::DenseLinearSolver)
    ->RangeMultiplier(2)
    ->Range(50, 800)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(heat_equation, daec::integrators::KluLinearSolver)
    ->RangeMultiplier(2)
    ->Range(50, 51200)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
