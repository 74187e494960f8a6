// IDA peer: the Chemical Akzo Nobel problem (problems/chemical_akzo.dae) as written: five rate
// equations and the algebraic equilibrium y6 = Ks*y1*y4 (index 1). The start is consistent.
#include <cmath>

#include "ida_problem.h"

namespace accuracy {
namespace {

constexpr double k1 = 18.7, k2 = 0.58, k3 = 0.09, k4 = 0.42, kbig = 34.4, kla = 3.3, ks = 115.83,
                 po2 = 0.9, hen = 737;

/// The rates of the five differential species.
void rates(const double* y, double* f) {
  const double r1 = k1 * std::pow(y[0], 4) * std::sqrt(y[1]);
  const double r2 = k2 * y[2] * y[3];
  const double r3 = k2 / kbig * y[0] * y[4];
  const double r4 = k3 * y[0] * y[3] * y[3];
  const double r5 = k4 * y[5] * y[5] * std::sqrt(y[1]);
  const double inflow = kla * (po2 / hen - y[1]);
  f[0] = -2 * r1 + r2 - r3 - r4;
  f[1] = -0.5 * r1 - r4 - 0.5 * r5 + inflow;
  f[2] = r1 - r2 + r3;
  f[3] = -r2 + r3 - 2 * r4;
  f[4] = r2 - r3 + r5;
}

void residual(double, const double* y, const double* yp, double* r) {
  double f[5];
  rates(y, f);
  for (int i = 0; i < 5; ++i) r[i] = yp[i] - f[i];
  r[5] = ks * y[0] * y[3] - y[5];
}

}  // namespace

IdaProblem ida_problem() {
  IdaProblem p;
  p.form = "as written (index 1)";
  p.names = {"y1", "y2", "y3", "y4", "y5", "y6"};
  p.y0 = {0.444, 0.00123, 0, 0.007, 0, ks * 0.444 * 0.007};
  p.yp0.assign(6, 0.0);
  rates(p.y0.data(), p.yp0.data());
  p.algebraic = {5};
  p.residual = residual;
  return p;
}

}  // namespace accuracy
