# DaecFunctions.cmake — build targets from .dae models (spec §7), included by DaecConfig.cmake:
#
#   daec_add_model(TARGET MODEL.dae [NAMESPACE NS] [DEFINES NAME=VALUE...])
#     A static library TARGET holding the C++ that daec generates from MODEL.dae, with the
#     generated header <model file stem>.h on its public include path.
#   daec_add_simulator(TARGET MODEL.dae [NAMESPACE NS] [DEFINES NAME=VALUE...])
#     An executable TARGET: the generated code with daec's SUNDIALS simulator main (--main).
#
# DEFINES sets parameters before the model is flattened (daec -D NAME=VALUE), so that one model
# file gives several sizes: daec_add_model(chain1000 pendulum_chain.dae DEFINES N=1000).
#
# A relative MODEL.dae is taken from the current source directory. The code is generated at build
# time into ${CMAKE_CURRENT_BINARY_DIR}/daec_generated/TARGET/, and generated again whenever the
# model or the daec executable changes.
include_guard(GLOBAL)

# Stops with a message naming the call when its arguments are not
# TARGET MODEL.dae [NAMESPACE NS] [DEFINES NAME=VALUE...].
function(_daec_check_call command arguments missing_values defines)
  set(usage "usage: ${command}(TARGET MODEL.dae [NAMESPACE NS] [DEFINES NAME=VALUE...])")
  foreach(keyword IN LISTS missing_values)
    message(FATAL_ERROR "${command}: ${keyword} needs a value; ${usage}")
  endforeach()
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
    message(FATAL_ERROR "${command}: unexpected arguments '${extra}' (the keywords are "
                        "NAMESPACE and DEFINES); ${usage}")
  endif()
endfunction()

# Adds the custom command running daec on `model` for `target`, with -D for each of `defines`.
# Sets `out_code` (and, unless `main`, `out_header`) in the caller to the generated files.
function(_daec_generate command target model namespace defines main out_code out_header)
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
  if(main)
    list(APPEND arguments --main)
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
  # Depending on the executable's file, not only on the target: a newer daec regenerates.
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
    COMMAND Daec::daec ${arguments}
    DEPENDS "${model_path}" "$<TARGET_FILE:Daec::daec>"
    COMMENT "daec: generating ${target} from ${model}"
    VERBATIM)
  set(${out_code} "${code}" PARENT_SCOPE)
endfunction()

# Finds the SUNDIALS parts the simulator links (CVODE, dense matrix and solver, serial vectors).
# Searched only when a simulator is asked for, so models alone need no SUNDIALS.
function(_daec_find_sundials command out_include out_libraries)
  find_path(DAEC_SUNDIALS_INCLUDE_DIR cvode/cvode.h DOC "Directory holding cvode/cvode.h")
  set(missing)
  set(libraries)
  if(NOT DAEC_SUNDIALS_INCLUDE_DIR)
    list(APPEND missing cvode/cvode.h)
  endif()
  foreach(name IN ITEMS cvode sunlinsoldense sunmatrixdense nvecserial)
    find_library(DAEC_SUNDIALS_${name}_LIBRARY NAMES sundials_${name}
      DOC "The SUNDIALS library sundials_${name}")
    if(DAEC_SUNDIALS_${name}_LIBRARY)
      list(APPEND libraries "${DAEC_SUNDIALS_${name}_LIBRARY}")
    else()
      list(APPEND missing sundials_${name})
    endif()
  endforeach()
  if(missing)
    list(JOIN missing ", " missing)
    message(FATAL_ERROR "${command}: the simulator needs SUNDIALS, which was not found (missing: "
                        "${missing}). Install it (Debian: apt-get install libsundials-dev) or add "
                        "its prefix to CMAKE_PREFIX_PATH.")
  endif()
  set(${out_include} "${DAEC_SUNDIALS_INCLUDE_DIR}" PARENT_SCOPE)
  set(${out_libraries} "${libraries}" PARENT_SCOPE)
endfunction()

function(daec_add_model)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAMESPACE" "DEFINES")
  _daec_check_call(daec_add_model "${arg_UNPARSED_ARGUMENTS}" "${arg_KEYWORDS_MISSING_VALUES}"
                   "${arg_DEFINES}")
  list(GET arg_UNPARSED_ARGUMENTS 0 target)
  list(GET arg_UNPARSED_ARGUMENTS 1 model)
  _daec_generate(daec_add_model ${target} "${model}" "${arg_NAMESPACE}" "${arg_DEFINES}" FALSE
                 code header)
  add_library(${target} STATIC "${code}" "${header}")
  get_filename_component(include_dir "${header}" DIRECTORY)
  target_include_directories(${target} PUBLIC "${include_dir}")
  target_compile_features(${target} PUBLIC cxx_std_17)
endfunction()

function(daec_add_simulator)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAMESPACE" "DEFINES")
  _daec_check_call(daec_add_simulator "${arg_UNPARSED_ARGUMENTS}"
                   "${arg_KEYWORDS_MISSING_VALUES}" "${arg_DEFINES}")
  list(GET arg_UNPARSED_ARGUMENTS 0 target)
  list(GET arg_UNPARSED_ARGUMENTS 1 model)
  _daec_find_sundials(daec_add_simulator sundials_include sundials_libraries)
  _daec_generate(daec_add_simulator ${target} "${model}" "${arg_NAMESPACE}" "${arg_DEFINES}" TRUE
                 code unused)
  add_executable(${target} "${code}")
  target_include_directories(${target} PRIVATE "${sundials_include}")
  target_link_libraries(${target} PRIVATE ${sundials_libraries})
  target_compile_features(${target} PRIVATE cxx_std_17)
endfunction()
