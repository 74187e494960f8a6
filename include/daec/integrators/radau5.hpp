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
//   void solve_real(double* b);                  // (gamma*M - J) x = b, in place
//   void solve_complex(double* re, double* im);  // ((alpha + i*beta)*M - J) x = b, in place
// A sparse Jacobian (jacobian_pattern/jacobian_values) is used when the problem has it;
// DenseLinearSolver scatters it into dense matrices, KluLinearSolver factors it as it is.
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
#include "daec/integrators/radau5_types.hpp"
#include "daec/integrators/root_finder.hpp"

namespace daec {
namespace integrators {

namespace detail {

inline double clamp(double x, double low, double high) {
  return std::max(low, std::min(high, x));
}

}  // namespace detail

template <class Problem, class LinearSolver = DenseLinearSolver>
class Radau5 {
 public:
  explicit Radau5(Problem& problem, Radau5Options options = {})
      : problem_(problem), options_(std::move(options)) {}
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
    x_ = t;
    y_.assign(y, y + n_);
    if (!rhs(x_, y_.data(), y0f_.data()))
      return fail(Radau5Status::problem_failed, t, last_failure_);
    first_ = true;
    reject_ = false;
    have_gustafsson_ = false;
    need_jacobian_ = need_factor_ = true;
    jacobian_is_fresh_ = false;
    faccon_ = 1.0;
    theta_ = options_.jacobian_reuse_theta;
    t_old_ = x_;
    hold_ = 0.0;
    for (auto* c : {&cont1_, &cont2_, &cont3_}) std::fill(c->begin(), c->end(), 0.0);
    update_scale();
    h_ = options_.fixed_step > 0.0 ? options_.fixed_step : initial_step();
    t_report_ = x_;
    y_report_ = y_;
    std::fill(root_directions_.begin(), root_directions_.end(), 0);
    root_t_lo_ = x_;
    if (num_roots_ > 0 && !evaluate_roots(x_, y_.data(), g_lo_.data()))
      return fail(Radau5Status::problem_failed, x_, last_failure_);
    started_ = true;
    return {Radau5Status::step_taken, x_};
  }

  /// The integrator never steps past t_stop; step() returns stop_time_reached there.
  void set_stop_time(double t_stop) {
    has_stop_ = true;
    t_stop_ = t_stop;
  }
  void clear_stop_time() { has_stop_ = false; }

  /// One step (like CVODE's CV_ONE_STEP): returns the time reached, which is also t(), and the
  /// state y() there. At an event the step ends at the root (root_found, see root_directions());
  /// the next call continues from there unless restart() is called.
  Radau5Result step() {
    message_.clear();
    if (!started_) return not_started();
    if (root_t_lo_ < x_) {  // the rest of the last step, after an event inside it
      Radau5Result event;
      if (scan_roots(x_, event)) return event;
    }
    if (stop_time_behind()) return stop_time_error();
    if (has_stop_ && x_ >= t_stop_) return report_end_of_step();
    Radau5Result result = advance();
    if (!result.ok()) return result;
    Radau5Result event;
    if (scan_roots(x_, event)) return event;
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
  bool interpolate(double t, double* out) const {
    const double slack = 1e-13 * std::max(std::fabs(x_), std::fabs(hold_));
    if (t > x_ + slack || t < x_ - hold_ - slack) return false;
    if (hold_ == 0.0) {
      std::copy(y_.begin(), y_.end(), out);
      return true;
    }
    const auto& c = detail::Radau5Coefficients::get();
    const double s = (t - x_) / hold_;
    for (size_t i = 0; i < y_.size(); ++i)
      out[i] = y_[i] + s * (cont1_[i] + (s - c.c2m1) * (cont2_[i] + (s - c.c1m1) * cont3_[i]));
    return true;
  }

  double t() const { return t_report_; }                      ///< time of the reported state
  const std::vector<double>& y() const { return y_report_; }  ///< the reported state
  double t_internal() const { return x_; }                    ///< end of the last step
  double t_old() const { return t_old_; }                     ///< start of the last step
  double next_step_size() const { return h_; }
  int size() const { return n_; }
  /// After root_found: per event function, +1 (rose through 0), -1 (fell) or 0.
  const std::vector<int>& root_directions() const { return root_directions_; }
  const Radau5Statistics& statistics() const { return stats_; }
  /// Why the last call failed ("" after a success).
  const std::string& message() const { return message_; }
  const Radau5Options& options() const { return options_; }
  bool uses_sparse_jacobian() const { return jacobian_.sparse; }

 private:
  enum class Newton { converged, diverged, slow, f_failed };
  static constexpr double kUround = 1e-16;  // RADAU5's rounding unit

  Radau5Result not_started() {
    return fail(Radau5Status::invalid_input, x_,
                "no successful initialize() or restart() to start from");
  }

  /// A stop time behind the current time is a caller's error (at it: stop_time_reached).
  bool stop_time_behind() const { return has_stop_ && t_stop_ < x_; }

  Radau5Result stop_time_error() {
    return fail(Radau5Status::invalid_input, x_,
                "the stop time " + detail::format_number(t_stop_) +
                    " is behind t = " + detail::format_number(x_));
  }

  Radau5Result integrate_to_output(double t_out, double* y_out) {
    if (stop_time_behind()) return stop_time_error();
    for (;;) {
      const double scanned_until = std::min(x_, t_out);
      Radau5Result event;
      if (root_t_lo_ < scanned_until && scan_roots(scanned_until, event)) {
        std::copy(y_report_.begin(), y_report_.end(), y_out);
        return event;
      }
      if (x_ >= t_out) {
        interpolate(t_out, y_out);
        t_report_ = t_out;
        y_report_.assign(y_out, y_out + n_);
        bool at_stop = has_stop_ && t_out == t_stop_;
        return {at_stop ? Radau5Status::stop_time_reached : Radau5Status::step_taken, t_out};
      }
      if (has_stop_ && x_ >= t_stop_) {
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
    num_roots_ = 0;
    if constexpr (traits::has_roots<Problem>::value) num_roots_ = problem_.num_roots();
    if (num_roots_ < 0) return "num_roots() is negative";
    for (auto* v : {&y_, &y0f_, &scale_, &z1_, &z2_, &z3_, &w1_, &w2_, &w3_, &f1_, &f2_, &f3_,
                    &cont1_, &cont2_, &cont3_, &work_, &work2_})
      v->assign(static_cast<size_t>(n_), 0.0);
    g_lo_.assign(static_cast<size_t>(num_roots_), 0.0);
    root_directions_.assign(static_cast<size_t>(num_roots_), 0);
    return "";
  }

  std::string check_options() const {
    const Radau5Options& o = options_;
    if (!(o.rtol > 10.0 * kUround) || !std::isfinite(o.rtol))
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
      const double calibrated = 0.1 * std::pow(o.rtol, 2.0 / 3.0);
      for (double& a : atol_) a = calibrated * a / o.rtol;
      rtol_ = calibrated;
    }
    fnewt_ = o.newton_tolerance > 0.0
                 ? o.newton_tolerance
                 : std::max(10.0 * kUround / rtol_, std::min(0.03, std::sqrt(rtol_)));
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

  /// The classical starting-step heuristic (docs/integrators.md, "Options") on the differential
  /// components, for an error estimate of order 3: h = min(100 h0, (0.01 / max(d1, d2))^(1/4)).
  double initial_step() {
    double h = options_.initial_step;
    if (h <= 0.0) {
      double d0 = 0.0, d1 = 0.0;
      for (int i = 0; i < n_; ++i) {
        if (mass_[static_cast<size_t>(i)] == 0.0) continue;
        d0 = std::max(d0, std::fabs(y_[static_cast<size_t>(i)]) / scale_[static_cast<size_t>(i)]);
        d1 = std::max(d1, std::fabs(y0f_[static_cast<size_t>(i)]) / scale_[static_cast<size_t>(i)]);
      }
      double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
      h0 = std::min(h0, options_.max_step);
      if (has_stop_ && t_stop_ > x_) h0 = std::min(h0, t_stop_ - x_);  // f only up to t_stop
      for (int i = 0; i < n_; ++i)
        work_[static_cast<size_t>(i)] =
            y_[static_cast<size_t>(i)] +
            h0 * mass_[static_cast<size_t>(i)] * y0f_[static_cast<size_t>(i)];
      double d2 = 0.0;
      if (rhs(x_ + h0, work_.data(), work2_.data())) {
        for (int i = 0; i < n_; ++i) {
          if (mass_[static_cast<size_t>(i)] == 0.0) continue;
          double difference = work2_[static_cast<size_t>(i)] - y0f_[static_cast<size_t>(i)];
          d2 = std::max(d2, std::fabs(difference) / scale_[static_cast<size_t>(i)] / h0);
        }
      } else {
        last_failure_.clear();  // the heuristic's probe failing is no failure of the start
      }
      const double largest = std::max(d1, d2);
      const double h1 =
          largest <= 1e-15 ? std::max(1e-6, h0 * 1e-3) : std::pow(0.01 / largest, 0.25);
      h = std::min(100.0 * h0, h1);
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
      if (stats_.steps >= options_.max_steps)
        return fail(Radau5Status::too_many_steps, x_,
                    "too many steps: " + std::to_string(stats_.steps) +
                        " taken by t = " + detail::format_number(x_) +
                        " (max_steps = " + std::to_string(options_.max_steps) + ")");
      fit_step_to_limits();
      if (step_too_small()) {
        std::string text = "step size too small at t = " + detail::format_number(x_) +
                           ": h = " + detail::format_number(h_);
        if (options_.min_step > 0.0)
          text += " is below min_step = " + detail::format_number(options_.min_step);
        return fail(Radau5Status::step_size_too_small, x_, text);
      }
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
      int iterations = 0;
      double reduction = 0.5;
      Newton outcome = newton(iterations, reduction);
      if (outcome == Newton::slow && options_.fixed_step == 0.0) {
        h_ *= reduction;  // predicted too slow: a shorter step, no failure
        reject_ = true;
        renew_matrices();
        continue;
      }
      if (outcome != Newton::converged) {
        if (outcome != Newton::f_failed)
          last_failure_ = "Newton iteration did not converge at t = " + detail::format_number(x_) +
                          " (h = " + detail::format_number(h_) + ")";
        Radau5Status kind = outcome == Newton::f_failed ? Radau5Status::problem_failed
                                                        : Radau5Status::convergence_failure;
        if (!retry_shorter(kind)) return fatal();
        continue;
      }
      const double err = options_.fixed_step > 0.0 ? 0.0 : estimate_error();
      const double h_new = proposed_step(err, iterations);
      if (err < 1.0) {
        if (!accept(err, h_new)) {
          if (!retry_shorter(Radau5Status::problem_failed)) return fatal();
          continue;
        }
        return {Radau5Status::step_taken, x_};
      }
      reject(h_new);
    }
  }

  /// Applies the step-size limits: max_step, the fixed step, and the stop time (the step that
  /// would end within 0.01% of it ends exactly there).
  void fit_step_to_limits() {
    double h = options_.fixed_step > 0.0 ? options_.fixed_step : std::min(h_, options_.max_step);
    last_ = false;
    double limit = has_stop_ ? t_stop_ : std::numeric_limits<double>::infinity();
    if (output_stop_ < limit) limit = output_stop_;
    if (x_ + h * 1.0001 >= limit) {
      h_unclipped_ = h;
      h = limit - x_;
      step_end_ = limit;
      last_ = true;
    }
    if (h != h_) need_factor_ = true;
    h_ = h;
  }

  bool step_too_small() const {
    if (last_ && h_ > 0.0) return false;  // the remainder up to the stop time may be short
    if (h_ < options_.min_step) return true;
    return !(0.1 * std::fabs(h_) > std::fabs(x_) * kUround) || !(h_ > 0.0);
  }

  Newton newton(int& iterations, double& reduction) {
    const auto& c = detail::Radau5Coefficients::get();
    const double h = h_;
    start_newton(c);
    const int nit = options_.max_newton_iterations;
    const double fac1 = c.u1 / h, alphn = c.alpha / h, betan = c.beta / h;
    faccon_ = std::pow(std::max(faccon_, kUround), 0.8);
    theta_ = std::fabs(options_.jacobian_reuse_theta);
    double dyno_old = 0.0, thq_old = 0.0;
    for (int newt = 0;;) {
      if (newt >= nit) return Newton::diverged;
      if (!stage_rhs(c, h)) return Newton::f_failed;
      // The right-hand sides of the transformed linear systems, solved in place.
      for (size_t i = 0; i < y_.size(); ++i) {
        const double a1 = f1_[i], a2 = f2_[i], a3 = f3_[i], m = mass_[i];
        f1_[i] = c.ti11 * a1 + c.ti12 * a2 + c.ti13 * a3 - m * fac1 * w1_[i];
        f2_[i] = c.ti21 * a1 + c.ti22 * a2 + c.ti23 * a3 - m * (alphn * w2_[i] - betan * w3_[i]);
        f3_[i] = c.ti31 * a1 + c.ti32 * a2 + c.ti33 * a3 - m * (betan * w2_[i] + alphn * w3_[i]);
      }
      solver_.solve_real(f1_.data());
      solver_.solve_complex(f2_.data(), f3_.data());
      ++stats_.linear_solves;
      ++stats_.newton_iterations;
      ++newt;
      double sum = 0.0;
      for (size_t i = 0; i < y_.size(); ++i) {
        const double s = scale_[i];
        sum +=
            (f1_[i] / s) * (f1_[i] / s) + (f2_[i] / s) * (f2_[i] / s) + (f3_[i] / s) * (f3_[i] / s);
      }
      const double dyno = std::sqrt(sum / (3.0 * n_));
      if (!std::isfinite(dyno)) return Newton::diverged;
      if (newt > 1 && newt < nit) {
        const double thq = dyno / dyno_old;
        theta_ = newt == 2 ? thq : std::sqrt(thq * thq_old);
        thq_old = thq;
        if (!(theta_ < 0.99)) return Newton::diverged;
        faccon_ = theta_ / (1.0 - theta_);
        const double dyth = faccon_ * dyno * std::pow(theta_, nit - 1 - newt) / fnewt_;
        if (dyth >= 1.0) {  // would not converge within nit iterations: shorter step
          const double qnewt = detail::clamp(dyth, 1e-4, 20.0);
          reduction = 0.8 * std::pow(qnewt, -1.0 / (4.0 + nit - 1 - newt));
          return Newton::slow;
        }
      }
      dyno_old = std::max(dyno, kUround);
      for (size_t i = 0; i < y_.size(); ++i) {
        w1_[i] += f1_[i];
        w2_[i] += f2_[i];
        w3_[i] += f3_[i];
        z1_[i] = c.t11 * w1_[i] + c.t12 * w2_[i] + c.t13 * w3_[i];
        z2_[i] = c.t21 * w1_[i] + c.t22 * w2_[i] + c.t23 * w3_[i];
        z3_[i] = c.t31 * w1_[i] + w2_[i];
      }
      if (faccon_ * dyno <= fnewt_) {
        iterations = newt;
        return Newton::converged;
      }
    }
  }

  /// Newton's starting values: zero on a first step, else the last collocation polynomial
  /// extrapolated to the new stages (Z = P(t + c_i h) - y), and W = T^-1 Z.
  void start_newton(const detail::Radau5Coefficients& c) {
    if (first_ || !options_.extrapolate_start || hold_ == 0.0) {
      for (auto* v : {&z1_, &z2_, &z3_, &w1_, &w2_, &w3_}) std::fill(v->begin(), v->end(), 0.0);
      return;
    }
    const double c3q = h_ / hold_, c1q = c.c1 * c3q, c2q = c.c2 * c3q;
    for (size_t i = 0; i < y_.size(); ++i) {
      const double ak1 = cont1_[i], ak2 = cont2_[i], ak3 = cont3_[i];
      const double z1 = c1q * (ak1 + (c1q - c.c2m1) * (ak2 + (c1q - c.c1m1) * ak3));
      const double z2 = c2q * (ak1 + (c2q - c.c2m1) * (ak2 + (c2q - c.c1m1) * ak3));
      const double z3 = c3q * (ak1 + (c3q - c.c2m1) * (ak2 + (c3q - c.c1m1) * ak3));
      z1_[i] = z1;
      z2_[i] = z2;
      z3_[i] = z3;
      w1_[i] = c.ti11 * z1 + c.ti12 * z2 + c.ti13 * z3;
      w2_[i] = c.ti21 * z1 + c.ti22 * z2 + c.ti23 * z3;
      w3_[i] = c.ti31 * z1 + c.ti32 * z2 + c.ti33 * z3;
    }
  }

  /// f at the three stages y + Z_k into f1_, f2_, f3_.
  bool stage_rhs(const detail::Radau5Coefficients& c, double h) {
    const double times[3] = {x_ + c.c1 * h, x_ + c.c2 * h, x_ + h};
    const std::vector<double>* z[3] = {&z1_, &z2_, &z3_};
    std::vector<double>* f[3] = {&f1_, &f2_, &f3_};
    for (int k = 0; k < 3; ++k) {
      for (size_t i = 0; i < y_.size(); ++i) work_[i] = y_[i] + (*z[k])[i];
      if (!rhs(times[k], work_.data(), f[k]->data())) return false;
    }
    return true;
  }

  /// RADAU5's error estimate (ESTRAD) in the weighted RMS norm; 1 is the tolerance.
  double estimate_error() {
    const auto& c = detail::Radau5Coefficients::get();
    const double hee1 = c.dd1 / h_, hee2 = c.dd2 / h_, hee3 = c.dd3 / h_;
    std::vector<double>& mz = f2_;  // M (e1 Z1 + e2 Z2 + e3 Z3) / h
    std::vector<double>& estimate = f1_;
    for (size_t i = 0; i < y_.size(); ++i) {
      mz[i] = mass_[i] * (hee1 * z1_[i] + hee2 * z2_[i] + hee3 * z3_[i]);
      estimate[i] = mz[i] + y0f_[i];
    }
    solver_.solve_real(estimate.data());
    ++stats_.linear_solves;
    double err = error_norm(estimate);
    if (err >= 1.0 && (first_ || reject_)) {
      // The stiff components of the first estimate can be far too large; one more solve with
      // f at y0 + err damps them.
      for (size_t i = 0; i < y_.size(); ++i) work2_[i] = y_[i] + estimate[i];
      if (rhs(x_, work2_.data(), f3_.data())) {
        for (size_t i = 0; i < y_.size(); ++i) estimate[i] = f3_[i] + mz[i];
        solver_.solve_real(estimate.data());
        ++stats_.linear_solves;
        err = error_norm(estimate);
      } else {
        last_failure_.clear();  // keep the first estimate
      }
    }
    return err;
  }

  /// max(||estimate / scale||_rms, 1e-10), after the optional projection of the estimate.
  double error_norm(std::vector<double>& estimate) {
    if constexpr (traits::has_project_error<Problem>::value) {
      if (options_.project_error) {
        for (size_t i = 0; i < y_.size(); ++i) work_[i] = y_[i] + z3_[i];
        if (problem_.project_error(x_ + h_, work_.data(), estimate.data()) != 0) return 1e10;
      }
    }
    double sum = 0.0;
    for (size_t i = 0; i < y_.size(); ++i)
      sum += (estimate[i] / scale_[i]) * (estimate[i] / scale_[i]);
    const double err = std::sqrt(sum / n_);
    if (!std::isfinite(err)) return 1e10;  // rejected, the step shrinks by the largest factor
    return std::max(err, 1e-10);
  }

  /// The step size the error asks for (RADAU5's formula, plus Gustafsson's predictive
  /// controller after an accepted step).
  double proposed_step(double err, int iterations) const {
    if (options_.fixed_step > 0.0) return options_.fixed_step;
    const int nit = options_.max_newton_iterations;
    const double safety = options_.safety;
    const double facr = 1.0 / options_.max_step_ratio, facl = 1.0 / options_.min_step_ratio;
    const double fac = std::min(safety, safety * (1 + 2 * nit) / (iterations + 2 * nit));
    double quot = detail::clamp(std::pow(err, 0.25) / fac, facr, facl);
    if (err < 1.0 && options_.predictive_controller && have_gustafsson_) {
      double gustafsson = (hacc_ / h_) * std::pow(err * err / erracc_, 0.25) / safety;
      quot = std::max(quot, detail::clamp(gustafsson, facr, facl));
    }
    return h_ / quot;
  }

  /// Ends the step at t + h: projects, evaluates f there, keeps the collocation polynomial, and
  /// chooses the next step size and whether J and the LU are reused. False (nothing changed) if
  /// the projection or f failed.
  bool accept(double err, double h_new) {
    const double t_new = last_ ? step_end_ : x_ + h_;
    std::vector<double>& y_new = work2_;
    for (size_t i = 0; i < y_.size(); ++i) y_new[i] = y_[i] + z3_[i];
    if (!project(t_new, y_new)) return false;
    if (!rhs(t_new, y_new.data(), work_.data())) return false;
    if (options_.predictive_controller) {
      hacc_ = h_;
      erracc_ = std::max(1e-2, err);
      have_gustafsson_ = true;
    }
    const auto& c = detail::Radau5Coefficients::get();
    for (size_t i = 0; i < y_.size(); ++i) {
      const double z1 = z1_[i], z2 = z2_[i], z3 = z3_[i];
      cont1_[i] = (z2 - z3) / c.c2m1;
      const double ak = (z1 - z2) / c.c1mc2;
      const double acont3 = (ak - z1 / c.c1) / c.c2;
      cont2_[i] = (ak - cont1_[i]) / c.c1m1;
      cont3_[i] = cont2_[i] - acont3;
    }
    std::swap(y_, y_new);
    std::swap(y0f_, work_);
    t_old_ = x_;
    hold_ = h_;
    x_ = t_new;
    first_ = false;
    jacobian_is_fresh_ = false;
    ++stats_.accepted_steps;
    update_scale();
    choose_next_step(h_new);
    return true;
  }

  void choose_next_step(double h_new) {
    // A step cut short to end at a stop or output time says little about the next one.
    if (last_) h_new = std::max(h_new, h_unclipped_);
    h_new = std::min(h_new, options_.max_step);
    if (reject_) h_new = std::min(h_new, h_);
    reject_ = false;
    const bool reuse_jacobian = theta_ <= options_.jacobian_reuse_theta;
    const double ratio = h_new / h_;
    if (reuse_jacobian && ratio >= options_.keep_step_low && ratio <= options_.keep_step_high)
      return;  // same h, same J, same LU
    if (h_new != h_) need_factor_ = true;
    h_ = h_new;
    if (!reuse_jacobian) need_jacobian_ = need_factor_ = true;
  }

  void reject(double h_new) {
    reject_ = true;
    h_ = first_ ? 0.1 * h_ : h_new;
    ++stats_.rejected_steps;
    renew_matrices();
  }

  /// After a failed attempt: the LU for the new h; a new J too, unless J is already fresh.
  void renew_matrices() {
    need_factor_ = true;
    if (!jacobian_is_fresh_) need_jacobian_ = true;
  }

  /// A recoverable failure (Newton, f, J, projection, singular matrix): halves the step, or
  /// returns false when it happened too often in this step (or the step is fixed).
  bool retry_shorter(Radau5Status kind) {
    ++stats_.convergence_failures;
    ++failures_in_step_;
    failure_kind_ = kind;
    if (kind == Radau5Status::singular_matrix && ++singular_in_step_ >= 5) return false;
    if (failures_in_step_ >= options_.max_convergence_failures) return false;
    if (options_.fixed_step > 0.0) {  // the step stays; only a fresh J may still help
      if (jacobian_is_fresh_ || kind != Radau5Status::convergence_failure) return false;
      renew_matrices();
      return true;
    }
    h_ *= 0.5;
    reject_ = true;
    renew_matrices();
    return true;
  }

  /// The failure after the retries: the last failure's text, counted.
  Radau5Result fatal() {
    std::string text = last_failure_;
    if (failures_in_step_ > 1)
      text += " (" + std::to_string(failures_in_step_) + " failed attempts in this step)";
    return fail(failure_kind_, x_, text);
  }

  Radau5Result fail(Radau5Status status, double t, std::string text) {
    if (!last_failure_.empty() && text.find(last_failure_) == std::string::npos &&
        status != Radau5Status::invalid_input)
      text += "; last failure: " + last_failure_;
    message_ = std::move(text);
    return {status, t};
  }

  Radau5Result report_end_of_step() {
    t_report_ = x_;
    y_report_ = y_;
    const bool at_stop = has_stop_ && x_ >= t_stop_;
    return {at_stop ? Radau5Status::stop_time_reached : Radau5Status::step_taken, x_};
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
      if (scratch_.sparse) status = problem_.jacobian_values(x_, y_.data(), scratch_.values.data());
    }
    if (!scratch_.sparse) {
      std::fill(scratch_.values.begin(), scratch_.values.end(), 0.0);
      if constexpr (traits::has_dense_jacobian<Problem>::value)
        status = problem_.jacobian(x_, y_.data(), scratch_.values.data());
      else if (!finite_difference_jacobian())
        return false;
    }
    if (status != 0) return note_failure("the Jacobian failed at t = ", x_, problem_text(status));
    for (size_t k = 0; k < scratch_.values.size(); ++k)
      if (!std::isfinite(scratch_.values[k]))
        return note_failure(
            "the Jacobian failed at t = ", x_,
            "entry " + std::to_string(k) + " is " + detail::format_number(scratch_.values[k]));
    std::swap(jacobian_.values, scratch_.values);  // a failed evaluation keeps the old J
    have_jacobian_ = true;
    need_jacobian_ = false;
    jacobian_is_fresh_ = true;
    need_factor_ = true;
    return true;
  }

  /// Forward differences with RADAU5's increments sqrt(uround * max(1e-5, |y_j|)).
  bool finite_difference_jacobian() {
    std::vector<double>& y = work2_;
    std::copy(y_.begin(), y_.end(), y.begin());
    for (int j = 0; j < n_; ++j) {
      const size_t jj = static_cast<size_t>(j);
      const double saved = y[jj];
      const double delta = std::sqrt(kUround * std::max(1e-5, std::fabs(saved)));
      y[jj] = saved + delta;
      if (!rhs(x_, y.data(), work_.data())) return false;
      y[jj] = saved;
      double* column = scratch_.values.data() + jj * static_cast<size_t>(n_);
      for (size_t i = 0; i < y_.size(); ++i) column[i] = (work_[i] - y0f_[i]) / delta;
    }
    return true;
  }

  bool factor() {
    const auto& c = detail::Radau5Coefficients::get();
    ++stats_.factorizations;
    if (solver_.factor(jacobian_, c.u1 / h_, c.alpha / h_, c.beta / h_) != 0) {
      last_failure_ = "the iteration matrix is singular at t = " + detail::format_number(x_) +
                      " (h = " + detail::format_number(h_) + ")";
      return false;
    }
    need_factor_ = false;
    return true;
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

  bool evaluate_roots(double t, const double* y, double* g) {
    if constexpr (traits::has_roots<Problem>::value) {
      ++stats_.root_evaluations;
      int status = problem_.roots(t, y, g);
      if (status != 0)
        return note_failure("the event functions failed at t = ", t, problem_text(status));
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

  /// Looks for the first root of the event functions in (root_t_lo_, t_end] on the dense output.
  /// True if the call must return `result`: a root (the reported state is there) or a failure.
  bool scan_roots(double t_end, Radau5Result& result) {
    if (num_roots_ == 0 || !(t_end > root_t_lo_)) {
      root_t_lo_ = std::max(root_t_lo_, t_end);
      return false;
    }
    // 1e-12 max(1, |t|) for every t in the interval: the root's too.
    const double tolerance =
        options_.root_tolerance > 0.0
            ? options_.root_tolerance
            : 1e-12 * std::max(1.0, std::min(std::fabs(root_t_lo_), std::fabs(t_end)));
    std::vector<double> g_hi(static_cast<size_t>(num_roots_));
    auto evaluate = [&](double t, double* g) {
      interpolate(t, work_.data());
      return evaluate_roots(t, work_.data(), g) ? 0 : 1;
    };
    double t_lo = root_t_lo_;
    std::vector<double> g_lo = g_lo_;
    // A function exactly zero where the scan starts (an event just handled) takes its sign from
    // a little later, so that the same root is not reported again.
    if (std::find(g_lo.begin(), g_lo.end(), 0.0) != g_lo.end()) {
      t_lo = std::min(t_lo + 10.0 * tolerance, t_lo + 0.5 * (t_end - t_lo));
      if (evaluate(t_lo, g_lo.data()) != 0) return failed_scan(result);
    }
    if (evaluate(t_end, g_hi.data()) != 0) return failed_scan(result);
    RootLocation root;
    int found = locate_first_root(t_lo, g_lo, t_end, g_hi, tolerance, evaluate, root);
    if (found < 0 || found > 1) return failed_scan(result);
    if (found == 0) {
      root_t_lo_ = t_end;
      g_lo_ = std::move(g_hi);
      return false;
    }
    root_t_lo_ = root.t;
    g_lo_ = root.g;
    root_directions_ = root.directions;
    t_report_ = root.t;
    interpolate(root.t, y_report_.data());
    result = {Radau5Status::root_found, root.t};
    return true;
  }

  bool failed_scan(Radau5Result& result) {
    result = fail(Radau5Status::problem_failed, x_, last_failure_);
    return true;
  }

  Problem& problem_;
  Radau5Options options_;
  LinearSolver solver_;
  JacobianMatrix jacobian_, scratch_;
  bool initialized_ = false;  // set_up() succeeded
  bool started_ = false;      // and a start state is in place
  int n_ = 0;
  double rtol_ = 0.0, fnewt_ = 0.0;
  std::vector<double> atol_, mass_;

  double x_ = 0.0, h_ = 0.0, hold_ = 0.0, t_old_ = 0.0;
  std::vector<double> y_, y0f_, scale_;
  std::vector<double> z1_, z2_, z3_, w1_, w2_, w3_, f1_, f2_, f3_;
  std::vector<double> cont1_, cont2_, cont3_;  // collocation polynomial of the last step
  std::vector<double> work_, work2_;
  bool first_ = true, reject_ = false, last_ = false;
  bool need_jacobian_ = true, need_factor_ = true, jacobian_is_fresh_ = false;
  bool have_jacobian_ = false;  // jacobian_ holds a J that was evaluated successfully
  double faccon_ = 1.0, theta_ = 0.0;
  bool have_gustafsson_ = false;
  double hacc_ = 0.0, erracc_ = 0.0;
  int failures_in_step_ = 0, singular_in_step_ = 0;
  Radau5Status failure_kind_ = Radau5Status::convergence_failure;
  std::string last_failure_, message_;

  bool has_stop_ = false;
  double t_stop_ = 0.0;
  // Where the current step ends if cut short (last_), and the step it replaced.
  double step_end_ = 0.0, h_unclipped_ = 0.0;
  // integrate_to's t_out while it must not be stepped over (Radau5Options::stop_at_output_times).
  double output_stop_ = std::numeric_limits<double>::infinity();
  double t_report_ = 0.0;
  std::vector<double> y_report_;

  int num_roots_ = 0;
  double root_t_lo_ = 0.0;
  std::vector<double> g_lo_;
  std::vector<int> root_directions_;

  Radau5Statistics stats_;
};

}  // namespace integrators
}  // namespace daec
