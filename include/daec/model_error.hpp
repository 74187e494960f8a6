// The exception the adapters throw when a generated model fails, and the texts that say why, in
// the model's own names: "the algebraic unknown 'z' is not finite (sqrt or log of a negative
// number, ...)". Generic over any Model that daec generates (docs/generated-code.md) and over the
// compiled runtime's System; used by the simulator, the SUNDIALS callbacks, the Boost.Odeint
// systems and the Python module, so that every tool reports a failure in the same words.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <daec/traits.hpp>

namespace daec {

/// A generated model could not compute what was asked of it at some (t, x); what() names the
/// quantity that failed, as the simulator's messages do.
class model_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace text {

/// The shortest text that reads back as exactly `value` ("0.1", "1e-300", "nan", "inf"), without
/// an exponent where up to 17 digits do without one ("350", not "3.5e+02").
inline std::string format_number(double value) {
  if (std::isnan(value)) return "nan";  // not "-nan"
  char buffer[64];
  int precision = 1;
  for (; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (!std::isfinite(value) || std::strtod(buffer, nullptr) == value) break;
  }
  if (!std::isfinite(value) || std::strchr(buffer, 'e') == nullptr) return buffer;
  char plain[64];
  for (int longer = precision + 1; longer <= 17; ++longer) {
    std::snprintf(plain, sizeof plain, "%.*g", longer, value);
    if (std::strchr(plain, 'e') == nullptr) return plain;
  }
  return buffer;
}

/// "a, b, c", or "(none)" for an empty list.
inline std::string join(const std::vector<std::string>& items) {
  std::string joined;
  for (const std::string& item : items) joined += (joined.empty() ? "" : ", ") + item;
  return joined.empty() ? "(none)" : joined;
}

inline std::string quoted(const std::string& name) {
  return "'" + name + "'";
}

/// The index of `name` in names[0 .. count), or -1.
inline int find_name(const char* const* names, int count, const std::string& name) {
  for (int i = 0; i < count; ++i)
    if (name == names[i]) return i;
  return -1;
}

/// The usual causes of a value that is not finite, computed by `where` ("its equation").
inline std::string domain_hint(const std::string& where) {
  return " (sqrt or log of a negative number, log of 0, a division by 0 or an overflow in " +
         where + "?)";
}

/// The index of the first entry of values[0 .. count) that is not finite, or -1.
inline int first_not_finite(const double* values, int count) {
  for (int i = 0; i < count; ++i)
    if (!std::isfinite(values[i])) return i;
  return -1;
}

/// The algebraic unknowns of z[unknown]'s block of A Z = b and the equations they are solved from:
/// "equation 'c' cannot be solved for 'z' (its coefficient is 0)".
template <typename Model>
std::string singular_block(const Model& model, int unknown) {
  std::vector<std::string> unknowns, equations;
  for (int i = 0; i < model.num_algebraic; ++i) {
    if (model.algebraic_block[i] != model.algebraic_block[unknown]) continue;
    unknowns.push_back(quoted(model.algebraic_names[i]));
    equations.push_back(quoted(model.algebraic_equation[i]));
  }
  if (unknowns.size() == 1)
    return "equation " + equations[0] + " cannot be solved for " + unknowns[0] +
           " (its coefficient is 0)";
  return "equations " + join(equations) + " cannot be solved for " + join(unknowns) +
         " (their block of the algebraic equations is singular)";
}

/// Condition k of the model, quoted ("the condition" for a model without any).
template <typename Model>
std::string condition_name(const Model& model, int k) {
  if constexpr (traits::is_runtime_system_v<Model>) {
    if (model.num_conditions > 0 && model.condition_names != nullptr)
      return "the condition " + quoted(model.condition_names[k]);
    return "the condition";
  } else if constexpr (traits::num_conditions_v<Model> > 0) {
    return "the condition " + quoted(Model::condition_names[k]);
  } else {
    (void)model, (void)k;
    return "the condition";
  }
}

/// Why rhs (and so rhs_jacobian, residual and outputs) fails at (t, x), in words; "" if it does
/// not.
template <typename Model>
std::string rhs_failure(const Model& model, double t, const double* x) {
  int index = 0;
  switch (model.rhs_failure(t, x, &index)) {
    case Model::rhs_ok:
      break;
    case Model::rhs_singular:
      return "the algebraic equations are singular: " + singular_block(model, index);
    case Model::rhs_algebraic_not_finite:
      return "the algebraic unknown " + quoted(model.algebraic_names[index]) + " is not finite" +
             domain_hint("its equation " + quoted(model.algebraic_equation[index]));
    case Model::rhs_derivative_not_finite:
      return "the derivative of the state " + quoted(model.state_names[index]) + " is not finite" +
             domain_hint("its equation");
    case Model::rhs_state_not_finite:
      return "the state " + quoted(model.state_names[index]) + " is not finite";
    case Model::rhs_modes_cycle:
      return "the modes of the conditions do not settle: " + condition_name(model, index) +
             " changes in every round of solving for the algebraic unknowns with them (no set of "
             "modes holds with the unknowns it gives)";
  }
  return "";
}

/// Why a Jacobian failed whose entry `entry` (row, column in `row_names` x `column_names`) is
/// `value`: rhs's failure at (t, x) if there is one, else that entry.
template <typename Model>
std::string jacobian_failure(const Model& model, double t, const double* x, const std::string& row,
                             const std::string& column, double value) {
  std::string why = rhs_failure(model, t, x);
  if (!why.empty()) return why;
  if (row.empty()) return "the Jacobian cannot be computed";
  return "the Jacobian entry d(" + row + ")/d(" + column + ") is not finite (" +
         format_number(value) +
         "; a function differentiated where its derivative is infinite, e.g. sqrt at 0?)";
}

/// Why rhs_jacobian failed with the dense row-major J as it left it: rhs's failure, else the
/// first entry of J that is not finite.
template <typename Model>
std::string dense_jacobian_failure(const Model& model, double t, const double* x, const double* J) {
  const int n = model.num_states;
  const int entry = first_not_finite(J, n * n);
  if (entry < 0) return jacobian_failure(model, t, x, "", "", 0.0);
  return jacobian_failure(model, t, x, std::string(model.state_names[entry / n]) + "'",
                          model.state_names[entry % n], J[entry]);
}

/// Why project failed from x to `projected` (where it gave up): a state that became non-finite,
/// else the invariant with the largest residual at x, by name (the last iterate of a diverging
/// Gauss-Newton says less than the state it started from).
template <typename Model>
std::string projection_failure(const Model& model, double t, const double* x,
                               const double* projected) {
  const int k = model.num_invariants;
  const int state = first_not_finite(projected, model.num_states);
  if (state >= 0) return "the state " + quoted(model.state_names[state]) + " became non-finite";
  if (k == 0) return "no convergence";
  std::vector<double> h(static_cast<size_t>(std::max(k, 1)));
  model.invariants(t, x, h.data());
  int largest = 0;
  for (int i = 0; i < k; ++i) {
    if (!std::isfinite(h[static_cast<size_t>(i)]))
      return "the invariant " + quoted(model.invariant_names[i]) + " is not finite" +
             domain_hint("the constraint");
    if (std::fabs(h[static_cast<size_t>(i)]) > std::fabs(h[static_cast<size_t>(largest)]))
      largest = i;
  }
  return "no convergence, the largest residual is " + std::string(model.invariant_names[largest]) +
         " = " + format_number(h[static_cast<size_t>(largest)]) +
         " (the constraints may have no solution near this state)";
}

/// The message of a model_error: "rhs failed at t = 0.5: the algebraic unknown 'z' is not
/// finite (...)", the same words whichever adapter reports it.
inline std::string call_failure(const std::string& function, double t, const std::string& why) {
  return function + " failed at t = " + format_number(t) + ": " + why;
}

}  // namespace text

/// Evaluates model.rhs at (t, x) into xdot (and z unless nullptr); throws model_error naming the
/// failure when rhs fails or gives a value that is not finite.
template <typename Model>
void checked_rhs(const Model& model, double t, const double* x, double* xdot, double* z) {
  if (text::first_not_finite(x, model.num_states) < 0 && model.rhs(t, x, xdot, z) == 0 &&
      text::first_not_finite(xdot, model.num_states) < 0)
    return;  // an infinite state fails as a NaN does, though rhs may compute finite numbers
  throw model_error(text::call_failure("rhs", t, text::rhs_failure(model, t, x)));
}

/// Evaluates the dense row-major d(X')/dX at (t, x) into J; throws model_error naming the
/// failure.
template <typename Model>
void checked_rhs_jacobian(const Model& model, double t, const double* x, double* J) {
  const int n = model.num_states;
  if (model.rhs_jacobian(t, x, J) == 0 && text::first_not_finite(J, n * n) < 0) return;
  throw model_error(
      text::call_failure("rhs_jacobian", t, text::dense_jacobian_failure(model, t, x, J)));
}

}  // namespace daec
