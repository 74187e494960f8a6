// The return codes of the generated code when the model fails at runtime (docs/generated-code.md): compiled by
// tests/e2e/runtime_failure_test.cpp against the code daec generated for the models of this
// directory (in the include path). Prints each failed check, then "N checks, F failures".
#include "closing_valve.cpp"
#include "log_drain.cpp"
#include "sqrt_drain.cpp"
#include "vanishing_circle.cpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

namespace {

int checks = 0, failures = 0;

void expect(bool ok, const char* what, int line) {
  ++checks;
  if (ok) return;
  ++failures;
  std::printf("line %d: %s\n", line, what);
}
#define EXPECT(condition) expect(condition, #condition, __LINE__)

bool all_finite(const std::vector<double>& v) {
  for (double value : v)
    if (!std::isfinite(value)) return false;
  return true;
}

/// Calls rhs, rhs_jacobian and rhs_failure of `model` at (t, x) and checks that they agree and
/// that no status 0 comes with a value that is not finite. Returns rhs's status.
template <typename Model>
int rhs_status(const Model& model, double t, std::vector<double> x, int* failure = nullptr,
               int* index = nullptr, int* jacobian = nullptr) {
  const int n = Model::num_states, m = Model::num_algebraic;
  std::vector<double> xdot(n, 7.0), z(m > 0 ? m : 1, 7.0), J(static_cast<size_t>(n * n), 7.0);
  int status = model.rhs(t, x.data(), xdot.data(), z.data());
  int status_j = model.rhs_jacobian(t, x.data(), J.data());
  int where = -1;
  int why = model.rhs_failure(t, x.data(), &where);
  if (status == 0) {
    EXPECT(all_finite(xdot));
    EXPECT(all_finite(z));
    EXPECT(why == Model::rhs_ok);
  } else {
    EXPECT(status == 1 || status == 2);
    EXPECT(why != Model::rhs_ok);
    EXPECT(status_j != 0);  // the Jacobian needs what rhs could not compute
    EXPECT(where >= 0);
  }
  if (status_j == 0) EXPECT(all_finite(J));
  if (failure != nullptr) *failure = why;
  if (index != nullptr) *index = where;
  if (jacobian != nullptr) *jacobian = status_j;
  return status;
}

void singular_matrix() {
  closing_valve::Model valve;
  int why = 0, index = -1, jacobian = 0;
  EXPECT(rhs_status(valve, 0.0, {0.5, 0.0}) == 0);
  EXPECT(rhs_status(valve, 0.0, {-0.5, 0.0}, &why, &index, &jacobian) == 1);
  EXPECT(jacobian == 1);
  EXPECT(why == closing_valve::Model::rhs_singular);
  EXPECT(index == 0 && std::strcmp(closing_valve::Model::algebraic_names[index], "z") == 0);
  EXPECT(std::strcmp(closing_valve::Model::algebraic_equation[0], "valve") == 0);

  vanishing_circle::Model circle;  // lambda's coefficient 2 (x^2 + y^2) vanishes at the origin
  EXPECT(rhs_status(circle, 0.0, {0.0, 0.0}, &why, &index, &jacobian) == 1);
  EXPECT(jacobian == 1);
  EXPECT(why == vanishing_circle::Model::rhs_singular);
  // lambda is solved in one block with the dummy derivatives x_dot and y_dot: the block is named.
  EXPECT(index >= 0 && index < vanishing_circle::Model::num_algebraic &&
         vanishing_circle::Model::algebraic_block[index] ==
             vanishing_circle::Model::algebraic_block[0]);
  EXPECT(std::strcmp(vanishing_circle::Model::algebraic_names[0], "lambda") == 0);
  EXPECT(rhs_status(circle, 0.0, {0.6, 0.8}) == 0);
}

void domain_errors() {
  sqrt_drain::Model drain;
  int why = 0, index = -1, jacobian = 0;
  EXPECT(rhs_status(drain, 0.0, {0.25, 0.0}) == 0);
  EXPECT(rhs_status(drain, 0.0, {-0.25, 0.0}, &why, &index, &jacobian) == 2);
  EXPECT(why == sqrt_drain::Model::rhs_derivative_not_finite);
  EXPECT(index == 1);  // y' = sqrt(x)
  EXPECT(jacobian == 2);
  // sqrt(0) = 0 is fine, its derivative is not: rhs succeeds, rhs_jacobian reports 2.
  EXPECT(rhs_status(drain, 0.0, {0.0, 0.0}, &why, &index, &jacobian) == 0);
  EXPECT(jacobian == 2);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT(rhs_status(drain, 0.0, {nan, 0.0}, &why, &index) == 2);
  EXPECT(why == sqrt_drain::Model::rhs_state_not_finite && index == 0);
  // outputs() returns void: a domain error gives NaN, which the caller must check.
  double x[2] = {0.25, 0.0}, q = 0.0;
  drain.set_parameter("c", 0.5);
  drain.outputs(0.0, x, &q);
  EXPECT(std::isnan(q));

  log_drain::Model logs;
  EXPECT(rhs_status(logs, 0.0, {0.5, 0.0}) == 0);
  for (double x0 : {0.0, -1.0}) {
    EXPECT(rhs_status(logs, 0.0, {x0, 0.0}, &why, &index, &jacobian) == 2);
    EXPECT(why == log_drain::Model::rhs_algebraic_not_finite);
    EXPECT(index == 0 && std::strcmp(log_drain::Model::algebraic_names[index], "w") == 0);
    EXPECT(std::strcmp(log_drain::Model::algebraic_equation[index], "logw") == 0);
    EXPECT(jacobian == 2);
  }
}

/// No status 0 with a value that is not finite, anywhere on a grid through the failures.
void sweep() {
  closing_valve::Model valve;
  log_drain::Model logs;
  sqrt_drain::Model drain;
  vanishing_circle::Model circle;
  for (double a = -1.0; a <= 1.0; a += 0.25) {
    for (double b = -1.0; b <= 1.0; b += 0.5) {
      rhs_status(valve, 0.0, {a, b});
      rhs_status(logs, 0.0, {a, b});
      rhs_status(drain, 0.0, {a, b});
      rhs_status(circle, 0.0, {a, b});
      rhs_status(circle, 2.0, {a, b});
    }
  }
}

void projection() {
  vanishing_circle::Model circle;
  double x[2] = {1.1, 0.2};
  EXPECT(circle.project(0.5, x) == 0);
  double h = 0.0;
  circle.invariants(0.5, x, &h);
  EXPECT(std::fabs(h) < 1e-12);
  // After t = 1 no point lies on x^2 + y^2 = -1.
  double after[2] = {1.0, 0.0};
  EXPECT(circle.project(1.5, after) != 0);
  circle.invariants(1.5, after, &h);
  EXPECT(std::isfinite(h) && h >= 1.0);  // invariants() returns void: h is there to read
  // Nor for R < 0, from the start.
  EXPECT(circle.set_parameter("R", -1.0) == 0);
  double start[2];
  circle.initial_state(start);
  EXPECT(circle.consistent_initialization(0.0, start) != 0);
  double projected[2] = {0.6, 0.8};
  EXPECT(circle.project(0.0, projected) != 0);
}

}  // namespace

int main() {
  singular_matrix();
  domain_errors();
  sweep();
  projection();
  std::printf("%d checks, %d failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
