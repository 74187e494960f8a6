// IDA peer: Andrews' squeezing mechanism (problems/andrews.dae). IDA cannot integrate the
// index-3 formulation, so this is the index-2 form a user would write: the Test Set's 27
// equations q' = v, v' = w, M(q) w = f(q, v) - G(q)^T lambda with the position constraints
// g(q) = 0 replaced by the velocity constraints G(q) v = 0; the accelerations w and the
// multipliers lambda are algebraic (index 2) and left out of the error test. The start values
// (the Test Set's) are consistent.
#include <cmath>

#include "ida_problem.h"

namespace accuracy {
namespace {

constexpr double m1 = .04325, m2 = .00365, m3 = .02373, m4 = .00706, m5 = .07050, m6 = .00706,
                 m7 = .05498;
constexpr double xb = -0.03635, yb = .03273, xc = .014, yc = .072, c0 = 4530;
constexpr double i1 = 2.194e-6, i2 = 4.410e-7, i3 = 5.255e-6, i4 = 5.667e-7, i5 = 1.169e-5,
                 i6 = 5.667e-7, i7 = 1.912e-5;
constexpr double d = 28e-3, da = 115e-4, e = 2e-2, ea = 1421e-5, rr = 7e-3, ra = 92e-5,
                 l0 = 7785e-5, ss = 35e-3, sa = 1874e-5, sb = 1043e-5, sc = 18e-3, sd = 2e-2,
                 ta = 2308e-5, tb = 916e-5, u = 4e-2, ua = 1228e-5, ub = 449e-5, zf = 2e-2,
                 zt = 4e-2, fa = 1421e-5, mom = 33e-3;

/// The symmetric mass matrix M(q), 7 x 7 row-major.
void mass(const double* q, double m[7][7]) {
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j) m[i][j] = 0;
  const double eea = e - ea, zfa = zf - fa;
  m[0][0] = m1 * ra * ra + m2 * (rr * rr - 2 * da * rr * std::cos(q[1]) + da * da) + i1 + i2;
  m[1][0] = m[0][1] = m2 * (da * da - da * rr * std::cos(q[1])) + i2;
  m[1][1] = m2 * da * da + i2;
  m[2][2] = m3 * (sa * sa + sb * sb) + i3;
  m[3][3] = m4 * eea * eea + i4;
  m[4][3] = m[3][4] = m4 * (eea * eea + zt * eea * std::sin(q[3])) + i4;
  m[4][4] = m4 * (zt * zt + 2 * zt * eea * std::sin(q[3]) + eea * eea) + m5 * (ta * ta + tb * tb) +
            i4 + i5;
  m[5][5] = m6 * zfa * zfa + i6;
  m[6][5] = m[5][6] = m6 * (zfa * zfa - u * zfa * std::sin(q[5])) + i6;
  m[6][6] =
      m6 * (zfa * zfa - 2 * u * zfa * std::sin(q[5]) + u * u) + m7 * (ua * ua + ub * ub) + i6 + i7;
}

/// The applied forces f(q, v): the motor torque, the spring and the centrifugal terms.
void forces(const double* q, const double* v, double* f) {
  const double xd = sd * std::cos(q[2]) + sc * std::sin(q[2]) + xb;
  const double yd = sd * std::sin(q[2]) - sc * std::cos(q[2]) + yb;
  const double length = std::sqrt((xd - xc) * (xd - xc) + (yd - yc) * (yd - yc));
  const double spring = -c0 * (length - l0) / length;
  const double fx = spring * (xd - xc), fy = spring * (yd - yc);
  const double eea = e - ea, zfa = zf - fa;
  f[0] = mom - m2 * da * rr * v[1] * (v[1] + 2 * v[0]) * std::sin(q[1]);
  f[1] = m2 * da * rr * v[0] * v[0] * std::sin(q[1]);
  f[2] = fx * (sc * std::cos(q[2]) - sd * std::sin(q[2])) +
         fy * (sd * std::cos(q[2]) + sc * std::sin(q[2]));
  f[3] = m4 * zt * eea * v[4] * v[4] * std::cos(q[3]);
  f[4] = -m4 * zt * eea * v[3] * (v[3] + 2 * v[4]) * std::cos(q[3]);
  f[5] = -m6 * u * zfa * v[6] * v[6] * std::cos(q[5]);
  f[6] = m6 * u * zfa * v[5] * (v[5] + 2 * v[6]) * std::cos(q[5]);
}

/// The constraint Jacobian G(q) = dg/dq, 6 x 7 row-major.
void constraint_jacobian(const double* q, double g[6][7]) {
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 7; ++j) g[i][j] = 0;
  const double s1 = -rr * std::sin(q[0]) + d * std::sin(q[0] + q[1]);
  const double c1 = rr * std::cos(q[0]) - d * std::cos(q[0] + q[1]);
  for (int row = 0; row < 6; row += 2) {  // the crank terms are in every pair of rows
    g[row][0] = s1;
    g[row][1] = d * std::sin(q[0] + q[1]);
    g[row + 1][0] = c1;
    g[row + 1][1] = -d * std::cos(q[0] + q[1]);
  }
  g[0][2] = -ss * std::cos(q[2]);
  g[1][2] = -ss * std::sin(q[2]);
  g[2][3] = -e * std::cos(q[3] + q[4]);
  g[2][4] = -e * std::cos(q[3] + q[4]) + zt * std::sin(q[4]);
  g[3][3] = -e * std::sin(q[3] + q[4]);
  g[3][4] = -e * std::sin(q[3] + q[4]) - zt * std::cos(q[4]);
  g[4][5] = zf * std::sin(q[5] + q[6]);
  g[4][6] = zf * std::sin(q[5] + q[6]) - u * std::cos(q[6]);
  g[5][5] = -zf * std::cos(q[5] + q[6]);
  g[5][6] = -zf * std::cos(q[5] + q[6]) - u * std::sin(q[6]);
}

// y = (q[7], v[7], w[7], lambda[6])
void residual(double, const double* y, const double* yp, double* r) {
  const double *q = y, *v = y + 7, *w = y + 14, *lambda = y + 21;
  double m[7][7], g[6][7], f[7];
  mass(q, m);
  constraint_jacobian(q, g);
  forces(q, v, f);
  for (int i = 0; i < 7; ++i) {
    r[i] = yp[i] - v[i];
    r[7 + i] = yp[7 + i] - w[i];
    double motion = -f[i];
    for (int j = 0; j < 7; ++j) motion += m[i][j] * w[j];
    for (int j = 0; j < 6; ++j) motion += g[j][i] * lambda[j];
    r[14 + i] = motion;
  }
  for (int i = 0; i < 6; ++i) {
    double velocity = 0;
    for (int j = 0; j < 7; ++j) velocity += g[i][j] * v[j];
    r[21 + i] = velocity;
  }
}

}  // namespace

IdaProblem ida_problem() {
  IdaProblem p;
  p.form = "index-2 form (velocity constraints G(q) v = 0)";
  p.names = {"beta",  "theta",  "gamma",  "phi",  "delta",  "Omega",  "epsilon",
             "vbeta", "vtheta", "vgamma", "vphi", "vdelta", "vOmega", "vepsilon",
             "wbeta", "wtheta", "wgamma", "wphi", "wdelta", "wOmega", "wepsilon",
             "lam1",  "lam2",   "lam3",   "lam4", "lam5",   "lam6"};
  p.y0.assign(27, 0.0);
  const double q0[7] = {-0.0617138900142764496358948458001, 0,
                        0.455279819163070380255912382449,   0.222668390165885884674473185609,
                        0.487364979543842550225598953530,   -0.222668390165885884674473185609,
                        1.23054744454982119249735015568};
  for (int i = 0; i < 7; ++i) p.y0[i] = q0[i];
  p.y0[14] = 14222.4439199541138705911625887;
  p.y0[15] = -10666.8329399655854029433719415;
  p.y0[21] = 98.5668703962410896057654982170;
  p.y0[22] = -6.12268834425566265503114393122;
  p.yp0.assign(27, 0.0);
  for (int i = 0; i < 7; ++i) p.yp0[7 + i] = p.y0[14 + i];  // v' = w
  for (int i = 14; i < 27; ++i) p.algebraic.push_back(i);
  p.suppress_algebraic = true;
  p.residual = residual;
  return p;
}

}  // namespace accuracy
