// IDA peer: the transistor amplifier (problems/transistor_amplifier.dae) as written, the Test
// Set's index-1 system M y' = f(t, y) with its singular constant mass matrix, all eight node
// voltages differential (each has a derivative in some row). y'(0) is the Test Set's.
#include <cmath>

#include "ida_problem.h"

namespace accuracy {
namespace {

constexpr double ub = 6, uf = 0.026, alpha = 0.99, beta = 1e-6;
constexpr double r0 = 1000, r1 = 9000, r2 = 9000, r3 = 9000, r4 = 9000, r5 = 9000, r6 = 9000,
                 r7 = 9000, r8 = 9000, r9 = 9000;
constexpr double c1 = 1e-6, c2 = 2e-6, c3 = 3e-6, c4 = 4e-6, c5 = 5e-6;

void residual(double t, const double* y, const double* yp, double* r) {
  const double ue = 0.1 * std::sin(200 * M_PI * t);
  const double diode1 = beta * (std::exp((y[1] - y[2]) / uf) - 1);
  const double diode2 = beta * (std::exp((y[4] - y[5]) / uf) - 1);
  r[0] = -c1 * yp[0] + c1 * yp[1] - (y[0] - ue) / r0;
  r[1] = c1 * yp[0] - c1 * yp[1] - (y[1] / r1 + (y[1] - ub) / r2 + (1 - alpha) * diode1);
  r[2] = -c2 * yp[2] - (y[2] / r3 - diode1);
  r[3] = -c3 * yp[3] + c3 * yp[4] - ((y[3] - ub) / r4 + alpha * diode1);
  r[4] = c3 * yp[3] - c3 * yp[4] - (y[4] / r5 + (y[4] - ub) / r6 + (1 - alpha) * diode2);
  r[5] = -c4 * yp[5] - (y[5] / r7 - diode2);
  r[6] = -c5 * yp[6] + c5 * yp[7] - ((y[6] - ub) / r8 + alpha * diode2);
  r[7] = c5 * yp[6] - c5 * yp[7] - y[7] / r9;
}

}  // namespace

IdaProblem ida_problem() {
  IdaProblem p;
  p.form = "as written (index 1, singular mass matrix)";
  p.names = {"y1", "y2", "y3", "y4", "y5", "y6", "y7", "y8"};
  const double u2 = ub / (r2 / r1 + 1), u5 = ub / (r6 / r5 + 1);
  p.y0 = {0, u2, u2, ub, u5, u5, ub, 0};
  p.yp0 = {51.338775,   51.338775,       -u2 / (c2 * r3), -24.9757667,
           -24.9757667, -u5 / (c4 * r7), -10.00564453,    -10.00564453};
  p.residual = residual;
  return p;
}

}  // namespace accuracy
