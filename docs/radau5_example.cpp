// docs/radau5_example.cpp: Robertson's stiff chemical kinetics as an index-1 DAE, with an event,
// integrated by daec's Radau5 (docs/integrators.md). Built and run by the test suite.
#include <cstdio>

#include "daec/integrators/radau5.hpp"

using daec::integrators::Radau5;
using daec::integrators::Radau5Options;
using daec::integrators::Radau5Result;
using daec::integrators::Radau5Status;

struct Robertson {
  int size() const { return 3; }
  bool is_algebraic(int i) const { return i == 2; }  // row 2 is the constraint 0 = f_2
  int rhs(double, const double* y, double* f) {
    f[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
    f[1] = 0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] * y[1];
    f[2] = y[0] + y[1] + y[2] - 1.0;  // mass is conserved
    return 0;
  }
  int jacobian(double, const double* y, double* J) {  // column-major: J[i + 3*j] = df_i/dy_j
    const double dfdy[3][3] = {{-0.04, 1e4 * y[2], 1e4 * y[1]},
                               {0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]},
                               {1.0, 1.0, 1.0}};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) J[i + 3 * j] = dfdy[i][j];
    return 0;
  }
  int num_roots() const { return 1; }
  int roots(double, const double* y, double* g) {
    g[0] = y[0] - 0.5;  // half of the first species is gone
    return 0;
  }
};

int main() {
  Robertson problem;
  Radau5Options options;
  options.rtol = 1e-8;
  options.atol_per_component = {1e-10, 1e-14, 1e-10};
  Radau5<Robertson> radau(problem, options);
  double y[3] = {1.0, 0.0, 0.0};
  if (!radau.initialize(0.0, y).ok())
    return std::fprintf(stderr, "error: %s\n", radau.message().c_str()), 1;
  for (double t : {1.0, 100.0, 1e4, 1e6}) {
    Radau5Result result;
    do {  // integrate_to stops early at an event; go on to t after it
      result = radau.integrate_to(t, y);
      if (!result.ok()) return std::fprintf(stderr, "error: %s\n", radau.message().c_str()), 1;
      bool event = result.status == Radau5Status::root_found;
      std::printf("t = %-8g y = %.6e %.6e %.6e%s\n", result.t, y[0], y[1], y[2],
                  event ? "  <- y0 = 1/2" : "");
    } while (result.t < t);
  }
  const auto& s = radau.statistics();
  std::printf("%ld steps (%ld rejected), %ld f, %ld J, %ld LU\n", s.steps, s.rejected_steps,
              s.rhs_evaluations, s.jacobian_evaluations, s.factorizations);
}
