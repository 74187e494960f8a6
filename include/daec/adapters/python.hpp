// The Python interface of a generated model (docs/adapters.md): daec::python::bind<Model>(module)
// defines the class `Model` of a pybind11 module, NumPy arrays in and out. The binding itself
// works on the runtime's model interface (daec/runtime/system.hpp), so that it is compiled once
// (python_binding.hpp, in the library daec_python_runtime, CMake Daec::python_runtime). In a
// PYBIND11_MODULE of your own:
//
//   PYBIND11_MODULE(pendulum, module) { daec::python::bind<pendulum::Model>(module); }
//
// A module of the model alone is one line without pybind11's headers, which daec writes
// (python_module.hpp): DAEC_PYTHON_MODULE(pendulum, pendulum::Model).
//
//   >>> import pendulum; m = pendulum.Model()
//   >>> x = m.consistent_initialization(0.0, m.initial_state())
//   >>> scipy.integrate.solve_ivp(m.rhs, (0, 1), x, method="Radau", jac=m.rhs_jacobian)
//   >>> r = m.simulate(numpy.linspace(0, 1, 11))   # daec's simulator in process (docs/python.md)
//
// Parameters: m.parameters reads them as a NumPy array and takes an array or a dict {name: value}
// (m.parameters = {"tau": 1.0}); setting a parameter cuts its binding and recomputes the
// parameters bound to it (m.parameter_bindings, m.parameter_bound).
//
// A failure of the model raises RuntimeError with the simulator's words ("rhs failed at t = 0.5:
// the algebraic unknown 'z' is not finite (...)"); a state of the wrong length raises ValueError.
#pragma once

#include <functional>
#include <memory>

#include <pybind11/pybind11.h>

#include <daec/adapters/python_module.hpp>
#include <daec/runtime/model_adapter.hpp>
#include <daec/runtime/system.hpp>

namespace daec::python {

/// Defines the class `name` in `module` over the models `make` gives, and translates
/// daec::model_error into RuntimeError (python_binding.hpp).
void bind_system(pybind11::module_& module, const ModelFactory& make, const char* name);

/// Defines the class `name` (default "Model") in `module` for a generated Model.
template <typename Model>
void bind(pybind11::module_& module, const char* name = "Model") {
  bind_system(
      module, [] { return std::make_unique<runtime::ModelAdapter<Model>>(); }, name);
}

}  // namespace daec::python
