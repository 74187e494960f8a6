// IDA peer: the particle on a circular track (problems/circular_track.dae). IDA cannot integrate
// the index-3 formulation, so this is the index-2 form: the track constraint replaced by
// x*u + y*v = 0, the multiplier algebraic and left out of the error test. The start (the exact
// solution at t = 1) is consistent.
#include <cmath>

#include "ida_problem.h"

namespace accuracy {
namespace {

// y = (x, y, u, v, lam)
void residual(double, const double* y, const double* yp, double* r) {
  r[0] = yp[0] - y[2];
  r[1] = yp[1] - y[3];
  r[2] = yp[2] - (2 * y[1] + y[0] * y[4]);
  r[3] = yp[3] - (-2 * y[0] + y[1] * y[4]);
  r[4] = y[0] * y[2] + y[1] * y[3];
}

}  // namespace

IdaProblem ida_problem() {
  IdaProblem p;
  p.form = "index-2 form (x u + y v = 0)";
  p.names = {"x", "y", "u", "v", "lam"};
  const double s = std::sin(1.0), c = std::cos(1.0);
  p.y0 = {s, c, 2 * c, -2 * s, -4};
  p.yp0 = {2 * c, -2 * s, 2 * c - 4 * s, -2 * s - 4 * c, 0};
  p.algebraic = {4};
  p.suppress_algebraic = true;
  p.residual = residual;
  return p;
}

}  // namespace accuracy
