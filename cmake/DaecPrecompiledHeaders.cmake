# Precompiled headers for daec's own targets. GiNaC's headers (with CLN's) and the standard
# library's take about 1.5 s to parse at every file that includes them, and nearly every file of
# the compiler and of the test suite does: parsed once per target instead, they take a fifth off a
# clean build. DAEC_PRECOMPILED_HEADERS=OFF compiles every file on its own (a check that each
# file includes what it uses, or for a tool that cannot read GCC's .gch files).
option(DAEC_PRECOMPILED_HEADERS "Precompile the headers most of daec's files include" ON)

# daec_precompile_common_headers(target [header...]): the common headers, and the extra ones
# given (as <name>), precompiled for `target`.
function(daec_precompile_common_headers target)
  if(NOT DAEC_PRECOMPILED_HEADERS)
    return()
  endif()
  target_precompile_headers(${target} PRIVATE
    <algorithm> <cmath> <map> <optional> <set> <string> <vector>
    <fmt/format.h> <ginac/ginac.h> ${ARGN})
endfunction()
