// What a generated Model offers beyond the members every model has (docs/generated-code.md): the
// sparse Jacobians of §4.1, the dense ones (a model too large for them may omit them), conditions
// and dependent parameters. The adapters use these to choose at compile time, so that they work
// with any model.
#pragma once

#include <type_traits>
#include <utility>

namespace daec::traits {

/// Whether Model is the compiled runtime's System (daec/runtime/system.hpp), whose sizes and
/// optional members are known only at run time: it offers every member, and says in data which
/// ones work (has_dense_jacobians, ...). The traits below take it as offering all of them; the
/// functions at the end answer for either kind.
template <typename Model, typename = void>
struct is_runtime_system : std::false_type {};
template <typename Model>
struct is_runtime_system<Model, std::enable_if_t<Model::is_runtime_system>> : std::true_type {};
template <typename Model>
constexpr bool is_runtime_system_v = is_runtime_system<Model>::value;

template <typename Model, typename = void>
struct has_sparse_rhs_jacobian : std::false_type {};
template <typename Model>
struct has_sparse_rhs_jacobian<Model, std::void_t<decltype(Model::rhs_jacobian_nnz)>>
    : std::true_type {};

template <typename Model, typename = void>
struct has_sparse_residual_jacobian : std::false_type {};
template <typename Model>
struct has_sparse_residual_jacobian<Model, std::void_t<decltype(Model::residual_jacobian_nnz)>>
    : std::true_type {};

template <typename Model, typename = void>
struct has_sparse_invariants_jacobian : std::false_type {};
template <typename Model>
struct has_sparse_invariants_jacobian<Model, std::void_t<decltype(Model::invariants_jacobian_nnz)>>
    : std::true_type {};

/// Whether Model tells which states are continuous across events (Model::state_continuous);
/// a model written by hand may not.
template <typename Model, typename = void>
struct has_state_continuous : std::false_type {};
template <typename Model>
struct has_state_continuous<Model, std::void_t<decltype(Model::state_continuous)>>
    : std::true_type {};

/// Whether Model tells each state's weight in project's least correction
/// (Model::projection_weight); a model written by hand may not.
template <typename Model, typename = void>
struct has_projection_weight : std::false_type {};
template <typename Model>
struct has_projection_weight<Model, std::void_t<decltype(Model::projection_weight)>>
    : std::true_type {};

/// Whether Model has consistent_reinitialization (every generated model; one written by hand
/// may not).
template <typename Model, typename = void>
struct has_consistent_reinitialization : std::false_type {};
template <typename Model>
struct has_consistent_reinitialization<
    Model, std::void_t<decltype(std::declval<const Model&>().consistent_reinitialization(
               0.0, static_cast<double*>(nullptr), static_cast<const double*>(nullptr),
               static_cast<const bool*>(nullptr)))>> : std::true_type {};

/// Whether Model has algebraic_log_determinant and start_surplus (every generated model).
template <typename Model, typename = void>
struct has_algebraic_log_determinant : std::false_type {};
template <typename Model>
struct has_algebraic_log_determinant<
    Model, std::void_t<decltype(std::declval<const Model&>().algebraic_log_determinant(
               0.0, static_cast<const double*>(nullptr)))>> : std::true_type {};
template <typename Model, typename = void>
struct has_start_surplus : std::false_type {};
template <typename Model>
struct has_start_surplus<Model,
                         std::void_t<decltype(std::declval<const Model&>().start_surplus(
                             0.0, static_cast<const double*>(nullptr),
                             static_cast<const double*>(nullptr), static_cast<int*>(nullptr)))>>
    : std::true_type {};

/// Model::has_dense_jacobians where the model declares it, else true.
template <typename Model, typename = void>
struct has_dense_jacobians : std::true_type {};
template <typename Model>
struct has_dense_jacobians<Model,
                           std::enable_if_t<!is_runtime_system_v<Model>,
                                            std::void_t<decltype(Model::has_dense_jacobians)>>>
    : std::bool_constant<Model::has_dense_jacobians> {};

/// Model::has_sparse_rhs_jacobian where the model declares it (the ODE form's Jacobian may be
/// too dense to tabulate), else whether the members exist.
template <typename Model, typename = void>
struct sparse_rhs_jacobian_usable : has_sparse_rhs_jacobian<Model> {};
template <typename Model>
struct sparse_rhs_jacobian_usable<
    Model, std::enable_if_t<!is_runtime_system_v<Model>,
                            std::void_t<decltype(Model::has_sparse_rhs_jacobian)>>>
    : std::bool_constant<Model::has_sparse_rhs_jacobian> {};

/// Model::num_conditions where the model declares it (it has relations), else 0.
template <typename Model, typename = void>
struct num_conditions : std::integral_constant<int, 0> {};
template <typename Model>
struct num_conditions<Model, std::enable_if_t<!is_runtime_system_v<Model>,
                                              std::void_t<decltype(Model::num_conditions)>>>
    : std::integral_constant<int, Model::num_conditions> {};

/// Model::num_when_clauses where the model declares it (it has when clauses), else 0.
template <typename Model, typename = void>
struct num_when_clauses : std::integral_constant<int, 0> {};
template <typename Model>
struct num_when_clauses<Model, std::enable_if_t<!is_runtime_system_v<Model>,
                                                std::void_t<decltype(Model::num_when_clauses)>>>
    : std::integral_constant<int, Model::num_when_clauses> {};

/// Whether the model has the members of dependent parameters (parameter_bindings,
/// parameter_bound, update_dependent_parameters, set_parameter by index): every model daec
/// generates has them; a hand-written model may not.
template <typename Model, typename = void>
struct has_parameter_bindings : std::false_type {};
template <typename Model>
struct has_parameter_bindings<Model, std::void_t<decltype(Model::parameter_bindings)>>
    : std::true_type {};

/// Whether the model keeps the order of interp tables' breakpoints (num_parameter_orders,
/// parameter_orders): the models daec generates with an interp table.
template <typename Model, typename = void>
struct has_parameter_orders : std::false_type {};
template <typename Model>
struct has_parameter_orders<Model, std::void_t<decltype(Model::parameter_orders)>>
    : std::true_type {};

/// Whether the model has the unit tables (state_units, ..., variable_units): every model daec
/// generates has them; a hand-written model may not.
template <typename Model, typename = void>
struct has_units : std::false_type {};
template <typename Model>
struct has_units<Model, std::void_t<decltype(Model::variable_units)>> : std::true_type {};

/// Whether the model has the singular-point checks (algebraic_condition, invariants_condition):
/// every model daec generates has them; a hand-written model may not.
template <typename Model, typename = void>
struct has_condition_checks : std::false_type {};
template <typename Model>
struct has_condition_checks<Model, std::void_t<decltype(&Model::algebraic_condition),
                                               decltype(&Model::invariants_condition)>>
    : std::true_type {};

/// Whether the model has the parameter Jacobians (rhs_, residual_, invariants_parameter_jacobian
/// in CSC; docs/generated-code.md, "Parameter Jacobians"): every model daec generates has them.
template <typename Model, typename = void>
struct has_parameter_jacobians : std::false_type {};
template <typename Model>
struct has_parameter_jacobians<Model, std::void_t<decltype(Model::rhs_parameter_jacobian_nnz)>>
    : std::true_type {};

template <typename Model>
constexpr bool dense_jacobians_v = has_dense_jacobians<Model>::value;
template <typename Model>
constexpr bool parameter_jacobians_v = has_parameter_jacobians<Model>::value;
template <typename Model>
constexpr bool condition_checks_v = has_condition_checks<Model>::value;
template <typename Model>
constexpr bool sparse_rhs_jacobian_v = sparse_rhs_jacobian_usable<Model>::value;
template <typename Model>
constexpr bool sparse_residual_jacobian_v = has_sparse_residual_jacobian<Model>::value;
template <typename Model>
constexpr bool sparse_invariants_jacobian_v = has_sparse_invariants_jacobian<Model>::value;
template <typename Model>
constexpr int num_conditions_v = num_conditions<Model>::value;
template <typename Model>
constexpr int num_when_clauses_v = num_when_clauses<Model>::value;

template <typename Model>
constexpr bool parameter_bindings_v = has_parameter_bindings<Model>::value;
template <typename Model>
constexpr bool units_v = has_units<Model>::value;

/// Parameter `i`'s binding as the model writes it ("1/tau"), or "" (its default is a number, or
/// the model has no parameter_bindings).
template <typename Model>
const char* parameter_binding(int i) {
  if constexpr (parameter_bindings_v<Model>) {
    const char* binding = Model::parameter_bindings[i];
    return binding != nullptr ? binding : "";
  } else {
    (void)i;
    return "";
  }
}

/// Whether `model` has the dense Jacobians: at run time for a System, else traits'.
template <typename Model>
bool dense_jacobians(const Model& model) {
  if constexpr (is_runtime_system_v<Model>) {
    return model.has_dense_jacobians;
  } else {
    (void)model;
    return dense_jacobians_v<Model>;
  }
}

}  // namespace daec::traits
