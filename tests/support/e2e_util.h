// Helpers for end-to-end tests: run daec on a model, compile the C++ it generates with a real
// compiler (g++ or clang++, optionally linking SUNDIALS), run the program and read its CSV.
// Every test works in its own scratch directory under the build tree.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "simulator_link.h"  // kSimulatorIncludes, kSimulatorLibraries (configured)
#include "test_util.h"

namespace daec::test {

/// A fresh, empty directory DAEC_TEST_SCRATCH_DIR/<name> (its old contents removed first).
/// Returns its path. Use the test's name, so that tests run in parallel do not share one.
std::string make_scratch_dir(const std::string& name);

/// `text` quoted for /bin/sh, so that paths and arguments with spaces or quotes survive.
std::string shell_quote(const std::string& text);

/// Reads a whole file (empty string if it cannot be read); writes a whole file (throws on error).
std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& text);

/// Runs the daec under test with `arguments` (shell words, quote them with shell_quote).
CommandResult run_daec(const std::string& arguments);

/// How to compile generated C++.
struct CompileOptions {
  std::string compiler = "g++";  // "g++" or "clang++"
  bool link_sundials = false;    // a simulator: kSimulatorIncludes and kSimulatorLibraries
  std::string extra_flags;       // appended after the fixed flags (e.g. "-I dir")
  std::string libraries;         // appended after the sources (e.g. "-lklu")
};

/// The flags every compilation of generated code uses: "-std=c++17 -Wall -Wextra -Werror
/// -pedantic -O1" (the generated code is warning-free: docs/generated-code.md), plus the sanitizers
/// in the sanitizer build.
std::string strict_flags();

/// The compilers the generated code is checked with: g++ and clang++ (warnings differ); in the
/// sanitizer build g++ alone, as what it adds there is the sanitizers' check of the code, which
/// one compiler's build gives.
std::vector<std::string> generated_code_compilers();

/// Compiles and links `sources` into `executable`. status 0 on success; `out` + `err` hold the
/// compiler's log (the command line is prepended to `err`, for failure messages).
CommandResult compile_cpp(const std::vector<std::string>& sources, const std::string& executable,
                          const CompileOptions& options = {});

/// Runs `executable` with `arguments` (shell words) and captures its status, stdout and stderr.
CommandResult run_program(const std::string& executable, const std::string& arguments = "");

/// A built program, or why it could not be built (`log`: daec's or the compiler's messages).
struct Build {
  bool ok = false;
  std::string executable;
  std::string log;
};

/// How build_simulator builds a simulator: against the build tree's compiled runtime (the
/// model, its header and a main of a few lines, linked to daec_runtime, as the CMake package
/// builds one), or as the one file `daec --main` writes for users without the package.
enum class SimulatorBuild { library, single_file };

/// Generates the simulator of `model` into <dir>/<stem>.cpp ([daec_arguments] passed on) and
/// compiles it with SUNDIALS into <dir>/<stem>-<compiler>. `model` is a path relative to the
/// repository root or absolute. `compile_flags` go after the fixed flags (e.g. "-O2").
Build build_simulator(const std::string& model, const std::string& dir,
                      const std::string& compiler = "g++", const std::string& daec_arguments = "",
                      const std::string& compile_flags = "",
                      SimulatorBuild how = SimulatorBuild::library);

/// A CSV table of numbers with a header line, as the simulator prints it.
struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;

  /// The index of the column called `name`; throws if there is none.
  size_t column(const std::string& name) const;
  /// The value of column `name` in row `row`.
  double at(size_t row, const std::string& name) const { return rows.at(row).at(column(name)); }
  /// The last row's value of column `name`.
  double last(const std::string& name) const { return at(rows.size() - 1, name); }
};

/// The fields of one CSV line, RFC 4180: "A[1,2]" is one field A[1,2], "" in quotes a quote.
std::vector<std::string> split_fields(const std::string& line);

/// Parses CSV text: a header of names (quoted where RFC 4180 asks), then rows of finite numbers,
/// every row as wide as the header. Throws std::runtime_error (saying where) on anything else,
/// e.g. "nan" or "1.5x".
Csv parse_csv(const std::string& text);

/// One line of a simulator's --events file: the time, the condition by name, its value from then.
struct EventLine {
  double t = 0.0;
  std::string condition;
  bool value = false;
};

/// Parses the text of an --events file (header t,condition,value, then a line per change).
/// Throws std::runtime_error (saying where) on another header or a malformed line.
std::vector<EventLine> parse_events(const std::string& text);

/// The interpreter with NumPy (Debian's; another python3 may come first on PATH).
inline constexpr const char* kPython = "/usr/bin/python3";

/// The simulator's methods (--method list), in the order the end-to-end tests run them all.
inline constexpr const char* kMethods[] = {"radau5", "radau5-dae", "bdf", "ida"};

/// Generates `model` with --python-module `module` and builds the module into `dir` for kPython
/// (g++, no sanitizers: a module that Python loads cannot carry them). ok false: log says why.
Build build_python_module(const std::string& model, const std::string& module,
                          const std::string& dir);

/// The same module as daec_add_python_module builds it (docs/python.md): the model's code and
/// header (namespace `module`) and a DAEC_PYTHON_MODULE line, linked to the build tree's compiled
/// binding daec_python_runtime: two seconds where build_python_module takes fifteen. ok false:
/// log says why, also where this build has no daec_python_runtime (no pybind11, sanitizers).
Build build_python_module_compiled(const std::string& model, const std::string& module,
                                   const std::string& dir);

/// The statistics the simulator prints on stderr at the end ("method bdf, linear solver dense,
/// steps 312, rhs evaluations 401, jacobian evaluations 40, projections 312, largest invariant
/// residual 3.2e-13").
struct SimulatorStats {
  std::string method, linear_solver;
  long steps = 0, rhs_evaluations = 0, jacobian_evaluations = 0, projections = 0, events = 0;
  long factor_nonzeros = 0;  // entries of the iteration matrix's LU factors, the most of the run
  double largest_invariant_residual = 0;           // relative to the size of its terms
  double largest_absolute_invariant_residual = 0;  // max |h_i| as it is
};

/// Finds the statistics line in the simulator's stderr; nullopt if it is missing or malformed.
std::optional<SimulatorStats> parse_simulator_stats(const std::string& err);

}  // namespace daec::test
