// Model.simulate of the Python module (docs/python.md): the command-line simulator's own run
// (daec/simulator/simulation.hpp: consistent initialization, every --method, events, projection)
// in process, on a copy of the Python model with its current parameters. The rows go into NumPy
// arrays instead of a CSV file; the result is a SimulationResult (or a pandas.DataFrame), a
// failure a SimulationError (a RuntimeError with the simulator's message) that holds the rows
// computed before it. Part of the binding (python_binding.hpp), compiled with it.
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <daec/model_error.hpp>
#include <daec/runtime/system.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/methods.hpp>
#include <daec/simulator/options.hpp>
#include <daec/simulator/settings.hpp>
#include <daec/simulator/simulation.hpp>

// Hidden, as pybind11 declares its own types (pybind11/detail/common.h): a type holding pybind11
// objects would otherwise draw GCC's -Wattributes where the module is compiled without
// -fvisibility=hidden.
#if defined(__GNUC__)
#define DAEC_PYTHON_HIDDEN __attribute__((visibility("hidden")))
#else
#define DAEC_PYTHON_HIDDEN
#endif

namespace daec::python {

namespace py = pybind11;
using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// The rows and the changes of conditions of a run, gathered as it computes them.
class ArrayOutput : public simulator::RunOutput {
 public:
  struct Change {
    double t;
    std::string condition;
    bool value;
  };

  void row(const std::vector<double>& values) override {
    rows_.insert(rows_.end(), values.begin(), values.end());
    ++count_;
  }
  void event(double t, const std::string& condition, bool value) override {
    changes_.push_back({t, condition, value});
  }
  long count() const { return count_; }
  const std::vector<double>& rows() const { return rows_; }
  const std::vector<Change>& changes() const { return changes_; }

 private:
  std::vector<double> rows_;  // row-major: t, the variables, the outputs, the sensitivities
  long count_ = 0;
  std::vector<Change> changes_;
};

/// What Model.simulate returns (docs/python.md, "The result").
struct DAEC_PYTHON_HIDDEN SimulationResult {
  Array t, y;                      // the output times; one row of values per time
  std::vector<std::string> names;  // y's columns: the variables, the outputs (columns=...)
  py::list events;                 // (t, condition, value) per change of a condition
  py::dict statistics;             // the counts of the statistics line, the method, ...
  py::list moved_starts;           // (name, given, used) per start initialization moved
  bool success = false;
  std::string message;  // "" on success, else the simulator's message
};

/// The rows of `output` as (t, y); statistics only for a run that ended (`summary`). `chosen`:
/// the columns of columns=... (simulator::column_selection, t first).
inline SimulationResult make_result(const runtime::System& model, const ArrayOutput& output,
                                    const simulator::RunSummary* summary,
                                    const std::vector<std::string>& extra,
                                    const std::vector<size_t>& chosen) {
  SimulationResult result;
  const std::vector<std::string> all = simulator::all_columns(model, extra);
  for (size_t c = 1; c < chosen.size(); ++c) result.names.push_back(all[chosen[c]]);
  const auto rows = static_cast<py::ssize_t>(output.count());
  const auto columns = static_cast<py::ssize_t>(result.names.size());
  const auto width = static_cast<py::ssize_t>(all.size());
  result.t = Array(rows);
  result.y = Array({rows, columns});
  for (py::ssize_t i = 0; i < rows; ++i) {
    const double* row = output.rows().data() + i * width;
    result.t.mutable_data()[i] = row[0];
    for (py::ssize_t c = 0; c < columns; ++c)
      result.y.mutable_data()[i * columns + c] = row[chosen[static_cast<size_t>(c) + 1]];
  }
  for (const ArrayOutput::Change& change : output.changes())
    result.events.append(py::make_tuple(change.t, change.condition, change.value));
  if (summary == nullptr) return result;
  const simulator::Statistics& counts = summary->counts;
  py::dict& s = result.statistics;
  s["method"] = summary->method;
  s["linear_solver"] = simulator::linear_solver_name(summary->linear_solver);
  s["steps"] = counts.steps;
  s["rhs_evaluations"] = counts.rhs_evaluations;
  s["jacobian_evaluations"] = counts.jacobian_evaluations;
  s["projections"] = counts.projections;
  s["events"] = counts.events;
  s["factor_nonzeros"] = counts.factor_nonzeros;
  s["largest_invariant_residual"] = summary->largest.relative;
  s["largest_invariant_residual_absolute"] = summary->largest.absolute;
  return result;
}

/// The arguments of Model.simulate, as Python gave them.
struct DAEC_PYTHON_HIDDEN SimulateCall {
  Array t_eval;
  py::object method;
  double rtol = simulator::kDefaultRtol, atol = simulator::kDefaultAtol;
  py::dict fix, set;
  py::object sensitivities;
  bool as_frame = false;
  std::string linear_solver, on_singular;
  py::object columns;  // None, a string "x,v" or a list of names and patterns
  bool quiet = false;  // no warning for the starts moved
};

/// A finite number from `value`, else ValueError naming `what`.
inline double finite_number(const py::handle& value, const std::string& what) {
  const double number = py::float_(py::reinterpret_borrow<py::object>(value));
  if (!std::isfinite(number))
    throw py::value_error(what + " = " + text::format_number(number) + ": it must be finite");
  return number;
}

/// The output times: increasing, finite, at least two (the first is T0, the last T).
inline std::vector<double> output_times(const Array& t_eval) {
  if (t_eval.ndim() != 1 || t_eval.shape(0) < 2)
    throw py::value_error(
        "t_eval must be a one-dimensional array of at least two times (the "
        "first is the start), got shape " +
        py::str(py::getattr(t_eval, "shape")).cast<std::string>());
  std::vector<double> times(t_eval.data(), t_eval.data() + t_eval.shape(0));
  for (size_t k = 0; k < times.size(); ++k) {
    if (!std::isfinite(times[k]))
      throw py::value_error("t_eval[" + std::to_string(k) + "] = " + text::format_number(times[k]) +
                            ": the times must be finite");
    if (k > 0 && !(times[k] > times[k - 1]))
      throw py::value_error("t_eval must increase: t_eval[" + std::to_string(k) +
                            "] = " + text::format_number(times[k]) + " follows " +
                            text::format_number(times[k - 1]));
  }
  return times;
}

/// rtol and atol as the simulator takes them (docs/simulator.md), else ValueError.
inline void tolerances(const SimulateCall& call, simulator::Options& options) {
  using text::format_number;
  options.rtol = call.rtol;
  options.atol = call.atol;
  if (!(options.rtol >= simulator::kSmallestRtol && options.rtol < simulator::kLargestRtol))
    throw py::value_error("rtol = " + format_number(options.rtol) + ": it must be at least " +
                          format_number(simulator::kSmallestRtol) + " and below 1");
  if (!(options.atol > 0.0) || !std::isfinite(options.atol))
    throw py::value_error("atol = " + format_number(options.atol) + ": it must be positive");
}

/// The method: None for the model's default, else one of simulator::methods().
inline std::string method_of(const py::object& method) {
  if (method.is_none()) return "";
  if (!py::isinstance<py::str>(method))
    throw py::type_error("method must be a string or None, got " +
                         py::repr(method).cast<std::string>());
  const std::string name = method.cast<std::string>();
  for (const simulator::MethodInfo& known : simulator::methods())
    if (name == known.name) return name;
  throw py::value_error("unknown method '" + name + "'; the methods are " +
                        simulator::method_names() + " (Model.methods describes them)");
}

/// The KeyError for a name that `argument` (set or fix) cannot take, naming those it can.
inline py::key_error unknown_setting(const runtime::System& model, const std::string& name,
                                     bool fix) {
  const std::string starts = text::join(simulator::start_value_names(model));
  const std::string algebraic = text::join(simulator::algebraic_variable_names(model));
  if (fix)
    return py::key_error("fix: no variable named '" + name + "'; it takes the start values " +
                         starts + " and the algebraic variables " + algebraic);
  return py::key_error(
      "set: no parameter or variable named '" + name + "'; it takes the parameters " +
      text::join(simulator::parameter_names(model)) + " and the start values " + starts);
}

/// One entry of set or fix as the simulator's --set or --fix, after the checks the command line
/// makes later (an unknown name, a parameter to fix, an algebraic start that set cannot give).
inline simulator::Setting setting_of(const runtime::System& model, const py::handle& key,
                                     const py::handle& value, bool fix) {
  const char* argument = fix ? "fix" : "set";
  if (!py::isinstance<py::str>(key))
    throw py::type_error(std::string(argument) + ": names must be strings, got " +
                         py::repr(key).cast<std::string>());
  const std::string name = key.cast<std::string>();
  simulator::Target target{};
  try {
    target = simulator::resolve(model, name, argument);
  } catch (const simulator::Failure&) {
    throw unknown_setting(model, name, fix);
  }
  using Kind = simulator::Target::Kind;
  if (fix && target.kind == Kind::parameter)
    throw py::value_error("fix: '" + name + "' is a parameter, constant anyway; give it in set");
  if (!fix && target.kind == Kind::algebraic &&
      !model.fixed[static_cast<size_t>(model.num_states + target.index)])
    throw py::value_error("set: '" + name + "' is algebraic, computed from the states; fix={'" +
                          name + "': value} makes the start keep it");
  const double number = finite_number(value, std::string(argument) + "['" + name + "']");
  return {name, number, fix};
}

/// The simulator's options for this call (the checks the command line makes, as Python errors).
inline simulator::Options simulate_options(const runtime::System& model, const SimulateCall& call) {
  simulator::Options options;
  options.output_times = output_times(call.t_eval);
  options.progress = simulator::ProgressMode::off;  // a notebook or script has no use for the line
  options.t_start = options.output_times.front();
  options.t_end = options.output_times.back();
  options.step = options.t_end - options.t_start;
  if (!std::isfinite(options.step)) throw py::value_error("the interval of t_eval is too long");
  tolerances(call, options);
  options.method = method_of(call.method);
  try {
    options.linear_solver = simulator::parse_linear_solver(call.linear_solver);
  } catch (const simulator::Failure&) {
    throw py::value_error("linear_solver must be 'auto', 'dense' or 'klu', got '" +
                          call.linear_solver + "'");
  }
  try {
    options.on_singular = simulator::parse_on_singular(call.on_singular);
  } catch (const simulator::Failure&) {
    throw py::value_error("on_singular must be 'stop' or 'warn', got '" + call.on_singular + "'");
  }
  options.quiet = true;  // the moved starts are in the result
  for (const auto& [key, value] : call.set)
    options.settings.push_back(setting_of(model, key, value, false));
  for (const auto& [key, value] : call.fix)
    options.settings.push_back(setting_of(model, key, value, true));
  return options;
}

/// Raises the module's SimulationError: `message` (the simulator's), its notes, and the result
/// holding the rows computed before the failure.
[[noreturn]] inline void raise_failure(const py::object& error_type, const std::string& message,
                                       const std::vector<std::string>& notes,
                                       SimulationResult partial) {
  partial.message = message;
  py::object error = error_type(message);
  error.attr("result") = py::cast(std::move(partial));
  error.attr("notes") = py::cast(notes);
  if (py::hasattr(error, "add_note"))  // Python 3.11: the traceback prints them
    for (const std::string& note : notes) error.attr("add_note")("note: " + note);
  PyErr_SetObject(error_type.ptr(), error.ptr());
  throw py::error_already_set();
}

/// pandas, or ImportError saying how to install it.
inline py::module_ import_pandas() {
  try {
    return py::module_::import("pandas");
  } catch (py::error_already_set& error) {
    if (!error.matches(PyExc_ImportError)) throw;
    throw py::import_error(
        "simulate(as_frame=True) needs pandas, which this Python cannot import (" +
        std::string(py::str(error.value())) +
        "); install it (Debian: apt-get install python3-pandas) or use the result's arrays "
        "(as_frame=False)");
  }
}

/// The result as a pandas.DataFrame: index t, the columns of y; statistics and events in attrs.
inline py::object frame_of(const py::module_& pandas, const SimulationResult& result) {
  py::object frame = pandas.attr("DataFrame")(
      result.y, py::arg("columns") = result.names,
      py::arg("index") = pandas.attr("Index")(result.t, py::arg("name") = "t"));
  py::dict attrs = frame.attr("attrs");
  attrs["statistics"] = result.statistics;
  attrs["events"] = result.events;
  attrs["moved_starts"] = result.moved_starts;
  return frame;
}

/// A usage error of the simulator in simulate's words: the command line's "--set NAME: ..." (a
/// value that breaks an interp table's order, docs/language.md "Tables: interp") is the argument
/// set['NAME'] here, as simulate's other errors of set say.
inline std::string argument_words(const std::string& message) {
  const std::string option = "--set ";
  const size_t colon = message.find(": ");
  if (message.compare(0, option.size(), option) != 0 || colon == std::string::npos) return message;
  return "set['" + message.substr(option.size(), colon - option.size()) + "']" +
         message.substr(colon);
}

/// sensitivities= as the command line's --sensitivities takes it: "" for None, "all", or the
/// names of a list or tuple joined by commas; a TypeError for anything else.
inline std::string sensitivity_text(const py::object& sensitivities) {
  if (sensitivities.is_none()) return "";
  if (py::isinstance<py::str>(sensitivities)) {
    const std::string text = sensitivities.cast<std::string>();
    if (text == "all") return text;
    throw py::type_error(
        "simulate(sensitivities=...) takes a list of parameter names or 'all', "
        "got the string '" +
        text + "'");
  }
  if (!py::isinstance<py::list>(sensitivities) && !py::isinstance<py::tuple>(sensitivities))
    throw py::type_error("simulate(sensitivities=...) takes a list of parameter names or 'all'");
  std::string text;
  for (const py::handle& name : sensitivities) {
    if (!py::isinstance<py::str>(name))
      throw py::type_error("simulate(sensitivities=...): each parameter name must be a str");
    text += (text.empty() ? "" : ",") + name.cast<std::string>();
  }
  if (text.empty()) throw py::value_error("simulate(sensitivities=[]): no parameter named");
  return text;
}

/// The simulator's "--sensitivities: ..." in simulate's words.
inline std::string sensitivity_words(const std::string& message) {
  const std::string option = "--sensitivities";
  if (message.compare(0, option.size(), option) != 0) return message;
  return "sensitivities" + message.substr(option.size());
}

/// columns= as the command line's --columns takes it: None (every column), a string "x,v" or a
/// list or tuple of names and patterns; a TypeError for anything else.
inline std::vector<std::string> column_patterns(const py::object& columns) {
  if (columns.is_none()) return {};
  try {
    if (py::isinstance<py::str>(columns))
      return simulator::parse_column_patterns(columns.cast<std::string>(), "columns");
  } catch (const simulator::Failure& failure) {
    throw py::value_error(failure.message);
  }
  if (!py::isinstance<py::list>(columns) && !py::isinstance<py::tuple>(columns))
    throw py::type_error("simulate(columns=...) takes a list of names and patterns, or a string");
  std::vector<std::string> patterns;
  for (const py::handle& pattern : columns) {
    if (!py::isinstance<py::str>(pattern))
      throw py::type_error("simulate(columns=...): each name or pattern must be a str");
    patterns.push_back(pattern.cast<std::string>());
  }
  if (patterns.empty()) throw py::value_error("simulate(columns=[]): no column named");
  return patterns;
}

/// The starts consistent initialization moved, as a UserWarning in the words of the simulator's
/// report (docs/simulator.md, "What it does"); nothing if none moved.
inline void warn_moved_starts(const py::list& moved, double t0) {
  if (moved.empty()) return;
  std::vector<std::string> items;
  for (const py::handle& start : moved) {
    const py::tuple entry = py::reinterpret_borrow<py::tuple>(start);
    items.push_back(entry[0].cast<std::string>() + ": " +
                    text::format_number(entry[1].cast<double>()) + " -> " +
                    text::format_number(entry[2].cast<double>()));
  }
  const std::string message =
      "consistent initialization at t = " + text::format_number(t0) + " changed " +
      std::to_string(items.size()) + (items.size() == 1 ? " start" : " starts") +
      " (given -> used; fix={...} keeps a start, quiet=True hides this, the result's "
      "moved_starts lists them): " +
      text::join(items);
  if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 1) != 0) throw py::error_already_set();
}

/// Model.simulate on `model` (copied: the run's settings and modes do not stay).
inline py::object simulate(const runtime::System& model, const SimulateCall& call,
                           const py::object& error_type) {
  py::module_ pandas;
  if (call.as_frame) pandas = import_pandas();
  const std::unique_ptr<runtime::System> copy = model.copy();
  copy->release_modes();  // the run sets the modes at T0, as the command line's fresh model
  simulator::Options options = simulate_options(*copy, call);
  options.sensitivities = sensitivity_text(call.sensitivities);
  std::vector<std::string> extra;
  try {
    extra =
        simulator::sensitivity_columns(*copy, simulator::sensitivity_parameters(*copy, options));
  } catch (const simulator::Failure& failure) {
    throw py::value_error(sensitivity_words(failure.message));
  }
  std::vector<size_t> chosen;
  try {
    chosen = simulator::column_selection(simulator::all_columns(*copy, extra),
                                         simulator::csv_columns(*copy).size(),
                                         column_patterns(call.columns), "columns");
  } catch (const simulator::Failure& failure) {
    throw py::value_error(failure.message);
  }
  ArrayOutput output;
  simulator::RunSummary summary;
  try {
    py::gil_scoped_release unlocked;  // the run calls no Python
    summary = simulator::run_simulation(*copy, options, output);
  } catch (const simulator::Failure& failure) {
    if (failure.status == 2)
      throw py::value_error(sensitivity_words(argument_words(failure.message)));
    raise_failure(error_type, failure.message, failure.notes,
                  make_result(*copy, output, nullptr, extra, chosen));
  } catch (const model_error& failure) {
    raise_failure(error_type, failure.what(), {},
                  make_result(*copy, output, nullptr, extra, chosen));
  }
  SimulationResult result = make_result(*copy, output, &summary, extra, chosen);
  result.success = true;
  for (int i : simulator::moved_starts(*copy, summary.start_given, summary.start_used, options.rtol,
                                       options.atol))
    result.moved_starts.append(py::make_tuple(copy->state_names[i],
                                              summary.start_given[static_cast<size_t>(i)],
                                              summary.start_used[static_cast<size_t>(i)]));
  if (!call.quiet) warn_moved_starts(result.moved_starts, options.t_start);
  if (call.as_frame) return frame_of(pandas, result);
  return py::cast(std::move(result));
}

}  // namespace daec::python
