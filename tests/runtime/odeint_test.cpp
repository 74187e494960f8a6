// daec/adapters/odeint.hpp, through its public name of the product's spec (section 8),
// <daec/odeint.hpp>, which brings Boost.Odeint with it: Boost.Odeint's explicit and stiff steppers
// on the hand-written circle model.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <daec/odeint.hpp>

#include "circle_model.h"

namespace {

using circle::Model;
namespace odeint = boost::numeric::odeint;

TEST(Odeint, Dopri5FollowsTheCircle) {
  Model model;
  std::vector<double> x(2);
  model.initial_state(x.data());
  auto stepper =
      odeint::make_controlled<odeint::runge_kutta_dopri5<std::vector<double>>>(1e-10, 1e-10);
  odeint::integrate_adaptive(stepper, daec::odeint::system<Model>(model), x, 0.0, 2.0, 1e-3);
  EXPECT_NEAR(x[0], 1.5 * std::cos(4.0), 1e-8);
  EXPECT_NEAR(x[1], 1.5 * std::sin(4.0), 1e-8);
}

TEST(Odeint, Rosenbrock4UsesTheJacobian) {
  Model model;
  daec::odeint::stiff_vector y(2);
  y(0) = 1.5, y(1) = 0.0;
  odeint::integrate_const(odeint::make_dense_output<odeint::rosenbrock4<double>>(1e-10, 1e-10),
                          daec::odeint::stiff_system<Model>(model), y, 0.0, 2.0, 0.1);
  EXPECT_NEAR(y(0), 1.5 * std::cos(4.0), 1e-7);
  EXPECT_NEAR(y(1), 1.5 * std::sin(4.0), 1e-7);
  daec::odeint::stiff_matrix J(2, 2);
  daec::odeint::stiff_vector dfdt(2);
  const daec::odeint::stiff_jacobian<Model> jacobian(model);
  jacobian(y, J, 0.0, dfdt);
  EXPECT_DOUBLE_EQ(J(0, 0), -2.0 * y(1) * 2 * y(0) / 2.25);
  EXPECT_EQ(dfdt(0), 0.0);  // autonomous: the central difference is exactly 0
}

TEST(Odeint, ModelFailureThrowsModelError) {
  Model model;
  std::vector<double> x = {std::nan(""), 0.0}, dxdt(2);
  const daec::odeint::system<Model> rhs(model);
  try {
    rhs(x, dxdt, 1.5);
    FAIL() << "no exception";
  } catch (const daec::model_error& error) {
    EXPECT_STREQ(error.what(), "rhs failed at t = 1.5: the state 'x' is not finite");
  }
  std::vector<double> short_state(1);
  EXPECT_THROW(rhs(short_state, dxdt, 0.0), daec::model_error);
}

}  // namespace
