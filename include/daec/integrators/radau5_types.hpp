// The options, results and statistics of the Radau5 integrator (radau5.hpp).
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace daec {
namespace integrators {

struct Radau5Options {
  /// The error estimate of each step is kept below rtol*|y_i| + atol_i (weighted RMS norm).
  /// Measured on problems with exact solutions, the global error then stays within a few
  /// rtol*|y_i| + atol_i (docs/integrators.md, "Accuracy").
  double rtol = 1e-6;
  double atol = 1e-6;
  std::vector<double> atol_per_component;  ///< if not empty: size n, replaces atol
  /// RADAU5's transformation of the tolerances (docs/integrators.md, "Accuracy"): the error
  /// estimate is held below rtol' = 0.1 * rtol^(2/3) (atol' = rtol' * atol / rtol) instead. It
  /// relies on the true local error being O(h^6) while the estimate is O(h^4); that holds for
  /// non-stiff components (2-4x fewer steps at the same global error) but not for stiff ones, where
  /// both are O(h^4) and the global error grows to ~500 rtol at rtol = 1e-10 (Prothero-Robinson).
  /// Off by default for that reason.
  bool calibrate_tolerances = false;

  double initial_step = 0.0;  ///< 0: chosen from f at the start (docs/integrators.md, "Options")
  double max_step = std::numeric_limits<double>::infinity();
  double min_step = 0.0;    ///< a step shorter than this (except one to the stop time) fails
  double fixed_step = 0.0;  ///< > 0: constant steps, every step accepted, no error control
  long max_steps = 100000;  ///< attempted steps since initialize(); then too_many_steps
  int max_newton_iterations = 7;
  /// Consecutive failed attempts in one step (Newton divergence, f, Jacobian or projection
  /// failure, singular matrix) before the integration fails. Each halves the step.
  int max_convergence_failures = 10;
  /// integrate_to() ends a step exactly at each t_out instead of interpolating there. The
  /// collocation polynomial between steps is only of order 3, so with long steps (a smooth or
  /// very stiff solution, tight tolerances) interpolated values can be far less accurate than
  /// the step ends; this costs an extra step (and an LU) per output time. false: interpolate.
  bool stop_at_output_times = true;
  /// Use the error estimate's projection onto the invariants, if the problem has project_error.
  bool project_error = true;
  /// The algebraic components (M_ii = 0) enter the error norm, as in RADAU5. false: only the
  /// differential ones, for a problem whose algebraic components are functions of the
  /// differential ones at every step end (docs/integrators.md, "Error control of an index-1
  /// DAE"); their error is then the differential error carried through that function.
  bool algebraic_error = true;
  /// Tolerance of the root location; 0: 1e-12 * max(1, |t|).
  double root_tolerance = 0.0;

  // Fine tuning, RADAU5's parameters and defaults (WORK(2..9), IWORK(4), IWORK(8)).
  double safety = 0.9;                  ///< safety factor of the step-size prediction
  double jacobian_reuse_theta = 0.001;  ///< keep J while the Newton contraction is below this
  double newton_tolerance = 0.0;        ///< 0: max(10 uround / rtol', min(0.03, sqrt(rtol')))
  double keep_step_low = 1.0;           ///< keep h (and the LU) if hnew/h is within [low, high]
  double keep_step_high = 1.2;
  double min_step_ratio = 0.2;  ///< hnew/h is limited to [min_step_ratio, max_step_ratio]
  double max_step_ratio = 8.0;
  bool predictive_controller = true;  ///< Gustafsson's controller; false: the classical one
  bool extrapolate_start = true;      ///< Newton starts from the last collocation polynomial
};

enum class Radau5Status {
  step_taken,         ///< step(): one step done; integrate_to(): reached t_out
  stop_time_reached,  ///< at the stop time, exactly
  root_found,         ///< an event function changed sign; see root_directions()
  invalid_input,
  too_many_steps,
  step_size_too_small,
  convergence_failure,  ///< Newton did not converge, max_convergence_failures times in a row
  singular_matrix,      ///< the iteration matrix was singular 5 times in a row
  problem_failed,       ///< f, the Jacobian, the projection or the event functions failed
};

inline const char* status_name(Radau5Status status) {
  switch (status) {
    case Radau5Status::step_taken:
      return "step taken";
    case Radau5Status::stop_time_reached:
      return "stop time reached";
    case Radau5Status::root_found:
      return "root found";
    case Radau5Status::invalid_input:
      return "invalid input";
    case Radau5Status::too_many_steps:
      return "too many steps";
    case Radau5Status::step_size_too_small:
      return "step size too small";
    case Radau5Status::convergence_failure:
      return "Newton iteration did not converge";
    case Radau5Status::singular_matrix:
      return "singular iteration matrix";
    case Radau5Status::problem_failed:
      return "problem function failed";
  }
  return "unknown";
}

struct Radau5Result {
  Radau5Status status = Radau5Status::step_taken;
  double t = 0.0;  ///< the time of the state the integrator reports (or where it failed)
  bool ok() const {
    return status == Radau5Status::step_taken || status == Radau5Status::stop_time_reached ||
           status == Radau5Status::root_found;
  }
};

struct Radau5Statistics {
  long steps = 0;  ///< attempted steps (each with a converged or failed Newton)
  long accepted_steps = 0;
  long rejected_steps = 0;   ///< rejected by the error test
  long rhs_evaluations = 0;  ///< calls of f (finite-difference Jacobians included)
  long jacobian_evaluations = 0;
  long factorizations = 0;   ///< LU of the real and the complex matrix, counted once
  long factor_nonzeros = 0;  ///< entries of the real matrix's LU factors, the most of the run
  long linear_solves = 0;    ///< solves with the real and the complex matrix (a Newton
                             ///< iteration), or the real one (an error estimate)
  long newton_iterations = 0;
  long convergence_failures = 0;  ///< attempts abandoned: Newton, f, J, projection, singular
  long projections = 0;
  long root_evaluations = 0;  ///< calls of the problem's roots()
};

namespace detail {

// The rounding unit RADAU5 assumes (its UROUND): the smallest relative change the integrator
// treats as resolvable.
constexpr double kUround = 1e-16;

inline double clamp(double x, double low, double high) {
  return std::max(low, std::min(high, x));
}

/// The shortest text that reads back as the same double: "0.1", "1e-20", "0.9999999999999999".
inline std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  char text[64];
  auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}
}  // namespace detail

}  // namespace integrators
}  // namespace daec
