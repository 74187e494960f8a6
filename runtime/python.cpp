// The Python binding compiled once (library daec_python_runtime, CMake Daec::python_runtime):
// daec::python::bind_system of daec/adapters/python_binding.hpp, which a module built through the
// package calls from its PYBIND11_MODULE (daec/adapters/python.hpp).
#include <daec/adapters/python_binding.hpp>
