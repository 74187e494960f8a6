// IDA peer: Robertson's reaction (problems/robertson.dae) as written, the index-1 DAE of IDA's
// own example idaRoberts_dns: two rate equations and the conservation law, y3 algebraic. The
// start is consistent.
#include "ida_problem.h"

namespace accuracy {
namespace {

constexpr double k1 = 0.04, k2 = 3e7, k3 = 1e4;

// y = (y1, y2, y3)
void residual(double, const double* y, const double* yp, double* r) {
  r[0] = yp[0] - (-k1 * y[0] + k3 * y[1] * y[2]);
  r[1] = yp[1] - (k1 * y[0] - k3 * y[1] * y[2] - k2 * y[1] * y[1]);
  r[2] = y[0] + y[1] + y[2] - 1;
}

}  // namespace

IdaProblem ida_problem() {
  IdaProblem p;
  p.form = "as written (index 1)";
  p.names = {"y1", "y2", "y3"};
  p.y0 = {1, 0, 0};
  p.yp0 = {-k1, k1, 0};
  p.algebraic = {2};
  p.residual = residual;
  return p;
}

}  // namespace accuracy
