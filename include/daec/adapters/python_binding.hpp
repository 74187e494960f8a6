// The binding behind daec::python::bind (python.hpp): the Python class `Model` over the runtime's
// model interface (daec/runtime/system.hpp), NumPy arrays in and out. It does not depend on the
// model, so the CMake package compiles it once (runtime/python.cpp, library daec_python_runtime);
// `daec --python-module` pastes it into its one file for a build without the package.
//
// Include it in one translation unit only: it defines bind_system and create_module. Each instance
// owns its System. The names and sizes the class shows as static properties are those of one
// prototype model made when the module is imported.
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
#include <daec/model_error.hpp>
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

inline Array rhs(const Instance& self, double t, const Array& x) {
  const System& model = *self.model;
  std::vector<double> xdot = scratch(model.num_states), z = scratch(model.num_algebraic);
  checked_rhs(model, t, state(model, x, "rhs", t), xdot.data(), z.data());
  return vector_of(xdot, model.num_states);
}

inline Array algebraic(const Instance& self, double t, const Array& x) {
  const System& model = *self.model;
  std::vector<double> xdot = scratch(model.num_states), z = scratch(model.num_algebraic);
  checked_rhs(model, t, state(model, x, "algebraic", t), xdot.data(), z.data());
  return vector_of(z, model.num_algebraic);
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

inline Array invariants(const Instance& self, double t, const Array& x) {
  const System& model = *self.model;
  std::vector<double> h = scratch(model.num_invariants);
  model.invariants(t, state(model, x, "invariants", t), h.data());
  return vector_of(h, model.num_invariants);
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

/// The switching functions g_k = a - b of the model's relations (empty without conditions).
inline Array conditions(const Instance& self, double t, const Array& x) {
  const System& model = *self.model;
  const int c = model.num_conditions;
  std::vector<double> g = scratch(c);
  if (c > 0) model.conditions(t, state(model, x, "conditions", t), g.data());
  return vector_of(g, c);
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
  std::vector<double> y = scratch(model.num_outputs);
  model.outputs(t, state(model, x, "outputs", t), y.data());
  return vector_of(y, model.num_outputs);
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
  if (changed->set_parameter(name.c_str(), value) != 0) throw unknown_parameter(model, name);
  if (const int i = text::first_not_finite(changed->p, model.num_parameters); i >= 0)
    throw py::value_error("parameter '" + name + "' = " + text::format_number(value) +
                          " makes the parameter '" + model.parameter_names[i] + "' " +
                          text::format_number(changed->p[i]) + " (" + model.parameter_names[i] +
                          " = " + model.parameter_binding(i) +
                          "); a parameter value must be finite");
  self.model = std::move(changed);
}

/// m.parameters = values. A dict {name: value} sets those parameters, in its order, after
/// checking every name. An array of length num_parameters sets, in order, each entry that
/// differs from the current value: an entry left as it was does not cut a binding, so
/// `p = m.parameters; p[0] = 1; m.parameters = p` changes the first parameter and whatever
/// follows it.
inline void assign_parameters(Instance& self, const py::object& values) {
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

/// The class's static properties: the names of the prototype's name array `names_of`.
inline void def_names(py::class_<Instance>& cls, const char* property,
                      const std::shared_ptr<const System>& prototype,
                      const char* const* System::*names_of, int System::*count) {
  cls.def_property_readonly_static(property, [prototype, names_of, count](py::object) {
    return names((*prototype).*names_of, (*prototype).*count);
  });
}

/// The methods that evaluate the model at (t, X).
inline void def_functions(py::class_<Instance>& cls) {
  cls.def("initial_state", &initial_state, "the start values as the model writes them")
      .def("rhs", &rhs, py::arg("t"), py::arg("x"), "X' = F(t, X)")
      .def("rhs_jacobian", &rhs_jacobian, py::arg("t"), py::arg("x"), py::arg("sparse") = false,
           "d(X')/dX: a dense array, or with sparse=True a scipy.sparse.csc_matrix")
      .def("algebraic", &algebraic, py::arg("t"), py::arg("x"),
           "the algebraic unknowns Z at (t, X)")
      .def("invariants", &invariants, py::arg("t"), py::arg("x"),
           "the hidden constraints h(t, X), zero on the solution")
      .def("invariants_jacobian", &invariants_jacobian, py::arg("t"), py::arg("x"), "dh/dX")
      .def("algebraic_condition", &algebraic_condition, py::arg("t"), py::arg("x"),
           "(condition estimate of A, the unknown of its weakest pivot or None, sign of det A): "
           "infinite where the reduced system is singular")
      .def("invariants_condition", &invariants_condition, py::arg("t"), py::arg("x"),
           "(condition estimate of dh/dX, the hidden constraint of its weakest pivot or None)")
      .def("project", &project, py::arg("t"), py::arg("x"),
           "X moved onto h(t, X) = 0 (a new array)")
      .def("consistent_initialization", &initialized, py::arg("t"), py::arg("x"),
           py::arg("fix") = py::dict(),
           "X made consistent (a new array): the hidden constraints and initial equations hold, "
           "the starts declared fixed and those of fix={name: value} are kept, the others move "
           "least")
      .def_property_readonly("fixed_names", &fixed_names,
                             "the starts consistent_initialization keeps (fixed = true)")
      .def("outputs", &outputs, py::arg("t"), py::arg("x"), "the model's outputs at (t, X)")
      .def("conditions", &conditions, py::arg("t"), py::arg("x"),
           "the switching functions g_k = a - b of the relations a < b, ... at (t, X)")
      .def("set_modes", &set_modes, py::arg("t"), py::arg("x"),
           "freezes every relation at its value at (t, X), until the next set_modes")
      .def(
          "release_modes", [](Instance& self) { self.model->release_modes(); },
          "every relation follows its live value again")
      .def_property_readonly("modes", &modes,
                             "per relation: -1 live (the default), 0 held false, 1 held true");
}

/// The parameters: their values, bindings and setters.
inline void def_parameters(py::class_<Instance>& cls,
                           const std::shared_ptr<const System>& prototype) {
  cls.def_property_readonly_static(
         "parameter_bindings", [prototype](py::object) { return parameter_bindings(*prototype); })
      .def_property("parameters", &parameters, &assign_parameters,
                    "the parameter values, a NumPy array in the order of parameter_names; assign "
                    "an array of that length (the entries that changed are set) or a dict {name: "
                    "value}")
      .def_property_readonly("parameter_bound", &parameter_bound,
                             "per parameter: whether it still follows its binding")
      .def("set_parameter", &set_parameter, py::arg("name"), py::arg("value"),
           "sets a parameter by name (KeyError if there is none); a dependent one no longer "
           "follows its binding, the parameters bound to this one follow");
}

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
  // Local to the module: every module defines its own class over the same C++ type.
  py::class_<Instance> cls(module, name, py::module_local());
  cls.def(py::init([make] { return Instance{make()}; }))
      .def_property_readonly_static("model_name",
                                    [prototype](py::object) { return prototype->model_name; });
  def_names(cls, "state_names", prototype, &System::state_names, &System::num_states);
  def_names(cls, "algebraic_names", prototype, &System::algebraic_names, &System::num_algebraic);
  def_names(cls, "invariant_names", prototype, &System::invariant_names, &System::num_invariants);
  def_names(cls, "parameter_names", prototype, &System::parameter_names, &System::num_parameters);
  def_names(cls, "output_names", prototype, &System::output_names, &System::num_outputs);
  def_names(cls, "variable_names", prototype, &System::variable_names, &System::num_variables);
  def_names(cls, "initial_equation_names", prototype, &System::initial_equation_names,
            &System::num_initial_equations);
  def_names(cls, "condition_names", prototype, &System::condition_names, &System::num_conditions);
  def_parameters(cls, prototype);
  def_functions(cls);
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
