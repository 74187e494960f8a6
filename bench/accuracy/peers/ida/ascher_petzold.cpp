// IDA peer: the linear index-2 problem of Ascher and Petzold (problems/ascher_petzold.dae) as
// written, the index-2 unknown z algebraic and left out of the error test. The start (the exact
// solution at t = 0) is consistent.
#include <cmath>

#include "ida_problem.h"

namespace accuracy {
namespace {

constexpr double a = 10;

// y = (u1, u2, z)
void residual(double t, const double* y, const double* yp, double* r) {
  const double et = std::exp(t);
  r[0] = yp[0] - ((a - 1 / (2 - t)) * y[0] + (2 - t) * a * y[2] + (3 - t) / (2 - t) * et);
  r[1] = yp[1] - ((1 - a) / (t - 2) * y[0] - y[1] + (a - 1) * y[2] + 2 * et);
  r[2] = (t + 2) * y[0] + (t * t - 4) * y[1] - (t * t + t - 2) * et;
}

}  // namespace

IdaProblem ida_problem() {
  IdaProblem p;
  p.form = "as written (index 2)";
  p.names = {"u1", "u2", "z"};
  p.y0 = {1, 1, -0.5};
  p.yp0 = {1, 1, 0};
  p.algebraic = {2};
  p.suppress_algebraic = true;
  p.residual = residual;
  return p;
}

}  // namespace accuracy
