// Radau5: the 3-stage Radau IIA method of order 5 for stiff ODEs and index-1 DAEs
//     M y' = f(t, y),   M = diag(m_i), m_i = 1 (differential) or 0 (algebraic),
// with step-size control, dense output, event location and projection hooks. Header-only C++17,
// generic over the problem (any class with the members listed under "The Problem" below) and over
// the linear algebra (DenseLinearSolver in dense_lu.hpp, KluLinearSolver in klu_lu.hpp).
//
// It follows the RADAU5 algorithm as docs/integrators.md describes it (where its sources are
// named); names that keep RADAU5's on purpose say so where they are declared:
// - simplified Newton iterations on the stage increments Z, transformed with RADAU5's T, T^-1
//   (the eigenvalue decomposition of the inverse Runge-Kutta matrix), so that each Jacobian or
//   step-size change needs one real LU of gamma/h*M - J and one complex LU of
//   (alpha + i*beta)/h*M - J, each of size n;
// - Newton starting values from the last step's collocation polynomial; the contraction rate
//   theta decides whether J is reused (theta <= 0.001) and whether convergence in time is
//   likely; a step that diverges or is predicted to converge too slowly is redone shorter (with
//   a fresh J if the old one was not fresh); at most 7 Newton iterations;
// - the embedded error estimate (gamma/h*M - J)^-1 (f(t0, y0) + M*(e1 Z1 + e2 Z2 + e3 Z3)/h),
//   and after a rejection or on the first step the second estimate with f(t0, y0 + err), which
//   damps the stiff components; algebraic components enter the estimate as in RADAU5;
// - Gustafsson's predictive step-size controller with RADAU5's safety factors
//   (fac = min(0.9, 0.9*(1 + 2*nit)/(newt + 2*nit)), 0.2 <= hnew/h <= 8, h kept for
//   1 <= hnew/h <= 1.2 while J is reused);
// - optionally, the tolerances transformed as RADAU5's driver does (rtol' = 0.1 rtol^(2/3));
//   off by default, since on stiff problems it lets the global error grow far beyond rtol
//   (Radau5Options::calibrate_tolerances);
// - dense output: the collocation polynomial of the last step (RADAU5's CONTR5).
// Added for daec's simulator: a stop time, a step-by-step interface, projection of the solution
// (and of the error estimate) onto invariants after each step, event functions located with the
// Illinois method on the dense output, recoverable failures of the problem's functions, and
// failure texts that say where and why.
//
// Forward integration only (t increases). The problem and the integrator are used from one
// thread; an integrator holds a reference to its problem, which must outlive it.
//
// ## The Problem
//
// Required:
//   int size() const;                                    // n >= 1
//   int rhs(double t, const double* y, double* f);       // f(t, y); 0 ok, nonzero: failed
// Optional (detected at compile time; write only what the problem has):
//   int jacobian(double t, const double* y, double* dfdy);     // dense, column-major n x n
//   SparsityPattern jacobian_pattern() const;                  // CSC pattern of df/dy, fixed
//   int jacobian_values(double t, const double* y, double* values);  // values in that pattern
//     (without either Jacobian, df/dy is approximated by finite differences, dense)
//   bool is_algebraic(int i) const;          // M_ii = 0: row i of f is a constraint 0 = f_i
//   int project(double t, double* y);        // after each accepted step: onto the invariants
//   int project_error(double t, const double* y, double* err);  // the error estimate too
//   int num_roots() const;                   // event functions g(t, y) (both or neither)
//   int roots(double t, const double* y, double* g);
//   std::string failure_message() const;     // why the last call returned nonzero
// Every int-returning function returns 0 on success. A nonzero return (or a non-finite value in
// f or df/dy) makes the integrator retry the step with half the step size, up to
// Radau5Options::max_convergence_failures times in a row; then it fails with a text such as
// "f failed at t = 1.5: <failure_message()>".
//
// ## Linear algebra policies
//
// The second template parameter provides
//   static constexpr const char* name;
//   static constexpr bool prefers_sparse_jacobian;  // take the CSC Jacobian when there is one
//   std::string analyze(const JacobianMatrix& J, const std::vector<double>& mass);  // "" ok
//   int factor(const JacobianMatrix& J, double gamma, double alpha, double beta);    // 0 ok
//   long factor_nonzeros() const;                // entries of the real matrix's factors
//   void solve_real(double* b);                  // (gamma*M - J) x = b, in place
//   void solve_complex(double* re, double* im);  // ((alpha + i*beta)*M - J) x = b, in place
// A sparse Jacobian (jacobian_pattern/jacobian_values) is used when the problem has it;
// DenseLinearSolver scatters it into dense matrices, KluLinearSolver factors it as it is.
//
// ## The parts
//
// This file holds the stepper, which ties the parts together: the state, the step loop with its
// retries, the problem's functions with their failures, and where events are searched. The
// parts, each in its own header (docs/integrators.md, "How the Radau code is organised"):
//   radau5_collocation.hpp   the stage equations and their simplified Newton iteration;
//   radau5_step_control.hpp  the error estimate, the step-size selection and its limits;
//   radau5_dense_output.hpp  the collocation polynomial and Newton's starting values;
//   radau5_events.hpp        the search for the first root of the event functions;
//   radau5_coefficients.hpp  the method's coefficients; radau5_types.hpp its options and results.
//
// Usage: see docs/integrators.md.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "daec/integrators/dense_lu.hpp"
#include "daec/integrators/jacobian_matrix.hpp"
#include "daec/integrators/problem_traits.hpp"
#include "daec/integrators/radau5_coefficients.hpp"
#include "daec/integrators/radau5_collocation.hpp"
#include "daec/integrators/radau5_dense_output.hpp"
#include "daec/integrators/radau5_events.hpp"
#include "daec/integrators/radau5_step_control.hpp"
#include "daec/integrators/radau5_types.hpp"

namespace daec {
namespace integrators {

namespace detail {

// The smallest rtol accepted: ten rounding units.
constexpr double kMinRtol = 10.0 * kUround;
// Radau5Options::calibrate_tolerances holds the estimate to rtol' = this factor * rtol^exponent.
constexpr double kCalibratedFactor = 0.1;
constexpr double kCalibratedExponent = 2.0 / 3.0;
// A step gives up after the iteration matrix was singular this many times in a row.
constexpr int kMaxSingularInStep = 5;
// A failed attempt (Newton, f, J, projection, singular matrix) is retried this much shorter.
constexpr double kFailedStepFactor = 0.5;
// Forward differences for df/dy_j step by sqrt(uround * max(this, |y_j|)) (RADAU5's DELT).
constexpr double kDifferenceFloor = 1e-5;

}  // namespace detail

template <class Problem, class LinearSolver = DenseLinearSolver>
class Radau5 {
 public:
  explicit Radau5(Problem& problem, Radau5Options options = {})
      : problem_(problem), options_(std::move(options)), control_(options_) {}
  Radau5(const Radau5&) = delete;
  Radau5& operator=(const Radau5&) = delete;

  /// Checks the problem and the options, prepares the linear algebra, and starts at (t0, y0).
  /// Resets the statistics. Fails with invalid_input (or problem_failed if f fails at t0).
  Radau5Result initialize(double t0, const double* y0) {
    stats_ = {};
    message_.clear();
    initialized_ = started_ = false;
    std::string error = set_up();
    if (!error.empty()) return fail(Radau5Status::invalid_input, t0, error);
    initialized_ = true;
    return restart(t0, y0);
  }

  /// Starts afresh at (t, y), as after an event: forgets the step history (the next step starts
  /// like the first) but keeps the statistics, the options and the stop time.
  Radau5Result restart(double t, const double* y) {
    message_.clear();
    last_failure_.clear();
    started_ = false;
    if (!initialized_) return fail(Radau5Status::invalid_input, t, "restart before initialize");
    if (!std::isfinite(t)) return fail(Radau5Status::invalid_input, t, "the time is not finite");
    for (int i = 0; i < n_; ++i)
      if (!std::isfinite(y[i]))
        return fail(Radau5Status::invalid_input, t,
                    "y[" + std::to_string(i) +
                        "] is not finite at the start t = " + detail::format_number(t));
    t_ = t;
    y_.assign(y, y + n_);
    if (!rhs(t_, y_.data(), f_start_.data()))
      return fail(Radau5Status::problem_failed, t, last_failure_);
    need_jacobian_ = need_factor_ = true;
    jacobian_is_fresh_ = false;
    newton_.reset();
    t_old_ = t_;
    dense_.clear();
    update_scale();
    control_.start(options_.fixed_step > 0.0 ? options_.fixed_step : initial_step());
    t_report_ = t_;
    y_report_ = y_;
    auto roots_at_start = [this](double t_start, double* g) {
      return evaluate_roots(t_start, y_.data(), g);
    };
    if (!events_.start(t_, roots_at_start))
      return fail(Radau5Status::problem_failed, t_, last_failure_);
    started_ = true;
    return {Radau5Status::step_taken, t_};
  }

  /// The integrator never steps past t_stop; step() returns stop_time_reached there.
  void set_stop_time(double t_stop) {
    has_stop_ = true;
    t_stop_ = t_stop;
  }
  void clear_stop_time() { has_stop_ = false; }
  /// Radau5Options::max_step from the next step on (and for restart()'s first step); h_max > 0,
  /// infinity for no limit.
  void set_max_step(double h_max) {
    if (h_max > 0.0) options_.max_step = h_max;
  }

  /// One step (like CVODE's CV_ONE_STEP): returns the time reached, which is also t(), and the
  /// state y() there. At an event the step ends at the root (root_found, see root_directions());
  /// the next call continues from there unless restart() is called.
  Radau5Result step() {
    message_.clear();
    if (!started_) return not_started();
    if (events_.searched_until() < t_) {  // the rest of the last step, after an event inside it
      Radau5Result event;
      if (scan_roots(t_, event)) return event;
    }
    if (stop_time_behind()) return stop_time_error();
    if (has_stop_ && t_ >= t_stop_) return report_end_of_step();
    Radau5Result result = advance();
    if (!result.ok()) return result;
    Radau5Result event;
    if (scan_roots(t_, event)) return event;
    return report_end_of_step();
  }

  /// Steps until t_out is reached and writes y(t_out), interpolated, to y_out (length n).
  /// Stops earlier at an event (root_found, y_out = the state at the root), at the stop time
  /// (stop_time_reached) or on a failure.
  Radau5Result integrate_to(double t_out, double* y_out) {
    message_.clear();
    if (!started_) return not_started();
    if (!(t_out >= t_report_))
      return fail(Radau5Status::invalid_input, t_report_,
                  "t_out = " + detail::format_number(t_out) +
                      " is behind t = " + detail::format_number(t_report_));
    if (options_.stop_at_output_times) output_stop_ = t_out;
    Radau5Result result = integrate_to_output(t_out, y_out);
    output_stop_ = std::numeric_limits<double>::infinity();
    return result;
  }

  /// The collocation polynomial of the last step at t in [t_old, t_now] (RADAU5's CONTR5);
  /// false (out untouched) if t is outside the last step.
  bool interpolate(double t, double* out) const { return dense_.evaluate(t_, y_, t, out); }

  double t() const { return t_report_; }                      ///< time of the reported state
  const std::vector<double>& y() const { return y_report_; }  ///< the reported state
  double t_internal() const { return t_; }                    ///< end of the last step
  double t_old() const { return t_old_; }                     ///< start of the last step
  double next_step_size() const { return control_.h(); }
  int size() const { return n_; }
  /// After root_found: per event function, +1 (rose through 0), -1 (fell) or 0.
  const std::vector<int>& root_directions() const { return events_.directions(); }
  const Radau5Statistics& statistics() const { return stats_; }
  /// Why the last call failed ("" after a success).
  const std::string& message() const { return message_; }
  const Radau5Options& options() const { return options_; }
  bool uses_sparse_jacobian() const { return jacobian_.sparse; }

 private:
  using Newton = detail::NewtonOutcome;

  Radau5Result not_started() {
    return fail(Radau5Status::invalid_input, t_,
                "no successful initialize() or restart() to start from");
  }

  /// A stop time behind the current time is a caller's error (at it: stop_time_reached).
  bool stop_time_behind() const { return has_stop_ && t_stop_ < t_; }

  Radau5Result stop_time_error() {
    return fail(Radau5Status::invalid_input, t_,
                "the stop time " + detail::format_number(t_stop_) +
                    " is behind t = " + detail::format_number(t_));
  }

  Radau5Result integrate_to_output(double t_out, double* y_out) {
    if (stop_time_behind()) return stop_time_error();
    for (;;) {
      const double scanned_until = std::min(t_, t_out);
      Radau5Result event;
      if (events_.searched_until() < scanned_until && scan_roots(scanned_until, event)) {
        std::copy(y_report_.begin(), y_report_.end(), y_out);
        return event;
      }
      if (t_ >= t_out) {
        interpolate(t_out, y_out);
        t_report_ = t_out;
        y_report_.assign(y_out, y_out + n_);
        bool at_stop = has_stop_ && t_out == t_stop_;
        return {at_stop ? Radau5Status::stop_time_reached : Radau5Status::step_taken, t_out};
      }
      if (has_stop_ && t_ >= t_stop_) {
        Radau5Result result = report_end_of_step();
        std::copy(y_.begin(), y_.end(), y_out);
        return result;
      }
      Radau5Result result = advance();
      if (!result.ok()) return result;
    }
  }

  // ----- Set-up ---------------------------------------------------------------------------------

  std::string set_up() {
    n_ = problem_.size();
    if (n_ < 1) return "the problem has size " + std::to_string(n_) + " (must be at least 1)";
    std::string error = check_options();
    if (!error.empty()) return error;
    set_tolerances();
    mass_.assign(static_cast<size_t>(n_), 1.0);
    if constexpr (traits::has_mass<Problem>::value)
      for (int i = 0; i < n_; ++i)
        if (problem_.is_algebraic(i)) mass_[static_cast<size_t>(i)] = 0.0;
    error = set_up_jacobian();
    if (!error.empty()) return error;
    error = solver_.analyze(jacobian_, mass_);
    if (!error.empty()) return error;
    int num_roots = 0;
    if constexpr (traits::has_roots<Problem>::value) num_roots = problem_.num_roots();
    if (num_roots < 0) return "num_roots() is negative";
    for (auto* v : {&y_, &f_start_, &scale_, &work_, &work2_})
      v->assign(static_cast<size_t>(n_), 0.0);
    const size_t n = static_cast<size_t>(n_);
    stages_.resize(n);
    dense_.resize(n);
    control_.resize(n);
    newton_.configure(n_, options_.max_newton_iterations, newton_tolerance_,
                      options_.jacobian_reuse_theta);
    events_.resize(static_cast<size_t>(num_roots));
    roots_at_end_.assign(static_cast<size_t>(num_roots), 0.0);
    return "";
  }

  std::string check_options() const {
    const Radau5Options& o = options_;
    if (!(o.rtol > detail::kMinRtol) || !std::isfinite(o.rtol))
      return "rtol = " + detail::format_number(o.rtol) + " is too small (must exceed 1e-15)";
    if (o.atol_per_component.empty()) {
      if (!(o.atol > 0.0) || !std::isfinite(o.atol))
        return "atol = " + detail::format_number(o.atol) + " must be positive";
    } else {
      if (static_cast<int>(o.atol_per_component.size()) != n_)
        return "atol_per_component has " + std::to_string(o.atol_per_component.size()) +
               " entries for " + std::to_string(n_) + " components";
      for (size_t i = 0; i < o.atol_per_component.size(); ++i)
        if (!(o.atol_per_component[i] > 0.0) || !std::isfinite(o.atol_per_component[i]))
          return "atol_per_component[" + std::to_string(i) + "] must be positive";
    }
    if (o.max_newton_iterations < 1) return "max_newton_iterations must be at least 1";
    if (o.max_convergence_failures < 1) return "max_convergence_failures must be at least 1";
    if (o.max_steps < 1) return "max_steps must be at least 1";
    if (!(o.fixed_step >= 0.0) || !(o.initial_step >= 0.0) || !(o.min_step >= 0.0) ||
        !(o.max_step > 0.0))
      return "step sizes must be positive (fixed_step, initial_step, min_step: or 0)";
    if (!(o.safety > 0.001 && o.safety < 1.0)) return "safety must lie in (0.001, 1)";
    if (!(o.keep_step_low <= 1.0 && o.keep_step_high >= 1.0))
      return "keep_step_low must be <= 1 and keep_step_high >= 1";
    if (!(o.min_step_ratio > 0.0 && o.min_step_ratio <= 1.0 && o.max_step_ratio >= 1.0))
      return "min_step_ratio must lie in (0, 1] and max_step_ratio be >= 1";
    if (!(o.jacobian_reuse_theta < 1.0)) return "jacobian_reuse_theta must be below 1";
    return "";
  }

  void set_tolerances() {
    const Radau5Options& o = options_;
    atol_.assign(static_cast<size_t>(n_), o.atol);
    if (!o.atol_per_component.empty()) atol_ = o.atol_per_component;
    rtol_ = o.rtol;
    if (o.calibrate_tolerances) {
      const double calibrated =
          detail::kCalibratedFactor * std::pow(o.rtol, detail::kCalibratedExponent);
      for (double& a : atol_) a = calibrated * a / o.rtol;
      rtol_ = calibrated;
    }
    newton_tolerance_ = detail::newton_tolerance(o.newton_tolerance, rtol_);
  }

  std::string set_up_jacobian() {
    constexpr bool dense = traits::has_dense_jacobian<Problem>::value;
    constexpr bool sparse = traits::has_sparse_jacobian<Problem>::value;
    if constexpr (sparse) {
      if (!dense || LinearSolver::prefers_sparse_jacobian) {
        SparsityPattern pattern = problem_.jacobian_pattern();
        if (pattern.n != n_)
          return "the Jacobian pattern is " + std::to_string(pattern.n) + " x " +
                 std::to_string(pattern.n) + " for " + std::to_string(n_) + " components";
        std::string error = pattern.check();
        if (!error.empty()) return "the Jacobian pattern is malformed: " + error;
        jacobian_ = JacobianMatrix::csc(std::move(pattern));
        scratch_ = jacobian_;
        return "";
      }
    }
    jacobian_ = JacobianMatrix::dense(n_);
    scratch_ = jacobian_;
    return "";
  }

  /// The initial step: the option, or the starting-step heuristic of radau5_step_control.hpp
  /// (a failure of f at its probe is no failure of the start).
  double initial_step() {
    double h = options_.initial_step;
    if (h <= 0.0) {
      const double room =
          has_stop_ && t_stop_ > t_ ? t_stop_ - t_ : std::numeric_limits<double>::infinity();
      auto probe = [&](double t, const double* y, double* f) {
        if (rhs(t, y, f)) return true;
        last_failure_.clear();
        return false;
      };
      h = detail::initial_step(t_, y_, f_start_, mass_, scale_, options_.max_step, room, probe,
                               work_, work2_);
    }
    return std::min(h, options_.max_step);
  }

  // ----- The step -------------------------------------------------------------------------------

  /// One accepted step, or a failure.
  Radau5Result advance() {
    failures_in_step_ = 0;
    singular_in_step_ = 0;
    last_failure_.clear();
    for (;;) {
      if (stats_.steps >= options_.max_steps) return too_many_steps();
      if (control_.fit_to_limits(t_, step_limit())) need_factor_ = true;
      if (control_.too_small(t_)) return step_too_small();
      if (need_jacobian_ && !evaluate_jacobian()) {
        if (!retry_shorter(Radau5Status::problem_failed)) return fatal();
        if (have_jacobian_) need_jacobian_ = false;  // go on with the last J that worked
        continue;
      }
      if (need_factor_ && !factor()) {
        if (!retry_shorter(Radau5Status::singular_matrix)) return fatal();
        continue;
      }
      ++stats_.steps;
      const detail::NewtonResult newton = solve_stages();
      if (newton.outcome == Newton::slow && options_.fixed_step == 0.0) {
        control_.shorten(newton.step_factor);  // predicted too slow: a shorter step, no failure
        renew_matrices();
        continue;
      }
      if (newton.outcome != Newton::converged) {
        if (!retry_shorter(newton_failure(newton.outcome))) return fatal();
        continue;
      }
      const double err = options_.fixed_step > 0.0 ? 0.0 : estimate_error();
      const double h_new = control_.proposed_step(err, newton.iterations);
      if (err < 1.0) {
        if (!accept(err, h_new)) {
          if (!retry_shorter(Radau5Status::problem_failed)) return fatal();
          continue;
        }
        return {Radau5Status::step_taken, t_};
      }
      control_.reject(h_new);
      ++stats_.rejected_steps;
      renew_matrices();
    }
  }

  /// Where the next step must end at the latest: the stop time or integrate_to's output time.
  double step_limit() const {
    double limit = has_stop_ ? t_stop_ : std::numeric_limits<double>::infinity();
    if (output_stop_ < limit) limit = output_stop_;
    return limit;
  }

  Radau5Result too_many_steps() {
    return fail(Radau5Status::too_many_steps, t_,
                "too many steps: " + std::to_string(stats_.steps) +
                    " taken by t = " + detail::format_number(t_) +
                    " (max_steps = " + std::to_string(options_.max_steps) + ")");
  }

  Radau5Result step_too_small() {
    std::string text = "step size too small at t = " + detail::format_number(t_) +
                       ": h = " + detail::format_number(control_.h());
    if (options_.min_step > 0.0)
      text += " is below min_step = " + detail::format_number(options_.min_step);
    return fail(Radau5Status::step_size_too_small, t_, text);
  }

  /// The stage equations of the step t -> t + h, from the last step's collocation polynomial
  /// (or from zero on a first step or when Radau5Options::extrapolate_start is off).
  detail::NewtonResult solve_stages() {
    const double h = control_.h();
    if (control_.first_step() || !options_.extrapolate_start)
      stages_.zero();
    else
      dense_.start_stages(h, stages_);
    auto f = [this](double t, const double* y, double* out) { return rhs(t, y, out); };
    return newton_.solve(t_, y_, h, mass_, scale_, f, solver_, stats_, stages_);
  }

  /// The kind of failure of a Newton iteration that did not converge, with its text.
  Radau5Status newton_failure(Newton outcome) {
    if (outcome == Newton::f_failed) return Radau5Status::problem_failed;
    last_failure_ = "Newton iteration did not converge at t = " + detail::format_number(t_) +
                    " (h = " + detail::format_number(control_.h()) + ")";
    return Radau5Status::convergence_failure;
  }

  /// The error estimate of the converged step (radau5_step_control.hpp), with the problem's
  /// f and, if it has one and Radau5Options::project_error is set, its error projection.
  double estimate_error() {
    auto f = [this](double t, const double* y, double* out) {
      if (rhs(t, y, out)) return true;
      last_failure_.clear();  // the refined estimate failed: keep the first
      return false;
    };
    auto project = [this](std::vector<double>& estimate) { return project_error(estimate); };
    return control_.estimate_error(t_, y_, f_start_, mass_, scale_, stages_, f, project, solver_,
                                   stats_);
  }

  /// The error estimate onto the invariants, if the problem has project_error and
  /// Radau5Options::project_error is set; false if the projection failed.
  bool project_error(std::vector<double>& estimate) {
    if constexpr (traits::has_project_error<Problem>::value) {
      if (options_.project_error) {
        for (size_t i = 0; i < y_.size(); ++i) work_[i] = y_[i] + stages_.z3[i];
        return problem_.project_error(t_ + control_.h(), work_.data(), estimate.data()) == 0;
      }
    }
    (void)estimate;
    return true;
  }

  /// Ends the step at t + h: projects, evaluates f there, keeps the collocation polynomial, and
  /// chooses the next step size and whether J and the LU are reused. False (nothing changed) if
  /// the projection or f failed.
  bool accept(double err, double h_new) {
    const double t_new = control_.step_end(t_);
    std::vector<double>& y_new = work2_;
    for (size_t i = 0; i < y_.size(); ++i) y_new[i] = y_[i] + stages_.z3[i];
    if (!project(t_new, y_new)) return false;
    if (!rhs(t_new, y_new.data(), work_.data())) return false;
    if (!events_.empty() && !evaluate_roots(t_new, y_new.data(), roots_at_end_.data()))
      return false;
    dense_.fit(stages_, control_.h());
    std::swap(y_, y_new);
    std::swap(f_start_, work_);
    t_old_ = t_;
    t_ = t_new;
    jacobian_is_fresh_ = false;
    ++stats_.accepted_steps;
    update_scale();
    const detail::NextStep next = control_.accept(err, h_new, newton_.contraction_rate());
    if (next.new_factorization) need_factor_ = true;
    if (next.new_jacobian) need_jacobian_ = need_factor_ = true;
    return true;
  }

  /// After a failed attempt: the LU for the new h; a new J too, unless J is already fresh.
  void renew_matrices() {
    need_factor_ = true;
    if (!jacobian_is_fresh_) need_jacobian_ = true;
  }

  /// A recoverable failure (Newton, f, J, projection, singular matrix): shortens the step, or
  /// returns false when it happened too often in this step (or the step is fixed).
  bool retry_shorter(Radau5Status kind) {
    ++stats_.convergence_failures;
    ++failures_in_step_;
    failure_kind_ = kind;
    if (kind == Radau5Status::singular_matrix && ++singular_in_step_ >= detail::kMaxSingularInStep)
      return false;
    if (failures_in_step_ >= options_.max_convergence_failures) return false;
    if (options_.fixed_step > 0.0) {  // the step stays; only a fresh J may still help
      if (jacobian_is_fresh_ || kind != Radau5Status::convergence_failure) return false;
      renew_matrices();
      return true;
    }
    control_.shorten(detail::kFailedStepFactor);
    renew_matrices();
    return true;
  }

  /// The failure after the retries: the last failure's text, counted.
  Radau5Result fatal() {
    std::string text = last_failure_;
    if (failures_in_step_ > 1)
      text += " (" + std::to_string(failures_in_step_) + " failed attempts in this step)";
    return fail(failure_kind_, t_, text);
  }

  Radau5Result fail(Radau5Status status, double t, std::string text) {
    if (!last_failure_.empty() && text.find(last_failure_) == std::string::npos &&
        status != Radau5Status::invalid_input)
      text += "; last failure: " + last_failure_;
    message_ = std::move(text);
    return {status, t};
  }

  Radau5Result report_end_of_step() {
    t_report_ = t_;
    y_report_ = y_;
    const bool at_stop = has_stop_ && t_ >= t_stop_;
    return {at_stop ? Radau5Status::stop_time_reached : Radau5Status::step_taken, t_};
  }

  // ----- The problem's functions ----------------------------------------------------------------

  bool rhs(double t, const double* y, double* f) {
    ++stats_.rhs_evaluations;
    int status = problem_.rhs(t, y, f);
    if (status != 0) return note_failure("f failed at t = ", t, problem_text(status));
    for (int i = 0; i < n_; ++i)
      if (!std::isfinite(f[i]))
        return note_failure("f failed at t = ", t,
                            "f[" + std::to_string(i) + "] is " + detail::format_number(f[i]));
    return true;
  }

  bool evaluate_jacobian() {
    ++stats_.jacobian_evaluations;
    int status = 0;
    if constexpr (traits::has_sparse_jacobian<Problem>::value) {
      if (scratch_.sparse) status = problem_.jacobian_values(t_, y_.data(), scratch_.values.data());
    }
    if (!scratch_.sparse) {
      std::fill(scratch_.values.begin(), scratch_.values.end(), 0.0);
      if constexpr (traits::has_dense_jacobian<Problem>::value)
        status = problem_.jacobian(t_, y_.data(), scratch_.values.data());
      else if (!finite_difference_jacobian())
        return false;
    }
    if (status != 0) return note_failure("the Jacobian failed at t = ", t_, problem_text(status));
    for (size_t k = 0; k < scratch_.values.size(); ++k)
      if (!std::isfinite(scratch_.values[k]))
        return note_failure(
            "the Jacobian failed at t = ", t_,
            "entry " + std::to_string(k) + " is " + detail::format_number(scratch_.values[k]));
    std::swap(jacobian_.values, scratch_.values);  // a failed evaluation keeps the old J
    have_jacobian_ = true;
    need_jacobian_ = false;
    jacobian_is_fresh_ = true;
    need_factor_ = true;
    return true;
  }

  /// Forward differences with RADAU5's increments sqrt(uround * max(1e-5, |y_j|)), the columns
  /// into scratch_ (f at y is f_start_).
  bool finite_difference_jacobian() {
    std::vector<double>& y = work2_;
    std::copy(y_.begin(), y_.end(), y.begin());
    for (int j = 0; j < n_; ++j) {
      const size_t jj = static_cast<size_t>(j);
      const double saved = y[jj];
      const double delta =
          std::sqrt(detail::kUround * std::max(detail::kDifferenceFloor, std::fabs(saved)));
      y[jj] = saved + delta;
      if (!rhs(t_, y.data(), work_.data())) return false;
      y[jj] = saved;
      double* column = scratch_.values.data() + jj * static_cast<size_t>(n_);
      for (size_t i = 0; i < y_.size(); ++i) column[i] = (work_[i] - f_start_[i]) / delta;
    }
    return true;
  }

  bool factor() {
    const auto& c = detail::Radau5Coefficients::get();
    ++stats_.factorizations;
    const double h = control_.h();
    if (solver_.factor(jacobian_, c.u1 / h, c.alpha / h, c.beta / h) != 0) {
      last_failure_ = "the iteration matrix is singular at t = " + detail::format_number(t_) +
                      " (h = " + detail::format_number(h) + ")";
      return false;
    }
    need_factor_ = false;
    stats_.factor_nonzeros = std::max(stats_.factor_nonzeros, solver_.factor_nonzeros());
    newton_.set_rounding_floor(rounding_floor());
    return true;
  }

  /// The weighted norm below which Newton corrections are rounding error: f_i is computed with
  /// an error of about uround (|f_i| + sum_j |J_ij y_j|) (its terms, to first order), and the
  /// iteration matrix carries that into every correction. Small for differential components
  /// (the M/h term dominates), it can exceed the Newton tolerance for an algebraic unknown much
  /// smaller than the terms of the equation that determines it (Fekete's multipliers of 1e-7,
  /// with atol 1e-12): without it such an iteration stalls at the floor, its measured rate
  /// means nothing, and shorter steps, which leave the floor where it is, never converge.
  double rounding_floor() {
    std::vector<double>& noise = work_;
    for (size_t i = 0; i < noise.size(); ++i) noise[i] = std::fabs(f_start_[i]);
    jacobian_.for_each_entry([&](int i, int j, double v) {
      noise[static_cast<size_t>(i)] += std::fabs(v * y_[static_cast<size_t>(j)]);
    });
    for (double& v : noise) v *= detail::kUround;
    solver_.solve_real(noise.data());
    double sum = 0.0;
    for (size_t i = 0; i < noise.size(); ++i) {
      const double r = noise[i] / scale_[i];
      sum += r * r;
    }
    const double floor = detail::kRoundingFloorFactor * std::sqrt(sum / static_cast<double>(n_));
    return std::isfinite(floor) ? floor : 0.0;
  }

  bool project(double t, std::vector<double>& y) {
    if constexpr (traits::has_project<Problem>::value) {
      ++stats_.projections;
      int status = problem_.project(t, y.data());
      if (status != 0)
        return note_failure("the projection failed at t = ", t, problem_text(status));
      for (int i = 0; i < n_; ++i)
        if (!std::isfinite(y[static_cast<size_t>(i)]))
          return note_failure("the projection failed at t = ", t,
                              "y[" + std::to_string(i) + "] became " +
                                  detail::format_number(y[static_cast<size_t>(i)]));
    }
    (void)t;
    (void)y;
    return true;
  }

  /// The event functions at (t, y); a value that is not finite is a failure like a nonzero
  /// return: compared with 0 it would be no sign change, or one at no time.
  bool evaluate_roots(double t, const double* y, double* g) {
    if constexpr (traits::has_roots<Problem>::value) {
      ++stats_.root_evaluations;
      int status = problem_.roots(t, y, g);
      if (status != 0)
        return note_failure("the event functions failed at t = ", t, problem_text(status));
      for (size_t i = 0; i < events_.size(); ++i)
        if (!std::isfinite(g[i]))
          return note_failure("the event functions failed at t = ", t,
                              "g[" + std::to_string(i) + "] is " + detail::format_number(g[i]));
    }
    (void)t;
    (void)y;
    (void)g;
    return true;
  }

  std::string problem_text(int status) const {
    if constexpr (traits::has_failure_message<Problem>::value) {
      std::string text = problem_.failure_message();
      if (!text.empty()) return text;
    }
    return "returned " + std::to_string(status);
  }

  bool note_failure(const char* what, double t, const std::string& why) {
    last_failure_ = what + detail::format_number(t) + ": " + why;
    return false;
  }

  void update_scale() {
    for (size_t i = 0; i < y_.size(); ++i) scale_[i] = atol_[i] + rtol_ * std::fabs(y_[i]);
  }

  // ----- Events ---------------------------------------------------------------------------------

  /// Looks for the first root of the event functions after the part searched, up to t_end, on
  /// the dense output (radau5_events.hpp). True if the call must return `result`: a root (the
  /// reported state is there) or a failure.
  bool scan_roots(double t_end, Radau5Result& result) {
    auto evaluate = [this](double t, double* g) {
      if (t == t_ && t_ > t_old_) {  // the step's end, evaluated when it was accepted
        std::copy(roots_at_end_.begin(), roots_at_end_.end(), g);
        return true;
      }
      interpolate(t, work_.data());
      return evaluate_roots(t, work_.data(), g);
    };
    const detail::EventScan scan = events_.scan(t_end, options_.root_tolerance, evaluate);
    if (scan == detail::EventScan::none) return false;
    if (scan == detail::EventScan::failed) return failed_scan(result);
    t_report_ = events_.root();
    interpolate(t_report_, y_report_.data());
    result = {Radau5Status::root_found, t_report_};
    return true;
  }

  bool failed_scan(Radau5Result& result) {
    result = fail(Radau5Status::problem_failed, t_, last_failure_);
    return true;
  }

  Problem& problem_;
  Radau5Options options_;
  detail::Radau5StepControl control_;  // h and its history (holds a reference to options_)
  detail::Radau5Newton newton_;
  detail::Radau5DenseOutput dense_;
  detail::Radau5Stages stages_;
  LinearSolver solver_;
  JacobianMatrix jacobian_, scratch_;
  bool initialized_ = false;  // set_up() succeeded
  bool started_ = false;      // and a start state is in place
  int n_ = 0;
  double rtol_ = 0.0, newton_tolerance_ = 0.0;  // after Radau5Options::calibrate_tolerances
  std::vector<double> atol_, mass_;             // mass_: M's diagonal, 1 or 0

  double t_ = 0.0, t_old_ = 0.0;             // the end and the start of the last step
  std::vector<double> y_, f_start_, scale_;  // y(t_), f(t_, y_), atol + rtol |y_|
  std::vector<double> work_, work2_;         // scratch of size n: a state, an f
  bool need_jacobian_ = true, need_factor_ = true, jacobian_is_fresh_ = false;
  bool have_jacobian_ = false;  // jacobian_ holds a J that was evaluated successfully
  int failures_in_step_ = 0, singular_in_step_ = 0;
  Radau5Status failure_kind_ = Radau5Status::convergence_failure;
  std::string last_failure_, message_;

  bool has_stop_ = false;
  double t_stop_ = 0.0;
  // integrate_to's t_out while it must not be stepped over (Radau5Options::stop_at_output_times).
  double output_stop_ = std::numeric_limits<double>::infinity();
  double t_report_ = 0.0;
  std::vector<double> y_report_;

  detail::Radau5EventSearch events_;
  std::vector<double> roots_at_end_;  // g(t_, y_) once a step is accepted (checked finite there)

  Radau5Statistics stats_;
};

}  // namespace integrators
}  // namespace daec
