// The Octave and MATLAB interface of a generated model (docs/octave.md): one MEX function per
// model, whose first argument names what to compute.
//
//   #include "pendulum.h"
//   #include <daec/adapters/mex.hpp>
//   DAEC_MEX_FUNCTION(pendulum::Model)          // defines mexFunction
//
// built with Octave's `mkoctfile --mex` (daec_add_mex in DaecFunctions.cmake does it) or MATLAB's
// `mex`, both from the model's code and this header alone (no daec library). In Octave:
//
//   x0 = pendulum('consistent_initialization', 0, pendulum('initial_state'));
//   opts = odeset('Jacobian', @(t, x) pendulum('jacobian', t, x), 'RelTol', 1e-8);
//   [t, x] = ode15s(@(t, x) pendulum('rhs', t, x), [0 1], x0, opts);
//
// The MEX file keeps one model between calls (its parameters, as 'set_parameter' leaves them);
// `clear pendulum` gives a fresh one. It works on the runtime's model interface
// (daec/runtime/system.hpp) so that the commands are written once for every model. A failure
// raises an Octave/MATLAB error with the identifier "daec:model" (the model failed: the words of
// the simulator, "rhs failed at t = 0: the state 'x' is not finite") or "daec:usage" (a wrong
// command, argument or size).
#pragma once

#include <mex.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/runtime/model_adapter.hpp>
#include <daec/runtime/parameter_orders.hpp>
#include <daec/runtime/system.hpp>

namespace daec::mex {

using runtime::System;

/// A call made wrongly (unknown command, wrong argument): the "daec:usage" error.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What each command takes and gives, for the message of a wrong call.
inline const char* usage() {
  return "usage: name('rhs', t, x) -> [xdot, z]; 'jacobian', t, x -> sparse d(xdot)/dx; "
         "'invariants', t, x; 'project', t, x; 'consistent_initialization', t, x; 'outputs', "
         "t, x; 'conditions', t, x -> [value, isterminal, direction]; 'reinit', t, x, k; "
         "'initial_state'; 'names'; 'parameters'; 'set_parameter', name, value";
}

/// An argument of `command` that must be a string (`what` names it in the message).
inline std::string string_argument(const mxArray* array, const char* command, const char* what) {
  if (array == nullptr || !mxIsChar(array))
    throw usage_error(std::string(command) + ": " + what + " must be a string");
  char* text = mxArrayToString(array);
  std::string result = text != nullptr ? text : "";
  mxFree(text);
  return result;
}

/// A real double scalar (the time, a parameter value).
inline double scalar_argument(const mxArray* array, const char* command, const char* what) {
  if (array == nullptr || !mxIsDouble(array) || mxIsComplex(array) ||
      mxGetNumberOfElements(array) != 1)
    throw usage_error(std::string(command) + ": " + what + " must be a real number");
  return mxGetScalar(array);
}

/// The state x: a real double vector (row or column) of num_states finite numbers.
inline std::vector<double> state_argument(const System& model, const mxArray* array,
                                          const char* command, double t) {
  const size_t n = static_cast<size_t>(model.num_states);
  if (array == nullptr || !mxIsDouble(array) || mxIsComplex(array) || mxIsSparse(array) ||
      mxGetNumberOfElements(array) != n || (mxGetM(array) != 1 && mxGetN(array) != 1))
    throw usage_error(std::string(command) + ": x must be a real vector of " + std::to_string(n) +
                      " numbers (the states, in the order of names().states)");
  const double* values = mxGetPr(array);
  std::vector<double> x(values, values + n);
  if (const int i = text::first_not_finite(x.data(), model.num_states); i >= 0)
    throw model_error(text::call_failure(
        command, t, "the state " + text::quoted(model.state_names[i]) + " is not finite"));
  x.resize(std::max<size_t>(n, 1));
  return x;
}

/// A column vector holding the first `count` of `values`.
inline mxArray* column(const double* values, int count) {
  mxArray* array = mxCreateDoubleMatrix(static_cast<size_t>(count), 1, mxREAL);
  std::copy(values, values + count, mxGetPr(array));
  return array;
}

/// A column cell array of the `count` names.
inline mxArray* name_cells(const char* const* names, int count) {
  mxArray* cells = mxCreateCellMatrix(static_cast<size_t>(count), 1);
  for (int i = 0; i < count; ++i)
    mxSetCell(cells, static_cast<size_t>(i), mxCreateString(names != nullptr ? names[i] : ""));
  return cells;
}

/// Scratch space for `count` values, never empty (the generated functions take a pointer).
inline std::vector<double> scratch(int count) {
  return std::vector<double>(static_cast<size_t>(std::max(count, 1)));
}

/// d(xdot)/dx as an n x n sparse matrix: the model's CSC pattern, or its dense Jacobian's nonzeros.
inline mxArray* sparse_jacobian(const System& model, double t, const double* x) {
  const int n = model.num_states;
  if (model.has_sparse_rhs_jacobian) {
    const int nnz = model.rhs_jacobian_nnz;
    std::vector<double> values = scratch(nnz);
    if (model.rhs_jacobian_values(t, x, values.data()) != 0 ||
        text::first_not_finite(values.data(), nnz) >= 0)
      throw model_error(
          text::call_failure("jacobian", t, text::jacobian_failure(model, t, x, "", "", 0.0)));
    mxArray* J = mxCreateSparse(static_cast<size_t>(n), static_cast<size_t>(n),
                                static_cast<size_t>(std::max(nnz, 1)), mxREAL);
    std::copy(values.begin(), values.begin() + nnz, mxGetPr(J));
    std::copy(model.rhs_jacobian_rowval, model.rhs_jacobian_rowval + nnz, mxGetIr(J));
    std::copy(model.rhs_jacobian_colptr, model.rhs_jacobian_colptr + n + 1, mxGetJc(J));
    return J;
  }
  std::vector<double> dense = scratch(n * n);  // row-major
  checked_rhs_jacobian(model, t, x, dense.data());
  const size_t nnz = static_cast<size_t>(
      std::count_if(dense.begin(), dense.begin() + n * n, [](double v) { return v != 0.0; }));
  mxArray* J = mxCreateSparse(static_cast<size_t>(n), static_cast<size_t>(n),
                              std::max<size_t>(nnz, 1), mxREAL);
  double* values = mxGetPr(J);
  mwIndex *rows = mxGetIr(J), *starts = mxGetJc(J);
  size_t k = 0;
  for (int j = 0; j < n; ++j) {
    starts[j] = k;
    for (int i = 0; i < n; ++i) {
      const double value = dense[static_cast<size_t>(i * n + j)];
      if (value == 0.0) continue;
      values[k] = value;
      rows[k++] = static_cast<mwIndex>(i);
    }
  }
  starts[n] = k;
  return J;
}

/// project or consistent_initialization (`correct`) of a copy of x; model_error naming the
/// invariants left violated if it does not converge.
template <typename Correct>
mxArray* corrected(const System& model, double t, const std::vector<double>& x, const char* command,
                   Correct correct) {
  std::vector<double> result = x;
  if (correct(t, result.data()) != 0 ||
      text::first_not_finite(result.data(), model.num_states) >= 0)
    throw model_error(text::call_failure(
        command, t, text::projection_failure(model, t, x.data(), result.data())));
  return column(result.data(), model.num_states);
}

/// names(): a struct of column cell arrays, one field a kind of name, and the units of the
/// declared kinds beside them ('' where none, and everywhere for a model without unit tables).
inline mxArray* names(const System& model) {
  const char* fields[] = {"states",          "algebraic",       "parameters",   "outputs",
                          "invariants",      "conditions",      "variables",    "state_units",
                          "algebraic_units", "parameter_units", "output_units", "variable_units"};
  mxArray* result = mxCreateStructMatrix(1, 1, 12, fields);
  mxSetField(result, 0, "states", name_cells(model.state_names, model.num_states));
  mxSetField(result, 0, "algebraic", name_cells(model.algebraic_names, model.num_algebraic));
  mxSetField(result, 0, "parameters", name_cells(model.parameter_names, model.num_parameters));
  mxSetField(result, 0, "outputs", name_cells(model.output_names, model.num_outputs));
  mxSetField(result, 0, "invariants", name_cells(model.invariant_names, model.num_invariants));
  mxSetField(result, 0, "conditions", name_cells(model.condition_names, model.num_conditions));
  mxSetField(result, 0, "variables", name_cells(model.variable_names, model.num_variables));
  mxSetField(result, 0, "state_units", name_cells(model.state_units, model.num_states));
  mxSetField(result, 0, "algebraic_units", name_cells(model.algebraic_units, model.num_algebraic));
  mxSetField(result, 0, "parameter_units", name_cells(model.parameter_units, model.num_parameters));
  mxSetField(result, 0, "output_units", name_cells(model.output_units, model.num_outputs));
  mxSetField(result, 0, "variable_units", name_cells(model.variable_units, model.num_variables));
  return result;
}

/// set_parameter(name, value) on a copy that replaces the model only when every value stays
/// finite (a parameter bound to this one follows it).
inline void set_parameter(std::unique_ptr<System>& model, const std::string& name, double value) {
  const int index = text::find_name(model->parameter_names, model->num_parameters, name);
  if (index < 0)
    throw usage_error("set_parameter: no parameter named '" + name + "'; the parameters are " +
                      text::join(std::vector<std::string>(
                          model->parameter_names, model->parameter_names + model->num_parameters)));
  if (!std::isfinite(value))
    throw usage_error("set_parameter: '" + name + "' = " + text::format_number(value) +
                      ": a parameter value must be finite");
  std::unique_ptr<System> changed = model->copy();
  if (changed->set_parameter(name.c_str(), value) == -2)
    throw usage_error("set_parameter: " + broken_order_message(*model, index, value));
  if (const int i = text::first_not_finite(changed->p, model->num_parameters); i >= 0)
    throw usage_error("set_parameter: '" + name + "' = " + text::format_number(value) +
                      " makes the parameter '" + model->parameter_names[i] + "' " +
                      text::format_number(changed->p[i]) + "; a parameter value must be finite");
  model = std::move(changed);
}

/// Checks the number of arguments after the command and of results asked for.
inline void expect(const std::string& command, int nrhs, int arguments, int nlhs, int results) {
  if (nrhs - 1 != arguments)
    throw usage_error(command + " takes " + std::to_string(arguments) + " argument" +
                      (arguments == 1 ? "" : "s") + " after the command, got " +
                      std::to_string(nrhs - 1) + "; " + usage());
  if (nlhs > results)
    throw usage_error(command + " gives at most " + std::to_string(results) + " result" +
                      (results == 1 ? "" : "s") + ", " + std::to_string(nlhs) + " asked for");
}

/// The commands that take (t, x).
inline void call_at_state(const System& model, const std::string& command, int nlhs,
                          mxArray* plhs[], const mxArray* prhs[]) {
  const char* name = command.c_str();
  const double t = scalar_argument(prhs[1], name, "t");
  const std::vector<double> x = state_argument(model, prhs[2], name, t);
  const int n = model.num_states;
  if (command == "rhs") {
    std::vector<double> xdot = scratch(n), z = scratch(model.num_algebraic);
    checked_rhs(model, t, x.data(), xdot.data(), z.data());
    plhs[0] = column(xdot.data(), n);
    if (nlhs > 1) plhs[1] = column(z.data(), model.num_algebraic);
  } else if (command == "jacobian") {
    plhs[0] = sparse_jacobian(model, t, x.data());
  } else if (command == "invariants") {
    std::vector<double> h = scratch(model.num_invariants);
    model.invariants(t, x.data(), h.data());
    plhs[0] = column(h.data(), model.num_invariants);
  } else if (command == "project") {
    plhs[0] =
        corrected(model, t, x, name, [&](double s, double* y) { return model.project(s, y); });
  } else if (command == "consistent_initialization") {
    std::vector<double> z_start = scratch(model.num_algebraic);
    model.initial_algebraic(z_start.data());
    plhs[0] = corrected(model, t, x, name, [&](double s, double* y) {
      return model.consistent_initialization(s, y, z_start.data());
    });
  } else if (command == "outputs") {
    std::vector<double> y = scratch(model.num_outputs);
    model.outputs(t, x.data(), y.data());
    plhs[0] = column(y.data(), model.num_outputs);
  } else {  // conditions: the event function of odeset('Events', ...)
    const int c = model.num_conditions;
    std::vector<double> g = scratch(c), ones(static_cast<size_t>(std::max(c, 1)), 1.0),
                        zeros(static_cast<size_t>(std::max(c, 1)), 0.0);
    if (c > 0) model.conditions(t, x.data(), g.data());
    plhs[0] = column(g.data(), c);
    if (nlhs > 1) plhs[1] = column(ones.data(), c);   // stop: the right-hand side switches
    if (nlhs > 2) plhs[2] = column(zeros.data(), c);  // either direction
  }
}

/// 'reinit', t, x, k: the state after when clause k (1-based, in source order) at (t, x): its
/// values from x, then consistent_reinitialization keeping them (docs/octave.md). ode15s knows
/// nothing of resets: an event function stops it at the instant, and this gives the state to
/// restart from.
inline mxArray* reinit(const System& model, const mxArray* prhs[]) {
  const double t = scalar_argument(prhs[1], "reinit", "t");
  const std::vector<double> x_before = state_argument(model, prhs[2], "reinit", t);
  const double k = scalar_argument(prhs[3], "reinit", "k");
  if (model.num_when_clauses == 0) throw usage_error("reinit: the model has no when clauses");
  if (!(k >= 1 && k <= model.num_when_clauses && k == std::floor(k)))
    throw usage_error("reinit: k must number a when clause, 1 to " +
                      std::to_string(model.num_when_clauses));
  const int clause = static_cast<int>(k) - 1;
  std::vector<double> x = x_before, xdot = scratch(model.num_states),
                      z = scratch(model.num_algebraic);
  if (model.num_algebraic > 0) (void)model.rhs(t, x.data(), xdot.data(), z.data());
  std::unique_ptr<bool[]> held(
      new bool[static_cast<size_t>(std::max(model.num_states + model.num_algebraic, 1))]());
  const std::string name = text::quoted(model.when_names[clause]);
  if (model.reinit(clause, t, x_before.data(), x.data(), z.data(), held.get()) != 0)
    throw model_error(text::call_failure("reinit", t, "the values of " + name + " are not finite"));
  if (model.consistent_reinitialization(t, x.data(), z.data(), held.get()) != 0)
    throw model_error(
        text::call_failure("reinit", t, "no consistent state keeps the values set by " + name));
  return column(x.data(), model.num_states);
}

/// Carries out one call on `model`; throws usage_error or model_error.
inline void call(std::unique_ptr<System>& model, int nlhs, mxArray* plhs[], int nrhs,
                 const mxArray* prhs[]) {
  if (nrhs < 1 || !mxIsChar(prhs[0]))
    throw usage_error(std::string("the first argument must name a command; ") + usage());
  const std::string command = string_argument(prhs[0], "the command", "its name");
  static const char* const at_state[] = {"rhs",
                                         "jacobian",
                                         "invariants",
                                         "project",
                                         "outputs",
                                         "conditions",
                                         "consistent_initialization"};
  const bool takes_state = std::any_of(std::begin(at_state), std::end(at_state),
                                       [&](const char* c) { return command == c; });
  if (takes_state) {
    const int results = command == "rhs" ? 2 : command == "conditions" ? 3 : 1;
    expect(command, nrhs, 2, nlhs, results);
    return call_at_state(*model, command, nlhs, plhs, prhs);
  }
  if (command == "reinit") {
    expect(command, nrhs, 3, nlhs, 1);
    plhs[0] = reinit(*model, prhs);
  } else if (command == "initial_state") {
    expect(command, nrhs, 0, nlhs, 1);
    std::vector<double> x = scratch(model->num_states);
    model->initial_state(x.data());
    plhs[0] = column(x.data(), model->num_states);
  } else if (command == "names") {
    expect(command, nrhs, 0, nlhs, 1);
    plhs[0] = names(*model);
  } else if (command == "parameters") {
    expect(command, nrhs, 0, nlhs, 1);
    plhs[0] = column(model->p, model->num_parameters);
  } else if (command == "set_parameter") {
    expect(command, nrhs, 2, nlhs, 0);
    set_parameter(model, string_argument(prhs[1], "set_parameter", "the name"),
                  scalar_argument(prhs[2], "set_parameter", "the value"));
  } else {
    throw usage_error("unknown command '" + command + "'; " + usage());
  }
}

/// The MEX entry point's body for the models `make` gives: one model kept between calls.
/// Errors are raised after every C++ object of the call is gone (mexErrMsgIdAndTxt does not
/// return, and under Octave unwinds without running destructors).
template <typename Make>
void gateway(int nlhs, mxArray* plhs[], int nrhs, const mxArray* prhs[], Make make) {
  static std::unique_ptr<System> model;
  static std::string message;
  const char* identifier = nullptr;
  try {
    if (!model) model = make();
    call(model, nlhs, plhs, nrhs, prhs);
  } catch (const usage_error& e) {
    identifier = "daec:usage";
    message = e.what();
  } catch (const std::exception& e) {
    identifier = "daec:model";
    message = e.what();
  }
  if (identifier != nullptr) mexErrMsgIdAndTxt(identifier, "%s", message.c_str());
}

}  // namespace daec::mex

/// Defines mexFunction, the MEX file's entry point, for the generated `Model` class.
#define DAEC_MEX_FUNCTION(Model)                                                 \
  void mexFunction(int nlhs, mxArray* plhs[], int nrhs, const mxArray* prhs[]) { \
    ::daec::mex::gateway(nlhs, plhs, nrhs, prhs, [] {                            \
      return std::unique_ptr<::daec::runtime::System>(                           \
          std::make_unique<::daec::runtime::ModelAdapter<Model>>());             \
    });                                                                          \
  }
