// Implementation of the end-to-end test helpers.
#include "e2e_util.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace daec::test {

namespace fs = std::filesystem;

std::string make_scratch_dir(const std::string& name) {
  fs::path dir = fs::path(DAEC_TEST_SCRATCH_DIR) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

CommandResult run_daec(const std::string& arguments) {
  return run_command(shell_quote(daec_binary()) + " " + arguments);
}

std::string strict_flags() {
#ifdef DAEC_SANITIZE_GENERATED
  // The sanitizer build checks the generated code too: every model and simulator the tests run
  // is built with AddressSanitizer and UndefinedBehaviorSanitizer.
  return "-std=c++17 -Wall -Wextra -Werror -pedantic -O1 -fsanitize=address,undefined "
         "-fno-sanitize-recover=undefined -fno-omit-frame-pointer";
#else
  return "-std=c++17 -Wall -Wextra -Werror -pedantic -O1";
#endif
}

std::vector<std::string> generated_code_compilers() {
#ifdef DAEC_SANITIZE_GENERATED
  return {"g++"};
#else
  return {"g++", "clang++"};
#endif
}

CommandResult compile_cpp(const std::vector<std::string>& sources, const std::string& executable,
                          const CompileOptions& options) {
  std::string command = options.compiler + " " + strict_flags();
  if (options.link_sundials) command += " " + std::string(kSimulatorIncludes);
  if (!options.extra_flags.empty()) command += " " + options.extra_flags;
  for (const std::string& source : sources) command += " " + shell_quote(source);
  command += " -o " + shell_quote(executable);
  if (!options.libraries.empty()) command += " " + options.libraries;
  if (options.link_sundials) command += " " + std::string(kSimulatorLibraries);
  CommandResult result = run_command(command);
  result.err = "$ " + command + "\n" + result.err;
  return result;
}

CommandResult run_program(const std::string& executable, const std::string& arguments) {
  return run_command(shell_quote(executable) + (arguments.empty() ? "" : " " + arguments));
}

namespace {

/// The namespace a generated header declares its Model in ("" if none is found).
std::string model_namespace(const std::string& header) {
  const std::string text = read_file(header);
  const std::string keyword = "\nnamespace ";
  const size_t start = text.find(keyword);
  if (start == std::string::npos) return "";
  const size_t name = start + keyword.size();
  return text.substr(name, text.find(' ', name) - name);
}

/// The main of a simulator linked to the compiled runtime (daec/runtime/run.hpp).
std::string library_main(const std::string& header, const std::string& name_space) {
  return "#include \"" + header + "\"\n\n#include <daec/runtime/model_adapter.hpp>\n" +
         "#include <daec/runtime/run.hpp>\n\nint main(int argc, char** argv) {\n" +
         "  return daec::runtime::run(argc, argv, daec::runtime::ModelAdapter<::" + name_space +
         "::Model>{});\n}\n";
}

}  // namespace

Build build_simulator(const std::string& model, const std::string& dir, const std::string& compiler,
                      const std::string& daec_arguments, const std::string& compile_flags,
                      SimulatorBuild how) {
  fs::path model_path(model);
  if (model_path.is_relative()) model_path = fs::path(source_dir()) / model_path;
  std::string stem = model_path.stem().string();
  std::string cpp = dir + "/" + stem + ".cpp", header = dir + "/" + stem + ".h";
  const bool single_file = how == SimulatorBuild::single_file;
  Build build;
  CommandResult generated = run_daec(
      shell_quote(model_path.string()) + " -o " + shell_quote(cpp) +
      (single_file ? " --main " : " --header " + shell_quote(header) + " ") + daec_arguments);
  if (generated.status != 0) {
    build.log = "daec failed (status " + std::to_string(generated.status) + "):\n" + generated.out +
                generated.err;
    return build;
  }
  build.executable = dir + "/" + stem + "-" + compiler;
  std::vector<std::string> sources = {cpp};
  std::string flags = compile_flags, libraries;
  if (!single_file) {
    const std::string main_cpp = dir + "/" + stem + "_main.cpp";
    write_file(main_cpp, library_main(header, model_namespace(header)));
    sources.push_back(main_cpp);
    flags = "-I" + shell_quote(DAEC_RUNTIME_INCLUDE_DIR) + " " + flags;
    libraries = shell_quote(DAEC_RUNTIME_LIBRARY);
  }
  CommandResult compiled =
      compile_cpp(sources, build.executable, {compiler, true, flags, libraries});
  build.ok = compiled.status == 0;
  build.log = compiled.out + compiled.err;
  return build;
}

size_t Csv::column(const std::string& name) const {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  throw std::runtime_error("no CSV column '" + name + "'");
}

// The fields of one CSV line (RFC 4180: a field in quotes may hold commas, "" is a quote).
std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += c;
      ++i;
    } else if (c == '"' && (quoted || fields.back().empty())) {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  if (quoted) throw std::runtime_error("CSV line with an unclosed quote: " + line);
  return fields;
}

static double parse_field(const std::string& field, size_t line_number) {
  // strtod, not std::stod: std::stod throws on a subnormal such as -1e-323 (ERANGE), which the
  // simulator may well print for a node at rest.
  char* end = nullptr;
  const double value = field.empty() ? 0.0 : std::strtod(field.c_str(), &end);
  const size_t used = end == nullptr ? 0 : static_cast<size_t>(end - field.c_str());
  if (field.empty() || used != field.size() || !std::isfinite(value))
    throw std::runtime_error("CSV line " + std::to_string(line_number) +
                             ": not a finite number: '" + field + "'");
  return value;
}

Csv parse_csv(const std::string& text) {
  Csv csv;
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error("CSV without a header");
  csv.header = split_fields(line);
  for (size_t line_number = 2; std::getline(in, line); ++line_number) {
    std::vector<std::string> fields = split_fields(line);
    if (fields.size() != csv.header.size())
      throw std::runtime_error("CSV line " + std::to_string(line_number) + " has " +
                               std::to_string(fields.size()) + " fields, the header " +
                               std::to_string(csv.header.size()));
    std::vector<double> row;
    for (const std::string& field : fields) row.push_back(parse_field(field, line_number));
    csv.rows.push_back(std::move(row));
  }
  return csv;
}

std::vector<EventLine> parse_events(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != "t,condition,value")
    throw std::runtime_error("events file without the header t,condition,value: '" + line + "'");
  std::vector<EventLine> events;
  for (size_t line_number = 2; std::getline(in, line); ++line_number) {
    std::vector<std::string> fields = split_fields(line);
    if (fields.size() != 3 || (fields[2] != "true" && fields[2] != "false"))
      throw std::runtime_error("events line " + std::to_string(line_number) +
                               " is not t,condition,true|false: '" + line + "'");
    events.push_back({parse_field(fields[0], line_number), fields[1], fields[2] == "true"});
  }
  return events;
}

std::optional<SimulatorStats> parse_simulator_stats(const std::string& err) {
  std::istringstream in(err);
  std::string line;
  while (std::getline(in, line)) {
    SimulatorStats stats;
    char method[64] = {}, solver[64] = {}, tail = 0;
    int matched = std::sscanf(line.c_str(),
                              "method %63[^,], linear solver %63[^,], steps %ld, rhs evaluations "
                              "%ld, jacobian evaluations %ld, projections %ld, events %ld, "
                              "factor nonzeros %ld, largest invariant residual %lg relative to "
                              "its terms (%lg absolute)%c",
                              method, solver, &stats.steps, &stats.rhs_evaluations,
                              &stats.jacobian_evaluations, &stats.projections, &stats.events,
                              &stats.factor_nonzeros, &stats.largest_invariant_residual,
                              &stats.largest_absolute_invariant_residual, &tail);
    if (matched != 10) continue;  // (the line ends after "absolute)": tail is not read)
    stats.method = method;
    stats.linear_solver = solver;
    return stats;
  }
  return std::nullopt;
}

namespace {

/// Python.h's directory and the extension suffix of kPython's modules; false: log says why.
bool python_paths(std::string& include, std::string& suffix, std::string& log) {
  const std::string python = shell_quote(kPython);
  CommandResult paths =
      run_command(python + " -c \"import sysconfig; print(sysconfig.get_paths()['include']); " +
                  "print(sysconfig.get_config_var('EXT_SUFFIX'))\"");
  std::istringstream lines(paths.out);
  if (paths.status != 0 || !std::getline(lines, include) || !std::getline(lines, suffix)) {
    log = paths.err;
    return false;
  }
  return true;
}

}  // namespace

Build build_python_module(const std::string& model, const std::string& module,
                          const std::string& dir) {
  Build build;
  std::string include, suffix;
  if (!python_paths(include, suffix, build.log)) return build;
  std::string cpp = dir + "/" + module + ".cpp";
  CommandResult generated =
      run_daec(shell_quote(model) + " --python-module " + module + " -o " + shell_quote(cpp));
  if (generated.status != 0) {
    build.log = generated.err;
    return build;
  }
  build.executable = dir + "/" + module + suffix;
  // Model.simulate runs the simulator's code: the module links what a simulator links. -O0: the
  // checks run for milliseconds, and the compile of pybind11 and the simulator takes a third
  // less than with -O1.
  CommandResult built =
      run_command("g++ -std=c++17 -Wall -Wextra -Werror -O0 -shared -fPIC -fvisibility=hidden -I" +
                  shell_quote(include) + " " + kSimulatorIncludes + " " + shell_quote(cpp) +
                  " -o " + shell_quote(build.executable) + " " + kSimulatorLibraries);
  build.ok = built.status == 0;
  build.log = built.err;
  return build;
}

Build build_python_module_compiled(const std::string& model, const std::string& module,
                                   const std::string& dir) {
  Build build;
#ifndef DAEC_PYTHON_RUNTIME_LIBRARY
  (void)model, (void)module, (void)dir;
  build.log = "this build has no daec_python_runtime (pybind11 not found, or sanitizers)";
  return build;
#else
  std::string include, suffix;
  if (!python_paths(include, suffix, build.log)) return build;
  const std::string cpp = dir + "/" + module + "_model.cpp", header = dir + "/" + module + ".h";
  CommandResult generated = run_daec(shell_quote(model) + " --namespace " + module + " -o " +
                                     shell_quote(cpp) + " --header " + shell_quote(header));
  if (generated.status != 0) {
    build.log = generated.err;
    return build;
  }
  // The entry point daec_add_python_module writes (cmake/DaecFunctions.cmake).
  const std::string main = dir + "/" + module + "_module.cpp";
  write_file(main, "#include \"" + header + "\"\n\n#include <daec/adapters/python_module.hpp>\n\n" +
                       "DAEC_PYTHON_MODULE(" + module + ", ::" + module + "::Model)\n");
  build.executable = dir + "/" + module + suffix;
  CommandResult built = run_command(
      "g++ -std=c++17 -Wall -Wextra -Werror -O0 -shared -fPIC -fvisibility=hidden "
      "-fvisibility-inlines-hidden -I" +
      shell_quote(include) + " -I" + shell_quote(DAEC_RUNTIME_INCLUDE_DIR) + " " +
      kSimulatorIncludes + " " + shell_quote(cpp) + " " + shell_quote(main) + " -o " +
      shell_quote(build.executable) + " " + shell_quote(DAEC_PYTHON_RUNTIME_LIBRARY) + " " +
      kSimulatorLibraries);
  build.ok = built.status == 0;
  build.log = built.err;
  return build;
#endif
}

}  // namespace daec::test
