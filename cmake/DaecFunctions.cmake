# DaecFunctions.cmake — build targets from .dae models (docs/build-systems.md), included by DaecConfig.cmake:
#
#   daec_add_model(TARGET MODEL.dae [NAMESPACE NS] [SPLIT N] [DEFINES NAME=VALUE...])
#     A static library TARGET holding the C++ that daec generates from MODEL.dae, with the
#     generated header <model file stem>.h on its public include path.
#   daec_add_simulator(TARGET MODEL.dae [NAMESPACE NS] [SPLIT N] [DEFINES NAME=VALUE...])
#     An executable TARGET: the generated model (with its header) and a main of a few lines that
#     runs daec's simulator on it, linked against the compiled runtime Daec::runtime and SUNDIALS
#     and KLU (Debian: libsundials-dev, libsuitesparse-dev). The simulator is the one daec --main
#     writes as a single file; only the model is compiled. NS defaults to daec_model.
#
#   daec_add_python_module(TARGET MODEL.dae [MODULE name] [NAMESPACE NS] [DEFINES NAME=VALUE...])
#     A Python extension module named `name` (default TARGET) whose class Model exposes the
#     generated model with NumPy arrays (docs/adapters.md): `import name; m = name.Model();
#     m.rhs(t, x)`. Only the model and a one-line module entry point are compiled; the binding is
#     the compiled Daec::python_runtime (pybind11). Built for the interpreter daec_find_python
#     chooses (DaecFindPython.cmake: the one daec was built for when it runs here, else the first
#     python3 that imports NumPy; -DPython3_EXECUTABLE=... chooses another), which must be of the
#     Python version the package was built for. daec_ensemble.py (one model over many parameter
#     sets, docs/ensembles.md) is copied beside the module.
#
#   daec_add_mex(TARGET MODEL.dae [NAMESPACE NS] [DEFINES NAME=VALUE...])
#     A MEX file TARGET.mex in the current binary directory, built by Octave's `mkoctfile --mex`
#     (Debian: liboctave-dev) from the generated model and daec/adapters/mex.hpp: in Octave,
#     `addpath(dir); TARGET('rhs', t, x)` (docs/octave.md). Part of the default build (target
#     TARGET). The same sources build under MATLAB's `mex`.
#
# SPLIT N (daec --split N) spreads a large model's code over N more files, <stem>_1.cpp ...
# <stem>_N.cpp, which the build compiles in parallel; 0 (the default) keeps one file.
#
# DEFINES sets parameters before the model is flattened (daec -D NAME=VALUE), so that one model
# file gives several sizes: daec_add_model(chain1000 pendulum_chain.dae DEFINES N=1000).
#
# A relative MODEL.dae is taken from the current source directory. The code is generated at build
# time into ${CMAKE_CURRENT_BINARY_DIR}/daec_generated/TARGET/, and generated again whenever the
# model or the daec executable changes.
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/DaecSimulatorLink.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/DaecFindPython.cmake")

# Stops with a message naming the call when its arguments are not TARGET MODEL.dae followed by
# the call's keywords (`keywords`, default "[NAMESPACE NS] [SPLIT N] [DEFINES NAME=VALUE...]").
# `split` is SPLIT's value, `defines` DEFINES' values.
function(_daec_check_call command arguments missing_values split defines)
  set(keywords "[NAMESPACE NS] [SPLIT N] [DEFINES NAME=VALUE...]")
  if(ARGC GREATER 5)
    set(keywords "${ARGV5}")
  endif()
  set(usage "usage: ${command}(TARGET MODEL.dae ${keywords})")
  if(missing_values)
    list(GET missing_values 0 keyword)
    message(FATAL_ERROR "${command}: ${keyword} needs a value; ${usage}")
  endif()
  if(NOT split STREQUAL "" AND (NOT split MATCHES "^[0-9]+$" OR split GREATER 256))
    message(FATAL_ERROR "${command}: SPLIT must be a whole number from 0 to 256, not '${split}'; "
                        "${usage}")
  endif()
  foreach(define IN LISTS defines)
    if(NOT define MATCHES "^[A-Za-z_][A-Za-z0-9_]*=.")
      message(FATAL_ERROR "${command}: DEFINES takes NAME=VALUE, not '${define}'; ${usage}")
    endif()
  endforeach()
  list(LENGTH arguments count)
  if(count EQUAL 0)
    message(FATAL_ERROR "${command}: no target name and no model file given; ${usage}")
  elseif(count EQUAL 1)
    message(FATAL_ERROR "${command}(${arguments}): no model file given; ${usage}")
  elseif(count GREATER 2)
    list(SUBLIST arguments 2 -1 extra)
    list(JOIN extra " " extra)
    message(FATAL_ERROR "${command}: unexpected arguments '${extra}'; ${usage}")
  endif()
endfunction()

# Adds the custom command running daec on `model` for `target`, with -D for each of `defines`.
# `kind` is MODEL (code and header), SIMULATOR (--main) or PYTHON:<module> (--python-module).
# Sets `out_code` (the generated sources: the code and its SPLIT part files) and for MODEL
# `out_header` in the caller.
function(_daec_generate command target model namespace split defines kind out_code out_header)
  get_filename_component(model_path "${model}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_source_file_property(generated "${model_path}" GENERATED)
  if(NOT EXISTS "${model_path}" AND NOT generated)
    message(FATAL_ERROR "${command}(${target} ${model}): model file not found: ${model_path}")
  endif()
  get_filename_component(stem "${model_path}" NAME_WLE)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/daec_generated/${target}")
  set(code "${dir}/${stem}.cpp")
  set(outputs "${code}")
  set(arguments "${model_path}" -o "${code}")
  if(kind STREQUAL "SIMULATOR")
    list(APPEND arguments --main)
  elseif(kind MATCHES "^PYTHON:(.*)$")
    list(APPEND arguments --python-module "${CMAKE_MATCH_1}")
  else()
    set(header "${dir}/${stem}.h")
    list(APPEND outputs "${header}")
    list(APPEND arguments --header "${header}")
    set(${out_header} "${header}" PARENT_SCOPE)
  endif()
  if(NOT namespace STREQUAL "")
    list(APPEND arguments --namespace "${namespace}")
  endif()
  foreach(define IN LISTS defines)
    list(APPEND arguments -D "${define}")
  endforeach()
  set(sources "${code}")
  if(split GREATER 0)
    list(APPEND arguments --split ${split})
    foreach(part RANGE 1 ${split})
      list(APPEND sources "${dir}/${stem}_${part}.cpp")
      list(APPEND outputs "${dir}/${stem}_${part}.cpp")
    endforeach()
  endif()
  # Depending on the executable's file, not only on the target: a newer daec regenerates.
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
    COMMAND Daec::daec ${arguments}
    DEPENDS "${model_path}" "$<TARGET_FILE:Daec::daec>"
    COMMENT "daec: generating ${target} from ${model}"
    VERBATIM)
  set(${out_code} "${sources}" PARENT_SCOPE)
endfunction()

# Finds what the simulator links: the libraries of DaecSimulatorLink.cmake (SUNDIALS' CVODE, IDA,
# serial vectors, dense and sparse matrices, the dense and KLU linear solvers; SuiteSparse's
# KLU). Searched only when a simulator is asked for, so models alone need neither.
function(_daec_find_sundials command out_include out_libraries)
  find_path(DAEC_SUNDIALS_INCLUDE_DIR cvode/cvode.h DOC "Directory holding cvode/cvode.h")
  find_path(DAEC_KLU_INCLUDE_DIR ${DAEC_SIMULATOR_HEADER} PATH_SUFFIXES
            ${DAEC_SIMULATOR_HEADER_SUFFIXES} DOC "Directory holding ${DAEC_SIMULATOR_HEADER}")
  set(missing)
  set(libraries)
  foreach(header IN ITEMS SUNDIALS KLU)
    if(NOT DAEC_${header}_INCLUDE_DIR)
      list(APPEND missing "${header} headers")
    endif()
  endforeach()
  foreach(name IN LISTS DAEC_SIMULATOR_LIBRARIES)
    find_library(DAEC_${name}_LIBRARY NAMES ${name} DOC "The library ${name}")
    if(DAEC_${name}_LIBRARY)
      list(APPEND libraries "${DAEC_${name}_LIBRARY}")
    else()
      list(APPEND missing ${name})
    endif()
  endforeach()
  if(missing)
    list(JOIN missing ", " missing)
    message(FATAL_ERROR "${command}: the simulator needs SUNDIALS and KLU, which were not found "
                        "(missing: ${missing}). Install them (Debian: apt-get install "
                        "libsundials-dev libsuitesparse-dev) or add their prefix to "
                        "CMAKE_PREFIX_PATH.")
  endif()
  set(${out_include} "${DAEC_SUNDIALS_INCLUDE_DIR};${DAEC_KLU_INCLUDE_DIR}" PARENT_SCOPE)
  set(${out_libraries} "${libraries}" PARENT_SCOPE)
endfunction()

# Compiles the generated code of `target` with optimisation when the project sets no build type
# (a single-configuration generator with CMAKE_BUILD_TYPE empty compiles without -O): generated
# code runs several times slower unoptimised, and a simulator that is slow for want of a flag is
# a trap. A build type, once set, decides alone.
function(_daec_default_optimization target)
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi_config OR NOT CMAKE_BUILD_TYPE STREQUAL "")
    return()
  endif()
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -O2)
  elseif(MSVC)
    target_compile_options(${target} PRIVATE /O2)
  endif()
  get_property(announced GLOBAL PROPERTY DAEC_OPTIMIZATION_ANNOUNCED)
  if(NOT announced)
    message(STATUS "daec: no CMAKE_BUILD_TYPE set: generated code is compiled with -O2 (set "
                   "CMAKE_BUILD_TYPE to choose, e.g. -DCMAKE_BUILD_TYPE=Debug)")
    set_property(GLOBAL PROPERTY DAEC_OPTIMIZATION_ANNOUNCED TRUE)
  endif()
endfunction()

function(daec_add_model)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAMESPACE;SPLIT" "DEFINES")
  _daec_check_call(daec_add_model "${arg_UNPARSED_ARGUMENTS}" "${arg_KEYWORDS_MISSING_VALUES}"
                   "${arg_SPLIT}" "${arg_DEFINES}")
  list(GET arg_UNPARSED_ARGUMENTS 0 target)
  list(GET arg_UNPARSED_ARGUMENTS 1 model)
  _daec_generate(daec_add_model ${target} "${model}" "${arg_NAMESPACE}" "${arg_SPLIT}"
                 "${arg_DEFINES}" MODEL code header)
  add_library(${target} STATIC ${code} "${header}")
  _daec_default_optimization(${target})
  get_filename_component(include_dir "${header}" DIRECTORY)
  target_include_directories(${target} PUBLIC "${include_dir}")
  target_compile_features(${target} PUBLIC cxx_std_17)
endfunction()

function(daec_add_simulator)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAMESPACE;SPLIT" "DEFINES")
  _daec_check_call(daec_add_simulator "${arg_UNPARSED_ARGUMENTS}"
                   "${arg_KEYWORDS_MISSING_VALUES}" "${arg_SPLIT}" "${arg_DEFINES}")
  list(GET arg_UNPARSED_ARGUMENTS 0 target)
  list(GET arg_UNPARSED_ARGUMENTS 1 model)
  _daec_find_sundials(daec_add_simulator sundials_include sundials_libraries)
  set(namespace "${arg_NAMESPACE}")
  if(namespace STREQUAL "")
    set(namespace daec_model)
  endif()
  _daec_generate(daec_add_simulator ${target} "${model}" "${namespace}" "${arg_SPLIT}"
                 "${arg_DEFINES}" MODEL code header)
  # The main of daec/runtime/run.hpp on the generated Model, through its adapter.
  set(main "${CMAKE_CURRENT_BINARY_DIR}/daec_generated/${target}/main.cpp")
  get_filename_component(header_name "${header}" NAME)
  file(GENERATE OUTPUT "${main}" CONTENT
"// The simulator's main, written by daec_add_simulator: daec's compiled runtime (Daec::runtime)
// on the model of ${header_name}.
#include \"${header_name}\"

#include <daec/runtime/model_adapter.hpp>
#include <daec/runtime/run.hpp>

int main(int argc, char** argv) {
  return daec::runtime::run(argc, argv, daec::runtime::ModelAdapter<::${namespace}::Model>{});
}
")
  add_executable(${target} ${code} "${header}" "${main}")
  _daec_default_optimization(${target})
  get_filename_component(include_dir "${header}" DIRECTORY)
  target_include_directories(${target} PRIVATE "${include_dir}" "${sundials_include}")
  target_link_libraries(${target} PRIVATE Daec::runtime ${sundials_libraries})
  target_compile_features(${target} PRIVATE cxx_std_17)
endfunction()

# Stops with a message when the package has no compiled Python binding, or one built for another
# Python version than the one daec_find_python chose here (the module ABI is per version).
function(_daec_check_python_runtime)
  if(NOT TARGET Daec::python_runtime)
    message(FATAL_ERROR "daec_add_python_module: this daec installation has no Python binding "
                        "(libdaec_python_runtime): daec was built without pybind11. Install "
                        "pybind11 (Debian: apt-get install pybind11-dev python3-dev) and build and "
                        "install daec again.")
  endif()
  set(version "${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}")
  if(NOT version STREQUAL DAEC_PYTHON_VERSION)
    message(FATAL_ERROR "daec_add_python_module: this project builds for Python ${version} "
                        "(${Python3_EXECUTABLE}), but daec's Python binding was built for Python "
                        "${DAEC_PYTHON_VERSION} (${DAEC_PYTHON_EXECUTABLE}). Choose that "
                        "interpreter (-DPython3_EXECUTABLE=...) or build daec with this one.")
  endif()
endfunction()

function(daec_add_python_module)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAMESPACE;MODULE" "DEFINES")
  _daec_check_call(daec_add_python_module "${arg_UNPARSED_ARGUMENTS}"
                   "${arg_KEYWORDS_MISSING_VALUES}" "" "${arg_DEFINES}"
                   "[MODULE name] [NAMESPACE NS] [DEFINES NAME=VALUE...]")
  list(GET arg_UNPARSED_ARGUMENTS 0 target)
  list(GET arg_UNPARSED_ARGUMENTS 1 model)
  set(module "${target}")
  if(DEFINED arg_MODULE)
    set(module "${arg_MODULE}")
  endif()
  if(NOT module MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "daec_add_python_module(${target}): MODULE '${module}' is not a Python "
                        "identifier")
  endif()
  daec_find_python()
  if(NOT DAEC_PYTHON_FOUND)
    message(FATAL_ERROR "daec_add_python_module(${target}): ${DAEC_PYTHON_WHY}")
  endif()
  _daec_check_python_runtime()
  # Model.simulate runs the simulator (in Daec::python_runtime): SUNDIALS and KLU, as
  # daec_add_simulator links them.
  _daec_find_sundials(daec_add_python_module sundials_include sundials_libraries)
  set(namespace "${arg_NAMESPACE}")
  if(namespace STREQUAL "")
    set(namespace daec_model)
  endif()
  _daec_generate(daec_add_python_module ${target} "${model}" "${namespace}" "" "${arg_DEFINES}"
                 MODEL code header)
  # The module's entry point: the compiled binding (daec/adapters/python_module.hpp) on the
  # generated Model, through its adapter; it includes Python.h, not pybind11's headers.
  set(main "${CMAKE_CURRENT_BINARY_DIR}/daec_generated/${target}/module.cpp")
  get_filename_component(header_name "${header}" NAME)
  file(GENERATE OUTPUT "${main}" CONTENT
"// The Python module ${module}, written by daec_add_python_module: daec's compiled binding
// (Daec::python_runtime) on the model of ${header_name}.
#include \"${header_name}\"

#include <daec/adapters/python_module.hpp>

DAEC_PYTHON_MODULE(${module}, ::${namespace}::Model)
")
  # FindPython3's module library (the interpreter's extension suffix, no "lib" prefix); the
  # entry point includes only Python.h, so pybind11 is needed where daec was built, not here.
  Python3_add_library(${target} MODULE WITH_SOABI ${code} "${header}" "${main}")
  _daec_default_optimization(${target})
  get_filename_component(include_dir "${header}" DIRECTORY)
  target_include_directories(${target} PRIVATE "${include_dir}")
  target_link_libraries(${target} PRIVATE Daec::python_runtime ${sundials_libraries})
  # As the binding was built: hidden symbols, so that two modules in one process do not mix.
  set_target_properties(${target} PROPERTIES OUTPUT_NAME "${module}" CXX_VISIBILITY_PRESET hidden
                                             VISIBILITY_INLINES_HIDDEN ON)
  target_compile_features(${target} PRIVATE cxx_std_17)
  # daec_ensemble.py beside the module (docs/ensembles.md): the directory that imports the module
  # imports the helper too, which is what every worker of an ensemble needs.
  if(DEFINED DAEC_PYTHON_HELPERS_DIR)
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND ${CMAKE_COMMAND} -E copy_if_different
              "${DAEC_PYTHON_HELPERS_DIR}/daec_ensemble.py" "$<TARGET_FILE_DIR:${target}>"
      VERBATIM)
  endif()
endfunction()

# The MEX file of daec_add_mex: Octave's mkoctfile, found once (DAEC_MKOCTFILE; a project may test
# it to make its MEX files optional, as docs/example does).
find_program(DAEC_MKOCTFILE mkoctfile DOC "Octave's mkoctfile, which builds daec_add_mex's MEX files")

function(daec_add_mex)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAMESPACE" "DEFINES")
  _daec_check_call(daec_add_mex "${arg_UNPARSED_ARGUMENTS}" "${arg_KEYWORDS_MISSING_VALUES}" ""
                   "${arg_DEFINES}" "[NAMESPACE NS] [DEFINES NAME=VALUE...]")
  list(GET arg_UNPARSED_ARGUMENTS 0 target)
  list(GET arg_UNPARSED_ARGUMENTS 1 model)
  if(NOT target MATCHES "^[A-Za-z][A-Za-z0-9_]*$")
    message(FATAL_ERROR "daec_add_mex(${target}): the MEX file is called as the function "
                        "'${target}', which is not an Octave/MATLAB identifier")
  endif()
  if(NOT DAEC_MKOCTFILE)
    message(FATAL_ERROR "daec_add_mex(${target}): Octave's mkoctfile was not found. Install it "
                        "(Debian: apt-get install octave liboctave-dev) or set DAEC_MKOCTFILE.")
  endif()
  set(namespace "${arg_NAMESPACE}")
  if(namespace STREQUAL "")
    set(namespace daec_model)
  endif()
  _daec_generate(daec_add_mex ${target} "${model}" "${namespace}" "" "${arg_DEFINES}" MODEL code
                 header)
  get_filename_component(dir "${header}" DIRECTORY)
  get_filename_component(header_name "${header}" NAME)
  set(gateway "${dir}/${target}_mex.cpp")
  file(GENERATE OUTPUT "${gateway}" CONTENT
"// The MEX function ${target}, written by daec_add_mex: daec/adapters/mex.hpp on the model of
// ${header_name}.
#include \"${header_name}\"

#include <daec/adapters/mex.hpp>

DAEC_MEX_FUNCTION(::${namespace}::Model)
")
  get_target_property(include_dirs Daec::runtime INTERFACE_INCLUDE_DIRECTORIES)
  list(TRANSFORM include_dirs PREPEND "-I")
  set(mex "${CMAKE_CURRENT_BINARY_DIR}/${target}.mex")
  # mkoctfile compiles with its own flags (Octave's, -O2 on Debian); C++17 and optimisation are
  # asked for explicitly, since a compiler's default standard may be older.
  add_custom_command(
    OUTPUT "${mex}"
    COMMAND "${CMAKE_COMMAND}" -E env "CXXFLAGS=-O2 -std=c++17" "${DAEC_MKOCTFILE}" --mex
            ${include_dirs} "-I${dir}" "${gateway}" ${code} -o "${mex}"
    DEPENDS ${code} "${header}" "${gateway}"
    COMMENT "mkoctfile --mex: building ${target}.mex"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS "${mex}")
endfunction()
