// IDA peer: the linear index-2 family of Gear, Hsu and Petzold (problems/linear_index2.dae) as
// written, eta = -0.8: both unknowns carry a derivative, so IDA treats both as differential. BDF
// on these equations is unstable for eta < -1/2: this peer shows what that costs a user of IDA.
// The start (the exact solution at t = 0) is consistent.
#include <cmath>

#include "ida_problem.h"

namespace accuracy {
namespace {

constexpr double eta = -0.8;

// y = (y, z)
void residual(double t, const double* y, const double* yp, double* r) {
  r[0] = yp[0] + eta * t * yp[1] + (1 + eta) * y[1] - std::exp(t);
  r[1] = y[0] + eta * t * y[1] - std::sin(t);
}

}  // namespace

IdaProblem ida_problem() {
  IdaProblem p;
  p.form = "as written (index 2)";
  p.names = {"y", "z"};
  p.y0 = {0, 0};
  p.yp0 = {1, 1};
  p.residual = residual;
  return p;
}

}  // namespace accuracy
