// ModelAdapter<Model>: a generated Model (or a hand-written one with the same members) as the
// runtime's System (system.hpp). It owns a Model, points the System's data at the Model's static
// tables and instance settings, and forwards each virtual call; the members a Model may lack
// (dense Jacobians, sparse patterns, conditions, singular-point checks, dependent parameters) are
// found at compile time by daec/traits.hpp and answered as "not there".
#pragma once

#include <algorithm>
#include <limits>
#include <memory>

#include <daec/runtime/system.hpp>
#include <daec/traits.hpp>

namespace daec::runtime {

template <typename Model>
class ModelAdapter final : public System {
 public:
  explicit ModelAdapter(const Model& model = Model{}) : model_(model) { describe(); }

  const Model& model() const { return model_; }

  std::unique_ptr<System> copy() const override { return std::make_unique<ModelAdapter>(model_); }
  std::unique_ptr<System> fresh() const override { return std::make_unique<ModelAdapter>(); }

  int set_parameter(const char* name, double value) override {
    return model_.set_parameter(name, value);
  }
  void initial_state(double* x) const override { model_.initial_state(x); }
  void initial_algebraic(double* z) const override { model_.initial_algebraic(z); }
  void state_nominal(double* s) const override { model_.state_nominal(s); }
  int rhs(double t, const double* x, double* xdot, double* z) const override {
    return model_.rhs(t, x, xdot, z);
  }
  int rhs_failure(double t, const double* x, int* index) const override {
    return model_.rhs_failure(t, x, index);
  }
  int rhs_jacobian(double t, const double* x, double* J) const override {
    if constexpr (traits::dense_jacobians_v<Model>) {
      return model_.rhs_jacobian(t, x, J);
    } else {
      (void)t, (void)x, (void)J;
      return 1;
    }
  }
  void residual_jacobian(double t, const double* x, const double* xdot, const double* z,
                         double* dr_dx, double* dr_dxdot, double* dr_dz) const override {
    if constexpr (traits::dense_jacobians_v<Model>) {
      model_.residual_jacobian(t, x, xdot, z, dr_dx, dr_dxdot, dr_dz);
    } else {
      (void)t, (void)x, (void)xdot, (void)z, (void)dr_dx, (void)dr_dxdot, (void)dr_dz;
    }
  }
  void invariants_jacobian(double t, const double* x, double* H) const override {
    if constexpr (traits::dense_jacobians_v<Model>) {
      model_.invariants_jacobian(t, x, H);
    } else {
      (void)t, (void)x, (void)H;
    }
  }
  int rhs_jacobian_values(double t, const double* x, double* values) const override {
    if constexpr (traits::sparse_rhs_jacobian_v<Model>) {
      return model_.rhs_jacobian_values(t, x, values);
    } else {
      (void)t, (void)x, (void)values;
      return 1;
    }
  }
  void residual_jacobian_values(double t, const double* x, const double* xdot, const double* z,
                                double alpha, double* values) const override {
    if constexpr (traits::sparse_residual_jacobian_v<Model>) {
      model_.residual_jacobian_values(t, x, xdot, z, alpha, values);
    } else {
      (void)t, (void)x, (void)xdot, (void)z, (void)alpha, (void)values;
    }
  }
  int rhs_parameter_jacobian_values(double t, const double* x, double* values) const override {
    if constexpr (traits::parameter_jacobians_v<Model>) {
      return model_.rhs_parameter_jacobian_values(t, x, values);
    } else {
      (void)t, (void)x, (void)values;
      return 1;
    }
  }
  void residual_parameter_jacobian_values(double t, const double* x, const double* xdot,
                                          const double* z, double* values) const override {
    if constexpr (traits::parameter_jacobians_v<Model>) {
      model_.residual_parameter_jacobian_values(t, x, xdot, z, values);
    } else {
      (void)t, (void)x, (void)xdot, (void)z, (void)values;
    }
  }
  void invariants_parameter_jacobian_values(double t, const double* x,
                                            double* values) const override {
    if constexpr (traits::parameter_jacobians_v<Model>) {
      model_.invariants_parameter_jacobian_values(t, x, values);
    } else {
      (void)t, (void)x, (void)values;
    }
  }
  void invariants_jacobian_values(double t, const double* x, double* values) const override {
    if constexpr (traits::sparse_invariants_jacobian_v<Model>) {
      model_.invariants_jacobian_values(t, x, values);
    } else {
      (void)t, (void)x, (void)values;
    }
  }
  void residual(double t, const double* x, const double* xdot, const double* z,
                double* r) const override {
    model_.residual(t, x, xdot, z, r);
  }
  void invariants(double t, const double* x, double* h) const override {
    model_.invariants(t, x, h);
  }
  int project(double t, double* x) const override { return model_.project(t, x); }
  void initial_equations(double t, const double* x, const double* xdot, const double* z,
                         double* r) const override {
    model_.initial_equations(t, x, xdot, z, r);
  }
  int consistent_initialization(double t, double* x, const double* z_start) const override {
    return model_.consistent_initialization(t, x, z_start);
  }
  void outputs(double t, const double* x, double* y) const override { model_.outputs(t, x, y); }
  double algebraic_condition(double t, const double* x, int* unknown, int* sign) const override {
    if constexpr (traits::condition_checks_v<Model>) {
      return model_.algebraic_condition(t, x, unknown, sign);
    } else {
      (void)t, (void)x, (void)sign;
      if (unknown != nullptr) *unknown = -1;
      return 1.0;
    }
  }
  double algebraic_log_determinant(double t, const double* x) const override {
    if constexpr (traits::has_algebraic_log_determinant<Model>::value) {
      return model_.algebraic_log_determinant(t, x);
    } else {
      (void)t, (void)x;
      return std::numeric_limits<double>::quiet_NaN();
    }
  }
  int start_surplus(double t, const double* x, const double* z_start, int* rows) const override {
    if constexpr (traits::has_start_surplus<Model>::value) {
      return model_.start_surplus(t, x, z_start, rows);
    } else {
      (void)t, (void)x, (void)z_start, (void)rows;
      return 0;
    }
  }
  double invariants_condition(double t, const double* x, int* invariant) const override {
    if constexpr (traits::condition_checks_v<Model>) {
      return model_.invariants_condition(t, x, invariant);
    } else {
      (void)t, (void)x;
      if (invariant != nullptr) *invariant = -1;
      return 1.0;
    }
  }
  void conditions(double t, const double* x, double* g) const override {
    if constexpr ((traits::num_conditions_v<Model>) > 0) {
      model_.conditions(t, x, g);
    } else {
      (void)t, (void)x, (void)g;
    }
  }
  int set_modes(double t, const double* x) override {
    if constexpr ((traits::num_conditions_v<Model>) > 0) {
      return model_.set_modes(t, x);
    } else {
      (void)t, (void)x;
      return 0;
    }
  }
  const double* modes() const override {
    if constexpr ((traits::num_conditions_v<Model>) > 0) {
      return model_.modes();
    } else {
      return nullptr;
    }
  }
  void release_modes() override {
    if constexpr ((traits::num_conditions_v<Model>) > 0)
      std::fill(model_.modes(), model_.modes() + traits::num_conditions_v<Model>, -1.0);
  }
  void when_conditions(double t, const double* x, double* c) const override {
    if constexpr ((traits::num_when_clauses_v<Model>) > 0) {
      model_.when_conditions(t, x, c);
    } else {
      (void)t, (void)x, (void)c;
    }
  }
  int reinit(int clause, double t, const double* x_before, double* x, double* z,
             bool* held) const override {
    if constexpr ((traits::num_when_clauses_v<Model>) > 0) {
      return model_.reinit(clause, t, x_before, x, z, held);
    } else {
      (void)clause, (void)t, (void)x_before, (void)x, (void)z, (void)held;
      return -1;
    }
  }
  int consistent_reinitialization(double t, double* x, const double* z,
                                  const bool* held) const override {
    if constexpr (traits::has_consistent_reinitialization<Model>::value) {
      return model_.consistent_reinitialization(t, x, z, held);
    } else {  // a model written by hand without it: the projection, which holds nothing
      (void)z, (void)held;
      return model_.project(t, x);
    }
  }

 private:
  // The System's data: the Model's static tables, and its instance settings.
  void describe() {
    model_name = Model::model_name;
    num_states = Model::num_states;
    num_algebraic = Model::num_algebraic;
    num_invariants = Model::num_invariants;
    num_parameters = Model::num_parameters;
    num_outputs = Model::num_outputs;
    num_variables = Model::num_variables;
    num_initial_equations = Model::num_initial_equations;
    num_conditions = traits::num_conditions_v<Model>;
    state_names = Model::state_names;
    algebraic_names = Model::algebraic_names;
    invariant_names = Model::invariant_names;
    parameter_names = Model::parameter_names;
    output_names = Model::output_names;
    variable_names = Model::variable_names;
    variable_descriptions = Model::variable_descriptions;
    output_descriptions = Model::output_descriptions;
    if constexpr (traits::units_v<Model>) {
      state_units = Model::state_units;
      algebraic_units = Model::algebraic_units;
      parameter_units = Model::parameter_units;
      output_units = Model::output_units;
      variable_units = Model::variable_units;
    }
    variable_location = Model::variable_location;
    algebraic_block = Model::algebraic_block;
    algebraic_equation = Model::algebraic_equation;
    initial_equation_names = Model::initial_equation_names;
    if constexpr ((traits::num_conditions_v<Model>) > 0) condition_names = Model::condition_names;
    if constexpr (traits::has_parameter_orders<Model>::value) {
      num_parameter_orders = Model::num_parameter_orders;
      parameter_orders = Model::parameter_orders;
    }
    num_when_clauses = traits::num_when_clauses_v<Model>;
    if constexpr ((traits::num_when_clauses_v<Model>) > 0) when_names = Model::when_names;
    if constexpr (traits::parameter_bindings_v<Model>) {
      parameter_bindings = Model::parameter_bindings;
      parameter_bound = model_.parameter_bound;
    }
    has_dense_jacobians = traits::dense_jacobians_v<Model>;
    has_sparse_rhs_jacobian = traits::sparse_rhs_jacobian_v<Model>;
    has_sparse_residual_jacobian = traits::sparse_residual_jacobian_v<Model>;
    has_sparse_invariants_jacobian = traits::sparse_invariants_jacobian_v<Model>;
    has_condition_checks = traits::condition_checks_v<Model>;
    if constexpr (traits::has_sparse_rhs_jacobian<Model>::value) {
      rhs_jacobian_nnz = Model::rhs_jacobian_nnz;
      rhs_jacobian_colptr = Model::rhs_jacobian_colptr;
      rhs_jacobian_rowval = Model::rhs_jacobian_rowval;
    }
    if constexpr (traits::sparse_residual_jacobian_v<Model>) {
      residual_jacobian_nnz = Model::residual_jacobian_nnz;
      residual_jacobian_colptr = Model::residual_jacobian_colptr;
      residual_jacobian_rowval = Model::residual_jacobian_rowval;
    }
    if constexpr (traits::sparse_invariants_jacobian_v<Model>) {
      invariants_jacobian_nnz = Model::invariants_jacobian_nnz;
      invariants_jacobian_colptr = Model::invariants_jacobian_colptr;
      invariants_jacobian_rowval = Model::invariants_jacobian_rowval;
    }
    has_parameter_jacobians = traits::parameter_jacobians_v<Model>;
    if constexpr (traits::parameter_jacobians_v<Model>) {
      rhs_parameter_jacobian_nnz = Model::rhs_parameter_jacobian_nnz;
      rhs_parameter_jacobian_colptr = Model::rhs_parameter_jacobian_colptr;
      rhs_parameter_jacobian_rowval = Model::rhs_parameter_jacobian_rowval;
      residual_parameter_jacobian_nnz = Model::residual_parameter_jacobian_nnz;
      residual_parameter_jacobian_colptr = Model::residual_parameter_jacobian_colptr;
      residual_parameter_jacobian_rowval = Model::residual_parameter_jacobian_rowval;
      invariants_parameter_jacobian_nnz = Model::invariants_parameter_jacobian_nnz;
      invariants_parameter_jacobian_colptr = Model::invariants_parameter_jacobian_colptr;
      invariants_parameter_jacobian_rowval = Model::invariants_parameter_jacobian_rowval;
    }
    p = model_.p;
    fixed = model_.fixed;
    start_given = model_.start_given;
    if constexpr (traits::has_state_continuous<Model>::value)
      state_continuous = Model::state_continuous;
    if constexpr (traits::has_projection_weight<Model>::value)
      projection_weight = Model::projection_weight;
  }

  Model model_;
};

}  // namespace daec::runtime
