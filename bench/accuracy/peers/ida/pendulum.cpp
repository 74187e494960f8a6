// IDA peer: the simple pendulum (problems/pendulum.dae). IDA cannot integrate the index-3
// formulation, so this is its index-2 variant (test-problems.md): the rod constraint replaced by
// x*u + y*v = 0, the multiplier algebraic and left out of the error test. The start is
// consistent.
#include "ida_problem.h"

namespace accuracy {
namespace {

// y = (x, y, u, v, lam)
void residual(double, const double* y, const double* yp, double* r) {
  r[0] = yp[0] - y[2];
  r[1] = yp[1] - y[3];
  r[2] = yp[2] + y[0] * y[4];
  r[3] = yp[3] + y[1] * y[4] + 1;
  r[4] = y[0] * y[2] + y[1] * y[3];
}

}  // namespace

IdaProblem ida_problem() {
  IdaProblem p;
  p.form = "index-2 form (x u + y v = 0)";
  p.names = {"x", "y", "u", "v", "lam"};
  p.y0 = {1, 0, 0, 1, 1};
  p.yp0 = {0, 1, -1, -1, 0};
  p.algebraic = {4};
  p.suppress_algebraic = true;
  p.residual = residual;
  return p;
}

}  // namespace accuracy
