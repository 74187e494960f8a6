// The hidden constraints during a run: consistent initialization at T0 (naming the constraints
// left violated when it fails, refusing a start where a constraint or an algebraic equation has
// degenerated) and the largest invariant residuals, measured after every step.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/output.hpp>
#include <daec/simulator/progress.hpp>

namespace daec::simulator {

// Invariants with a larger residual are named when consistent initialization fails.
constexpr double kViolationThreshold = 1e-10;

/// The largest invariant residuals seen: as they are, and each relative to the size of its terms.
struct InvariantResiduals {
  double absolute = 0.0;  // max |h_i|
  double relative = 0.0;  // max |h_i| / size_i (see largest_residuals)
  void add(const InvariantResiduals& more) {
    absolute = std::max(absolute, more.absolute);
    relative = std::max(relative, more.relative);
  }
};

/// The invariants' residuals at (t, x); fails if an invariant is not finite. A residual alone
/// cannot be judged: a hidden constraint differentiated ten times through gains of 1e3 has
/// terms of 1e30. So each |h_i| is also divided by the size of its terms, the norm of its
/// gradient times the scale of the states it involves:
///   size_i = (sum_j |dh_i/dx_j|) max_j max(|x_j|, s_j, a)   (j over the states h_i involves,
/// s_j the state's nominal value, 0 where the model gives none, a = `state_floor`, the absolute
/// tolerance: a state below it is as good as 0 to the integrator), at least the first-order size
/// sum_j |dh_i/dx_j| |x_j| of its terms, and not 0 where some of them are (a velocity constraint
/// x u + y v at rest); h_i is taken as it is where the size is 0 (h_i depends on t alone).
/// Without the floor, a crank angle of 3e-35 left by the projection at t = 0 made its drive
/// constraint phi1 - omega t a residual of 1 relative to its terms.
inline InvariantResiduals largest_residuals(const System& model, double t, const double* x,
                                            double state_floor = 0.0) {
  const int k = model.num_invariants, n = model.num_states;
  InvariantResiduals result;
  if (k > 0) {
    std::vector<double> h = buffer(k), gradient = buffer(k), scale = buffer(k), nominal = buffer(n),
                        values = buffer(model.invariants_jacobian_nnz);
    model.invariants(t, x, h.data());
    model.invariants_jacobian_values(t, x, values.data());
    model.state_nominal(nominal.data());
    for (int j = 0; j < n; ++j) {
      const double weight =
          std::max({std::fabs(x[j]), nominal[static_cast<size_t>(j)], state_floor});
      for (int e = model.invariants_jacobian_colptr[j]; e < model.invariants_jacobian_colptr[j + 1];
           ++e) {
        const auto row = static_cast<size_t>(model.invariants_jacobian_rowval[e]);
        gradient[row] += std::fabs(values[static_cast<size_t>(e)]);
        scale[row] = std::max(scale[row], weight);
      }
    }
    for (int i = 0; i < k; ++i) {
      const double value = h[static_cast<size_t>(i)];
      if (!std::isfinite(value))
        run_error("the invariant " + text::quoted(model.invariant_names[i]) + " is " +
                  text::format_number(value) + " at t = " + text::format_number(t) +
                  text::domain_hint("the constraint"));
      const double size = gradient[static_cast<size_t>(i)] * scale[static_cast<size_t>(i)];
      result.absolute = std::max(result.absolute, std::fabs(value));
      const double relative =
          size > 0.0 && std::isfinite(size) ? std::fabs(value) / size : std::fabs(value);
      result.relative = std::max(result.relative, relative);
    }
  } else {
    (void)model, (void)t, (void)x;
  }
  return result;
}

/// "rod = 0.25, rod' = 1.5": the invariants left violated (all of them if none stands out,
/// unless `only_violated`: then "").
inline std::string violated_invariants(const System& model, double t, const double* x,
                                       bool only_violated = false) {
  std::vector<double> h = buffer(model.num_invariants);
  model.invariants(t, x, h.data());
  std::vector<std::string> violated, all;
  for (int i = 0; i < model.num_invariants; ++i) {
    double value = h[static_cast<size_t>(i)];
    std::string item = std::string(model.invariant_names[i]) + " = " + text::format_number(value);
    all.push_back(item);
    if (!(std::fabs(value) <= kViolationThreshold)) violated.push_back(item);
  }
  if (violated.empty() && only_violated) return "";
  return text::join(violated.empty() ? all : violated);
}

/// The states whose value in `used` differs from `given` (the start asked for) by more than
/// rtol |given| + atol (0 and 0: by anything).
inline std::vector<int> moved_starts(const System& model, const std::vector<double>& given,
                                     const std::vector<double>& used, double rtol, double atol) {
  std::vector<int> moved;
  for (int i = 0; i < model.num_states; ++i) {
    const double before = given[static_cast<size_t>(i)], after = used[static_cast<size_t>(i)];
    if (!(std::fabs(after - before) <= rtol * std::fabs(before) + atol)) moved.push_back(i);
  }
  return moved;
}

/// Prints every start that consistent initialization changed by more than the tolerance.
inline void report_moved_starts(const System& model, const std::vector<double>& given,
                                const std::vector<double>& used, double t0, double rtol,
                                double atol) {
  std::vector<std::string> lines;
  for (int i : moved_starts(model, given, used, rtol, atol)) {
    lines.push_back(std::string(model.state_names[i]) + ": " +
                    text::format_number(given[static_cast<size_t>(i)]) + " -> " +
                    text::format_number(used[static_cast<size_t>(i)]));
  }
  if (lines.empty()) return;
  std::fprintf(stderr,
               "sim: consistent initialization at t = %s changed %zu start%s (given -> used; "
               "--fix keeps a start, --quiet hides this):\n",
               text::format_number(t0).c_str(), lines.size(), lines.size() == 1 ? "" : "s");
  for (const std::string& line : lines) std::fprintf(stderr, "sim:   %s\n", line.c_str());
}

/// "eq4 = 0.5, fixed lambda = 3 (start 2)": the start conditions left violated (initial
/// equations, fixed algebraic unknowns), "" if rhs cannot be evaluated or none is.
inline std::string violated_start_conditions(const System& model, double t, const double* x,
                                             const double* z_start) {
  std::vector<double> xdot = buffer(model.num_states), z = buffer(model.num_algebraic),
                      r = buffer(model.num_initial_equations);
  if (model.rhs(t, x, xdot.data(), z.data()) != 0) return "";
  model.initial_equations(t, x, xdot.data(), z.data(), r.data());
  std::vector<std::string> violated;
  for (int i = 0; i < model.num_initial_equations; ++i) {
    double value = r[static_cast<size_t>(i)];
    if (!(std::fabs(value) <= kViolationThreshold))
      violated.push_back(std::string(model.initial_equation_names[i]) + " = " +
                         text::format_number(value));
  }
  for (int j = 0; j < model.num_algebraic; ++j) {
    double value = z[static_cast<size_t>(j)];
    if (!model.fixed[model.num_states + j] || std::fabs(value - z_start[j]) <= kViolationThreshold)
      continue;
    violated.push_back("fixed " + std::string(model.algebraic_names[j]) + " = " +
                       text::format_number(value) + " (start " + text::format_number(z_start[j]) +
                       ")");
  }
  return violated.empty() ? "" : text::join(violated);
}

/// The fixed starts and the initial equations, for the message of a start that cannot be had.
inline std::string start_conditions(const System& model) {
  std::vector<std::string> fixed, equations;
  for (int i = 0; i < model.num_states + model.num_algebraic; ++i) {
    if (!model.fixed[i]) continue;
    fixed.push_back(i < model.num_states ? model.state_names[i]
                                         : model.algebraic_names[i - model.num_states]);
  }
  for (int i = 0; i < model.num_initial_equations; ++i)
    equations.push_back(model.initial_equation_names[i]);
  std::string text = "fixed starts: " + (fixed.empty() ? "none" : text::join(fixed));
  if (!equations.empty()) text += "; initial equations: " + text::join(equations);
  return text;
}

/// "the start is over-determined: ..." where the start has more conditions (invariants, fixed
/// starts, initial equations) than states, "" otherwise: such a start exists only where they agree
/// (a published consistent initial vector written fixed = true), which the search tells.
inline std::string over_determined(const System& model) {
  int conditions = model.num_invariants + model.num_initial_equations;
  for (int i = 0; i < model.num_states + model.num_algebraic; ++i) conditions += model.fixed[i];
  if (conditions <= model.num_states) return "";
  return "the start is over-determined: " + std::to_string(model.num_invariants) +
         " constraints, the fixed starts and the initial equations make " +
         std::to_string(conditions) + " conditions on " + std::to_string(model.num_states) +
         " states";
}

/// The name of row `row` of Model::start_surplus: a hidden constraint, an initial equation, or
/// a fixed algebraic unknown.
inline std::string condition_name(const System& model, int row) {
  if (row < model.num_invariants) return model.invariant_names[row];
  row -= model.num_invariants;
  if (row < model.num_initial_equations) return model.initial_equation_names[row];
  row -= model.num_initial_equations;
  for (int j = 0; j < model.num_algebraic; ++j)
    if (model.fixed[model.num_states + j] && row-- == 0)
      return std::string("fixed ") + model.algebraic_names[j];
  return "?";
}

/// Warns where the consistent start x meets more conditions than the model's freedom allows:
/// they agree, so the run goes on (docs/simulator.md, "Starts"), and the warning names the
/// conditions that follow from the others where the fixed starts are held.
inline void report_surplus(const System& model, double t0, const std::vector<double>& x,
                           const std::vector<double>& z_start) {
  std::vector<int> rows(static_cast<size_t>(model.num_invariants + model.num_initial_equations +
                                            model.num_algebraic + 1));
  const int count = model.start_surplus(t0, x.data(), z_start.data(), rows.data());
  if (count <= 0) return;
  // At most kNamesShown names of each list, the rest counted.
  constexpr int kNamesShown = 12;
  const auto listed = [](std::vector<std::string> names, size_t more) {
    if (more > 0) names.push_back("and " + std::to_string(more) + " more");
    return text::join(names);
  };
  std::vector<std::string> names;
  for (int i = 0; i < count && i < kNamesShown; ++i)
    names.push_back(condition_name(model, rows[static_cast<size_t>(i)]));
  std::vector<std::string> fixed;
  int fixed_count = 0;
  for (int i = 0; i < model.num_states; ++i)
    if (model.fixed[i] && fixed_count++ < kNamesShown) fixed.push_back(model.state_names[i]);
  clear_progress_line();
  std::fprintf(
      stderr,
      "sim: warning: the start at t = %s meets %d more condition%s than the model's "
      "freedom allows, and they agree: %s follow%s from the others%s\n",
      text::format_number(t0).c_str(), count, count == 1 ? "" : "s",
      listed(names, static_cast<size_t>(std::max(count - kNamesShown, 0))).c_str(),
      count == 1 ? "s" : "",
      fixed.empty()
          ? ""
          : (" with the fixed starts " +
             listed(fixed, static_cast<size_t>(std::max(fixed_count - kNamesShown, 0))) + " held")
                .c_str());
}

// A constraint whose derivatives, over one scale unit of each state, are below this fraction of
// how much the constraint itself changes there has lost its Jacobian (x^2 + y^2 = L^2 at L = 0).
constexpr double kVanishingJacobian = 1e-10;
// Where consistent initialization did not converge, a constraint whose derivatives are below this
// fraction is taken as the cause: the iteration slows down to a crawl next to a singular root
// and stops short of it (the pendulum with L = 0 ends at x = 2e-7, a ratio of 5e-7).
constexpr double kVanishingJacobianNotReached = 1e-4;
// ... and over kNearProbe of a scale unit, its derivatives must predict less than kNearProbeRatio
// of its change, as they do near a singular root (x^2 at x = d predicts 2d/kNearProbe of it: a
// tenth at d = 5e-6; the three-pendulum chain of tests/data/n_pendulum3.dae, started at rest,
// ends 2.6e-6 from its singular root) but not where the constraint is only curved strongly (a
// diode's exponential: about all of it).
constexpr double kNearProbe = 1e-4, kNearProbeRatio = 1e-1;
// An algebraic equation whose terms in the unknowns are below this fraction of its other terms
// leaves them to rounding error: b*z + x = y with b = 1e-20 (z has no correct digit; at the
// limit, fewer than four).
constexpr double kNegligibleUnknowns = 1e-12;

/// The size of one change of each state: its nominal value, else max(|x_i|, 1).
inline std::vector<double> state_scales(const System& model, const std::vector<double>& x) {
  std::vector<double> s = buffer(model.num_states);
  model.state_nominal(s.data());
  for (size_t i = 0; i < static_cast<size_t>(model.num_states); ++i)
    if (!(s[i] > 0.0)) s[i] = std::max(std::fabs(x[i]), 1.0);
  return s;
}

/// "b = 1e-20": the parameters that `quantity` (of a model) depends on at the current values,
/// found by changing one at a time (doubled, or 1 where it is 0); "" if none.
template <typename Quantity>
std::string parameters_affecting(const System& model, Quantity quantity) {
  const double base = quantity(model);
  std::vector<std::string> names;
  for (int l = 0; l < model.num_parameters; ++l) {
    const std::unique_ptr<System> changed = model.copy();
    const double value = model.p[l];
    changed->set_parameter(model.parameter_names[l], value == 0.0 ? 1.0 : 2.0 * value);
    const double moved = quantity(*changed);
    if (std::isfinite(moved) && std::fabs(moved - base) > 1e-6 * std::fabs(base))
      names.push_back(std::string(model.parameter_names[l]) + " = " + text::format_number(value));
  }
  return names.empty() ? "" : text::join(names);
}

/// "the search for the start ended at x = 1 (given 0.6), ...": where consistent initialization
/// gave up, next to a singular root it was drawn to, and what to do about it; "" if it moved
/// nothing (the starts given are the singular point).
inline std::string search_end(const System& model, const std::vector<double>& given,
                              const std::vector<double>& x) {
  std::vector<std::string> moved;
  for (int i : moved_starts(model, given, x, 0.0, 0.0)) {
    moved.push_back(std::string(model.state_names[i]) + " = " +
                    text::format_number(x[static_cast<size_t>(i)]) + " (given " +
                    text::format_number(given[static_cast<size_t>(i)]) + ")");
  }
  if (moved.empty()) return "";
  return "the search for the start ended at " + text::join(moved) +
         ", where the starts given led it; keep the starts that must not move (--fix "
         "NAME=VALUE or fixed = true), so that the others are found from them";
}

/// Stops the run at a start where a constraint's Jacobian row and its residual vanish next to the
/// constraint's own change over one scale unit of its states (`threshold`): the reduction assumed
/// full rank there, so the motion is not determined (the pendulum's rod with L = 0 at x = y = 0).
/// `given`, where the search for a start gave up at x: the starts asked for, to say where it went.
inline void check_constraint_rank(const System& model, double t, const std::vector<double>& x,
                                  double threshold = kVanishingJacobian,
                                  const std::vector<double>* given = nullptr) {
  const int n = model.num_states, k = model.num_invariants;
  if (k > 0) {
    const std::vector<double> s = state_scales(model, x);
    std::vector<double> H = buffer(model.invariants_jacobian_nnz), h = buffer(k), moved = h;
    std::vector<double> slope(static_cast<size_t>(k), 0.0), change = slope, near = slope;
    model.invariants_jacobian_values(t, x.data(), H.data());
    model.invariants(t, x.data(), h.data());
    std::vector<double> trial = x;
    for (int j = 0; j < n; ++j) {
      const int first = model.invariants_jacobian_colptr[j],
                end = model.invariants_jacobian_colptr[j + 1];
      if (first == end) continue;
      for (double step : {s[j], -s[j], kNearProbe * s[j], -kNearProbe * s[j]}) {
        trial[j] = x[j] + step;
        model.invariants(t, trial.data(), moved.data());
        std::vector<double>& largest = std::fabs(step) < s[j] ? near : change;
        for (int e = first; e < end; ++e) {
          const size_t i = static_cast<size_t>(model.invariants_jacobian_rowval[e]);
          const double delta = std::fabs(moved[i] - h[i]);
          if (std::isfinite(delta)) largest[i] = std::max(largest[i], delta);
        }
      }
      trial[j] = x[j];
      for (int e = first; e < end; ++e)
        slope[model.invariants_jacobian_rowval[e]] =
            std::max(slope[model.invariants_jacobian_rowval[e]], std::fabs(H[e]) * s[j]);
    }
    for (int i = 0; i < k; ++i) {
      // Near a root (not where the constraint has none: x^2 + y^2 = -1 at the origin), and not
      // merely strongly curved (a diode's exp(v/0.026) changes by 1e36 over one volt, but its
      // derivative predicts the change over a ten-thousandth of it).
      const double size = threshold * change[i];
      if (!(slope[i] < size) || !(std::fabs(h[i]) < size) ||
          !(kNearProbe * slope[i] < kNearProbeRatio * near[i]))
        continue;
      std::string parameters = parameters_affecting(model, [&](const System& m) {
        std::vector<double> value = buffer(k);
        m.invariants(t, x.data(), value.data());
        return value[static_cast<size_t>(i)];
      });
      std::vector<std::string> notes{parameters.empty()
                                         ? "check the start values"
                                         : "it depends on the parameters " + parameters +
                                               "; a value that makes it degenerate?"};
      const std::string end = given != nullptr ? search_end(model, *given, x) : "";
      if (!end.empty()) notes.push_back(end);
      run_error("consistent initialization failed at t = " + text::format_number(t) +
                    ": the constraint " + text::quoted(model.invariant_names[i]) +
                    " has a vanishing Jacobian where the start must be (its derivatives are " +
                    text::format_number(slope[i]) + " where it changes by " +
                    text::format_number(change[i]) +
                    "): it no longer determines the motion, the reduction's rank assumption "
                    "fails there",
                notes);
    }
  } else {
    (void)model, (void)t, (void)x, (void)threshold;
  }
}

/// Stops the run where an algebraic equation no longer determines its unknowns: their terms
/// (sum |dr/dz_k| max(|z_k|, 1), so that an unknown that is 0 is not taken for a missing one)
/// are below kNegligibleUnknowns of its other terms (sum |dr/dx_j| |x_j|, the size of each term
/// to first order: (1/x) x for log(x)), so rounding in the other terms decides Z. Named by the
/// equation(s) its unknowns are solved from and the parameters its coefficients depend on.
inline void check_algebraic_scale(const System& model, double t, const std::vector<double>& x,
                                  const std::vector<double>& xdot, const std::vector<double>& z) {
  const int n = model.num_states, m = model.num_algebraic;
  if (m > 0) {
    std::vector<double> J = buffer(model.residual_jacobian_nnz);
    model.residual_jacobian_values(t, x.data(), xdot.data(), z.data(), 0.0, J.data());
    std::vector<double> state_terms(static_cast<size_t>(m), 0.0), unknown_terms = state_terms;
    for (int c = 0; c < n + m; ++c) {
      const double size = c < n ? std::fabs(x[static_cast<size_t>(c)])
                                : std::max(std::fabs(z[static_cast<size_t>(c - n)]), 1.0);
      for (int e = model.residual_jacobian_colptr[c]; e < model.residual_jacobian_colptr[c + 1];
           ++e) {
        const int row = model.residual_jacobian_rowval[e] - n;
        if (row < 0) continue;
        (c < n ? state_terms : unknown_terms)[static_cast<size_t>(row)] +=
            std::fabs(J[static_cast<size_t>(e)]) * size;
      }
    }
    for (int row = 0; row < m; ++row) {
      const size_t r = static_cast<size_t>(row);
      if (!(unknown_terms[r] < kNegligibleUnknowns * state_terms[r])) continue;
      std::vector<std::string> unknowns, equations;
      for (int c = n; c < n + m; ++c)
        for (int e = model.residual_jacobian_colptr[c]; e < model.residual_jacobian_colptr[c + 1];
             ++e)
          if (model.residual_jacobian_rowval[e] == n + row) {
            unknowns.push_back(text::quoted(model.algebraic_names[c - n]));
            equations.push_back(text::quoted(model.algebraic_equation[c - n]));
          }
      std::string parameters = parameters_affecting(model, [&](const System& changed) {
        std::vector<double> values = buffer(model.residual_jacobian_nnz);
        changed.residual_jacobian_values(t, x.data(), xdot.data(), z.data(), 0.0, values.data());
        double sum = 0.0;
        for (int e = model.residual_jacobian_colptr[n]; e < model.residual_jacobian_nnz; ++e)
          if (model.residual_jacobian_rowval[e] == n + row) sum += std::fabs(values[e]);
        return sum;
      });
      run_error(
          "at t = " + text::format_number(t) + ": the algebraic equation " +
              (equations.size() == 1 ? equations[0] : "(one of " + text::join(equations) + ")") +
              " no longer determines " + text::join(unknowns) + ": " +
              (unknowns.size() == 1 ? "its term is " : "their terms are ") +
              text::format_number(unknown_terms[r]) + " next to " +
              text::format_number(state_terms[r]) + " of the others, below rounding",
          {parameters.empty() ? "a coefficient of the unknowns has (nearly) vanished"
                              : "the coefficients depend on the parameters " + parameters +
                                    "; a value that makes them (nearly) vanish?"});
    }
  } else {
    (void)model, (void)t, (void)x, (void)xdot, (void)z;
  }
}

/// Makes x consistent at t0 (keeping fixed starts, satisfying the initial equations) and checks
/// that rhs can be evaluated there. `z_start`: the values of the fixed algebraic unknowns.
inline void initialize(const System& model, double t0, std::vector<double>& x,
                       const std::vector<double>& z_start) {
  std::string at = "at t = " + text::format_number(t0);
  const std::vector<double> given = x;
  const int status = model.consistent_initialization(t0, x.data(), z_start.data());
  if (status == 2) {  // a residual is not finite, or rhs fails (then say why)
    std::vector<double> xdot = buffer(model.num_states), z = buffer(model.num_algebraic);
    if (text::first_not_finite(x.data(), model.num_states) < 0 &&
        model.rhs(t0, x.data(), xdot.data(), z.data()) != 0)
      run_error("consistent initialization failed " + at +
                    ": the right-hand side cannot be evaluated there: " +
                    text::rhs_failure(model, t0, x.data()),
                {start_conditions(model)});
  }
  // A degenerate constraint is the likelier cause of a start not found, if it is one.
  if (status == 1) check_constraint_rank(model, t0, x, kVanishingJacobianNotReached, &given);
  if (status != 0) {
    std::vector<std::string> violated;
    std::string c = violated_start_conditions(model, t0, x.data(), z_start.data());
    std::string h =
        model.num_invariants == 0 ? "" : violated_invariants(model, t0, x.data(), !c.empty());
    if (!h.empty()) violated.push_back(h);
    if (!c.empty()) violated.push_back(c);
    std::string left = violated.empty() ? "" : ": " + text::join(violated);
    if (status == 3) {
      std::vector<std::string> notes{start_conditions(model) +
                                     " (--set gives a guess instead of --fix)"};
      if (std::string over = over_determined(model); !over.empty())
        notes.push_back(over + ", which hold together only where they agree");
      run_error("consistent initialization failed " + at +
                    ": the fixed starts and initial equations contradict each other or the "
                    "model's constraints, or leave them no freedom" +
                    left,
                notes);
    }
    run_error("consistent initialization failed " + at + left, {start_conditions(model)});
  }
  // Before rhs, which a degenerate constraint may break; the search may have converged to it.
  check_constraint_rank(model, t0, x, kVanishingJacobian, &given);
  std::vector<double> xdot = buffer(model.num_states), z = buffer(model.num_algebraic);
  if (model.rhs(t0, x.data(), xdot.data(), z.data()) != 0)
    run_error("the right-hand side cannot be evaluated at the start " + at + ": " +
              text::rhs_failure(model, t0, x.data()));
  check_algebraic_scale(model, t0, x, xdot, z);
  report_surplus(model, t0, x, z_start);
}

}  // namespace daec::simulator
