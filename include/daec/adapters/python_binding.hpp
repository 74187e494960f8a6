// The binding behind daec::python::bind (python.hpp): the Python class `Model` over the runtime's
// model interface (daec/runtime/system.hpp), NumPy arrays in and out. It does not depend on the
// model, so the CMake package compiles it once (runtime/python.cpp, library daec_python_runtime);
// `daec --python-module` pastes it into its one file for a build without the package.
//
// Include it in one translation unit only: it defines bind_system and create_module. Each instance
// owns its System. The names and sizes the class shows as static properties are those of one
// prototype model made when the module is imported. Model.simulate runs the command-line
// simulator's own code (python_simulate.hpp), so the binding links SUNDIALS and KLU as a
// simulator does (docs/python.md, "Building the module").
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <daec/adapters/python.hpp>
#include <daec/adapters/python_module.hpp>
#include <daec/adapters/python_simulate.hpp>
#include <daec/model_error.hpp>
#include <daec/runtime/parameter_orders.hpp>
#include <daec/runtime/system.hpp>

namespace daec::python {

namespace py = pybind11;
using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;
using runtime::System;

/// A Python Model: the model it owns. Settings that fail are tried on a copy, which replaces
/// the model only when they succeed.
struct Instance {
  std::unique_ptr<System> model;
};

/// The names of a model's name array, as a Python list.
inline std::vector<std::string> names(const char* const* array, int count) {
  if (count <= 0 || array == nullptr) return {};
  return std::vector<std::string>(array, array + count);
}

/// A one-dimensional array of `size` doubles, or ValueError naming the argument.
inline Array vector_argument(const Array& array, long size, const char* what) {
  if (array.ndim() != 1 || array.shape(0) != size)
    throw py::value_error(std::string(what) + " must be a one-dimensional array of length " +
                          std::to_string(size) + ", got shape " +
                          py::str(py::getattr(array, "shape")).cast<std::string>());
  return array;
}

inline Array new_vector(long size) {
  return Array(py::ssize_t(size));
}

/// A NumPy vector holding `values` (a scratch buffer at least `size` long).
inline Array vector_of(const std::vector<double>& values, long size) {
  Array array = new_vector(size);
  std::copy(values.begin(), values.begin() + size, array.mutable_data());
  return array;
}

/// Scratch space for `count` values, never empty (the generated functions take a pointer).
inline std::vector<double> scratch(int count) {
  return std::vector<double>(static_cast<size_t>(std::max(count, 1)));
}

/// The rows x columns row-major matrix `values` as a NumPy array.
inline Array new_matrix(long rows, long columns, const std::vector<double>& values) {
  Array matrix({py::ssize_t(rows), py::ssize_t(columns)});
  std::copy(values.begin(), values.begin() + rows * columns, matrix.mutable_data());
  return matrix;
}

/// scipy.sparse.csc_matrix((values, rowval, colptr), shape) from a generated CSC pattern.
inline py::object csc_matrix(long rows, long columns, const int* colptr, const int* rowval, int nnz,
                             const std::vector<double>& values) {
  py::array_t<int> pointers(py::ssize_t(columns + 1), colptr);
  py::array_t<int> indices(py::ssize_t(nnz), rowval);
  Array data(py::ssize_t(nnz), values.data());
  py::object sparse = py::module_::import("scipy.sparse");
  return sparse.attr("csc_matrix")(py::make_tuple(data, indices, pointers),
                                   py::make_tuple(rows, columns));
}

/// The state x as `function` takes it at t: n finite numbers. A wrong length is a ValueError;
/// a value that is not finite a model_error (RuntimeError) in the simulator's words, "rhs
/// failed at t = 0: the state 'x' is not finite", for inf as for NaN: the generated functions
/// would compute finite numbers from an infinite state as readily as garbage.
inline const double* state(const System& model, const Array& x, const char* function, double t) {
  const double* values = vector_argument(x, model.num_states, "x").data();
  if (const int i = text::first_not_finite(values, model.num_states); i >= 0)
    throw model_error(text::call_failure(
        function, t, "the state " + text::quoted(model.state_names[i]) + " is not finite"));
  return values;
}

/// `evaluate(x, out)` (`rows` values) at one state x, shape (n,), as a vector; or at each column
/// of X, shape (n, k), into the columns of a (rows, k) array: k states side by side, as
/// solve_ivp(..., vectorized=True) passes them. Each state is checked as state() does.
template <typename Evaluate>
Array columnwise(const System& model, double t, const Array& x, const char* function, int rows,
                 Evaluate evaluate) {
  const int n = model.num_states;
  if ((x.ndim() != 1 && x.ndim() != 2) || x.shape(0) != n)
    throw py::value_error("x must be an array of length " + std::to_string(n) + ", or of shape (" +
                          std::to_string(n) +
                          ", k) for k states side by side (solve_ivp's vectorized=True), got "
                          "shape " +
                          py::str(py::getattr(x, "shape")).cast<std::string>());
  std::vector<double> out = scratch(rows);
  if (x.ndim() == 1) {
    evaluate(state(model, x, function, t), out.data());
    return vector_of(out, rows);
  }
  const py::ssize_t k = x.shape(1);
  Array result({py::ssize_t(rows), k});
  std::vector<double> column = scratch(n);
  for (py::ssize_t j = 0; j < k; ++j) {
    for (int i = 0; i < n; ++i) column[static_cast<size_t>(i)] = x.data()[i * k + j];
    if (const int i = text::first_not_finite(column.data(), n); i >= 0)
      throw model_error(text::call_failure(function, t,
                                           "the state " + text::quoted(model.state_names[i]) +
                                               " in column " + std::to_string(j) +
                                               " is not finite"));
    evaluate(column.data(), out.data());
    for (int i = 0; i < rows; ++i) result.mutable_data()[i * k + j] = out[static_cast<size_t>(i)];
  }
  return result;
}

inline Array rhs(const Instance& self, double t, const Array& x) {
  const System& model = *self.model;
  std::vector<double> z = scratch(model.num_algebraic);
  return columnwise(model, t, x, "rhs", model.num_states, [&](const double* at, double* xdot) {
    checked_rhs(model, t, at, xdot, z.data());
  });
}

inline Array algebraic(const Instance& self, double t, const Array& x) {
  const System& model = *self.model;
  std::vector<double> xdot = scratch(model.num_states);
  return columnwise(
      model, t, x, "algebraic", model.num_algebraic,
      [&](const double* at, double* z) { checked_rhs(model, t, at, xdot.data(), z); });
}

inline py::object sparse_rhs_jacobian(const System& model, double t, const double* x) {
  if (!model.has_sparse_rhs_jacobian)
    throw py::value_error("this model has no sparse rhs Jacobian (see docs/generated-code.md)");
  std::vector<double> values = scratch(model.rhs_jacobian_nnz);
  if (model.rhs_jacobian_values(t, x, values.data()) != 0 ||
      text::first_not_finite(values.data(), model.rhs_jacobian_nnz) >= 0)
    throw model_error(
        text::call_failure("rhs_jacobian", t, text::jacobian_failure(model, t, x, "", "", 0.0)));
  return csc_matrix(model.num_states, model.num_states, model.rhs_jacobian_colptr,
                    model.rhs_jacobian_rowval, model.rhs_jacobian_nnz, values);
}

inline py::object rhs_jacobian(const Instance& self, double t, const Array& x, bool sparse) {
  const System& model = *self.model;
  const int n = model.num_states;
  const double* xs = state(model, x, "rhs_jacobian", t);
  if (sparse) return sparse_rhs_jacobian(model, t, xs);
  if (!model.has_dense_jacobians)
    throw py::value_error("this model is too large for dense Jacobians; use sparse=True");
  std::vector<double> J = scratch(n * n);
  checked_rhs_jacobian(model, t, xs, J.data());
  return new_matrix(n, n, J);
}

/// A parameter Jacobian's CSC values (rows x num_parameters) as a dense array, or with `sparse`
/// a scipy.sparse.csc_matrix.
inline py::object parameter_matrix(const System& model, int rows, const int* colptr,
                                   const int* rowval, int nnz, const std::vector<double>& values,
                                   bool sparse) {
  const int columns = model.num_parameters;
  if (sparse) return csc_matrix(rows, columns, colptr, rowval, nnz, values);
  std::vector<double> dense(static_cast<size_t>(std::max(rows * columns, 1)), 0.0);
  for (int j = 0; j < columns; ++j)
    for (int e = colptr[j]; e < colptr[j + 1]; ++e)
      dense[static_cast<size_t>(rowval[e]) * columns + j] = values[static_cast<size_t>(e)];
  return new_matrix(rows, columns, dense);
}

inline void need_parameter_jacobians(const System& model) {
  if (!model.has_parameter_jacobians)
    throw py::value_error(
        "this model has no parameter Jacobians (every model daec generates has them: "
        "docs/generated-code.md, \"Parameter Jacobians\")");
}

inline py::object rhs_parameter_jacobian(const Instance& self, double t, const Array& x,
                                         bool sparse) {
  const System& model = *self.model;
  need_parameter_jacobians(model);
  const double* xs = state(model, x, "rhs_parameter_jacobian", t);
  const int nnz = model.rhs_parameter_jacobian_nnz;
  std::vector<double> values = scratch(nnz);
  if (model.rhs_parameter_jacobian_values(t, xs, values.data()) != 0 ||
      text::first_not_finite(values.data(), nnz) >= 0) {
    std::string why = text::rhs_failure(model, t, xs);
    throw model_error(text::call_failure("rhs_parameter_jacobian", t,
                                         why.empty() ? "an entry is not finite" : why));
  }
  return parameter_matrix(model, model.num_states, model.rhs_parameter_jacobian_colptr,
                          model.rhs_parameter_jacobian_rowval, nnz, values, sparse);
}

inline py::object invariants_parameter_jacobian(const Instance& self, double t, const Array& x,
                                                bool sparse) {
  const System& model = *self.model;
  need_parameter_jacobians(model);
  const double* xs = state(model, x, "invariants_parameter_jacobian", t);
  const int nnz = model.invariants_parameter_jacobian_nnz;
  std::vector<double> values = scratch(nnz);
  model.invariants_parameter_jacobian_values(t, xs, values.data());
  if (text::first_not_finite(values.data(), nnz) >= 0)
    throw model_error(
        text::call_failure("invariants_parameter_jacobian", t, "an entry is not finite"));
  return parameter_matrix(model, model.num_invariants, model.invariants_parameter_jacobian_colptr,
                          model.invariants_parameter_jacobian_rowval, nnz, values, sparse);
}

inline Array invariants(const Instance& self, double t, const Array& x) {
  const System& model = *self.model;
  return columnwise(model, t, x, "invariants", model.num_invariants,
                    [&](const double* at, double* h) { model.invariants(t, at, h); });
}

inline Array invariants_jacobian(const Instance& self, double t, const Array& x) {
  const System& model = *self.model;
  std::vector<double> H = scratch(model.num_invariants * model.num_states);
  model.invariants_jacobian(t, state(model, x, "invariants_jacobian", t), H.data());
  return new_matrix(model.num_invariants, model.num_states, H);
}

/// Model::algebraic_condition: (estimate, the unknown of the weakest pivot or None, sign).
inline py::tuple algebraic_condition(const Instance& self, double t, const Array& x) {
  const System& model = *self.model;
  int unknown = -1, sign = 0;
  const double estimate =
      model.algebraic_condition(t, state(model, x, "algebraic_condition", t), &unknown, &sign);
  py::object name = py::none();
  if (unknown >= 0) name = py::str(model.algebraic_names[unknown]);
  return py::make_tuple(estimate, name, sign);
}

/// Model::invariants_condition: (estimate, the hidden constraint of the weakest pivot or None).
inline py::tuple invariants_condition(const Instance& self, double t, const Array& x) {
  const System& model = *self.model;
  int invariant = -1;
  const double estimate =
      model.invariants_condition(t, state(model, x, "invariants_condition", t), &invariant);
  py::object name = py::none();
  if (invariant >= 0) name = py::str(model.invariant_names[invariant]);
  return py::make_tuple(estimate, name);
}

/// The switching functions g_k = a - b of the relations (empty without conditions).
inline Array conditions(const Instance& self, double t, const Array& x) {
  const System& model = *self.model;
  return columnwise(model, t, x, "conditions", model.num_conditions,
                    [&](const double* at, double* g) {
                      if (model.num_conditions > 0) model.conditions(t, at, g);
                    });
}

/// Freezes the relations at their values at (t, X) (Model::set_modes); model_error where the
/// relations that compare algebraic unknowns cannot be settled with them.
inline void set_modes(Instance& self, double t, const Array& x) {
  System& model = *self.model;
  if (model.num_conditions == 0) return;
  const double* at = state(model, x, "set_modes", t);
  if (const int status = model.set_modes(t, at)) {
    throw model_error(text::call_failure(
        "set_modes", t,
        status == 3 ? "the modes of the conditions that compare algebraic unknowns cycle (no "
                      "set of modes holds with the unknowns it gives)"
                    : text::rhs_failure(model, t, at)));
  }
}

inline std::vector<double> modes(const Instance& self) {
  const System& model = *self.model;
  if (model.num_conditions == 0) return {};
  return std::vector<double>(model.modes(), model.modes() + model.num_conditions);
}

/// project or consistent_initialization (`correct`) of `model` on a copy of x; model_error
/// naming the invariants if it does not converge.
template <typename Correct>
Array corrected(const System& model, double t, const Array& x, const char* function,
                Correct correct) {
  const int n = model.num_states;
  const double* given = state(model, x, function, t);
  Array result = new_vector(n);
  std::copy(given, given + n, result.mutable_data());
  if (correct(t, result.mutable_data()) != 0 || text::first_not_finite(result.data(), n) >= 0)
    throw model_error(
        text::call_failure(function, t, text::projection_failure(model, t, given, result.data())));
  return result;
}

inline Array project(const Instance& self, double t, const Array& x) {
  const System& model = *self.model;
  return corrected(model, t, x, "project",
                   [&](double s, double* y) { return model.project(s, y); });
}

/// consistent_initialization with `fix` ({name: value}) kept besides the model's fixed starts:
/// a state's value replaces its entry of x, an algebraic variable's is the value z must take.
inline Array initialized(const Instance& self, double t, const Array& x, const py::dict& fix) {
  const int n = self.model->num_states, m = self.model->num_algebraic;
  // The fixed flags are the model's: this call's `fix` must not stay.
  const std::unique_ptr<System> copy = self.model->copy();
  std::vector<double> z_start = scratch(m);
  copy->initial_algebraic(z_start.data());
  const double* given = state(*copy, x, "consistent_initialization", t);
  Array start = new_vector(n);
  std::copy(given, given + n, start.mutable_data());
  for (const auto& item : fix) {
    const std::string name = py::cast<std::string>(item.first);
    const double value = py::cast<double>(item.second);
    if (!std::isfinite(value))
      throw py::value_error("fix['" + name + "'] = " + text::format_number(value) +
                            ": a start value must be finite");
    int index = text::find_name(copy->state_names, n, name);
    if (index >= 0) {
      start.mutable_data()[index] = value;
      copy->fixed[index] = true;
      continue;
    }
    index = text::find_name(copy->algebraic_names, m, name);
    if (index < 0)
      throw py::key_error("no state or algebraic unknown named '" + name + "'; the states are " +
                          text::join(names(copy->state_names, n)) + ", the algebraic unknowns " +
                          text::join(names(copy->algebraic_names, m)));
    z_start[static_cast<size_t>(index)] = value;
    copy->fixed[n + index] = true;
  }
  const System& fixed = *copy;
  return corrected(fixed, t, start, "consistent_initialization", [&](double s, double* y) {
    return fixed.consistent_initialization(s, y, z_start.data());
  });
}

/// The names of the starts consistent_initialization keeps (the model's fixed = true).
inline std::vector<std::string> fixed_names(const Instance& self) {
  const System& model = *self.model;
  const int n = model.num_states;
  std::vector<std::string> result;
  for (int i = 0; i < n + model.num_algebraic; ++i)
    if (model.fixed[i])
      result.push_back(i < n ? model.state_names[i] : model.algebraic_names[i - n]);
  return result;
}

inline Array outputs(const Instance& self, double t, const Array& x) {
  const System& model = *self.model;
  return columnwise(model, t, x, "outputs", model.num_outputs,
                    [&](const double* at, double* y) { model.outputs(t, at, y); });
}

inline Array initial_state(const Instance& self) {
  std::vector<double> x = scratch(self.model->num_states);
  self.model->initial_state(x.data());
  return vector_of(x, self.model->num_states);
}

inline Array parameters(const Instance& self) {
  const System& model = *self.model;
  Array values = new_vector(model.num_parameters);
  std::copy(model.p, model.p + model.num_parameters, values.mutable_data());
  return values;
}

inline std::vector<std::string> parameter_bindings(const System& model) {
  std::vector<std::string> bindings;
  for (int i = 0; i < model.num_parameters; ++i) bindings.emplace_back(model.parameter_binding(i));
  return bindings;
}

/// Whether each parameter still follows its binding (false for one without a binding).
inline std::vector<bool> parameter_bound(const Instance& self) {
  const System& model = *self.model;
  if (model.parameter_bound == nullptr)
    return std::vector<bool>(static_cast<size_t>(model.num_parameters), false);
  return std::vector<bool>(model.parameter_bound, model.parameter_bound + model.num_parameters);
}

inline bool is_parameter(const System& model, const std::string& name) {
  return text::find_name(model.parameter_names, model.num_parameters, name) >= 0;
}

inline py::key_error unknown_parameter(const System& model, const std::string& name) {
  return py::key_error("no parameter named '" + name + "'; the parameters are " +
                       text::join(names(model.parameter_names, model.num_parameters)));
}

/// Sets one parameter: its binding is cut and the parameters bound to it follow
/// (Model::set_parameter).
/// A parameter value that is not finite (given, or computed for a parameter bound to it) is a
/// ValueError, and the model keeps its values.
inline void set_parameter(Instance& self, const std::string& name, double value) {
  const System& model = *self.model;
  if (!is_parameter(model, name)) throw unknown_parameter(model, name);
  if (!std::isfinite(value))
    throw py::value_error("parameter '" + name + "' = " + text::format_number(value) +
                          ": a parameter value must be finite");
  std::unique_ptr<System> changed = model.copy();
  if (const int status = changed->set_parameter(name.c_str(), value); status == -2) {
    const int index = text::find_name(model.parameter_names, model.num_parameters, name);
    throw py::value_error(broken_order_message(model, index, value));
  } else if (status != 0) {
    throw unknown_parameter(model, name);
  }
  if (const int i = text::first_not_finite(changed->p, model.num_parameters); i >= 0)
    throw py::value_error("parameter '" + name + "' = " + text::format_number(value) +
                          " makes the parameter '" + model.parameter_names[i] + "' " +
                          text::format_number(changed->p[i]) + " (" + model.parameter_names[i] +
                          " = " + model.parameter_binding(i) +
                          "); a parameter value must be finite");
  self.model = std::move(changed);
}

/// The entries of m.parameters = values, one by one (assign_parameters).
inline void assign_parameters_in_order(Instance& self, const py::object& values) {
  const int P = self.model->num_parameters;
  if (py::isinstance<py::dict>(values)) {
    std::vector<std::pair<std::string, double>> settings;
    for (const auto& item : py::reinterpret_borrow<py::dict>(values)) {
      if (!py::isinstance<py::str>(item.first))
        throw py::type_error("parameter names must be strings, got " +
                             py::repr(item.first).cast<std::string>());
      std::string name = item.first.cast<std::string>();
      if (!is_parameter(*self.model, name)) throw unknown_parameter(*self.model, name);
      const double value = py::float_(py::reinterpret_borrow<py::object>(item.second));
      settings.emplace_back(name, value);
    }
    for (const auto& [name, value] : settings) set_parameter(self, name, value);
    return;
  }
  Array array = Array::ensure(values);
  if (!array)
    throw py::type_error("parameters must be an array of numbers or a dict {name: value}");
  const double* given = vector_argument(array, P, "parameters").data();
  const std::vector<double> before(self.model->p, self.model->p + P);
  for (int i = 0; i < P; ++i) {
    const double value = given[i], old = before[static_cast<size_t>(i)];
    if (value == old || (std::isnan(value) && std::isnan(old))) continue;
    set_parameter(self, self.model->parameter_names[i], value);
  }
}

/// m.parameters = values. A dict {name: value} sets those parameters, in its order, after
/// checking every name. An array of length num_parameters sets, in order, each entry that
/// differs from the current value: an entry left as it was does not cut a binding, so
/// `p = m.parameters; p[0] = 1; m.parameters = p` changes the first parameter and whatever
/// follows it. All or nothing: a value refused leaves every parameter as it was.
inline void assign_parameters(Instance& self, const py::object& values) {
  std::unique_ptr<System> before = self.model->copy();
  try {
    assign_parameters_in_order(self, values);
  } catch (...) {
    self.model = std::move(before);
    throw;
  }
}

/// The class's static properties: the names of the prototype's name array `names_of`.
inline void def_names(py::class_<Instance>& cls, const char* property, const char* doc,
                      const std::shared_ptr<const System>& prototype,
                      const char* const* System::*names_of, int System::*count) {
  cls.def_property_readonly_static(
      property,
      [prototype, names_of, count](py::object) {
        return names((*prototype).*names_of, (*prototype).*count);
      },
      doc);
}

// A class attribute of units, one per name of `count` ("" where none): a model without unit
// tables (a hand-written one) has "" everywhere, so that the lists always match the names.
inline void def_units(py::class_<Instance>& cls, const char* property, const char* doc,
                      const std::shared_ptr<const System>& prototype,
                      const char* const* System::*units_of, int System::*count) {
  cls.def_property_readonly_static(
      property,
      [prototype, units_of, count](py::object) {
        const int n = (*prototype).*count;
        const char* const* units = (*prototype).*units_of;
        return units != nullptr ? names(units, n)
                                : std::vector<std::string>(static_cast<size_t>(std::max(n, 0)));
      },
      doc);
}

// The docstrings of the members that take a state: one state, or (where it says so) k states side
// by side as the columns of an (n, k) array, which solve_ivp(..., vectorized=True) passes.
constexpr const char* kRhsDoc =
    "rhs(t, x) -> X' = F(t, X), the reduced ODE's right-hand side.\n\n"
    "x: the states (num_states values, order state_names), or an array of shape (num_states, k)\n"
    "of k states side by side: then the result has shape (num_states, k), so that\n"
    "scipy.integrate.solve_ivp(m.rhs, ..., vectorized=True) works. RuntimeError where the model\n"
    "fails (a state that is not finite, sqrt of a negative number, a singular algebraic block).";
constexpr const char* kRhsJacobianDoc =
    "rhs_jacobian(t, x, sparse=False) -> d(X')/dX at one state: a dense (n, n) array, or with\n"
    "sparse=True a scipy.sparse.csc_matrix (for solve_ivp's jac=).";
constexpr const char* kAlgebraicDoc =
    "algebraic(t, x) -> Z, the algebraic unknowns (order algebraic_names) at (t, X); x may be\n"
    "(num_states, k): the result is then (num_algebraic, k).";
constexpr const char* kInvariantsDoc =
    "invariants(t, x) -> h(t, X), the hidden constraints (order invariant_names), zero on the\n"
    "solution; x may be (num_states, k): the result is then (num_invariants, k).";
constexpr const char* kOutputsDoc =
    "outputs(t, x) -> the model's outputs (order output_names) at (t, X); x may be\n"
    "(num_states, k): the result is then (num_outputs, k).";
constexpr const char* kConditionsDoc =
    "conditions(t, x) -> the switching functions g_k = a - b of the relations a < b, ... (order\n"
    "condition_names) at (t, X): a relation changes where its g_k crosses 0, so each component\n"
    "makes a solve_ivp event function; x may be (num_states, k).";
constexpr const char* kProjectDoc =
    "project(t, x) -> a copy of x moved onto the hidden constraints h(t, X) = 0 (the least\n"
    "change); RuntimeError naming the constraints if it does not converge.";
constexpr const char* kInitializationDoc =
    "consistent_initialization(t, x, fix={}) -> a consistent start (a copy of x): the hidden\n"
    "constraints and initial equations hold, the starts declared fixed and those of\n"
    "fix={name: value} (states or algebraic unknowns, for this call only) are kept, the other\n"
    "states move least. RuntimeError if there is no such start, KeyError for an unknown name.";

/// The methods that evaluate the model at (t, X).
inline void def_functions(py::class_<Instance>& cls) {
  cls.def("initial_state", &initial_state,
          "initial_state() -> the start values of the states as the model writes them (guesses\n"
          "unless fixed: consistent_initialization makes them consistent)")
      .def("rhs", &rhs, py::arg("t"), py::arg("x"), kRhsDoc)
      .def("rhs_jacobian", &rhs_jacobian, py::arg("t"), py::arg("x"), py::arg("sparse") = false,
           kRhsJacobianDoc)
      .def("algebraic", &algebraic, py::arg("t"), py::arg("x"), kAlgebraicDoc)
      .def("invariants", &invariants, py::arg("t"), py::arg("x"), kInvariantsDoc)
      .def("invariants_jacobian", &invariants_jacobian, py::arg("t"), py::arg("x"),
           "invariants_jacobian(t, x) -> dh/dX, a dense (num_invariants, num_states) array")
      .def("rhs_parameter_jacobian", &rhs_parameter_jacobian, py::arg("t"), py::arg("x"),
           py::arg("sparse") = false,
           "rhs_parameter_jacobian(t, x, sparse=False) -> d(X')/dp at one state, through the\n"
           "algebraic unknowns and the bindings of dependent parameters: a dense\n"
           "(num_states, num_parameters) array (columns in parameter_names order), or with\n"
           "sparse=True a scipy.sparse.csc_matrix")
      .def("invariants_parameter_jacobian", &invariants_parameter_jacobian, py::arg("t"),
           py::arg("x"), py::arg("sparse") = false,
           "invariants_parameter_jacobian(t, x, sparse=False) -> dh/dp, a dense\n"
           "(num_invariants, num_parameters) array, or with sparse=True a csc_matrix")
      .def("algebraic_condition", &algebraic_condition, py::arg("t"), py::arg("x"),
           "algebraic_condition(t, x) -> (condition estimate of A, the unknown of its weakest\n"
           "pivot or None, sign of det A): infinite where the reduced system is singular")
      .def("invariants_condition", &invariants_condition, py::arg("t"), py::arg("x"),
           "invariants_condition(t, x) -> (condition estimate of dh/dX, the hidden constraint of\n"
           "its weakest pivot or None)")
      .def("project", &project, py::arg("t"), py::arg("x"), kProjectDoc)
      .def("consistent_initialization", &initialized, py::arg("t"), py::arg("x"),
           py::arg("fix") = py::dict(), kInitializationDoc)
      .def_property_readonly("fixed_names", &fixed_names,
                             "the starts consistent_initialization keeps (fixed = true)")
      .def("outputs", &outputs, py::arg("t"), py::arg("x"), kOutputsDoc)
      .def("conditions", &conditions, py::arg("t"), py::arg("x"), kConditionsDoc)
      .def("set_modes", &set_modes, py::arg("t"), py::arg("x"),
           "set_modes(t, x): freezes every relation at its value at (t, X), until the next\n"
           "set_modes or release_modes; RuntimeError where the modes cannot be settled")
      .def(
          "release_modes", [](Instance& self) { self.model->release_modes(); },
          "release_modes(): every relation follows its live value again (the default)")
      .def_property_readonly("modes", &modes,
                             "per relation: -1 live (the default), 0 held false, 1 held true");
}

/// The parameters: their values, bindings and setters.
inline void def_parameters(py::class_<Instance>& cls,
                           const std::shared_ptr<const System>& prototype) {
  cls.def_property_readonly_static(
         "parameter_bindings", [prototype](py::object) { return parameter_bindings(*prototype); },
         "per parameter: its binding as the model writes it ('1/tau'), '' for none")
      .def_property("parameters", &parameters, &assign_parameters,
                    "the parameter values, a NumPy array in the order of parameter_names; assign\n"
                    "an array of that length (the entries that changed are set) or a dict\n"
                    "{name: value}")
      .def_property_readonly("parameter_bound", &parameter_bound,
                             "per parameter: whether it still follows its binding")
      .def("set_parameter", &set_parameter, py::arg("name"), py::arg("value"),
           "set_parameter(name, value): sets a parameter by name (KeyError if there is none,\n"
           "ValueError for a value that is not finite); a dependent one no longer follows its\n"
           "binding, the parameters bound to this one follow");
}

constexpr const char* kSimulateDoc =
    "simulate(t_eval, method=None, rtol=1e-08, atol=1e-10, fix={}, set={}, sensitivities=None,\n"
    "         as_frame=False, linear_solver='auto', on_singular='stop') -> SimulationResult\n\n"
    "Runs daec's simulator in process, its own code: consistent initialization at t_eval[0],\n"
    "the method (None: the model's default_method; Model.methods lists them), events at the\n"
    "changes of the model's conditions, projection onto the hidden constraints. One row per time\n"
    "of t_eval (increasing, at least two). The model's current parameters hold; set={name:\n"
    "value} sets parameters and start guesses, fix={name: value} starts that are kept exactly,\n"
    "both for this call only (KeyError naming the valid names for an unknown one).\n\n"
    "Returns a SimulationResult: t, y (one row per time: the declared variables, then the\n"
    "outputs, as the simulator's CSV), names, events, statistics, moved_starts; with\n"
    "as_frame=True a pandas.DataFrame (index t) instead. A failure raises SimulationError (a\n"
    "RuntimeError with the simulator's message); its .result holds the rows before it.\n"
    "sensitivities: a list of parameter names, or 'all': dX/dp is integrated with the states\n"
    "(method radau5) and y gets the columns 'd(v)/d(p)' of every variable and output after the\n"
    "others (docs/simulator.md,\n"
    "\"Sensitivities\").";

constexpr const char* kResultDoc =
    "The result of Model.simulate.\n\n"
    "t: the output times (t_eval); y: an array with one row per time and one column per name;\n"
    "names: the declared variables, then the outputs (the simulator's CSV columns after t);\n"
    "r['x'] is the column of x. events: (t, condition, value) per change of a condition;\n"
    "statistics: steps, rhs_evaluations, jacobian_evaluations, projections, events,\n"
    "factor_nonzeros, largest_invariant_residual (relative to its terms, and _absolute), method,\n"
    "linear_solver; moved_starts: (state, given, used) per start that consistent initialization\n"
    "changed by more than the tolerance. success is False (and message the failure's) only in\n"
    "the result of a SimulationError, which holds the rows before the failure.";

constexpr const char* kErrorDoc =
    "Model.simulate failed (initialization or integration): str(error) is the message of daec's\n"
    "command-line simulator, error.notes its notes, error.result a SimulationResult holding the\n"
    "rows computed before the failure.";

/// The column of y named `name`, else KeyError naming the columns.
inline Array result_column(const SimulationResult& result, const std::string& name) {
  const auto found = std::find(result.names.begin(), result.names.end(), name);
  if (found == result.names.end())
    throw py::key_error("no column named '" + name + "'; the columns are " +
                        text::join(result.names));
  const py::ssize_t rows = result.y.shape(0), columns = result.y.shape(1);
  const py::ssize_t j = found - result.names.begin();
  Array column(rows);
  for (py::ssize_t i = 0; i < rows; ++i)
    column.mutable_data()[i] = result.y.data()[i * columns + j];
  return column;
}

/// SimulationResult and SimulationError in `module` (once per module); returns the error type.
inline py::object define_simulation_types(py::module_& module) {
  if (!py::hasattr(module, "SimulationResult")) {
    py::class_<SimulationResult>(module, "SimulationResult", py::module_local(), kResultDoc)
        .def_readonly("t", &SimulationResult::t, "the output times")
        .def_readonly("y", &SimulationResult::y,
                      "the values: one row per time, one column per name")
        .def_readonly("names", &SimulationResult::names, "the columns of y")
        .def_readonly("events", &SimulationResult::events, "(t, condition, value) per change")
        .def_readonly("statistics", &SimulationResult::statistics, "the run's counts (a dict)")
        .def_readonly("moved_starts", &SimulationResult::moved_starts,
                      "(state, given, used) per start initialization moved")
        .def_readonly("success", &SimulationResult::success, "whether the run reached the end")
        .def_readonly("message", &SimulationResult::message, "the failure's message, or ''")
        .def("__getitem__", &result_column, py::arg("name"), "the column of y named `name`")
        .def(
            "__len__", [](const SimulationResult& r) { return r.t.shape(0); }, "the rows")
        .def("__repr__", [](const SimulationResult& r) {
          return "<SimulationResult: " + std::to_string(r.t.shape(0)) + " rows x " +
                 std::to_string(r.names.size()) + " columns" +
                 (r.success ? std::string() : ", failed: " + r.message) + ">";
        });
  }
  if (!py::hasattr(module, "SimulationError")) {
    const std::string qualified = module.attr("__name__").cast<std::string>() + ".SimulationError";
    PyObject* type =
        PyErr_NewExceptionWithDoc(qualified.c_str(), kErrorDoc, PyExc_RuntimeError, nullptr);
    if (type == nullptr) throw py::error_already_set();
    module.attr("SimulationError") = py::reinterpret_steal<py::object>(type);
  }
  return module.attr("SimulationError");
}

/// Model.simulate, Model.methods and Model.default_method.
inline void def_simulate(py::class_<Instance>& cls, py::module_& module,
                         const std::shared_ptr<const System>& prototype) {
  const py::object error_type = define_simulation_types(module);
  cls.def(
         "simulate",
         [error_type](const Instance& self, const Array& t_eval, const py::object& method,
                      double rtol, double atol, const py::dict& fix, const py::dict& set,
                      const py::object& sensitivities, bool as_frame,
                      const std::string& linear_solver, const std::string& on_singular) {
           const SimulateCall call{t_eval, method,        rtol,     atol,          fix,
                                   set,    sensitivities, as_frame, linear_solver, on_singular};
           return simulate(*self.model, call, error_type);
         },
         py::arg("t_eval"), py::arg("method") = py::none(),
         py::arg("rtol") = simulator::kDefaultRtol, py::arg("atol") = simulator::kDefaultAtol,
         py::arg("fix") = py::dict(), py::arg("set") = py::dict(),
         py::arg("sensitivities") = py::none(), py::arg("as_frame") = false,
         py::arg("linear_solver") = "auto", py::arg("on_singular") = "stop", kSimulateDoc)
      .def_property_readonly_static(
          "methods",
          [](py::object) {
            py::dict methods;
            for (const simulator::MethodInfo& method : simulator::methods())
              methods[method.name] = method.summary;
            return methods;
          },
          "the integration methods of simulate (name: what it does), as the simulator's --method")
      .def_property_readonly_static(
          "default_method",
          [prototype](py::object) { return simulator::default_method(*prototype); },
          "the method simulate takes when method is None");
}

/// "h (level [m]), outflow (outflow [m/s])": the declared variables with their descriptions.
inline std::string described_variables(const System& model) {
  std::vector<std::string> items;
  for (int i = 0; i < model.num_variables; ++i) {
    const char* description =
        model.variable_descriptions != nullptr ? model.variable_descriptions[i] : "";
    items.push_back(std::string(model.variable_names[i]) +
                    (description[0] != '\0' ? " (" + std::string(description) + ")" : ""));
  }
  return text::join(items);
}

/// "A = 1, q = 0.5": the parameters with their default values ("(none)").
inline std::string default_parameters(const System& model) {
  std::vector<std::string> items;
  for (int i = 0; i < model.num_parameters; ++i)
    items.push_back(std::string(model.parameter_names[i]) + " = " +
                    text::format_number(model.p[i]));
  return text::join(items);
}

/// The module's docstring (help(module)): what the model is, and a short example.
inline std::string module_doc(const std::string& module, const System& model) {
  return "The model " + std::string(model.model_name) +
         " compiled by daec, as a Python module.\n\nVariables: " + described_variables(model) +
         ".\nParameters: " + default_parameters(model) + ".\n\n" + module +
         ".Model() is the model with its default parameters: the reduced ODE\n"
         "X' = F(t, X) of its states X (Model.state_names), the algebraic unknowns Z\n"
         "(algebraic_names) computed from them, the hidden constraints h(t, X) = 0\n"
         "(invariant_names), its parameters and outputs. Its members take and give NumPy arrays;\n"
         "simulate() runs daec's own simulator in process. A failure of the model raises\n"
         "RuntimeError in the simulator's words. Example:\n\n"
         "    import numpy, scipy.integrate, " +
         module +
         "\n"
         "    m = " +
         module +
         ".Model()\n"
         "    r = m.simulate(numpy.linspace(0.0, 1.0, 11))     # daec's simulator\n"
         "    print(r.names, r.y[-1], r.statistics['steps'])\n"
         "    x0 = m.consistent_initialization(0.0, m.initial_state())\n"
         "    s = scipy.integrate.solve_ivp(m.rhs, (0.0, 1.0), x0, method='Radau',\n"
         "                                  jac=m.rhs_jacobian, vectorized=True)\n\n"
         "The module is built for one Python version: on Debian, /usr/bin/python3, whose NumPy,\n"
         "SciPy and pandas are the packages python3-numpy, python3-scipy, python3-pandas.\n"
         "See daec's docs/python.md.";
}

// The class's static properties (names, sizes, methods) are described here: pybind11's static
// properties show no docstring of their own.
constexpr const char* kModelDoc =
    "A daec model. Model() has the default parameters; each instance keeps its own.\n\n"
    "Class attributes: model_name; the names state_names (the order of every state array X),\n"
    "algebraic_names (Z), invariant_names (the hidden constraints), parameter_names,\n"
    "parameter_bindings ('1/tau', '' for none), output_names, variable_names (the declared\n"
    "variables: simulate's first columns), condition_names (the relations of if, min, max),\n"
    "when_names (the when clauses, whose resets simulate applies), initial_equation_names;\n"
    "their units state_units, algebraic_units, parameter_units, output_units, variable_units\n"
    "('' where none); the sizes num_states, num_algebraic, num_invariants, num_conditions;\n"
    "methods (simulate's methods: name -> description) and default_method.\n\n"
    "Per instance: parameters, set_parameter; the generated functions at (t, X): rhs,\n"
    "rhs_jacobian, rhs_parameter_jacobian, algebraic, invariants, invariants_parameter_jacobian,\n"
    "outputs, conditions, project,\n"
    "consistent_initialization; simulate(), daec's simulator in process.";

// Not inline: the one translation unit that includes this header (runtime/python.cpp, or the
// file of daec --python-module) defines it for the modules that call it.
void bind_system(py::module_& module, const ModelFactory& make, const char* name) {
  py::register_local_exception_translator([](std::exception_ptr failure) {
    try {
      if (failure) std::rethrow_exception(failure);
    } catch (const model_error& error) {
      PyErr_SetString(PyExc_RuntimeError, error.what());
    }
  });
  const std::shared_ptr<const System> prototype = make();
  if (py::getattr(module, "__doc__", py::none()).is_none())
    module.doc() = module_doc(module.attr("__name__").cast<std::string>(), *prototype);
  // Local to the module: every module defines its own class over the same C++ type.
  py::class_<Instance> cls(module, name, py::module_local(), kModelDoc);
  cls.def(py::init([make] { return Instance{make()}; }),
          "Model(): the model with its default parameters")
      .def_property_readonly_static(
          "model_name", [prototype](py::object) { return prototype->model_name; },
          "the model's name in its .dae file");
  def_names(cls, "state_names", "the states X, the order of every state array", prototype,
            &System::state_names, &System::num_states);
  def_names(cls, "algebraic_names", "the algebraic unknowns Z (algebraic())", prototype,
            &System::algebraic_names, &System::num_algebraic);
  def_names(cls, "invariant_names", "the hidden constraints (invariants())", prototype,
            &System::invariant_names, &System::num_invariants);
  def_names(cls, "parameter_names", "the parameters, the order of parameters", prototype,
            &System::parameter_names, &System::num_parameters);
  def_names(cls, "output_names", "the outputs (outputs())", prototype, &System::output_names,
            &System::num_outputs);
  def_names(cls, "variable_names", "the declared variables (simulate's first columns)", prototype,
            &System::variable_names, &System::num_variables);
  def_names(cls, "initial_equation_names", "the labels of the initial equations", prototype,
            &System::initial_equation_names, &System::num_initial_equations);
  def_names(cls, "condition_names", "the relations of if, min, max (conditions())", prototype,
            &System::condition_names, &System::num_conditions);
  def_names(cls, "when_names",
            "the when clauses, by their conditions (simulate applies their resets)", prototype,
            &System::when_names, &System::num_when_clauses);
  def_units(cls, "state_units", "the units of the states ('' where none)", prototype,
            &System::state_units, &System::num_states);
  def_units(cls, "algebraic_units", "the units of the algebraic unknowns ('' where none)",
            prototype, &System::algebraic_units, &System::num_algebraic);
  def_units(cls, "parameter_units", "the units of the parameters ('' where none)", prototype,
            &System::parameter_units, &System::num_parameters);
  def_units(cls, "output_units", "the units of the outputs ('' where none)", prototype,
            &System::output_units, &System::num_outputs);
  def_units(cls, "variable_units", "the units of the declared variables ('' where none)", prototype,
            &System::variable_units, &System::num_variables);
  def_parameters(cls, prototype);
  def_functions(cls);
  def_simulate(cls, module, prototype);
  cls.attr("num_states") = prototype->num_states;
  cls.attr("num_conditions") = prototype->num_conditions;
  cls.attr("num_algebraic") = prototype->num_algebraic;
  cls.attr("num_invariants") = prototype->num_invariants;
}

// What PYBIND11_MODULE's entry point does (pybind11/detail/common.h), with the binding as its body.
PyObject* create_module(const char* name, const ModelFactory& make) {
  PYBIND11_CHECK_PYTHON_VERSION
  PYBIND11_ENSURE_INTERNALS_READY
  // Python keeps a pointer to the definition for the module's life: it is never freed.
  auto* definition = new py::module_::module_def();
  auto module = py::module_::create_extension_module(name, nullptr, definition);
  try {
    bind_system(module, make, "Model");
    return module.ptr();
  }
  PYBIND11_CATCH_INIT_EXCEPTIONS
}

}  // namespace daec::python
