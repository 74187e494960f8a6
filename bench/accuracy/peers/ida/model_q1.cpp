// IDA peer: Rheinboldt's model_q1 (problems/model_q1.dae) as written: u1' = u2 with the
// algebraic equation 0 = u1 - t^2 + 2*u2 (index 1). The start is consistent.
#include "ida_problem.h"

namespace accuracy {
namespace {

// y = (u1, u2)
void residual(double t, const double* y, const double* yp, double* r) {
  r[0] = yp[0] - y[1];
  r[1] = y[0] - t * t + 2 * y[1];
}

}  // namespace

IdaProblem ida_problem() {
  IdaProblem p;
  p.form = "as written (index 1)";
  p.names = {"u1", "u2"};
  p.y0 = {11, -5};
  p.yp0 = {-5, 0};
  p.algebraic = {1};
  p.residual = residual;
  return p;
}

}  // namespace accuracy
