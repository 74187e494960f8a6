// End-to-end tests of the generated model code (spec §4): every bundled model is generated,
// compiled with g++ and clang++ under -Wall -Wextra -Werror -pedantic, and checked numerically by
// tests/data/check_generated_model.cpp (rhs against residual, every Jacobian against central
// finite differences, consistent initialization and projection onto the invariants).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "command_fixture.h"
#include "e2e_util.h"

namespace daec::test {
namespace {

namespace fs = std::filesystem;

// The time at which a model's start values are meant to be consistent (the models say so).
std::string start_time(const std::string& stem) {
  if (stem == "example_12_1") return "2";
  if (stem == "circular_track") return "1";
  return "0";
}

// The bundled models' stems (pendulum, ...), sorted.
std::vector<std::string> bundled_models() {
  std::vector<std::string> stems;
  for (const std::string& file : bundled_model_files()) stems.push_back(fs::path(file).stem());
  return stems;
}

// Generates `model` into `dir` (with extra daec arguments) and builds the numerical checker
// against it with `compiler`; returns the checker, or "" after recording the failure.
std::string build_checker(const std::string& model, const std::string& dir,
                          const std::string& name_space, const std::string& compiler,
                          const std::string& daec_arguments = "") {
  std::string cpp = dir + "/model.cpp";
  CommandResult generated =
      run_daec(shell_quote(model) + " -o " + shell_quote(cpp) + " " + daec_arguments);
  EXPECT_EQ(0, generated.status) << generated.err;
  if (generated.status != 0) return "";
  std::string executable = dir + "/check-" + compiler;
  CompileOptions options;
  options.compiler = compiler;
  options.extra_flags = "-DMODEL_FILE='\"" + cpp + "\"' -DMODEL_NS=" + name_space;
  CommandResult built =
      compile_cpp({source_dir() + "/tests/data/check_generated_model.cpp"}, executable, options);
  EXPECT_EQ(0, built.status) << built.err << built.out;
  return built.status == 0 ? executable : "";
}

void expect_checks_pass(const std::string& executable, const std::string& t0 = "0") {
  if (executable.empty()) return;
  CommandResult run = run_program(executable, t0);
  EXPECT_EQ(0, run.status) << run.out << run.err;
  EXPECT_NE(std::string::npos, run.out.find(" checks, 0 failures")) << run.out;
}

class BundledModel : public testing::TestWithParam<std::string> {};

TEST_P(BundledModel, CompilesWarningFreeAndChecksOut) {
  const std::string stem = GetParam();
  std::string dir = make_scratch_dir("generated_" + stem);
  for (const char* compiler : {"g++", "clang++"}) {
    std::string checker =
        build_checker(source_dir() + "/models/" + stem + ".dae", dir, stem, compiler);
    expect_checks_pass(checker, start_time(stem));
  }
}

INSTANTIATE_TEST_SUITE_P(GeneratedCode, BundledModel, testing::ValuesIn(bundled_models()),
                         [](const testing::TestParamInfo<std::string>& model) {
                           return model.param;
                         });

TEST(GeneratedCode, EveryBundledModelIsCovered) {
  EXPECT_GE(bundled_models().size(), 11u);  // the glob found the library
}

TEST(GeneratedCode, SubstitutedDerivativesToo) {
  std::string dir = make_scratch_dir("generated_never");
  expect_checks_pass(build_checker(source_dir() + "/models/coupled_pendulums.dae", dir,
                                   "coupled_pendulums", "g++", "--dummies=never"));
}

// models/index_chain.dae at the sizes -D K=... gives it: one model file, six systems.
TEST(GeneratedCode, IndexKChains) {
  std::string dir = make_scratch_dir("generated_chains");
  for (int k = 1; k <= 6; ++k) {
    SCOPED_TRACE("K = " + std::to_string(k));
    expect_checks_pass(build_checker(source_dir() + "/models/index_chain.dae", dir, "index_chain",
                                     "g++", "-D K=" + std::to_string(k)));
  }
}

// Conditional expressions, relations, and/or/not, min/max and arrays (tests/data/conditions.dae):
// the C++ compiles warning-free and every Jacobian matches finite differences.
TEST(GeneratedCode, ConditionsAndArrays) {
  std::string dir = make_scratch_dir("generated_conditions");
  for (const char* compiler : {"g++", "clang++"}) {
    expect_checks_pass(
        build_checker(source_dir() + "/tests/data/conditions.dae", dir, "conditions", compiler));
  }
  std::string code = read_file(dir + "/model.cpp");
  EXPECT_NE(std::string::npos, code.find("\"P[1,2]\""));
  EXPECT_NE(std::string::npos, code.find(" ? "));
}

TEST(GeneratedCode, KeywordsAndHostileDescriptions) {
  // Names that are C++ keywords, descriptions with */, quotes, backslashes: nothing leaks.
  std::string dir = make_scratch_dir("generated_hostile");
  std::string model = source_dir() + "/tests/data/hostile_names.dae";
  for (const char* compiler : {"g++", "clang++"}) {
    expect_checks_pass(build_checker(model, dir, "class_model", compiler));
  }
  std::string code = read_file(dir + "/model.cpp");
  EXPECT_NE(std::string::npos, code.find("namespace class_model {"));
  EXPECT_NE(std::string::npos,
            code.find("Model::state_names[] = {\"namespace\", \"return\", \"u\", \"v\"};"));
  EXPECT_NE(std::string::npos, code.find("\"*/ int main() { return 1; } /*\""));
}

TEST(GeneratedCode, RowExchangesWhenTheDiagonalVanishes) {
  // The pendulum hanging straight down: x = 0 makes the first pivot candidate zero, so the
  // solve must exchange rows.
  std::string dir = make_scratch_dir("generated_pivoting");
  std::string model = read_file(source_dir() + "/models/pendulum.dae");
  size_t at = model.find("variable x(start = 1), y(start = 0), u, v(start = 1);");
  ASSERT_NE(std::string::npos, at);
  model.replace(at, 54, "variable x(start = 0), y(start = -1), u(start = 1), v;");
  write_file(dir + "/hanging.dae", model);
  for (const char* compiler : {"g++", "clang++"}) {
    expect_checks_pass(build_checker(dir + "/hanging.dae", dir, "pendulum", compiler));
  }
  EXPECT_NE(std::string::npos, read_file(dir + "/model.cpp").find("switch (q)"));
}

TEST(GeneratedCode, SingularMatrixIsReportedNotNaN) {
  std::string dir = make_scratch_dir("generated_singular");
  ASSERT_EQ(0, run_daec(shell_quote(source_dir() + "/models/pendulum.dae") + " -o " +
                        shell_quote(dir + "/pendulum.cpp"))
                   .status);
  write_file(dir + "/main.cpp",
             "#include \"pendulum.cpp\"\n"
             "#include <cstdio>\n"
             "int main() {\n"
             "  pendulum::Model model;\n"
             "  double x[4] = {0, 0, 0, 0}, xdot[4] = {7, 7, 7, 7}, J[16];\n"
             "  int status = model.rhs(0.0, x, xdot, nullptr);\n"
             "  int jacobian = model.rhs_jacobian(0.0, x, J);\n"
             "  std::printf(\"%d %d\\n\", status, jacobian);\n"
             "  return 0;\n"
             "}\n");
  CommandResult built = compile_cpp({dir + "/main.cpp"}, dir + "/singular");
  ASSERT_EQ(0, built.status) << built.err;
  EXPECT_EQ("1 1\n", run_program(dir + "/singular").out);
}

TEST(GeneratedCode, HeaderAndSourceLinkAsALibrary) {
  // Two models in one program, each in its own namespace, used through their headers.
  std::string dir = make_scratch_dir("generated_library");
  for (const char* stem : {"pendulum", "rlc_circuit"}) {
    std::string base = dir + "/" + stem;
    CommandResult r =
        run_daec(shell_quote(source_dir() + "/models/" + stem + ".dae") + " -o " +
                 shell_quote(base + ".cpp") + " --header " + shell_quote(base + ".h"));
    ASSERT_EQ(0, r.status) << r.err;
  }
  write_file(dir + "/main.cpp",
             "#include \"pendulum.h\"\n"
             "#include \"rlc_circuit.h\"\n"
             "#include <cstdio>\n"
             "int main() {\n"
             "  pendulum::Model a;\n"
             "  rlc_circuit::Model b;\n"
             "  double x[pendulum::Model::num_states], xdot[pendulum::Model::num_states];\n"
             "  a.initial_state(x);\n"
             "  int status = a.rhs(0.0, x, xdot, nullptr);\n"
             "  std::printf(\"%d %s %d\\n\", status, b.model_name, b.num_states);\n"
             "  return 0;\n"
             "}\n");
  for (const char* compiler : {"g++", "clang++"}) {
    CompileOptions options;
    options.compiler = compiler;
    options.extra_flags = "-I" + shell_quote(dir);
    CommandResult built =
        compile_cpp({dir + "/main.cpp", dir + "/pendulum.cpp", dir + "/rlc_circuit.cpp"},
                    dir + "/library-" + compiler, options);
    ASSERT_EQ(0, built.status) << built.err;
    CommandResult run = run_program(dir + "/library-" + compiler);
    EXPECT_EQ(0, run.status);
    EXPECT_EQ(0u, run.out.find("0 rlc_circuit ")) << run.out;
  }
}

TEST(GeneratedCode, SameInputSameBytes) {
  std::string dir = make_scratch_dir("generated_determinism");
  std::string models = source_dir() + "/models/";
  ASSERT_EQ(0, run_daec(shell_quote(models + "coupled_pendulums.dae") + " -o " +
                        shell_quote(dir + "/first.cpp"))
                   .status);
  // Again, in a process that has built another model's expressions first: GiNaC's term order
  // differs then, the output must not.
  CommandResult second =
      run_command("cd " + shell_quote(dir) + " && " + shell_quote(daec_binary()) + " " +
                  shell_quote(models + "double_pendulum.dae") + " " +
                  shell_quote(models + "coupled_pendulums.dae"));
  ASSERT_EQ(0, second.status) << second.err;
  std::string first = read_file(dir + "/first.cpp");
  EXPECT_FALSE(first.empty());
  EXPECT_EQ(first, read_file(dir + "/coupled_pendulums.cpp"));
}

TEST(GeneratedCode, DocumentedIntegratorExampleWorks) {
  // docs/generated-code.md drives the pendulum with its own Runge-Kutta loop; the example is
  // compiled from the document itself, so the two cannot drift apart.
  std::string doc = read_file(source_dir() + "/docs/generated-code.md");
  size_t begin = doc.find("```cpp\n#include \"pendulum.h\"");
  ASSERT_NE(std::string::npos, begin);
  begin += 7;
  size_t end = doc.find("```", begin);
  std::string dir = make_scratch_dir("generated_documented_example");
  write_file(dir + "/main.cpp", doc.substr(begin, end - begin));
  ASSERT_EQ(0, run_daec(shell_quote(source_dir() + "/models/pendulum.dae") + " -o " +
                        shell_quote(dir + "/pendulum.cpp") + " --header " +
                        shell_quote(dir + "/pendulum.h"))
                   .status);
  CommandResult built = compile_cpp({dir + "/main.cpp", dir + "/pendulum.cpp"}, dir + "/example");
  ASSERT_EQ(0, built.status) << built.err;
  CommandResult run = run_program(dir + "/example");
  EXPECT_EQ(0, run.status);
  EXPECT_EQ(0u, run.out.find("x(1) = 0.8673486406")) << run.out;  // published: ...604551746
}

}  // namespace
}  // namespace daec::test
