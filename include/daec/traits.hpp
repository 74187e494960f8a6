// What a generated Model offers beyond the members every model has (spec §4): the sparse
// Jacobians of §4.1, the dense ones (a model too large for them may omit them) and conditions.
// The adapters use these to choose at compile time, so that they work with any model.
#pragma once

#include <type_traits>

namespace daec::traits {

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

/// Model::has_dense_jacobians where the model declares it, else true.
template <typename Model, typename = void>
struct has_dense_jacobians : std::true_type {};
template <typename Model>
struct has_dense_jacobians<Model, std::void_t<decltype(Model::has_dense_jacobians)>>
    : std::bool_constant<Model::has_dense_jacobians> {};

/// Model::has_sparse_rhs_jacobian where the model declares it (the ODE form's Jacobian may be
/// too dense to tabulate), else whether the members exist.
template <typename Model, typename = void>
struct sparse_rhs_jacobian_usable : has_sparse_rhs_jacobian<Model> {};
template <typename Model>
struct sparse_rhs_jacobian_usable<Model, std::void_t<decltype(Model::has_sparse_rhs_jacobian)>>
    : std::bool_constant<Model::has_sparse_rhs_jacobian> {};

template <typename Model>
constexpr bool dense_jacobians_v = has_dense_jacobians<Model>::value;
template <typename Model>
constexpr bool sparse_rhs_jacobian_v = sparse_rhs_jacobian_usable<Model>::value;
template <typename Model>
constexpr bool sparse_residual_jacobian_v = has_sparse_residual_jacobian<Model>::value;
template <typename Model>
constexpr bool sparse_invariants_jacobian_v = has_sparse_invariants_jacobian<Model>::value;

}  // namespace daec::traits
