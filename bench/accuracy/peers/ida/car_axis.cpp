// IDA peer: the car axis problem (problems/car_axis.dae). IDA cannot integrate the index-3
// formulation, so this is the index-2 form a user would derive by hand: the two position
// constraints replaced by their time derivatives (velocity constraints), the multipliers
// algebraic and left out of the error test, IDACalcIC for the multipliers and accelerations.
#include <cmath>

#include "ida_problem.h"

namespace accuracy {
namespace {

constexpr double eps = 1e-2, M = 10, L = 1, L0 = 0.5, rad = 0.1, w = 10, g = 1;
constexpr double k = M * eps * eps / 2;

void residual(double t, const double* y, const double* yp, double* r) {
  const double xl = y[0], yl = y[1], xr = y[2], yr = y[3];
  const double ul = y[4], vl = y[5], ur = y[6], vr = y[7], lam1 = y[8], lam2 = y[9];
  const double yb = rad * std::sin(w * t), yb_dot = rad * w * std::cos(w * t);
  const double xb = std::sqrt(L * L - yb * yb), xb_dot = -yb * yb_dot / xb;
  const double left = std::sqrt(xl * xl + yl * yl);
  const double right = std::sqrt((xr - xb) * (xr - xb) + (yr - yb) * (yr - yb));
  for (int i = 0; i < 4; ++i) r[i] = yp[i] - y[i + 4];
  r[4] = k * yp[4] - ((L0 - left) * xl / left + lam1 * xb + 2 * lam2 * (xl - xr));
  r[5] = k * yp[5] - ((L0 - left) * yl / left + lam1 * yb + 2 * lam2 * (yl - yr) - k * g);
  r[6] = k * yp[6] - ((L0 - right) * (xr - xb) / right - 2 * lam2 * (xl - xr));
  r[7] = k * yp[7] - ((L0 - right) * (yr - yb) / right - 2 * lam2 * (yl - yr) - k * g);
  // d/dt (xb*xl + yb*yl) and d/dt ((xl - xr)^2 + (yl - yr)^2)/2
  r[8] = xb_dot * xl + xb * ul + yb_dot * yl + yb * vl;
  r[9] = (xl - xr) * (ul - ur) + (yl - yr) * (vl - vr);
}

}  // namespace

IdaProblem ida_problem() {
  IdaProblem p;
  p.form = "index-2 form (velocity constraints, by hand)";
  p.names = {"xl", "yl", "xr", "yr", "ul", "vl", "ur", "vr", "lam1", "lam2"};
  p.y0 = {0, L0, L, L0, -L0 / L, 0, -L0 / L, 0, 0, 0};
  p.yp0 = {-L0 / L, 0, -L0 / L, 0, 0, 0, 0, 0, 0, 0};
  p.algebraic = {8, 9};
  p.suppress_algebraic = true;
  p.calc_ic = true;
  p.residual = residual;
  return p;
}

}  // namespace accuracy
