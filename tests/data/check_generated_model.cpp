// Numerical checks of one generated model, built and run by tests/generated_code_test.cpp:
// consistent initialization, rhs against residual, every Jacobian against central finite
// differences, projection and outputs. Compiled with -DMODEL_FILE='"model.cpp"' -DMODEL_NS=ns.
// Usage: check T0 (the time at which the model's start values are meant to be consistent).
#include MODEL_FILE

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

using Model = MODEL_NS::Model;
using Vector = std::vector<double>;
using Function = std::function<Vector(const Vector&)>;

constexpr int N = Model::num_states, M = Model::num_algebraic, K = Model::num_invariants;
int checks = 0, failures = 0;

void expect(bool ok, const char* what, double got, double want, int i = -1, int j = -1) {
  ++checks;
  if (ok) return;
  ++failures;
  std::printf("FAIL %s (%d, %d): got %.17g, expected %.17g\n", what, i, j, got, want);
}

double largest(const Vector& v) {
  double m = 0;
  for (double e : v) m = std::max(m, std::fabs(e));
  return m;
}

Vector sized(int n) {
  return Vector(n > 0 ? n : 1, 0.0);
}

// Central differences of f (rows outputs) at u; compared with the analytic J (rows x u.size()).
void check_jacobian(const char* what, const Function& f, const Vector& u, const Vector& J,
                    int rows) {
  int cols = static_cast<int>(u.size());
  for (int j = 0; j < cols; ++j) {
    double h = 1e-6 * (1.0 + std::fabs(u[j]));
    Vector up = u, down = u;
    up[j] += h;
    down[j] -= h;
    Vector fu = f(up), fd = f(down);
    for (int i = 0; i < rows; ++i) {
      double numeric = (fu[i] - fd[i]) / (2 * h), analytic = J[i * cols + j];
      expect(std::fabs(numeric - analytic) <= 1e-5 * (1.0 + std::fabs(numeric)), what, analytic,
             numeric, i, j);
    }
  }
}

void check_point(const Model& model, double t, const Vector& x) {
  Vector xdot = sized(N), z = sized(M);
  int status = model.rhs(t, x.data(), xdot.data(), z.data());
  expect(status == 0, "rhs status", status, 0);
  if (status != 0) return;
  Vector r = sized(N + M);
  model.residual(t, x.data(), xdot.data(), z.data(), r.data());
  double scale = 1.0 + largest(xdot) + largest(z) + largest(x);
  for (int i = 0; i < N + M; ++i) {
    expect(std::fabs(r[i]) <= 1e-10 * scale, "residual at rhs", r[i], 0, i);
  }
  Vector J = sized(N * N);
  expect(model.rhs_jacobian(t, x.data(), J.data()) == 0, "rhs_jacobian status", 1, 0);
  check_jacobian(
      "rhs_jacobian",
      [&](const Vector& u) {
        Vector f = sized(N);
        model.rhs(t, u.data(), f.data(), nullptr);
        return f;
      },
      x, J, N);
  Vector dx = sized((N + M) * N), dxdot = sized((N + M) * N), dz = sized((N + M) * M);
  model.residual_jacobian(t, x.data(), xdot.data(), z.data(), dx.data(), dxdot.data(), dz.data());
  auto residual_of = [&](const Vector& xs, const Vector& xdots, const Vector& zs) {
    Vector out = sized(N + M);
    model.residual(t, xs.data(), xdots.data(), zs.data(), out.data());
    return out;
  };
  check_jacobian(
      "dr_dx", [&](const Vector& u) { return residual_of(u, xdot, z); }, x, dx, N + M);
  check_jacobian(
      "dr_dxdot", [&](const Vector& u) { return residual_of(x, u, z); }, xdot, dxdot, N + M);
  if (M > 0) {
    Vector zz(z.begin(), z.begin() + M);
    check_jacobian(
        "dr_dz", [&](const Vector& u) { return residual_of(x, xdot, u); }, zz, dz, N + M);
  }
  if (K > 0) {
    Vector H = sized(K * N);
    model.invariants_jacobian(t, x.data(), H.data());
    check_jacobian(
        "invariants_jacobian",
        [&](const Vector& u) {
          Vector h = sized(K);
          model.invariants(t, u.data(), h.data());
          return h;
        },
        x, H, K);
  }
  Vector y = sized(Model::num_outputs);
  model.outputs(t, x.data(), y.data());
  for (int q = 0; q < Model::num_outputs; ++q) expect(std::isfinite(y[q]), "output", y[q], 0, q);
}

void expect_on_manifold(const Model& model, double t, const Vector& x, const char* what) {
  Vector h = sized(K);
  model.invariants(t, x.data(), h.data());
  for (int k = 0; k < K; ++k) expect(std::fabs(h[k]) <= 1e-9, what, h[k], 0, k);
}

}  // namespace

int main(int argc, char** argv) {
  double t = argc > 1 ? std::atof(argv[1]) : 0.0;
  Model model;
  Vector x = sized(N);
  model.initial_state(x.data());
  int status = model.consistent_initialization(t, x.data());
  expect(status == 0, "consistent_initialization status", status, 0);
  expect_on_manifold(model, t, x, "invariant after consistent_initialization");
  check_point(model, t, x);
  // Off the manifold too: rhs and the Jacobians are defined for any state where A is regular.
  Vector off = x;
  for (int i = 0; i < N; ++i) off[i] += 0.01 * std::sin(1.0 + i);
  check_point(model, t, off);
  status = model.project(t, off.data());
  expect(status == 0, "project status", status, 0);
  expect_on_manifold(model, t, off, "invariant after project");
  std::printf("%d checks, %d failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
