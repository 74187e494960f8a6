// What the SUNDIALS-based methods (bdf, ida) share below the integrator itself: owners that free
// each SUNDIALS object (context, vector, matrix, linear solver, solver memory) exactly once, the
// handler that keeps SUNDIALS' error messages for the simulator's own report, and the words for a
// solver's return flag beside the name SUNDIALS gives it.
//
// SUNDIALS 6 installs an error handler on each solver's memory (CVodeSetErrHandlerFn); SUNDIALS 7
// removed those functions for a stack of handlers on the context (SUNContext_PushErrHandler) and
// passes warnings to its logger instead. Both are guarded by SUNDIALS_VERSION_MAJOR.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <type_traits>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_config.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include <daec/simulator/failure.hpp>
#include <daec/simulator/progress.hpp>

namespace daec::simulator {

// ----- Owners ------------------------------------------------------------------------------------

struct FreeContext {
  void operator()(SUNContext context) const { SUNContext_Free(&context); }
};
struct FreeVector {
  void operator()(N_Vector vector) const { N_VDestroy(vector); }
};
struct FreeMatrix {
  void operator()(SUNMatrix matrix) const { SUNMatDestroy(matrix); }
};
struct FreeLinearSolver {
  void operator()(SUNLinearSolver solver) const { SUNLinSolFree(solver); }
};
/// A solver's memory block (void*), freed by its package's function (CVodeFree, IDAFree).
struct FreeSolverMemory {
  void (*free)(void**) = nullptr;
  void operator()(void* memory) const { free(&memory); }
};

using Context = std::unique_ptr<std::remove_pointer_t<SUNContext>, FreeContext>;
using Vector = std::unique_ptr<std::remove_pointer_t<N_Vector>, FreeVector>;
using Matrix = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, FreeMatrix>;
using LinearSolverHandle =
    std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, FreeLinearSolver>;
using SolverMemory = std::unique_ptr<void, FreeSolverMemory>;

/// A new SUNDIALS context; a run error if SUNDIALS cannot create one.
inline Context new_context() {
  SUNContext context = nullptr;
#if SUNDIALS_VERSION_MAJOR >= 7
  const int status = SUNContext_Create(SUN_COMM_NULL, &context);
#else
  const int status = SUNContext_Create(nullptr, &context);
#endif
  if (status != 0 || context == nullptr) run_error("cannot create a SUNDIALS context");
  return Context(context);
}

/// A serial vector of `size` entries; a run error when out of memory.
inline Vector new_vector(int size, SUNContext context) {
  Vector vector(N_VNew_Serial(size, context));
  if (vector == nullptr) run_error("out of memory");
  return vector;
}

// ----- Error messages ----------------------------------------------------------------------------

#if SUNDIALS_VERSION_MAJOR >= 7
/// Keeps an error message of SUNDIALS for our own report (warnings go to SUNDIALS' logger).
/// `user_data` is a std::string* receiving "function: message".
inline void keep_error_message(int, const char* function, const char*, const char* message,
                               SUNErrCode, void* user_data, SUNContext) {
  *static_cast<std::string*>(user_data) = std::string(function) + ": " + message;
}
#else
/// Keeps a SUNDIALS solver's error messages for our own report; warnings are passed on at once.
/// `user_data` is a std::string* receiving "function: message".
inline void keep_error_message(int code, const char*, const char* function, char* message,
                               void* user_data) {
  if (code > 0) {  // CV_WARNING, IDA_WARNING
    clear_progress_line();
    std::fprintf(stderr, "sim: warning: %s: %s\n", function, message);
    return;
  }
  *static_cast<std::string*>(user_data) = std::string(function) + ": " + message;
}
#endif

// ----- Return flags ------------------------------------------------------------------------------

/// What a return flag means, in words, for the message of a failed run; its name comes from the
/// library (flag_name).
struct FlagMeaning {
  int flag;
  const char* words;
};

/// The name SUNDIALS gives `flag` through `library_name` (CVodeGetReturnFlagName,
/// IDAGetReturnFlagName, which return a string the caller frees); "" for a flag it does not know.
inline std::string flag_name(char* (*library_name)(long), int flag) {
  std::unique_ptr<char, decltype(&std::free)> name(library_name(flag), &std::free);
  if (name == nullptr || std::string(name.get()) == "NONE") return "";
  return name.get();
}

/// "too many steps (CV_TOO_MUCH_WORK)": the words of `meanings` beside the library's name; the
/// name alone for a flag without words, "CVODE flag -99" (`package`) for a flag neither knows.
template <size_t N>
std::string describe_flag(int flag, const FlagMeaning (&meanings)[N], char* (*library_name)(long),
                          const char* package) {
  const std::string name = flag_name(library_name, flag);
  const std::string number = std::string(package) + " flag " + std::to_string(flag);
  for (const FlagMeaning& meaning : meanings)
    if (meaning.flag == flag)
      return std::string(meaning.words) + " (" + (name.empty() ? number : name) + ")";
  return name.empty() ? number : name;
}

}  // namespace daec::simulator
