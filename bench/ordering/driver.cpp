// driver.cpp — the ordering benchmark's program for one generated model (model.h, namespace
// bench_model): the simulator of the compiled runtime, and with --costs as its first argument the
// cost of one call of each generated function the integrators call most, at the consistent start:
//   rhs                       X' (and Z) from X: the ODE methods' right-hand side
//   residual_jacobian_values  dr/d(X,Z) + alpha dr/dX': the DAE methods' iteration matrix
//   rhs_jacobian_values       dX'/dX, where it is sparse ("-" where it is dense)
//   project                   onto the invariants, from the start with 1e-8 added to each state
// printed as "costs rhs_ns=... residual_jacobian_ns=... rhs_jacobian_ns=... project_ns=...".
#include <cstdio>
#include <cstring>
#include <ctime>
#include <malloc.h>
#include <string>
#include <vector>

#include "model.h"

#include <daec/runtime/model_adapter.hpp>
#include <daec/runtime/run.hpp>

namespace {

using Model = bench_model::Model;
// Each function is timed in kWindows windows of at least kSecondsPerWindow of CPU time each (and
// at least 3 calls), and the fastest window counts: the CPU time of this thread, not wall time,
// and the least of several, because this machine's timings vary by a fifth from run to run.
constexpr double kSecondsPerWindow = 0.1;
constexpr int kWindows = 3;

double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// Calls in batches that double, so that reading the clock (a system call for a thread's CPU
// time, about a microsecond here) is no part of what is measured.
template <typename Call>
double nanoseconds_per_call(Call call) {
  double fastest = 0;
  for (int window = 0; window < kWindows; ++window) {
    long calls = 0, batch = 1;
    double elapsed = 0;
    do {
      const double start = cpu_seconds();
      for (long i = 0; i < batch; ++i) call();
      elapsed += cpu_seconds() - start;
      calls += batch;
      batch *= 2;
    } while (elapsed < kSecondsPerWindow || calls < 3);
    const double per_call = 1e9 * elapsed / static_cast<double>(calls);
    if (window == 0 || per_call < fastest) fastest = per_call;
  }
  return fastest;
}

std::vector<double> sized(int n) {
  return std::vector<double>(n > 0 ? n : 1);
}

// The cost of rhs_jacobian_values, or "-" where the model has none (d(xdot)/dx is dense): a
// template, so that the branch not taken is not compiled.
template <typename M>
std::string sparse_rhs_jacobian_cost(const M& model, double t, const std::vector<double>& x) {
  if constexpr (M::has_sparse_rhs_jacobian) {
    std::vector<double> values = sized(M::rhs_jacobian_nnz);
    const double ns =
        nanoseconds_per_call([&] { model.rhs_jacobian_values(t, x.data(), values.data()); });
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", ns);
    return text;
  } else {
    (void)model, (void)t, (void)x;
    return "-";
  }
}

int costs() {
  Model model;
  const double t = 0;
  std::vector<double> x = sized(Model::num_states), xdot = sized(Model::num_states),
                      z = sized(Model::num_algebraic);
  model.initial_state(x.data());
  if (model.consistent_initialization(t, x.data()) != 0 ||
      model.rhs(t, x.data(), xdot.data(), z.data()) != 0) {
    std::fprintf(stderr, "driver: no consistent start\n");
    return 1;
  }
  std::vector<double> residual_values = sized(Model::residual_jacobian_nnz);
  const double rhs = nanoseconds_per_call([&] { model.rhs(t, x.data(), xdot.data(), z.data()); });
  const double residual_jacobian = nanoseconds_per_call([&] {
    model.residual_jacobian_values(t, x.data(), xdot.data(), z.data(), 1e3, residual_values.data());
  });
  const std::string rhs_jacobian = sparse_rhs_jacobian_cost(model, t, x);
  std::vector<double> moved = x, work = x;
  for (double& value : moved) value += 1e-8;  // the size of a step's drift off the invariants
  const double project = nanoseconds_per_call([&] {
    work = moved;
    model.project(t, work.data());
  });
  std::printf("costs rhs_ns=%.0f residual_jacobian_ns=%.0f rhs_jacobian_ns=%s project_ns=%.0f\n",
              rhs, residual_jacobian, rhs_jacobian.c_str(), project);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--costs") == 0) {
    // Calls in a row of a large model's functions, with nothing else alive, let glibc hand the
    // heap's top back to the kernel after each call and fault it in again at the next: the
    // projection of the 1,000-link chain measured 10 times its cost inside a simulation, where
    // the simulator's own memory keeps the heap's top in use. Keep freed memory, as a run does.
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    return costs();
  }
  return daec::runtime::run(argc, argv, daec::runtime::ModelAdapter<Model>{});
}
