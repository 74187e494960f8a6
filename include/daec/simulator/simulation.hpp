// One simulation run, shared by the command-line simulator (run.hpp) and the Python module's
// Model.simulate (daec/adapters/python_simulate.hpp): the settings applied to the model, the
// consistent start at T0, the chosen method stepping to T with events, projection and the
// invariants measured after every step. Each output row and each change of a condition goes to
// a RunOutput as it is computed: the CSV, --events and --plot files of the command line, or
// NumPy arrays in Python. The run knows nothing of files or of Python.
#pragma once

#include <unistd.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <daec/runtime/system.hpp>
#include <daec/simulator/consistency.hpp>
#include <daec/simulator/events.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/failure_advice.hpp>
#include <daec/simulator/methods.hpp>
#include <daec/simulator/options.hpp>
#include <daec/simulator/output.hpp>
#include <daec/simulator/progress.hpp>
#include <daec/simulator/sensitivities.hpp>
#include <daec/simulator/sensitivity_jump.hpp>
#include <daec/simulator/settings.hpp>
#include <daec/simulator/singular.hpp>
#include <daec/simulator/step_redo.hpp>

namespace daec::simulator {

// Internal steps in a row that do not advance t before we call the integration stuck.
constexpr int kMaxStalledSteps = 100;

/// The row at (t, x), once the algebraic equations are found to still determine Z there.
inline std::vector<double> checked_row(const System& model, double t,
                                       const std::vector<double>& x) {
  std::vector<double> xdot = buffer(model.num_states), z = buffer(model.num_algebraic);
  if (model.rhs(t, x.data(), xdot.data(), z.data()) == 0)
    check_algebraic_scale(model, t, x, xdot, z);
  return row_values(model, t, x);
}

/// Receives each row of values (t, the declared variables, the outputs) in order.
using RowSink = std::function<void(const std::vector<double>&)>;

/// Integrates from the consistent x at T0 to T, giving one row per output time to `sink`;
/// returns the statistics. The invariants are measured after every step into `largest`, and
/// `progress` sees every step. Where a condition changes within a step (`events`, whose modes were
/// set at T0), the rows before the change come from that step, and the method restarts there on
/// the new branch. Past the last output time (--output-times with a later --t-end) the run goes
/// on to T without rows.
inline Statistics integrate(Integrator& integrator, System& model, const Options& options,
                            std::vector<double> x, const RowSink& sink, InvariantResiduals& largest,
                            Events& events, ProgressLine& progress) {
  const OutputTimes times(options);
  long next = 0;
  std::vector<double> sensitivities;
  const std::vector<int> parameters = sensitivity_parameters(model, options);
  SensitivityJump jump(model, parameters);
  // The row at `time` of `state`, with dX/dp where the method integrates it (--sensitivities).
  auto emit = [&](double time, const std::vector<double>& state) {
    std::vector<double> row = checked_row(model, time, state);
    if (!parameters.empty()) {
      integrator.sensitivities(time, sensitivities);
      append_sensitivities(model, parameters, time, state, sensitivities, row);
    }
    sink(row);
  };
  if (times[0] == options.t_start) emit(times[next++], x);
  std::vector<double> row_state = buffer(model.num_states);
  double t = options.t_start;
  int stalled = 0;
  SingularityMonitor singular(model, options.on_singular);
  singular.start(t, x);
  StepRedo redo;
  while (next < times.count() || t < options.t_end) {
    const double target = next < times.count() ? times[next] : options.t_end;
    double reached = t;
    redo.before_step(t, x);
    try {
      reached = integrator.step(target, x);
    } catch (Failure& failure) {
      // Near a singular reduced system, or where the model failed, the cause is the model.
      failure.method_gave_up = !singular.explain(failure) && !integrator.model_failed();
      throw;
    }
    if (std::string why = events.not_finite(reached, x); !why.empty()) {
      redo.redo(integrator, reached, reached, why, t, x);
      continue;
    }
    if (reached > t) singular.check(t, reached, x, integrator);
    stalled = reached > t ? 0 : stalled + 1;
    if (stalled > kMaxStalledSteps) {
      try {
        integrator.fail(reached, "the step size vanished (" + std::to_string(kMaxStalledSteps) +
                                     " steps did not advance t)");
      } catch (Failure& failure) {
        failure.method_gave_up = !integrator.model_failed();
        throw;
      }
    }
    if (events.watched() && events.changed(reached, x)) {
      Event event = events.locate(t, reached, x, integrator);
      if (!event.not_finite.empty()) {
        redo.redo(integrator, event.t, reached, event.not_finite, t, x);
        continue;
      }
      for (; next < times.count() && times[next] < event.t; ++next) {
        integrator.interpolate(times[next], row_state);
        emit(times[next], row_state);
      }
      if (!parameters.empty()) jump.before(event, integrator);
      events.apply(event, integrator);
      if (!parameters.empty()) integrator.carry_sensitivities(jump.after(event, integrator));
      integrator.restart(event.t, event.x);
      reached = event.t;
      x = event.x;
      singular.start(reached, x);
    }
    redo.passed(integrator, reached);
    t = reached;
    largest.add(largest_residuals(model, t, x.data(), options.atol));
    if (progress.due()) progress.show(t, integrator.statistics().steps);
    for (; next < times.count() && times[next] <= t; ++next) {
      if (times[next] == t) {
        integrator.step_end_row(t, x, row_state);
      } else {
        integrator.interpolate(times[next], row_state);
      }
      emit(times[next], row_state);
    }
  }
  Statistics counts = integrator.statistics();
  counts.events = events.count_events();
  return counts;
}

/// Where a run's results go as it computes them.
class RunOutput {
 public:
  virtual ~RunOutput() = default;
  /// The start is consistent; the rows and events follow (not called when the start fails).
  virtual void begin() {}
  /// One row: t, every declared variable, every output (the columns of csv_columns).
  virtual void row(const std::vector<double>& values) = 0;
  /// The condition named `condition` changed to `value` at t.
  virtual void event(double t, const std::string& condition, bool value) = 0;
  /// The run failed after begin(); the Failure is rethrown when this returns.
  virtual void failed() {}
};

/// What a run reports at its end (the command line's statistics line).
struct RunSummary {
  std::string method;
  LinearSolver linear_solver = LinearSolver::dense;
  Statistics counts;
  InvariantResiduals largest;
  std::vector<double> start_given;  // the states asked for at T0 (model, --set, --fix)
  std::vector<double> start_used;   // the consistent start the run began from
};

/// Whether the run shows its progress line: --progress, --no-progress, else when stderr is a
/// terminal.
inline bool progress_wanted(const Options& options) {
  if (options.progress != ProgressMode::automatic) return options.progress == ProgressMode::on;
  return ::isatty(STDERR_FILENO) == 1;
}

/// Simulates `model` (its parameters as they are; the settings of `options` are applied to it)
/// as `options` say, giving the rows and events to `output`. Throws Failure: status 2 for bad
/// usage (an unknown method or name), 1 when the run fails (at the start, or while integrating:
/// then after output.failed()).
inline RunSummary run_simulation(System& model, const Options& options, RunOutput& output) {
  RunSummary summary;
  summary.method = options.method.empty() ? default_method(model) : options.method;
  check_method(summary.method);
  check_sensitivities(model, options, summary.method, sensitivity_parameters(model, options));
  summary.linear_solver = resolve_linear_solver(model, options, summary.method);
  const RequestedStart start = apply_settings(options, model);
  std::vector<double> x = start.x;
  initialize(model, options.t_start, x, start.z);
  summary.start_given = start.x;
  summary.start_used = x;
  if (!options.quiet)
    report_moved_starts(model, start.x, x, options.t_start, options.rtol, options.atol);
  summary.largest = largest_residuals(model, options.t_start, x.data(), options.atol);
  const std::vector<int> parameters = sensitivity_parameters(model, options);
  const std::vector<double> s0 =
      parameters.empty() ? std::vector<double>()
                         : start_sensitivities(model, parameters, start, options.t_start, x);
  // Erased when the run ends, before the statistics line or the error that ends it.
  ProgressLine progress(progress_wanted(options), options.t_start, options.t_end);
  output.begin();
  const RowSink sink = [&](const std::vector<double>& row) { output.row(row); };
  Events events(model, options, [&](double t, const std::string& condition, bool value) {
    output.event(t, condition, value);
  });
  try {
    if (model.num_states > 0) {
      events.start(options.t_start, x);  // else the rows follow the relations' live values
      std::unique_ptr<Integrator> integrator =
          make_integrator(summary.method, model, options, x, summary.linear_solver, s0);
      summary.counts =
          integrate(*integrator, model, options, x, sink, summary.largest, events, progress);
    } else {  // everything algebraic: nothing to integrate, only to evaluate
      const OutputTimes times(options);
      for (long k = 0; k < times.count(); ++k) {
        sink(checked_row(model, times[k], x));
        if (progress.due()) progress.show(times[k], 0);
      }
    }
  } catch (Failure& failure) {
    if (failure.method_gave_up) advise_other_methods(failure, model, summary.method, options);
    output.failed();
    throw;
  }
  return summary;
}

}  // namespace daec::simulator
