// Which optional members a Radau5 problem provides, detected at compile time (SFINAE), so that a
// problem writes only what it has. The full list of members is in radau5.hpp ("The Problem").
#pragma once

#include <string>
#include <type_traits>
#include <utility>

#include "daec/integrators/jacobian_matrix.hpp"

namespace daec {
namespace integrators {
namespace traits {

template <class P, class = void>
struct has_dense_jacobian : std::false_type {};
template <class P>
struct has_dense_jacobian<
    P, std::void_t<decltype(std::declval<int&>() = std::declval<P&>().jacobian(
                                0.0, std::declval<const double*>(), std::declval<double*>()))>>
    : std::true_type {};

template <class P, class = void>
struct has_sparse_jacobian : std::false_type {};
template <class P>
struct has_sparse_jacobian<
    P,
    std::void_t<decltype(std::declval<SparsityPattern&>() = std::declval<P&>().jacobian_pattern()),
                decltype(std::declval<int&>() = std::declval<P&>().jacobian_values(
                             0.0, std::declval<const double*>(), std::declval<double*>()))>>
    : std::true_type {};

template <class P, class = void>
struct has_mass : std::false_type {};
template <class P>
struct has_mass<P,
                std::void_t<decltype(std::declval<bool&>() = std::declval<P&>().is_algebraic(0))>>
    : std::true_type {};

template <class P, class = void>
struct has_project : std::false_type {};
template <class P>
struct has_project<P, std::void_t<decltype(std::declval<int&>() = std::declval<P&>().project(
                                               0.0, std::declval<double*>()))>> : std::true_type {};

template <class P, class = void>
struct has_project_error : std::false_type {};
template <class P>
struct has_project_error<
    P, std::void_t<decltype(std::declval<int&>() = std::declval<P&>().project_error(
                                0.0, std::declval<const double*>(), std::declval<double*>()))>>
    : std::true_type {};

template <class P, class = void>
struct has_roots : std::false_type {};
template <class P>
struct has_roots<
    P, std::void_t<decltype(std::declval<int&>() = std::declval<P&>().num_roots()),
                   decltype(std::declval<int&>() = std::declval<P&>().roots(
                                0.0, std::declval<const double*>(), std::declval<double*>()))>>
    : std::true_type {};

template <class P, class = void>
struct has_failure_message : std::false_type {};
template <class P>
struct has_failure_message<
    P, std::void_t<decltype(std::declval<std::string&>() = std::declval<P&>().failure_message())>>
    : std::true_type {};

}  // namespace traits
}  // namespace integrators
}  // namespace daec
