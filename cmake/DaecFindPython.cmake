# DaecFindPython.cmake — the Python interpreter that daec's Python binding (runtime/CMakeLists.txt)
# and the modules of daec_add_python_module (DaecFunctions.cmake) are built for
# (docs/build-systems.md, "Which Python").
#
#   daec_find_python()
#     A macro (find_package's variables must reach the caller): finds Python3 with the
#     Interpreter and Development.Module components through CMake's FindPython3, so that pybind11,
#     found afterwards, builds in its FindPython mode for the same interpreter instead of running
#     its own search (FindPythonLibsNew), which stops the configuration at the first broken
#     `python3.X` on PATH (a pyenv shim for a version that is not active, say).
#     The interpreter: the one the user names (Python3_EXECUTABLE, Python_EXECUTABLE or
#     PYTHON_EXECUTABLE); otherwise the first candidate that runs and imports NumPy, the candidates
#     being the python3 of an activated virtual or conda environment (VIRTUAL_ENV, CONDA_PREFIX),
#     DAEC_PYTHON_EXECUTABLE (the one the installed binding was built for), each python3 on PATH,
#     then /usr/bin/python3; otherwise the first candidate that runs. Prints which one it
#     took and how to choose another. Sets DAEC_PYTHON_FOUND and, when not found, DAEC_PYTHON_WHY.
include_guard(GLOBAL)

# Seconds a candidate interpreter may take to start and import NumPy.
set(_DAEC_PYTHON_PROBE_TIMEOUT 30)

# Sets `out` to the candidate interpreters, in the order of preference, each once.
function(_daec_python_candidates out)
  set(candidates)
  # An activated virtual environment or conda environment is the user's choice of Python.
  foreach(environment IN ITEMS VIRTUAL_ENV CONDA_PREFIX)
    if(NOT "$ENV{${environment}}" STREQUAL "")
      list(APPEND candidates "$ENV{${environment}}/bin/python3")
    endif()
  endforeach()
  if(DAEC_PYTHON_EXECUTABLE)
    list(APPEND candidates "${DAEC_PYTHON_EXECUTABLE}")
  endif()
  if(CMAKE_HOST_WIN32)
    set(separator ";")
  else()
    set(separator ":")
  endif()
  string(REPLACE "${separator}" ";" path_dirs "$ENV{PATH}")
  foreach(dir IN LISTS path_dirs)
    if(NOT dir STREQUAL "" AND EXISTS "${dir}/python3" AND NOT IS_DIRECTORY "${dir}/python3")
      list(APPEND candidates "${dir}/python3")
    endif()
  endforeach()
  list(APPEND candidates /usr/bin/python3)
  list(REMOVE_DUPLICATES candidates)
  set(${out} "${candidates}" PARENT_SCOPE)
endfunction()

# Sets `out` to the first of `candidates` that runs `code` successfully, or to "".
function(_daec_first_python_running out code)
  foreach(candidate IN LISTS ARGN)
    if(NOT EXISTS "${candidate}")
      continue()
    endif()
    execute_process(COMMAND "${candidate}" -c "${code}" RESULT_VARIABLE status
                    OUTPUT_QUIET ERROR_QUIET TIMEOUT ${_DAEC_PYTHON_PROBE_TIMEOUT})
    if(status EQUAL 0)
      set(${out} "${candidate}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()

# Sets Python3_EXECUTABLE (a cache entry, as FindPython3 reads it) unless the user chose one.
function(_daec_choose_python)
  foreach(name IN ITEMS Python3_EXECUTABLE Python_EXECUTABLE PYTHON_EXECUTABLE)
    if(${name})
      set(Python3_EXECUTABLE "${${name}}" CACHE FILEPATH "The Python interpreter of daec's modules")
      return()
    endif()
  endforeach()
  _daec_python_candidates(candidates)
  _daec_first_python_running(chosen "import numpy" ${candidates})
  if(chosen STREQUAL "")
    _daec_first_python_running(chosen "import sys" ${candidates})
  endif()
  if(NOT chosen STREQUAL "")
    set(Python3_EXECUTABLE "${chosen}" CACHE FILEPATH "The Python interpreter of daec's modules")
  endif()
endfunction()

macro(daec_find_python)
  if(NOT Python3_FOUND)
    _daec_choose_python()
    find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
  endif()
  set(DAEC_PYTHON_FOUND "${Python3_FOUND}")
  if(Python3_FOUND)
    execute_process(COMMAND "${Python3_EXECUTABLE}" -c "import numpy"
                    RESULT_VARIABLE _daec_numpy_status OUTPUT_QUIET ERROR_QUIET
                    TIMEOUT ${_DAEC_PYTHON_PROBE_TIMEOUT})
    if(_daec_numpy_status EQUAL 0)
      set(_daec_numpy "with NumPy")
    else()
      set(_daec_numpy "WITHOUT NumPy, which the modules need at import (Debian: python3-numpy)")
    endif()
    get_property(_daec_python_said GLOBAL PROPERTY DAEC_PYTHON_ANNOUNCED)
    if(NOT _daec_python_said)
      message(STATUS "daec: Python modules are built for ${Python3_EXECUTABLE} (Python "
                     "${Python3_VERSION}, ${_daec_numpy}); choose another interpreter with "
                     "-DPython3_EXECUTABLE=/path/to/python3")
      set_property(GLOBAL PROPERTY DAEC_PYTHON_ANNOUNCED TRUE)
    endif()
    unset(_daec_numpy)
    unset(_daec_numpy_status)
    unset(_daec_python_said)
  elseif(Python3_EXECUTABLE)
    string(CONCAT DAEC_PYTHON_WHY "the Python headers for ${Python3_EXECUTABLE} were not found "
                  "(Debian: apt-get install python3-dev; or choose another interpreter with "
                  "-DPython3_EXECUTABLE=/path/to/python3)")
  else()
    string(CONCAT DAEC_PYTHON_WHY "no Python interpreter runs here (Debian: apt-get install "
                  "python3-dev python3-numpy; or name one with -DPython3_EXECUTABLE=/path/to/python3)")
  endif()
endmacro()
