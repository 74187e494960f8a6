// bench_main.cpp — times the code daec generates against the hand-written dense-LU reference
// (handwritten.h) on the coupled pendulums and the N-link pendulum chains.
//
// Benchmarks: BM_Generated{Rhs,RhsJacobian,Invariants}/<model> and
// BM_HandWritten{Rhs,RhsJacobian,Invariants}/<model>, <model> = coupled_pendulums, chain<N>.
// Before timing anything, a check compares the two implementations at the benchmark state of
// every model (xdot, z, the Jacobian and the invariants) and verifies that the state is
// consistent (all invariants vanish); any disagreement stops the program with status 1.
// Extra flag: --check-only runs the check and exits.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "coupled_pendulums.h"
#include "chains.inc"
#include "handwritten.h"

namespace {

constexpr double kT = 0.0;

// ---------------------------------------------------------------------------------------------
// Benchmark states: consistent (every invariant holds to rounding) and generic (no symmetry,
// no zero entries by construction).

// The coupled pendulums with l2 = 1.25 and m2 = 1.5 instead of the model's 1 and 1: with equal
// rods and l3 = 2a the linkage is a parallelogram whose bar carries no force (lambda3 = 0) in
// every motion, a degenerate case. Here it is a general four-bar linkage. The left rod is at
// angle theta from the vertical, turning at omega; the right mass closes the loop below.
struct CoupledState {
  double l2 = 1.25, m2 = 1.5;
  std::vector<double> x;
  CoupledState() {
    const double a = 1, l1 = 1, l3 = 2, theta = 0.35, omega = 0.8;
    const double x1 = -a + l1 * std::sin(theta), y1 = -l1 * std::cos(theta);
    // (x2, y2): on the circle of radius l2 about (a, 0) and of radius l3 about (x1, y1), below.
    const double ex = a - x1, ey = -y1, d = std::hypot(ex, ey);
    const double along = (l3 * l3 - l2 * l2 + d * d) / (2 * d), across = std::sqrt(l3 * l3 - along * along);
    const double bx = x1 + along * ex / d, by = y1 + along * ey / d;
    double x2 = bx - across * ey / d, y2 = by + across * ex / d;
    if (y2 > 0) {
      x2 = bx + across * ey / d;
      y2 = by - across * ex / d;
    }
    const double u1 = l1 * omega * std::cos(theta), v1 = l1 * omega * std::sin(theta);
    // (u2, v2): (x2 - a) u2 + y2 v2 = 0 and dx u2 + dy v2 = dx u1 + dy v1
    const double dx = x1 - x2, dy = y1 - y2, c = dx * u1 + dy * v1;
    const double det = (x2 - a) * dy - y2 * dx;
    const double u2 = (0 * dy - y2 * c) / det, v2 = ((x2 - a) * c - dx * 0) / det;
    x = {x1, y1, x2, y2, u1, v1, u2, v2};
  }
};

// The chain: link k at angle theta_k from the vertical, turning at omega_k (pivot at rest).
std::vector<double> chain_state(int n) {
  std::vector<double> x(4 * n);
  double px = 0, py = 0, pu = 0, pv = 0;
  for (int k = 0; k < n; ++k) {
    const double theta = 0.2 + 0.6 * std::sin(1.3 * k + 0.5), omega = 0.9 * std::cos(0.7 * k + 0.3);
    px += std::sin(theta);
    py -= std::cos(theta);
    pu += omega * std::cos(theta);
    pv += omega * std::sin(theta);
    x[k] = px;  // the arrays x, y, u, v of the model one after the other
    x[n + k] = py;
    x[2 * n + k] = pu;
    x[3 * n + k] = pv;
  }
  return x;
}

// ---------------------------------------------------------------------------------------------
// The check.

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double e : v) m = std::max(m, std::fabs(e));
  return m;
}
double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

bool g_check_failed = false;

// Relative difference max|a - b| / max(1, max|a|) against tol.
void compare(const char* model, const char* what, const std::vector<double>& gen,
             const std::vector<double>& hand, double tol) {
  const double d = max_diff(gen, hand), rel = d / std::max(1.0, max_abs(gen));
  const bool ok = rel <= tol && std::isfinite(rel);
  if (!ok) g_check_failed = true;
  std::printf("check %-18s %-10s max|gen-hand| = %.2e  relative %.2e  (tol %.0e) %s\n", model, what, d,
              rel, tol, ok ? "ok" : "FAILED");
}

template <class Gen, class Hand>
void check_model(const char* name, const Gen& gen, const Hand& hand, const std::vector<double>& x,
                 const std::vector<std::string>& layout) {
  const int ns = Gen::num_states, na = Gen::num_algebraic, nh = Gen::num_invariants;
  for (int i = 0; i < ns; ++i) {
    if (layout[i] != Gen::state_names[i]) {
      std::printf("check %s: state %d is %s in the generated code, %s by hand: FAILED\n", name, i,
                  Gen::state_names[i], layout[i].c_str());
      g_check_failed = true;
      return;
    }
  }
  std::vector<double> hg(nh), hh(nh);
  gen.invariants(kT, x.data(), hg.data());
  hand.invariants(kT, x.data(), hh.data());
  const double scale = 1 + max_abs(x), residual = max_abs(hg);
  const bool consistent = residual <= 1e-12 * scale;
  if (!consistent) g_check_failed = true;
  std::printf("check %-18s state      max|h| = %.2e (<= 1e-12 (1 + max|x|) = %.2e) %s\n", name, residual,
              1e-12 * scale, consistent ? "consistent" : "NOT CONSISTENT: FAILED");
  compare(name, "invariants", hg, hh, 1e-12);
  std::vector<double> fg(ns), fh(ns), zg(na), zh(na);
  const int sg = gen.rhs(kT, x.data(), fg.data(), zg.data());
  const int sh = hand.rhs(kT, x.data(), fh.data(), zh.data());
  if (sg != 0 || sh != 0) {
    std::printf("check %s: rhs returned %d (generated), %d (hand-written): FAILED\n", name, sg, sh);
    g_check_failed = true;
    return;
  }
  compare(name, "xdot", fg, fh, 1e-10);
  compare(name, "z", zg, zh, 1e-10);
  std::vector<double> Jg(ns * ns), Jh(ns * ns);
  if (gen.rhs_jacobian(kT, x.data(), Jg.data()) != 0 || hand.rhs_jacobian(kT, x.data(), Jh.data()) != 0) {
    std::printf("check %s: rhs_jacobian failed: FAILED\n", name);
    g_check_failed = true;
    return;
  }
  compare(name, "jacobian", Jg, Jh, 1e-10);
}

// ---------------------------------------------------------------------------------------------
// Registration. Every model object and state lives as long as the program (std::deque keeps
// addresses stable); the timed loops only call the function under test.

struct Case {
  std::vector<double> x, out;
};
std::deque<Case> g_cases;

template <class F>
void add(const std::string& name, std::vector<double> x, size_t out_size, F call) {
  g_cases.push_back({std::move(x), std::vector<double>(out_size)});
  Case* c = &g_cases.back();
  benchmark::RegisterBenchmark(name.c_str(), [c, call](benchmark::State& state) {
    const double* x = c->x.data();
    double* out = c->out.data();
    for (auto _ : state) {
      int status = call(x, out);
      benchmark::DoNotOptimize(status);
      benchmark::ClobberMemory();
    }
  });
}

// The three functions of one implementation; M is a generated Model or a hand-written class.
template <class M>
void add_all(const char* who, const std::string& model, const M* m, const std::vector<double>& x, int ns,
             int nh) {
  add(std::string("BM_") + who + "Rhs/" + model, x, ns,
      [m](const double* x, double* out) { return m->rhs(kT, x, out, nullptr); });
  add(std::string("BM_") + who + "RhsJacobian/" + model, x, static_cast<size_t>(ns) * ns,
      [m](const double* x, double* out) { return m->rhs_jacobian(kT, x, out); });
  add(std::string("BM_") + who + "Invariants/" + model, x, nh, [m](const double* x, double* out) {
    m->invariants(kT, x, out);
    return 0;
  });
}

std::vector<std::string> chain_layout(int n) {
  std::vector<std::string> names;
  for (const char* c : {"x", "y", "u", "v"}) {
    for (int k = 1; k <= n; ++k) names.push_back(c + ("[" + std::to_string(k) + "]"));
  }
  return names;
}

template <class Gen>
void setup_chain(int n) {
  static Gen gen;  // one per chain size: each Gen is a distinct type
  static handwritten::PendulumChain hand(n);
  const std::vector<double> x = chain_state(n);
  const std::string name = "chain" + std::to_string(n);
  check_model(name.c_str(), gen, hand, x, chain_layout(n));
  add_all("Generated", name, &gen, x, Gen::num_states, Gen::num_invariants);
  add_all("HandWritten", name, &hand, x, hand.num_states(), hand.num_invariants());
}

void setup() {
  static gen_coupled::Model gen;
  static handwritten::CoupledPendulums hand;
  const CoupledState s;
  if (gen.set_parameter("l2", s.l2) != 0 || gen.set_parameter("m2", s.m2) != 0) {
    std::printf("check coupled_pendulums: no parameter l2 or m2: FAILED\n");
    g_check_failed = true;
  }
  hand.l2 = s.l2;
  hand.m2 = s.m2;
  check_model("coupled_pendulums", gen, hand, s.x, {"x1", "y1", "x2", "y2", "u1", "v1", "u2", "v2"});
  add_all("Generated", "coupled_pendulums", &gen, s.x, gen_coupled::Model::num_states,
          gen_coupled::Model::num_invariants);
  add_all("HandWritten", "coupled_pendulums", &hand, s.x, hand.num_states, hand.num_invariants);
#define DAEC_SETUP_CHAIN(n) setup_chain<gen_chain##n::Model>(n);
  DAEC_CHAINS(DAEC_SETUP_CHAIN)
#undef DAEC_SETUP_CHAIN
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  bool check_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--check-only") == 0) {
      check_only = true;
    } else {
      std::fprintf(stderr, "%s: unknown argument '%s'\n", argv[0], argv[i]);
      return 2;
    }
  }
  setup();
  if (g_check_failed) {
    std::printf("check FAILED: the generated and the hand-written code disagree; not timing.\n");
    return 1;
  }
  std::printf("check passed: generated and hand-written agree at every benchmark state.\n");
  std::fflush(stdout);
  if (check_only) return 0;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
