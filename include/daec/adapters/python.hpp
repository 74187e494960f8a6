// The Python interface of a generated model (docs/adapters.md): daec::python::bind<Model>(module)
// defines the class `Model` of a pybind11 module, NumPy arrays in and out. daec_add_python_module
// (CMake) writes the module's one-line body:
//
//   PYBIND11_MODULE(pendulum, module) { daec::python::bind<pendulum::Model>(module); }
//
//   >>> import pendulum; m = pendulum.Model()
//   >>> x = m.consistent_initialization(0.0, m.initial_state())
//   >>> scipy.integrate.solve_ivp(m.rhs, (0, 1), x, method="Radau", jac=m.rhs_jacobian)
//
// Parameters: m.parameters reads them as a NumPy array and takes an array or a dict {name: value}
// (m.parameters = {"tau": 1.0}); setting a parameter cuts its binding and recomputes the
// parameters bound to it (m.parameter_bindings, m.parameter_bound).
//
// A failure of the model raises RuntimeError with the simulator's words ("rhs failed at t = 0.5:
// the algebraic unknown 'z' is not finite (...)"); a state of the wrong length raises ValueError.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <daec/model_error.hpp>
#include <daec/traits.hpp>

namespace daec::python {

namespace py = pybind11;
using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// The names of a model's name array, as a Python list.
inline std::vector<std::string> names(const char* const* array, int count) {
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

/// The rows x columns row-major matrix `values` as a NumPy array.
inline Array new_matrix(long rows, long columns, const std::vector<double>& values) {
  Array matrix({py::ssize_t(rows), py::ssize_t(columns)});
  std::copy(values.begin(), values.end(), matrix.mutable_data());
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

template <typename Model>
struct Binding {
  static constexpr int n = Model::num_states, m = Model::num_algebraic, k = Model::num_invariants;

  /// The state x as `function` takes it at t: n finite numbers. A wrong length is a ValueError;
  /// a value that is not finite a model_error (RuntimeError) in the simulator's words, "rhs
  /// failed at t = 0: the state 'x' is not finite", for inf as for NaN: the generated functions
  /// would compute finite numbers from an infinite state as readily as garbage.
  static const double* state(const Array& x, const char* function, double t) {
    const double* values = vector_argument(x, n, "x").data();
    if (const int i = text::first_not_finite(values, n); i >= 0)
      throw model_error(text::call_failure(
          function, t, "the state " + text::quoted(Model::state_names[i]) + " is not finite"));
    return values;
  }

  static Array rhs(const Model& model, double t, const Array& x) {
    Array xdot = new_vector(n);
    std::vector<double> z(static_cast<size_t>(std::max(m, 1)));
    checked_rhs(model, t, state(x, "rhs", t), xdot.mutable_data(), z.data());
    return xdot;
  }

  static Array algebraic(const Model& model, double t, const Array& x) {
    std::vector<double> xdot(static_cast<size_t>(std::max(n, 1)));
    Array z = new_vector(m);
    std::vector<double> scratch(static_cast<size_t>(std::max(m, 1)));
    checked_rhs(model, t, state(x, "algebraic", t), xdot.data(), scratch.data());
    std::copy(scratch.begin(), scratch.begin() + m, z.mutable_data());
    return z;
  }

  static py::object rhs_jacobian(const Model& model, double t, const Array& x, bool sparse) {
    const double* xs = state(x, "rhs_jacobian", t);
    if (sparse) return sparse_rhs_jacobian(model, t, xs);
    if constexpr (traits::dense_jacobians_v<Model>) {
      std::vector<double> J(static_cast<size_t>(n) * n);
      checked_rhs_jacobian(model, t, xs, J.data());
      return new_matrix(n, n, J);
    } else {
      throw py::value_error("this model is too large for dense Jacobians; use sparse=True");
    }
  }

  static py::object sparse_rhs_jacobian(const Model& model, double t, const double* x) {
    if constexpr (traits::sparse_rhs_jacobian_v<Model>) {
      std::vector<double> values(static_cast<size_t>(std::max(Model::rhs_jacobian_nnz, 1)));
      if (model.rhs_jacobian_values(t, x, values.data()) != 0 ||
          text::first_not_finite(values.data(), Model::rhs_jacobian_nnz) >= 0)
        throw model_error(text::call_failure("rhs_jacobian", t,
                                             text::jacobian_failure(model, t, x, "", "", 0.0)));
      return csc_matrix(n, n, Model::rhs_jacobian_colptr, Model::rhs_jacobian_rowval,
                        Model::rhs_jacobian_nnz, values);
    } else {
      (void)model, (void)t, (void)x;
      throw py::value_error("this model has no sparse rhs Jacobian (see docs/generated-code.md)");
    }
  }

  static Array invariants(const Model& model, double t, const Array& x) {
    Array h = new_vector(k);
    std::vector<double> values(static_cast<size_t>(std::max(k, 1)));
    model.invariants(t, state(x, "invariants", t), values.data());
    std::copy(values.begin(), values.begin() + k, h.mutable_data());
    return h;
  }

  /// Model::algebraic_condition: (estimate, the unknown of the weakest pivot or None, sign).
  static py::tuple algebraic_condition(const Model& model, double t, const Array& x) {
    int unknown = -1, sign = 0;
    const double estimate =
        model.algebraic_condition(t, state(x, "algebraic_condition", t), &unknown, &sign);
    py::object name = py::none();
    if (unknown >= 0) name = py::str(Model::algebraic_names[unknown]);
    return py::make_tuple(estimate, name, sign);
  }

  /// Model::invariants_condition: (estimate, the hidden constraint of the weakest pivot or None).
  static py::tuple invariants_condition(const Model& model, double t, const Array& x) {
    int invariant = -1;
    const double estimate =
        model.invariants_condition(t, state(x, "invariants_condition", t), &invariant);
    py::object name = py::none();
    if (invariant >= 0) name = py::str(Model::invariant_names[invariant]);
    return py::make_tuple(estimate, name);
  }

  static constexpr int c = traits::num_conditions_v<Model>;

  /// The switching functions g_k = a - b of the model's relations (empty without conditions).
  static Array conditions(const Model& model, double t, const Array& x) {
    Array g = new_vector(c);
    if constexpr (c > 0) {
      std::vector<double> values(static_cast<size_t>(c));
      model.conditions(t, state(x, "conditions", t), values.data());
      std::copy(values.begin(), values.end(), g.mutable_data());
    } else {
      (void)model, (void)t, (void)x;
    }
    return g;
  }

  /// Freezes the relations at their values at (t, X) (Model::set_modes); model_error where the
  /// relations that compare algebraic unknowns cannot be settled with them.
  static void set_modes(Model& model, double t, const Array& x) {
    if constexpr (c > 0) {
      const double* at = state(x, "set_modes", t);
      if (const int status = model.set_modes(t, at)) {
        throw model_error(text::call_failure(
            "set_modes", t,
            status == 3 ? "the modes of the conditions that compare algebraic unknowns cycle (no "
                          "set of modes holds with the unknowns it gives)"
                        : text::rhs_failure(model, t, at)));
      }
    }
    (void)model, (void)t, (void)x;
  }

  static std::vector<double> modes(const Model& model) {
    if constexpr (c > 0) return std::vector<double>(model.modes(), model.modes() + c);
    (void)model;
    return {};
  }

  /// Makes every relation follow its live value again (the default).
  static void release_modes(Model& model) {
    if constexpr (c > 0) std::fill(model.modes(), model.modes() + c, -1.0);
    (void)model;
  }

  static std::vector<std::string> condition_names() {
    if constexpr (c > 0) return names(Model::condition_names, c);
    return {};
  }

  static Array invariants_jacobian(const Model& model, double t, const Array& x) {
    std::vector<double> H(static_cast<size_t>(std::max(k * n, 1)));
    model.invariants_jacobian(t, state(x, "invariants_jacobian", t), H.data());
    H.resize(static_cast<size_t>(k) * n);
    return new_matrix(k, n, H);
  }

  /// project or consistent_initialization on a copy of x; model_error naming the invariants if
  /// it does not converge.
  template <typename Correct>
  static Array corrected(const Model& model, double t, const Array& x, const char* function,
                         Correct correct) {
    Array result = new_vector(n);
    std::copy(state(x, function, t), state(x, function, t) + n, result.mutable_data());
    if (correct(model, t, result.mutable_data()) != 0 ||
        text::first_not_finite(result.data(), n) >= 0)
      throw model_error(text::call_failure(
          function, t, text::projection_failure(model, t, state(x, function, t), result.data())));
    return result;
  }

  /// consistent_initialization with `fix` ({name: value}) kept besides the model's fixed starts:
  /// a state's value replaces its entry of x, an algebraic variable's is the value z must take.
  static Array initialized(const Model& model, double t, const Array& x, const py::dict& fix) {
    Model copy = model;  // the fixed flags are the model's: this call's --fix must not stay
    std::vector<double> z_start(static_cast<size_t>(std::max(m, 1)));
    copy.initial_algebraic(z_start.data());
    Array start = new_vector(n);
    std::copy(state(x, "consistent_initialization", t),
              state(x, "consistent_initialization", t) + n, start.mutable_data());
    for (const auto& item : fix) {
      const std::string name = py::cast<std::string>(item.first);
      const double value = py::cast<double>(item.second);
      if (!std::isfinite(value))
        throw py::value_error("fix['" + name + "'] = " + text::format_number(value) +
                              ": a start value must be finite");
      int index = text::find_name(Model::state_names, n, name);
      if (index >= 0) {
        start.mutable_data()[index] = value;
        copy.fixed[index] = true;
        continue;
      }
      index = text::find_name(Model::algebraic_names, m, name);
      if (index < 0)
        throw py::key_error("no state or algebraic unknown named '" + name + "'; the states are " +
                            text::join(names(Model::state_names, n)) + ", the algebraic unknowns " +
                            text::join(names(Model::algebraic_names, m)));
      z_start[static_cast<size_t>(index)] = value;
      copy.fixed[n + index] = true;
    }
    return corrected(copy, t, start, "consistent_initialization",
                     [&](const Model& model_, double s, double* y) {
                       return model_.consistent_initialization(s, y, z_start.data());
                     });
  }

  /// The names of the starts consistent_initialization keeps (the model's fixed = true).
  static std::vector<std::string> fixed_names(const Model& model) {
    std::vector<std::string> result;
    for (int i = 0; i < n + m; ++i)
      if (model.fixed[i])
        result.push_back(i < n ? Model::state_names[i] : Model::algebraic_names[i - n]);
    return result;
  }

  static Array outputs(const Model& model, double t, const Array& x) {
    const int q = Model::num_outputs;
    Array y = new_vector(q);
    std::vector<double> values(static_cast<size_t>(std::max(q, 1)));
    model.outputs(t, state(x, "outputs", t), values.data());
    std::copy(values.begin(), values.begin() + q, y.mutable_data());
    return y;
  }

  static Array initial_state(const Model& model) {
    Array x = new_vector(n);
    std::vector<double> values(static_cast<size_t>(std::max(n, 1)));
    model.initial_state(values.data());
    std::copy(values.begin(), values.begin() + n, x.mutable_data());
    return x;
  }

  static constexpr int P = Model::num_parameters;

  static Array parameters(const Model& model) {
    Array values = new_vector(P);
    std::copy(model.p, model.p + P, values.mutable_data());
    return values;
  }

  static std::vector<std::string> parameter_bindings() {
    std::vector<std::string> bindings;
    for (int i = 0; i < P; ++i) bindings.emplace_back(traits::parameter_binding<Model>(i));
    return bindings;
  }

  /// Whether each parameter still follows its binding (false for one without a binding).
  static std::vector<bool> parameter_bound(const Model& model) {
    if constexpr (traits::parameter_bindings_v<Model>) {
      return std::vector<bool>(model.parameter_bound, model.parameter_bound + P);
    } else {
      (void)model;
      return std::vector<bool>(static_cast<size_t>(P), false);
    }
  }

  static bool is_parameter(const std::string& name) {
    return std::find(Model::parameter_names, Model::parameter_names + P, name) !=
           Model::parameter_names + P;
  }

  static py::key_error unknown_parameter(const std::string& name) {
    return py::key_error("no parameter named '" + name + "'; the parameters are " +
                         text::join(names(Model::parameter_names, P)));
  }

  /// Sets one parameter: its binding is cut and the parameters bound to it follow
  /// (Model::set_parameter).
  /// A parameter value that is not finite (given, or computed for a parameter bound to it) is a
  /// ValueError, and the model keeps its values.
  static void set_parameter(Model& model, const std::string& name, double value) {
    if (!is_parameter(name)) throw unknown_parameter(name);
    if (!std::isfinite(value))
      throw py::value_error("parameter '" + name + "' = " + text::format_number(value) +
                            ": a parameter value must be finite");
    Model changed = model;
    if (changed.set_parameter(name.c_str(), value) != 0) throw unknown_parameter(name);
    if (const int i = text::first_not_finite(changed.p, P); i >= 0)
      throw py::value_error("parameter '" + name + "' = " + text::format_number(value) +
                            " makes the parameter '" + Model::parameter_names[i] + "' " +
                            text::format_number(changed.p[i]) + " (" + Model::parameter_names[i] +
                            " = " + traits::parameter_binding<Model>(i) +
                            "); a parameter value must be finite");
    model = changed;
  }

  /// m.parameters = values. A dict {name: value} sets those parameters, in its order, after
  /// checking every name. An array of length num_parameters sets, in order, each entry that
  /// differs from the current value: an entry left as it was does not cut a binding, so
  /// `p = m.parameters; p[0] = 1; m.parameters = p` changes the first parameter and whatever
  /// follows it.
  static void assign_parameters(Model& model, const py::object& values) {
    if (py::isinstance<py::dict>(values)) {
      std::vector<std::pair<std::string, double>> settings;
      for (const auto& item : py::reinterpret_borrow<py::dict>(values)) {
        if (!py::isinstance<py::str>(item.first))
          throw py::type_error("parameter names must be strings, got " +
                               py::repr(item.first).cast<std::string>());
        std::string name = item.first.cast<std::string>();
        if (!is_parameter(name)) throw unknown_parameter(name);
        const double value = py::float_(py::reinterpret_borrow<py::object>(item.second));
        settings.emplace_back(name, value);
      }
      for (const auto& [name, value] : settings) set_parameter(model, name, value);
      return;
    }
    Array array = Array::ensure(values);
    if (!array)
      throw py::type_error("parameters must be an array of numbers or a dict {name: value}");
    const double* given = vector_argument(array, P, "parameters").data();
    const std::vector<double> before(model.p, model.p + P);
    for (int i = 0; i < P; ++i) {
      const double value = given[i], old = before[static_cast<size_t>(i)];
      if (value == old || (std::isnan(value) && std::isnan(old))) continue;
      set_parameter(model, Model::parameter_names[i], value);
    }
  }
};

/// Defines the class `name` (default "Model") in `module`, and translates daec::model_error
/// into RuntimeError.
template <typename Model>
void bind(py::module_& module, const char* name = "Model") {
  using B = Binding<Model>;
  py::register_exception_translator([](std::exception_ptr failure) {
    try {
      if (failure) std::rethrow_exception(failure);
    } catch (const model_error& error) {
      PyErr_SetString(PyExc_RuntimeError, error.what());
    }
  });
  py::class_<Model> cls(module, name);
  cls.def(py::init<>())
      .def_property_readonly_static("model_name", [](py::object) { return Model::model_name; })
      .def_property_readonly_static("state_names",
                                    [](py::object) { return names(Model::state_names, B::n); })
      .def_property_readonly_static("algebraic_names",
                                    [](py::object) { return names(Model::algebraic_names, B::m); })
      .def_property_readonly_static("invariant_names",
                                    [](py::object) { return names(Model::invariant_names, B::k); })
      .def_property_readonly_static(
          "parameter_names",
          [](py::object) { return names(Model::parameter_names, Model::num_parameters); })
      .def_property_readonly_static(
          "output_names", [](py::object) { return names(Model::output_names, Model::num_outputs); })
      .def_property_readonly_static(
          "variable_names",
          [](py::object) { return names(Model::variable_names, Model::num_variables); })
      .def_property_readonly_static("parameter_bindings",
                                    [](py::object) { return B::parameter_bindings(); })
      .def_property(
          "parameters", [](const Model& model) { return B::parameters(model); },
          [](Model& model, const py::object& values) { B::assign_parameters(model, values); },
          "the parameter values, a NumPy array in the order of parameter_names; assign an array "
          "of that length (the entries that changed are set) or a dict {name: value}")
      .def_property_readonly("parameter_bound", &B::parameter_bound,
                             "per parameter: whether it still follows its binding")
      .def("set_parameter", &B::set_parameter, py::arg("name"), py::arg("value"),
           "sets a parameter by name (KeyError if there is none); a dependent one no longer "
           "follows its binding, the parameters bound to this one follow")
      .def("initial_state", &B::initial_state, "the start values as the model writes them")
      .def("rhs", &B::rhs, py::arg("t"), py::arg("x"), "X' = F(t, X)")
      .def("rhs_jacobian", &B::rhs_jacobian, py::arg("t"), py::arg("x"), py::arg("sparse") = false,
           "d(X')/dX: a dense array, or with sparse=True a scipy.sparse.csc_matrix")
      .def("algebraic", &B::algebraic, py::arg("t"), py::arg("x"),
           "the algebraic unknowns Z at (t, X)")
      .def("invariants", &B::invariants, py::arg("t"), py::arg("x"),
           "the hidden constraints h(t, X), zero on the solution")
      .def("invariants_jacobian", &B::invariants_jacobian, py::arg("t"), py::arg("x"), "dh/dX")
      .def("algebraic_condition", &B::algebraic_condition, py::arg("t"), py::arg("x"),
           "(condition estimate of A, the unknown of its weakest pivot or None, sign of det A): "
           "infinite where the reduced system is singular")
      .def("invariants_condition", &B::invariants_condition, py::arg("t"), py::arg("x"),
           "(condition estimate of dh/dX, the hidden constraint of its weakest pivot or None)")
      .def(
          "project",
          [](const Model& model, double t, const Array& x) {
            return B::corrected(model, t, x, "project", [](const Model& m, double s, double* y) {
              return m.project(s, y);
            });
          },
          py::arg("t"), py::arg("x"), "X moved onto h(t, X) = 0 (a new array)")
      .def("consistent_initialization", &B::initialized, py::arg("t"), py::arg("x"),
           py::arg("fix") = py::dict(),
           "X made consistent (a new array): the hidden constraints and initial equations hold, "
           "the starts declared fixed and those of fix={name: value} are kept, the others move "
           "least")
      .def_property_readonly("fixed_names", &B::fixed_names,
                             "the starts consistent_initialization keeps (fixed = true)")
      .def_property_readonly_static("initial_equation_names",
                                    [](py::object) {
                                      return names(Model::initial_equation_names,
                                                   Model::num_initial_equations);
                                    })
      .def("outputs", &B::outputs, py::arg("t"), py::arg("x"), "the model's outputs at (t, X)")
      .def_property_readonly_static("condition_names",
                                    [](py::object) { return B::condition_names(); })
      .def("conditions", &B::conditions, py::arg("t"), py::arg("x"),
           "the switching functions g_k = a - b of the relations a < b, ... at (t, X)")
      .def("set_modes", &B::set_modes, py::arg("t"), py::arg("x"),
           "freezes every relation at its value at (t, X), until the next set_modes")
      .def("release_modes", &B::release_modes, "every relation follows its live value again")
      .def_property_readonly("modes", &B::modes,
                             "per relation: -1 live (the default), 0 held false, 1 held true");
  cls.attr("num_states") = B::n;
  cls.attr("num_conditions") = B::c;
  cls.attr("num_algebraic") = B::m;
  cls.attr("num_invariants") = B::k;
}

}  // namespace daec::python
