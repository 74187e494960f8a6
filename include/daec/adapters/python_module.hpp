// A Python module of a generated model in one line, without pybind11's headers (docs/adapters.md):
//
//   DAEC_PYTHON_MODULE(pendulum, pendulum::Model)   // import pendulum; pendulum.Model()
//
// defines the module's entry point PyInit_pendulum, which calls daec::python::create_module:
// the binding compiled once (python_binding.hpp, library daec_python_runtime). It does what
// pybind11's PYBIND11_MODULE does, but the module's own file includes only Python.h, so that it
// compiles in a fraction of a second instead of the seconds pybind11's headers take.
// daec::python::bind (python.hpp) is the same class for a PYBIND11_MODULE of your own.
#pragma once

#include <Python.h>

#include <functional>
#include <memory>

#include <daec/runtime/model_adapter.hpp>
#include <daec/runtime/system.hpp>

namespace daec::python {

/// Makes a model with every default: the class's constructor calls it once per instance.
using ModelFactory = std::function<std::unique_ptr<runtime::System>()>;

/// The extension module `name` holding the class Model over the models `make` gives: a new
/// reference, or nullptr with Python's error set (the result of the module's PyInit_ function).
PyObject* create_module(const char* name, const ModelFactory& make);

}  // namespace daec::python

/// Defines PyInit_<name>, the entry point of the module `name`, for the generated `Model` class.
#define DAEC_PYTHON_MODULE(name, Model)                                                  \
  PyMODINIT_FUNC PyInit_##name() {                                                       \
    return ::daec::python::create_module(                                                \
        #name, [] { return std::make_unique<::daec::runtime::ModelAdapter<Model>>(); }); \
  }
