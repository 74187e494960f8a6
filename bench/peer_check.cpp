// peer_check.cpp — checks that bench/sympy_peer.py and daec computed the same thing, so that
// timing them side by side (bench/run.sh) is fair: it evaluates both generated codes for the
// same pendulum chain at a few states (not necessarily consistent ones, so that nothing cancels
// by accident) and compares, matched by state and algebraic names: rhs (X' and Z),
// rhs_jacobian, invariants and invariants_jacobian; the residual is compared as a multiset of
// magnitudes (the two order and sign the rows of A Z = b differently). Prints one line; exit 0
// if every relative difference is below 1e-9.
//   daec models/pendulum_chain.dae -D N=8 -o chain8.cpp
//   g++ -std=c++17 -O1 -DDAEC_FILE='"chain8.cpp"' -DDAEC_NS=pendulum_chain
//       -DPEER_FILE='"peer8.c"' bench/peer_check.cpp -o peer_check && ./peer_check
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include DAEC_FILE
#include PEER_FILE

namespace {

using Model = DAEC_NS::Model;

int index_of(const char* const* names, int n, const char* name) {
  for (int i = 0; i < n; ++i) {
    if (std::strcmp(names[i], name) == 0) return i;
  }
  return -1;
}

// daec's name for the peer's: its arrays' elements x[1], l[1], rod[1]', dummy variables u[1]_dot
// for the peer's x1, l1, rod1', u_dot1.
void daec_name(const char* peer, char* out) {
  const char* digits = std::strpbrk(peer, "0123456789");
  if (digits == nullptr) {
    std::strcpy(out, peer);
    return;
  }
  std::size_t length = std::strspn(digits, "0123456789");
  std::size_t head = static_cast<std::size_t>(digits - peer);
  const char* dot = std::strstr(peer, "_dot");
  if (dot != nullptr && dot < digits) head = static_cast<std::size_t>(dot - peer);
  std::memcpy(out, peer, head);
  out[head] = '[';
  std::memcpy(out + head + 1, digits, length);
  std::strcpy(out + head + 1 + length, "]");
  std::strcat(out, dot != nullptr && dot < digits ? "_dot" : digits + length);
}

double worst = 0.0;

void compare(double a, double b) {
  double d = std::fabs(a - b) / (1.0 + std::max(std::fabs(a), std::fabs(b)));
  worst = std::max(worst, d);
}

}  // namespace

int main() {
  constexpr int nx = Model::num_states, nz = Model::num_algebraic, nh = Model::num_invariants;
  static_assert(nx == peer_num_states && nz == peer_num_algebraic && nh == peer_num_invariants,
                "the two codes disagree on the sizes");
  std::vector<int> xs(nx), zs(nz), hs(nh);  // peer index -> daec index
  char name[64];
  for (int i = 0; i < nx; ++i) {
    daec_name(peer_state_names[i], name);
    xs[i] = index_of(Model::state_names, nx, name);
  }
  for (int i = 0; i < nz; ++i) {
    daec_name(peer_algebraic_names[i], name);
    zs[i] = index_of(Model::algebraic_names, nz, name);
  }
  for (int i = 0; i < nh; ++i) {
    daec_name(peer_invariant_names[i], name);
    hs[i] = index_of(Model::invariant_names, nh, name);
  }
  for (int v : xs) {
    if (v < 0) return std::puts("peer_check: state names differ"), 1;
  }
  for (int v : zs) {
    if (v < 0) return std::puts("peer_check: algebraic names differ"), 1;
  }
  for (int v : hs) {
    if (v < 0) return std::puts("peer_check: invariant names differ"), 1;
  }

  Model model;
  std::mt19937 random(12345);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> x(nx), px(nx), f(nx), pf(nx), z(nz), pz(nz), J(nx * nx), pJ(nx * nx);
  std::vector<double> h(nh), ph(nh), H(nh * nx), pH(nh * nx), xdot(nx), r(nx + nz), pr(nx + nz);
  for (int trial = 0; trial < 5; ++trial) {
    for (int i = 0; i < nx; ++i) px[i] = uniform(random) + (i % 4 == 0 ? (i / 4 + 1) : 0.0);
    for (int i = 0; i < nx; ++i) x[xs[i]] = px[i];
    for (int i = 0; i < nx; ++i) xdot[i] = uniform(random);
    if (model.rhs(0.0, x.data(), f.data(), z.data()) != 0) return std::puts("peer_check: daec rhs failed"), 1;
    if (peer_rhs(model.p, 0.0, px.data(), pf.data(), pz.data()) != 0) return std::puts("peer_check: peer rhs failed"), 1;
    for (int i = 0; i < nx; ++i) compare(f[xs[i]], pf[i]);
    for (int i = 0; i < nz; ++i) compare(z[zs[i]], pz[i]);
    if (model.rhs_jacobian(0.0, x.data(), J.data()) != 0) return 1;
    if (peer_rhs_jacobian(model.p, 0.0, px.data(), pJ.data()) != 0) return 1;
    for (int i = 0; i < nx; ++i) {
      for (int j = 0; j < nx; ++j) compare(J[xs[i] * nx + xs[j]], pJ[i * nx + j]);
    }
    model.invariants(0.0, x.data(), h.data());
    peer_invariants(model.p, 0.0, px.data(), ph.data());
    for (int i = 0; i < nh; ++i) compare(h[hs[i]], ph[i]);
    model.invariants_jacobian(0.0, x.data(), H.data());
    peer_invariants_jacobian(model.p, 0.0, px.data(), pH.data());
    for (int i = 0; i < nh; ++i) {
      for (int j = 0; j < nx; ++j) compare(H[hs[i] * nx + xs[j]], pH[i * nx + j]);
    }
    // residual at (x, xdot, z) with z from rhs: compare the magnitudes, sorted.
    std::vector<double> pxdot(nx);
    for (int i = 0; i < nx; ++i) pxdot[i] = xdot[xs[i]];
    model.residual(0.0, x.data(), xdot.data(), z.data(), r.data());
    peer_residual(model.p, 0.0, px.data(), pxdot.data(), pz.data(), pr.data());
    for (double& v : r) v = std::fabs(v);
    for (double& v : pr) v = std::fabs(v);
    std::sort(r.begin(), r.end());
    std::sort(pr.begin(), pr.end());
    for (int i = 0; i < nx + nz; ++i) compare(r[i], pr[i]);
  }
  (void)peer_residual_jacobian;
  bool ok = worst < 1e-9;
  std::printf("peer_check: daec and sympy_peer.py agree on rhs, rhs_jacobian, invariants, "
              "invariants_jacobian, residual at 5 states: largest relative difference %.1e (%s)\n",
              worst, ok ? "ok" : "DIFFERENT");
  return ok ? 0 : 1;
}
