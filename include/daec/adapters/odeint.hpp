// Boost.Odeint systems of a generated model (docs/adapters.md), header-only:
//
//   pendulum::Model model;
//   std::vector<double> x(pendulum::Model::num_states);
//   model.initial_state(x.data());
//   model.consistent_initialization(0.0, x.data());
//   namespace odeint = boost::numeric::odeint;
//   odeint::integrate(daec::odeint::system<pendulum::Model>(model), x, 0.0, 1.0, 1e-3);
//
// system<Model> is the functor (x, dxdt, t) that every explicit stepper takes (std::vector<double>
// or any resizable random-access container); stiff_system<Model> is the pair of functor and
// Jacobian, on boost::numeric::ublas vectors and matrices, that rosenbrock4 takes. Both throw
// daec::model_error naming the failure ("rhs failed at t = 0.5: the algebraic unknown 'z' is not
// finite ...") when the model cannot be evaluated. The model is referred to, not copied: it must
// outlive the system. Odeint integrates the reduced ODE and knows nothing of its invariants;
// Model::project after a run (or between runs) puts the state back onto them.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include <boost/numeric/ublas/matrix.hpp>
#include <boost/numeric/ublas/vector.hpp>

#include <daec/model_error.hpp>

namespace daec::odeint {

/// X' = F(X, t) as the system functor of Boost.Odeint's explicit steppers.
template <typename Model>
class system {
 public:
  explicit system(const Model& model) : model_(&model) {}

  template <typename State, typename Derivative>
  void operator()(const State& x, Derivative& dxdt, double t) const {
    constexpr size_t n = Model::num_states;
    if (static_cast<size_t>(x.size()) != n)
      throw model_error("rhs: the state has " + std::to_string(x.size()) + " entries, the model " +
                        std::to_string(n));
    in_.assign(x.begin(), x.end());
    out_.resize(std::max<size_t>(n, 1));
    checked_rhs(*model_, t, in_.data(), out_.data(), nullptr);
    std::copy(out_.begin(), out_.begin() + static_cast<long>(n), dxdt.begin());
  }

 private:
  const Model* model_;
  // Scratch for states that are not contiguous doubles (odeint copies systems freely).
  mutable std::vector<double> in_, out_;
};

using stiff_vector = boost::numeric::ublas::vector<double>;
using stiff_matrix = boost::numeric::ublas::matrix<double>;

/// The first half of the stiff pair: X' = F(X, t) on ublas vectors.
template <typename Model>
class stiff_rhs {
 public:
  explicit stiff_rhs(const Model& model) : rhs_(model) {}
  void operator()(const stiff_vector& x, stiff_vector& dxdt, double t) const { rhs_(x, dxdt, t); }

 private:
  system<Model> rhs_;
};

/// The second half: J = dF/dX from the generated rhs_jacobian, and dF/dt by a central difference
/// (the generated code has no time derivative of F; the difference is accurate to about 1e-10
/// relative, far within what rosenbrock4 needs of it).
template <typename Model>
class stiff_jacobian {
 public:
  explicit stiff_jacobian(const Model& model) : model_(&model) {}

  void operator()(const stiff_vector& x, stiff_matrix& J, double t, stiff_vector& dfdt) const {
    constexpr int n = Model::num_states;
    std::vector<double> state(x.begin(), x.end()), dense(static_cast<size_t>(n) * n + 1);
    checked_rhs_jacobian(*model_, t, state.data(), dense.data());
    for (int row = 0; row < n; ++row)
      for (int column = 0; column < n; ++column)
        J(row, column) = dense[static_cast<size_t>(row) * n + column];
    const double h =
        std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(1.0, std::fabs(t));
    std::vector<double> ahead(static_cast<size_t>(n) + 1), behind(static_cast<size_t>(n) + 1);
    const double later = t + h, earlier = t - h;  // the step as the numbers hold it
    checked_rhs(*model_, later, state.data(), ahead.data(), nullptr);
    checked_rhs(*model_, earlier, state.data(), behind.data(), nullptr);
    for (int i = 0; i < n; ++i)
      dfdt(i) =
          (ahead[static_cast<size_t>(i)] - behind[static_cast<size_t>(i)]) / (later - earlier);
  }

 private:
  const Model* model_;
};

/// The (system, Jacobian) pair that boost::numeric::odeint::rosenbrock4 integrates.
template <typename Model>
struct stiff_system : std::pair<stiff_rhs<Model>, stiff_jacobian<Model>> {
  explicit stiff_system(const Model& model)
      : std::pair<stiff_rhs<Model>, stiff_jacobian<Model>>(stiff_rhs<Model>(model),
                                                           stiff_jacobian<Model>(model)) {}
};

}  // namespace daec::odeint
