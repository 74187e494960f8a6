// The coefficients of the 3-stage Radau IIA method (order 5) in the form RADAU5 uses them
// (docs/integrators.md): nodes, error-estimate weights, and the
// eigendecomposition of the inverse Runge-Kutta matrix that splits each Newton iteration into a
// real and a complex linear system.
#pragma once

#include <cmath>

namespace daec {
namespace integrators {
namespace detail {

/// The coefficients of the 3-stage Radau IIA method in RADAU5's form: the nodes c1, c2 (c3 = 1),
/// the error-estimate weights dd, the eigenvalues u1 (real) and alpha +- i*beta of the inverse
/// of the Runge-Kutta matrix, and its eigenvector matrix T with inverse TI.
struct Radau5Coefficients {
  double c1, c2, c1m1, c2m1, c1mc2;
  double dd1, dd2, dd3;
  double u1, alpha, beta;
  double t11 = 9.1232394870892942792e-02, t12 = -0.14125529502095420843,
         t13 = -3.0029194105147424492e-02, t21 = 0.24171793270710701896,
         t22 = 0.20412935229379993199, t23 = 0.38294211275726193779,
         t31 = 0.96604818261509293619;  // t32 = 1, t33 = 0
  double ti11 = 4.3255798900631553510, ti12 = 0.33919925181580986954, ti13 = 0.54177053993587487119,
         ti21 = -4.1787185915519047273, ti22 = -0.32768282076106238708,
         ti23 = 0.47662355450055045196, ti31 = -0.50287263494578687595,
         ti32 = 2.5719269498556054292, ti33 = -0.59603920482822492497;

  Radau5Coefficients() {
    const double sq6 = std::sqrt(6.0);
    c1 = (4.0 - sq6) / 10.0;
    c2 = (4.0 + sq6) / 10.0;
    c1m1 = c1 - 1.0;
    c2m1 = c2 - 1.0;
    c1mc2 = c1 - c2;
    dd1 = -(13.0 + 7.0 * sq6) / 3.0;
    dd2 = (-13.0 + 7.0 * sq6) / 3.0;
    dd3 = -1.0 / 3.0;
    const double cbrt81 = std::cbrt(81.0), cbrt9 = std::cbrt(9.0);
    u1 = 30.0 / (6.0 + cbrt81 - cbrt9);
    const double a = (12.0 - cbrt81 + cbrt9) / 60.0;
    const double b = (cbrt81 + cbrt9) * std::sqrt(3.0) / 60.0;
    alpha = a / (a * a + b * b);
    beta = b / (a * a + b * b);
  }

  static const Radau5Coefficients& get() {
    static const Radau5Coefficients coefficients;
    return coefficients;
  }
};

}  // namespace detail
}  // namespace integrators
}  // namespace daec
