// daec/runtime/model_adapter.hpp: a Model as the compiled runtime's System, on the hand-written
// circle models (circle_model.h, switch_model.h): the data it describes, the calls it forwards,
// the members a Model lacks answered as absent, and copy()/fresh() independent of the original.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <daec/runtime/model_adapter.hpp>
#include <daec/runtime/parameter_orders.hpp>

#include "circle_model.h"
#include "switch_model.h"

namespace {

using daec::runtime::ModelAdapter;
using daec::runtime::System;

TEST(ModelAdapter, DescribesTheModelsTablesAndWhatItOffers) {
  const ModelAdapter<circle::Model> adapter;
  const System& system = adapter;
  EXPECT_STREQ(system.model_name, "circle");
  EXPECT_EQ(system.num_states, 2);
  EXPECT_EQ(system.num_algebraic, 1);
  EXPECT_EQ(system.num_invariants, 1);
  EXPECT_EQ(system.num_conditions, 0);
  EXPECT_EQ(system.condition_names, nullptr);
  EXPECT_STREQ(system.state_names[1], "y");
  EXPECT_STREQ(system.algebraic_equation[0], "radius2");
  EXPECT_EQ(system.variable_location[2], -1);
  EXPECT_TRUE(system.has_dense_jacobians);
  EXPECT_TRUE(system.has_sparse_rhs_jacobian);
  EXPECT_TRUE(system.has_sparse_residual_jacobian);
  EXPECT_TRUE(system.has_sparse_invariants_jacobian);
  EXPECT_EQ(system.residual_jacobian_nnz, 9);
  EXPECT_EQ(system.rhs_jacobian_colptr[2], 4);
  // The hand-written model has neither bindings nor the singular-point checks.
  EXPECT_EQ(system.parameter_bindings, nullptr);
  EXPECT_STREQ(system.parameter_binding(0), "");
  EXPECT_FALSE(system.has_condition_checks);
  int unknown = 7;
  EXPECT_EQ(system.algebraic_condition(0.0, nullptr, &unknown, nullptr), 1.0);
  EXPECT_EQ(unknown, -1);
}

TEST(ModelAdapter, ForwardsTheCallsAndAnswersMissingJacobiansAsFailing) {
  const ModelAdapter<circle::Model> adapter;
  const System& system = adapter;
  std::vector<double> x(2), xdot(2), z(1);
  system.initial_state(x.data());
  ASSERT_EQ(system.rhs(0.0, x.data(), xdot.data(), z.data()), 0);
  circle::Model model;
  std::vector<double> expected(2), expected_z(1);
  model.rhs(0.0, x.data(), expected.data(), expected_z.data());
  EXPECT_EQ(xdot, expected);
  EXPECT_EQ(z, expected_z);

  const ModelAdapter<circle::SparseModel> sparse;
  EXPECT_FALSE(sparse.has_dense_jacobians);
  std::vector<double> J(4);
  EXPECT_EQ(static_cast<const System&>(sparse).rhs_jacobian(0.0, x.data(), J.data()), 1);
}

TEST(ModelAdapter, CopyAndFreshAreIndependentOfTheOriginal) {
  ModelAdapter<circle::Model> adapter;
  ASSERT_EQ(adapter.set_parameter("w", 5.0), 0);
  adapter.fixed[1] = true;
  const std::unique_ptr<System> copy = adapter.copy();
  EXPECT_EQ(copy->p[0], 5.0);
  EXPECT_TRUE(copy->fixed[1]);
  copy->set_parameter("w", 7.0);
  EXPECT_EQ(adapter.p[0], 5.0);  // the copy's settings are its own
  EXPECT_EQ(copy->p[0], 7.0);
  const std::unique_ptr<System> fresh = adapter.fresh();
  EXPECT_EQ(fresh->p[0], 2.0);  // the model's default
  EXPECT_FALSE(fresh->fixed[1]);
}

TEST(ModelAdapter, ForwardsConditionsAndModes) {
  ModelAdapter<switching::Model> adapter;
  EXPECT_EQ(adapter.num_conditions, 1);
  EXPECT_STREQ(adapter.condition_names[0], "speed: y < r/2");
  const std::vector<double> x = {0.0, 1.5};  // y = r: above r/2
  adapter.set_modes(0.0, x.data());
  EXPECT_EQ(adapter.modes()[0], 0.0);
  std::vector<double> g(1);
  adapter.conditions(0.0, x.data(), g.data());
  EXPECT_DOUBLE_EQ(g[0], 0.75);
  const std::unique_ptr<System> copy = adapter.copy();
  const std::vector<double> below = {1.5, 0.0};
  copy->set_modes(0.0, below.data());
  EXPECT_EQ(copy->modes()[0], 1.0);
  EXPECT_EQ(adapter.modes()[0], 0.0);
  copy->release_modes();  // the copy's only: the adapter keeps its frozen mode
  EXPECT_EQ(copy->modes()[0], -1.0);
  EXPECT_EQ(adapter.modes()[0], 0.0);

  ModelAdapter<circle::Model> without;
  EXPECT_EQ(without.modes(), nullptr);
  without.release_modes();  // nothing to release
}

}  // namespace

// A model whose parameters must stay in order, w < r, as a generated model with an interp table
// keeps its breakpoints (docs/generated-code.md, "Tables"): set_parameter refuses with -2.
struct OrderedModel : circle::Model {
  static constexpr int num_parameter_orders = 1;
  static constexpr int parameter_orders[] = {0, 1};
  int set_parameter(const char* name, double value) {
    const double saved[] = {p[0], p[1]};
    const int status = circle::Model::set_parameter(name, value);
    if (status == 0 && !(p[0] < p[1])) {
      p[0] = saved[0], p[1] = saved[1];
      return -2;
    }
    return status;
  }
};

TEST(ModelAdapter, ParameterOrdersAndWhyAValueIsRefused) {
  EXPECT_EQ(static_cast<const System&>(ModelAdapter<circle::Model>{}).num_parameter_orders, 0);
  ModelAdapter<OrderedModel> adapter;
  const System& system = adapter;
  ASSERT_EQ(system.num_parameter_orders, 1);
  EXPECT_EQ(system.parameter_orders[1], 1);
  // Defaults w = 2, r = 1.5 are out of order on purpose: the refusal compares what would be.
  ASSERT_EQ(adapter.set_parameter("w", 1.0), 0);
  EXPECT_EQ(adapter.set_parameter("r", 0.5), -2);
  EXPECT_EQ(system.p[1], 1.5);
  EXPECT_EQ(daec::runtime::broken_order_message(system, 1, 0.5),
            "parameter 'r' = 0.5 would break the order of an interp table: w = 1 is not below r = "
            "0.5 (breakpoints must increase strictly)");
}
