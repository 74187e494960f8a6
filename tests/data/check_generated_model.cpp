// Numerical checks of one generated model, built and run by tests/e2e/generated_code_test.cpp:
// consistent initialization, rhs against residual, every Jacobian (dense where the model has
// them, and the sparse ones of docs/generated-code.md, their patterns checked as compressed sparse
// columns) against central finite differences, the derivatives in the parameters likewise,
// projection, outputs, the dependent parameters and the reset map of the when clauses.
// Compiled with -DMODEL_FILE='"model.cpp"' -DMODEL_NS=ns (and the part files of --split, if any).
// Usage: check T0 (the time at which the model's start values are meant to be consistent).
#include MODEL_FILE

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <type_traits>
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

// xdot = F(x) and h(x) at time t, as functions for the finite differences.
Function rhs_of(const Model& model, double t) {
  return [&model, t](const Vector& u) {
    Vector f = sized(N);
    model.rhs(t, u.data(), f.data(), nullptr);
    return f;
  };
}
Function invariants_of(const Model& model, double t) {
  return [&model, t](const Vector& u) {
    Vector h = sized(K);
    model.invariants(t, u.data(), h.data());
    return h;
  };
}

// A CSC pattern (rows x cols) is well formed: colptr starts at 0, never decreases and ends at
// nnz; the rows of each column increase strictly and lie in [0, rows).
void check_pattern(const char* what, const int* colptr, const int* rowval, int rows, int cols,
                   int nnz) {
  expect(colptr[0] == 0, what, colptr[0], 0, -1, 0);
  expect(colptr[cols] == nnz, what, colptr[cols], nnz, -1, cols);
  for (int j = 0; j < cols; ++j) {
    expect(colptr[j] <= colptr[j + 1], what, colptr[j + 1], colptr[j], -1, j);
    for (int e = colptr[j]; e < colptr[j + 1]; ++e) {
      expect(rowval[e] >= 0 && rowval[e] < rows, what, rowval[e], rows, e, j);
      if (e > colptr[j]) expect(rowval[e - 1] < rowval[e], what, rowval[e], rowval[e - 1], e, j);
    }
  }
}

// Sparse values (in the CSC pattern colptr, rowval, of `cols` columns) against central
// differences of f at u; entries outside the pattern must vanish. u may be longer than `cols`
// (sized() pads an empty vector to one element), the pattern never is.
void check_sparse(const char* what, const Function& f, const Vector& u, const int* colptr,
                  const int* rowval, const Vector& values, int rows, int cols) {
  int width = static_cast<int>(u.size());
  Vector dense(static_cast<size_t>(rows) * width, 0.0);
  for (int j = 0; j < cols; ++j) {
    for (int e = colptr[j]; e < colptr[j + 1]; ++e) dense[rowval[e] * width + j] = values[e];
  }
  check_jacobian(what, f, u, dense, rows);
}

// The dense Jacobians, where the model has them.
// (A template, so that a model without them compiles: the branch is discarded.)
template <typename Generated>
void check_dense(const Generated& model, double t, const Vector& x, const Vector& xdot,
                 const Vector& z) {
  if constexpr (Generated::has_dense_jacobians) {
    Vector J = sized(N * N);
    expect(model.rhs_jacobian(t, x.data(), J.data()) == 0, "rhs_jacobian status", 1, 0);
    check_jacobian("rhs_jacobian", rhs_of(model, t), x, J, N);
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
      check_jacobian("invariants_jacobian", invariants_of(model, t), x, H, K);
    }
  }
}

// The sparse d(xdot)/dx, where the model has it.
template <typename Generated>
void check_sparse_rhs(const Generated& model, double t, const Vector& x) {
  if constexpr (Generated::has_sparse_rhs_jacobian) {
    check_pattern("rhs_jacobian pattern", Generated::rhs_jacobian_colptr,
                  Generated::rhs_jacobian_rowval, N, N, Generated::rhs_jacobian_nnz);
    Vector values = sized(Generated::rhs_jacobian_nnz);
    expect(model.rhs_jacobian_values(t, x.data(), values.data()) == 0, "rhs_jacobian_values", 1, 0);
    check_sparse("rhs_jacobian_values", rhs_of(model, t), x, Generated::rhs_jacobian_colptr,
                 Generated::rhs_jacobian_rowval, values, N, N);
  }
}

// The residual's iteration matrix dr/d(X, Z) + alpha dr/dX' and dh/dX, by columns.
void check_sparse(const Model& model, double t, const Vector& x, const Vector& xdot,
                  const Vector& z) {
  check_pattern("residual_jacobian pattern", Model::residual_jacobian_colptr,
                Model::residual_jacobian_rowval, N + M, N + M, Model::residual_jacobian_nnz);
  const double alpha = 0.75;
  Vector values = sized(Model::residual_jacobian_nnz);
  model.residual_jacobian_values(t, x.data(), xdot.data(), z.data(), alpha, values.data());
  // r(X + alpha s, X' + s, Z) has the derivative dr/dX + alpha dr/dX' in s: one function of
  // (X, Z) whose Jacobian is the iteration matrix.
  Vector unknowns(x.begin(), x.begin() + N);
  unknowns.insert(unknowns.end(), z.begin(), z.begin() + M);
  check_sparse(
      "residual_jacobian_values",
      [&](const Vector& u) {
        Vector xs(u.begin(), u.begin() + N), xdots = xdot, zs(u.begin() + N, u.end()), out;
        for (int i = 0; i < N; ++i) xdots[i] += alpha * (u[i] - x[i]);
        xs.resize(xs.empty() ? 1 : xs.size());
        zs.resize(zs.empty() ? 1 : zs.size());
        out = sized(N + M);
        model.residual(t, xs.data(), xdots.data(), zs.data(), out.data());
        return out;
      },
      unknowns, Model::residual_jacobian_colptr, Model::residual_jacobian_rowval, values, N + M,
      N + M);
  check_pattern("invariants_jacobian pattern", Model::invariants_jacobian_colptr,
                Model::invariants_jacobian_rowval, K, N, Model::invariants_jacobian_nnz);
  Vector H = sized(Model::invariants_jacobian_nnz);
  model.invariants_jacobian_values(t, x.data(), H.data());
  check_sparse("invariants_jacobian_values", invariants_of(model, t), x,
               Model::invariants_jacobian_colptr, Model::invariants_jacobian_rowval, H, K, N);
}

template <typename Generated, typename = void>
struct has_conditions : std::false_type {};
template <typename Generated>
struct has_conditions<Generated, std::void_t<decltype(Generated::num_conditions)>>
    : std::true_type {};

// Holds every relation at its value at (t, x), where the model has relations.
template <typename Generated>
void freeze_modes(Generated& model, double t, const Vector& x) {
  if constexpr (has_conditions<Generated>::value) {
    model.set_modes(t, x.data());
  } else {
    (void)model, (void)t, (void)x;
  }
}

// `model` with p[j] = value moved as set_parameter moves it: its own binding cut, the parameters
// bound to it following (the modes, stored after the parameters, kept).
Model with_parameter(const Model& model, int j, double value) {
  Model moved = model;
  moved.parameter_bound[j] = false;
  moved.p[j] = value;
  moved.update_dependent_parameters();
  return moved;
}

// Central differences in each parameter of f (rows outputs of a model) against the dense J
// (rows x P); the step is relative to the parameter, which may be as small as a capacitance.
void check_parameter_columns(const char* what, const Model& model,
                             const std::function<Vector(const Model&)>& f, const Vector& J,
                             int rows) {
  constexpr int P = Model::num_parameters;
  for (int j = 0; j < P; ++j) {
    const double h = 1e-6 * (model.p[j] != 0.0 ? std::fabs(model.p[j]) : 1.0);
    Vector fu = f(with_parameter(model, j, model.p[j] + h)),
           fd = f(with_parameter(model, j, model.p[j] - h));
    for (int i = 0; i < rows; ++i) {
      const double numeric = (fu[i] - fd[i]) / (2 * h), analytic = J[i * P + j];
      expect(std::fabs(numeric - analytic) <= 1e-5 * (1.0 + std::fabs(numeric)), what, analytic,
             numeric, i, j);
    }
  }
}

// A CSC matrix (rows x P) scattered to a dense one; the dense form, where the model has it, must
// equal it exactly.
Vector scattered(const int* colptr, const int* rowval, const Vector& values, int rows) {
  constexpr int P = Model::num_parameters;
  Vector dense = sized(rows * P);
  for (int j = 0; j < P; ++j) {
    for (int e = colptr[j]; e < colptr[j + 1]; ++e) dense[rowval[e] * P + j] = values[e];
  }
  return dense;
}

void expect_same(const char* what, const Vector& dense, const Vector& sparse) {
  for (size_t e = 0; e < dense.size(); ++e)
    expect(dense[e] == sparse[e], what, dense[e], sparse[e], static_cast<int>(e));
}

// The dense parameter Jacobians equal the CSC ones scattered, where the model has them.
template <typename Generated>
void check_dense_parameter_jacobians(const Generated& model, double t, const Vector& x,
                                     const Vector& xdot, const Vector& z, const Vector& rhs,
                                     const Vector& residual, const Vector& invariants) {
  if constexpr (Generated::has_dense_jacobians) {
    constexpr int P = Generated::num_parameters;
    Vector J = sized(N * P), R = sized((N + M) * P), H = sized(K * P);
    expect(model.rhs_parameter_jacobian(t, x.data(), J.data()) == 0,
           "rhs_parameter_jacobian status", 1, 0);
    model.residual_parameter_jacobian(t, x.data(), xdot.data(), z.data(), R.data());
    model.invariants_parameter_jacobian(t, x.data(), H.data());
    expect_same("rhs_parameter_jacobian dense", J, rhs);
    expect_same("residual_parameter_jacobian dense", R, residual);
    expect_same("invariants_parameter_jacobian dense", H, invariants);
  } else {
    (void)model, (void)t, (void)x, (void)xdot, (void)z, (void)rhs, (void)residual, (void)invariants;
  }
}

// d(xdot)/dp, dr/dp and dh/dp (docs/generated-code.md, "Parameter Jacobians"), by columns and
// dense, against central differences in p with the modes frozen at (t, x): the derivatives are
// those of the branch in force.
void check_parameter_jacobians(const Model& live, double t, const Vector& x, const Vector& xdot,
                               const Vector& z) {
  Model model = live;
  freeze_modes(model, t, x);
  check_pattern("rhs_parameter_jacobian pattern", Model::rhs_parameter_jacobian_colptr,
                Model::rhs_parameter_jacobian_rowval, N, Model::num_parameters,
                Model::rhs_parameter_jacobian_nnz);
  check_pattern("residual_parameter_jacobian pattern", Model::residual_parameter_jacobian_colptr,
                Model::residual_parameter_jacobian_rowval, N + M, Model::num_parameters,
                Model::residual_parameter_jacobian_nnz);
  check_pattern("invariants_parameter_jacobian pattern",
                Model::invariants_parameter_jacobian_colptr,
                Model::invariants_parameter_jacobian_rowval, K, Model::num_parameters,
                Model::invariants_parameter_jacobian_nnz);
  Vector values = sized(Model::rhs_parameter_jacobian_nnz);
  expect(model.rhs_parameter_jacobian_values(t, x.data(), values.data()) == 0,
         "rhs_parameter_jacobian_values status", 1, 0);
  Vector rhs = scattered(Model::rhs_parameter_jacobian_colptr, Model::rhs_parameter_jacobian_rowval,
                         values, N);
  check_parameter_columns(
      "rhs_parameter_jacobian_values", model,
      [&](const Model& m) {
        Vector f = sized(N);
        m.rhs(t, x.data(), f.data(), nullptr);
        return f;
      },
      rhs, N);
  values = sized(Model::residual_parameter_jacobian_nnz);
  model.residual_parameter_jacobian_values(t, x.data(), xdot.data(), z.data(), values.data());
  Vector residual = scattered(Model::residual_parameter_jacobian_colptr,
                              Model::residual_parameter_jacobian_rowval, values, N + M);
  check_parameter_columns(
      "residual_parameter_jacobian_values", model,
      [&](const Model& m) {
        Vector r = sized(N + M);
        m.residual(t, x.data(), xdot.data(), z.data(), r.data());
        return r;
      },
      residual, N + M);
  values = sized(Model::invariants_parameter_jacobian_nnz);
  model.invariants_parameter_jacobian_values(t, x.data(), values.data());
  Vector invariants = scattered(Model::invariants_parameter_jacobian_colptr,
                                Model::invariants_parameter_jacobian_rowval, values, K);
  check_parameter_columns(
      "invariants_parameter_jacobian_values", model,
      [&](const Model& m) {
        Vector h = sized(K);
        m.invariants(t, x.data(), h.data());
        return h;
      },
      invariants, K);
  check_dense_parameter_jacobians(model, t, x, xdot, z, rhs, residual, invariants);
}

// The parameter Jacobians again after set_parameter has cut the binding of the first bound
// parameter: its column is then its own, and the columns of what it was bound to lose it.
void check_cut_binding(const Model& model, double t, const Vector& x) {
  for (int i = 0; i < Model::num_parameters; ++i) {
    if (!model.parameter_bound[i]) continue;
    Model cut = model;
    cut.set_parameter(i, model.p[i]);
    Vector xdot = sized(N), z = sized(M);
    if (cut.rhs(t, x.data(), xdot.data(), z.data()) == 0)
      check_parameter_jacobians(cut, t, x, xdot, z);
    return;
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
  check_dense(model, t, x, xdot, z);
  check_sparse_rhs(model, t, x);
  check_sparse(model, t, x, xdot, z);
  check_parameter_jacobians(model, t, x, xdot, z);
  Vector y = sized(Model::num_outputs);
  model.outputs(t, x.data(), y.data());
  for (int q = 0; q < Model::num_outputs; ++q) expect(std::isfinite(y[q]), "output", y[q], 0, q);
}

void expect_on_manifold(const Model& model, double t, const Vector& x, const char* what) {
  Vector h = sized(K);
  model.invariants(t, x.data(), h.data());
  for (int k = 0; k < K; ++k) expect(std::fabs(h[k]) <= 1e-9, what, h[k], 0, k);
}

// projection_weight: 1e3 for a promoted unknown (never a continuous state), else a weight in
// (0, 1], the highest of those 1.
void check_projection_weights() {
  double highest = 0;
  bool other = false;
  for (int i = 0; i < N; ++i) {
    const double w = Model::projection_weight[i];
    if (w == 1e3) {
      expect(!Model::state_continuous[i], "a promoted unknown's projection_weight", w, 1, i);
      continue;
    }
    expect(w > 0 && w <= 1, "projection_weight in (0, 1] or 1e3", w, 1, i);
    highest = w > highest ? w : highest;
    other = true;
  }
  if (other) expect(highest == 1, "the highest projection_weight", highest, 1);
}

// The dependent parameters: the flags match the bindings, recomputing from the bindings gives
// the defaults daec computed, and set_parameter (by index and by name) cuts only its own binding.
void check_parameters(const Model& model) {
  constexpr int P = Model::num_parameters;
  Model updated = model;
  updated.update_dependent_parameters();
  for (int i = 0; i < P; ++i) {
    const bool has_binding = Model::parameter_bindings[i][0] != '\0';
    expect(model.parameter_bound[i] == has_binding, "parameter_bound", model.parameter_bound[i],
           has_binding, i);
    const double scale = 1e-13 * (1.0 + std::fabs(model.p[i]));
    expect(std::fabs(updated.p[i] - model.p[i]) <= scale, "update_dependent_parameters",
           updated.p[i], model.p[i], i);
    Model set = model;
    int status = i % 2 == 0 ? set.set_parameter(i, model.p[i])
                            : set.set_parameter(Model::parameter_names[i], model.p[i]);
    expect(status == 0 && !set.parameter_bound[i], "set_parameter cuts the binding", status, 0, i);
    for (int j = 0; j < P; ++j) {
      expect(set.parameter_bound[j] == (j != i && model.parameter_bound[j]),
             "set_parameter keeps the other bindings", set.parameter_bound[j],
             model.parameter_bound[j], i, j);
    }
  }
  Model other = model;
  for (int index : {-1, P}) {
    int status = other.set_parameter(index, 1.0);
    expect(status == -1, "set_parameter out of range", status, -1, index);
  }
  int status = other.set_parameter("no such parameter", 1.0);
  expect(status == -1, "set_parameter unknown name", status, -1);
  status = other.set_parameter(nullptr, 1.0);
  expect(status == -1, "set_parameter nullptr", status, -1);
}

// The singular-point checks at a regular point (every bundled model's start is one): finite
// estimates of at least 1, well below where the simulator stops, a nonzero sign of det(A), and
// the weakest pivot's unknown and hidden constraint in range.
void check_conditioning(const Model& model, double t, const Vector& x) {
  int unknown = -2, sign = 0, invariant = -2;
  const double a = model.algebraic_condition(t, x.data(), &unknown, &sign);
  expect(a >= 1.0 && a < 1e8, "algebraic_condition", a, 1.0);
  expect(sign == 1 || sign == -1, "algebraic_condition sign", sign, 1.0);
  // -1 also where every pivot is a number of A (the 1 of a dummy's equation), which cannot vanish.
  expect(unknown >= -1 && unknown < M, "algebraic_condition unknown", unknown, 0);
  const double h = model.invariants_condition(t, x.data(), &invariant);
  expect(h >= 1.0 && h < 1e8, "invariants_condition", h, 1.0);
  expect(invariant >= (K > 0 ? 0 : -1) && invariant < K, "invariants_condition invariant",
         invariant, 0);
  expect(model.algebraic_condition(t, x.data(), nullptr, nullptr) == a,
         "algebraic_condition without outputs", a, a);
}

template <typename Generated, typename = void>
struct has_when : std::false_type {};
template <typename Generated>
struct has_when<Generated, std::void_t<decltype(Generated::num_when_clauses)>> : std::true_type {};

// The when clauses' reset map at (t, x): each clause sets its targets to the values
// reinit_values gives there and marks them held, and consistent_reinitialization keeps them and
// lands on the invariants (docs/generated-code.md, "When clauses").
template <typename Generated>
void check_when(const Generated& model, double t, const Vector& x) {
  if constexpr (has_when<Generated>::value) {
    Vector v(Generated::num_reinits), y = x, z = sized(M);
    model.reinit_values(t, x.data(), v.data());
    for (int k = 0; k < Generated::num_when_clauses; ++k) {
      y = x;
      std::unique_ptr<bool[]> held(new bool[N + M > 0 ? N + M : 1]());
      int status = model.reinit(k, t, x.data(), y.data(), z.data(), held.get());
      expect(status == 0, "reinit status", status, 0);
      for (int r = 0; r < Generated::num_reinits; ++r) {
        const int at = Generated::reinit_target[r];
        if (Generated::reinit_clause[r] != k || at < 0) continue;
        expect(y[at] == v[r] && held[at], "reinit target", y[at], v[r], r);
      }
      status = model.consistent_reinitialization(t, y.data(), z.data(), held.get());
      expect(status == 0, "consistent_reinitialization status", status, 0);
      for (int r = 0; r < Generated::num_reinits; ++r) {
        const int at = Generated::reinit_target[r];
        if (Generated::reinit_clause[r] == k && at >= 0)
          expect(std::fabs(y[at] - v[r]) <= 1e-12 * (1 + std::fabs(v[r])), "reinit value kept",
                 y[at], v[r], r);
      }
      expect_on_manifold(model, t, y, "invariant after consistent_reinitialization");
    }
    bool none[1] = {false};
    expect(model.reinit(Generated::num_when_clauses, t, x.data(), y.data(), z.data(), none) == -1,
           "reinit of no clause", 0, -1);
  } else {
    (void)model, (void)t, (void)x;
  }
}

}  // namespace

int main(int argc, char** argv) {
  double t = argc > 1 ? std::atof(argv[1]) : 0.0;
  Model model;
  check_parameters(model);
  Vector x = sized(N);
  model.initial_state(x.data());
  int status = model.consistent_initialization(t, x.data());
  expect(status == 0, "consistent_initialization status", status, 0);
  expect_on_manifold(model, t, x, "invariant after consistent_initialization");
  check_point(model, t, x);
  check_conditioning(model, t, x);
  check_cut_binding(model, t, x);
  // Off the manifold too: rhs and the Jacobians are defined for any state where A is regular.
  Vector off = x;
  for (int i = 0; i < N; ++i) off[i] += 0.01 * std::sin(1.0 + i);
  check_point(model, t, off);
  check_projection_weights();
  status = model.project(t, off.data());
  expect(status == 0, "project status", status, 0);
  expect_on_manifold(model, t, off, "invariant after project");
  check_when(model, t, off);
  std::printf("%d checks, %d failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
