# DaecSimulatorLink.cmake — what a daec simulator links (docs/simulator.md): the one place that
# lists SUNDIALS' and KLU's libraries and where KLU's header lives. Everything else is made from it:
#   - the compiled runtime daec_runtime and the runtime tests link the list (runtime/, tests/);
#   - daec_add_simulator finds each library by this name (DaecFunctions.cmake, installed with it);
#   - daec-config (cmake/daec-config.in, configured into the build tree and installed to bin/)
#     prints the compiler and linker flags for the single file of daec --main, which
#     scripts/compile_simulator.sh, the benchmarks and docs/example/Makefile use;
#   - the end-to-end tests' flags (tests/support/simulator_link.h.in, a configured header).
# Adding a library means adding its name here.
include_guard(GLOBAL)

# In link order: the solvers before the vectors and matrices they use, KLU last.
set(DAEC_SIMULATOR_LIBRARIES sundials_cvode sundials_ida sundials_nvecserial
    sundials_sunlinsoldense sundials_sunmatrixdense sundials_sunlinsolklu
    sundials_sunmatrixsparse klu)
# The header whose directory the compiler needs (-I), and where below the prefix it may be.
set(DAEC_SIMULATOR_HEADER klu.h)
set(DAEC_SIMULATOR_HEADER_SUFFIXES suitesparse)
