// daec/model_error.hpp: the failure texts every adapter gives, on the hand-written circle model.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <daec/model_error.hpp>

#include "circle_model.h"

namespace {

using circle::Model;
using daec::text::format_number;

TEST(ModelError, NumbersReadBackExactly) {
  EXPECT_EQ(format_number(0.1), "0.1");
  EXPECT_EQ(format_number(1e-300), "1e-300");
  EXPECT_EQ(format_number(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(format_number(-std::nan("")), "nan");
  EXPECT_EQ(format_number(-HUGE_VAL), "-inf");
}

TEST(ModelError, RhsFailuresNameTheQuantity) {
  Model model;
  const double fine[2] = {1.5, 0.0}, nan_state[2] = {1.0, std::nan("")};
  const double huge[2] = {1e200, 1e200};
  EXPECT_EQ(daec::text::rhs_failure(model, 0.0, fine), "");
  EXPECT_EQ(daec::text::rhs_failure(model, 0.0, nan_state), "the state 'y' is not finite");
  EXPECT_EQ(daec::text::rhs_failure(model, 0.0, huge),
            "the algebraic unknown 'z' is not finite (sqrt or log of a negative number, log of 0, "
            "a division by 0 or an overflow in its equation 'radius2'?)");
  model.set_parameter("w", std::nan(""));
  EXPECT_EQ(daec::text::rhs_failure(model, 0.0, fine),
            "the derivative of the state 'x' is not finite (sqrt or log of a negative number, log "
            "of 0, a division by 0 or an overflow in its equation?)");
}

TEST(ModelError, CheckedCallsThrowTheSimulatorsWords) {
  Model model;
  const double nan_state[2] = {std::nan(""), 0.0};
  double xdot[2], J[4];
  try {
    daec::checked_rhs(model, 0.25, nan_state, xdot, nullptr);
    FAIL() << "no exception";
  } catch (const daec::model_error& error) {
    EXPECT_STREQ(error.what(), "rhs failed at t = 0.25: the state 'x' is not finite");
  }
  EXPECT_THROW(daec::checked_rhs_jacobian(model, 0.0, nan_state, J), daec::model_error);
  const double fine[2] = {1.5, 0.0};
  EXPECT_NO_THROW(daec::checked_rhs_jacobian(model, 0.0, fine, J));
  EXPECT_DOUBLE_EQ(J[2], 2.0 * (2.25 + 2 * 2.25) / 2.25);  // dy'/dx = w (z + 2 x^2) / r^2
}

TEST(ModelError, ProjectionFailureNamesTheLargestResidual) {
  Model model;
  const double start[2] = {3.0, 0.0}, stuck[2] = {0.0, 0.0};
  EXPECT_EQ(daec::text::projection_failure(model, 0.0, start, stuck),
            "no convergence, the largest residual is circle = 6.75 (the constraints may have no "
            "solution near this state)");
  const double gone[2] = {std::nan(""), 0.0};
  EXPECT_EQ(daec::text::projection_failure(model, 0.0, start, gone),
            "the state 'x' became non-finite");
}

}  // namespace
