// The example of the product's spec, section 8, as written there: a program of one's own that
// includes the public headers <daec/odeint.hpp> and <daec/sundials.hpp> and integrates the
// pendulum of docs/example with Boost.Odeint. tests/e2e/package_test.sh (part adapters) compiles
// it against the installed package, with the model's code and header from the installed daec,
// and runs it: the public include paths must keep working whatever the installation's layout.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <daec/odeint.hpp>
#include <daec/sundials.hpp>

#include "pendulum.h"  // daec pendulum.dae --header pendulum.h

int main() {
  // clang-format off
  // ---- the spec's lines, unchanged ----
pendulum::Model model;                                  // from daec_add_model(pend pendulum.dae)
std::vector<double> x(pendulum::Model::num_states);
model.initial_state(x.data());
model.consistent_initialization(0.0, x.data());
namespace odeint = boost::numeric::odeint;
odeint::integrate(daec::odeint::system<pendulum::Model>(model), x, 0.0, 1.0, 1e-3);
boost::numeric::ublas::vector<double> y(x.size());      // the stiff pair for rosenbrock4
std::copy(x.begin(), x.end(), y.begin());
odeint::integrate_const(odeint::make_dense_output<odeint::rosenbrock4<double>>(1e-8, 1e-8),
                        daec::odeint::stiff_system<pendulum::Model>(model), y, 1.0, 2.0, 1e-2);
  // ---- end of the spec's lines ----
  // clang-format on
  // <daec/sundials.hpp> gives the CVODE callbacks by their public name: the right-hand side as
  // the function pointer CVodeInit takes (a program of its own, docs/example/cvode_pendulum.cpp,
  // runs one).
  int (*const rhs)(sunrealtype, N_Vector, N_Vector, void*) =
      daec::sundials::cvode_rhs<pendulum::Model>;
  (void)rhs;
  std::printf("x(2) = %.6f, y(2) = %.6f; rod residual %.1e; cvode_rhs found\n", y[0], y[1],
              y[0] * y[0] + y[1] * y[1] - 1.0);
  return 0;
}
