// End-to-end tests of the generated model code (docs/generated-code.md): every bundled model is
// generated, compiled with g++ and clang++ under -Wall -Wextra -Werror -pedantic, and checked
// numerically by tests/data/check_generated_model.cpp (rhs against residual, every Jacobian against
// central finite differences, consistent initialization and projection onto the invariants).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
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

// Generates `model` into `dir` (with extra daec arguments; `split` part files for --split) and
// builds the numerical checker against it with `compiler`; returns the checker, or "" after
// recording the failure.
std::string build_checker(const std::string& model, const std::string& dir,
                          const std::string& name_space, const std::string& compiler,
                          const std::string& daec_arguments = "", int split = 0,
                          const std::string& optimization = "") {
  std::string cpp = dir + "/model.cpp";
  CommandResult generated =
      run_daec(shell_quote(model) + " -o " + shell_quote(cpp) + " " + daec_arguments);
  EXPECT_EQ(0, generated.status) << generated.err;
  if (generated.status != 0) return "";
  std::string executable = dir + "/check-" + compiler;
  CompileOptions options;
  options.compiler = compiler;
  options.extra_flags = "-DMODEL_FILE='\"" + cpp + "\"' -DMODEL_NS=" + name_space;
  if (!optimization.empty()) options.extra_flags += " " + optimization;
  std::vector<std::string> sources{source_dir() + "/tests/data/check_generated_model.cpp"};
  for (int k = 1; k <= split; ++k) sources.push_back(dir + "/model_" + std::to_string(k) + ".cpp");
  CommandResult built = compile_cpp(sources, executable, options);
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

// At -O2: g++ finds more (-Warray-bounds on the tables of an empty block or projection) when it
// inlines and propagates constants.
// -O2 finds more warnings; the sanitizer build (CI's second pass, whose point is the memory
// checks) compiles without it, which halves its time: the Release pass has checked -O2.
#if defined(__SANITIZE_ADDRESS__)
constexpr const char* kWarningOptimization = "";
#else
constexpr const char* kWarningOptimization = "-O2";
#endif

TEST_P(BundledModel, CompilesWarningFreeAndChecksOut) {
  const std::string stem = GetParam();
  std::string dir = make_scratch_dir("generated_" + stem);
  for (const std::string& compiler : generated_code_compilers()) {
    std::string checker = build_checker(source_dir() + "/models/" + stem + ".dae", dir, stem,
                                        compiler, "", 0, kWarningOptimization);
    expect_checks_pass(checker, start_time(stem));
  }
}

INSTANTIATE_TEST_SUITE_P(GeneratedCode, BundledModel, testing::ValuesIn(bundled_models()),
                         [](const testing::TestParamInfo<std::string>& model) {
                           return model.param;
                         });

// Models whose tables are partly empty (no off-diagonal entry in the Gram factor, no state that
// reaches Z, a single unknown): g++ -O2 warned about reading them (-Warray-bounds) before the
// loops over them were discarded at compile time. The model's translation unit alone, at -O2.
TEST(GeneratedCode, WarningFreeAtO2WithEmptyTables) {
  std::string dir = make_scratch_dir("generated_o2");
  write_file(dir + "/reissig.dae",
             "model reissig;\nvariable x1, x2, x3, x4, x5;\nequation\n"
             "  x2' + x3' + x1 = cos(t);\n  x2' + x3' + x2 = cos(t);\n"
             "  x4' + x5' + x3 = cos(t);\n  x4' + x5' + x4 = cos(t);\n  x5 = cos(t);\nend\n");
  const std::vector<std::pair<std::string, std::string>> models = {
      {dir + "/reissig.dae", ""},
      {source_dir() + "/models/index_chain.dae", "-D K=6"},
      {source_dir() + "/tests/data/opamp_cascade.dae", ""},
      {source_dir() + "/tests/data/rhombus_linkage.dae", ""}};
  for (const auto& [model, arguments] : models) {
    std::string cpp = dir + "/" + fs::path(model).stem().string() + ".cpp";
    CommandResult generated =
        run_daec(shell_quote(model) + " -o " + shell_quote(cpp) + " " + arguments);
    ASSERT_EQ(0, generated.status) << generated.err;
    for (const std::string& compiler : generated_code_compilers()) {
      CommandResult built = compile_cpp({cpp}, dir + "/model.o", {compiler, false, "-O2 -c", ""});
      EXPECT_EQ(0, built.status) << model << "\n" << built.err;
    }
  }
}

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
  for (const std::string& compiler : generated_code_compilers()) {
    expect_checks_pass(
        build_checker(source_dir() + "/tests/data/conditions.dae", dir, "conditions", compiler));
  }
  std::string code = read_file(dir + "/model.cpp");
  EXPECT_NE(std::string::npos, code.find("\"P[1,2]\""));
  EXPECT_NE(std::string::npos, code.find(" ? "));
}

// Derivatives in the parameters through two levels of bindings, the solve of A Z = b and the
// invariants (tests/data/parameter_chain.dae): every column against central differences in p,
// also after set_parameter has cut a binding (check_generated_model.cpp).
TEST(GeneratedCode, ParameterJacobiansThroughBindings) {
  std::string dir = make_scratch_dir("generated_parameter_chain");
  expect_checks_pass(build_checker(source_dir() + "/tests/data/parameter_chain.dae", dir,
                                   "parameter_chain", "g++"));
  // The five direct bindings, by the parameter they read: L0 by L's, L by m's and c's, g by m's,
  // m by c's.
  EXPECT_NE(
      std::string::npos,
      read_file(dir + "/model.cpp").find("constexpr int kFollowerEntry[5] = {0, 1, 3, 2, 4};"));
}

TEST(GeneratedCode, PartsAndPartFiles) {
  // The machinery of large models on small ones: --part-cost 8 cuts every function into parts
  // (temporaries that later parts read go through the spill array), --split 3 puts the parts in
  // three files compiled beside the model. Same checks, both compilers.
  for (const char* stem : {"coupled_pendulums", "example_12_1"}) {
    std::string dir = make_scratch_dir(std::string("generated_parts_") + stem);
    for (const std::string& compiler : generated_code_compilers()) {
      std::string checker = build_checker(source_dir() + "/models/" + stem + ".dae", dir, stem,
                                          compiler, "--split 3 --part-cost 4", 3);
      expect_checks_pass(checker, start_time(stem));
    }
    std::string code = read_file(dir + "/model.cpp");
    EXPECT_NE(std::string::npos, code.find("daec_parts::residual_part2(")) << stem;
    EXPECT_NE(std::string::npos, code.find("spill[")) << stem;
    EXPECT_NE(std::string::npos, read_file(dir + "/model_3.cpp").find("[[gnu::noinline]] void "))
        << stem;
  }
}

TEST(GeneratedCode, PendulumChainsBySparseJacobians) {
  // 20 links: every Jacobian, the ODE form's sparse too. 120 links: d(xdot)/dx couples every
  // link (8 N^2 = 115,200 entries), so only its dense form is there; the residual's iteration
  // matrix is filled by loops.
  std::string dir = make_scratch_dir("generated_pendulum_chains");
  for (int n : {20, 120}) {
    expect_checks_pass(build_checker(source_dir() + "/models/pendulum_chain.dae", dir,
                                     "pendulum_chain", "g++", "-D N=" + std::to_string(n)));
    std::string code = read_file(dir + "/model.cpp");
    EXPECT_NE(std::string::npos, code.find("has_dense_jacobians = true")) << n;
    EXPECT_NE(std::string::npos, code.find(n == 20 ? "has_sparse_rhs_jacobian = true"
                                                   : "has_sparse_rhs_jacobian = false"))
        << n;
    EXPECT_EQ(n == 20, code.find("int rhs_jacobian_values(") != std::string::npos) << n;
    // 120 links, 600 variables, are numbered by structure, and the 3,828 entries of the
    // residual's iteration matrix repeat from link to link: loops (codegen/rolled_loops.h).
    EXPECT_EQ(n == 120, code.find("*i] = ") != std::string::npos) << n;
  }
}

TEST(GeneratedCode, ReactionDiffusionWithoutDenseJacobians) {
  // 210 points: 1,050 unknowns, so the dense Jacobians (more than 10^6 entries) are left out and
  // the sparse ones, d(xdot)/dx among them (3 x 3 blocks: it stays sparse), carry the checks.
  std::string dir = make_scratch_dir("generated_reaction_diffusion");
  expect_checks_pass(build_checker(source_dir() + "/models/reaction_diffusion.dae", dir,
                                   "reaction_diffusion", "g++", "-D N=210"));
  std::string code = read_file(dir + "/model.cpp");
  EXPECT_NE(std::string::npos, code.find("has_dense_jacobians = false"));
  EXPECT_NE(std::string::npos, code.find("has_sparse_rhs_jacobian = true"));
  EXPECT_EQ(std::string::npos, code.find("int rhs_jacobian("));
  EXPECT_EQ(std::string::npos, code.find("void invariants_jacobian("));
}

TEST(GeneratedCode, KeywordsAndHostileDescriptions) {
  // Names that are C++ keywords, descriptions with */, quotes, backslashes: nothing leaks.
  std::string dir = make_scratch_dir("generated_hostile");
  std::string model = source_dir() + "/tests/data/hostile_names.dae";
  for (const std::string& compiler : generated_code_compilers()) {
    expect_checks_pass(build_checker(model, dir, "class_model", compiler));
  }
  std::string code = read_file(dir + "/model.cpp");
  EXPECT_NE(std::string::npos, code.find("namespace class_model {"));
  EXPECT_NE(std::string::npos,
            code.find("Model::state_names[] = {\"namespace\", \"return\", \"u\", \"v\"};"));
  EXPECT_NE(std::string::npos, code.find("\"*/ int main() { return 1; } /*\""));
}

// A parameter named alpha was emitted as the argument alpha of residual_jacobian_values (symbols
// of the same name shared a canonical form), so the Fekete model's iteration matrix was wrong.
TEST(GeneratedCode, ModelNamesThatTheGeneratedFunctionsUse) {
  std::string dir = make_scratch_dir("generated_internal_names");
  expect_checks_pass(
      build_checker(source_dir() + "/tests/data/internal_names.dae", dir, "internal_names", "g++"));
  std::string code = read_file(dir + "/model.cpp");
  EXPECT_EQ(std::string::npos, code.find("= -alpha;")) << "the parameter alpha is p[0]";
}

TEST(GeneratedCode, RowExchangesWhenTheDiagonalVanishes) {
  // The pendulum hanging straight down: x = 0 makes the first pivot candidate zero, so the
  // solve must exchange rows.
  std::string dir = make_scratch_dir("generated_pivoting");
  std::string model = read_file(source_dir() + "/models/pendulum.dae");
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"x(start = 1, unit = \"m\"), y(start = 0, unit",
                                            "x(start = 0, unit = \"m\"), y(start = -1, unit"},
        {"u(unit = \"m/s\"), v(start = 1, unit", "u(start = 1, unit = \"m/s\"), v(unit"}}) {
    size_t at = model.find(from);
    ASSERT_NE(std::string::npos, at) << from;
    model.replace(at, from.size(), to);
  }
  write_file(dir + "/hanging.dae", model);
  for (const std::string& compiler : generated_code_compilers()) {
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
             "  double x[4] = {0, 0, 0, 0}, xdot[4] = {7, 7, 7, 7}, J[16], values[4];\n"
             "  int status = model.rhs(0.0, x, xdot, nullptr);\n"
             "  int jacobian = model.rhs_jacobian(0.0, x, J);\n"
             "  int in_p = model.rhs_parameter_jacobian(0.0, x, J);\n"
             "  int by_columns = model.rhs_parameter_jacobian_values(0.0, x, values);\n"
             "  std::printf(\"%d %d %d %d\\n\", status, jacobian, in_p, by_columns);\n"
             "  return 0;\n"
             "}\n");
  CommandResult built = compile_cpp({dir + "/main.cpp"}, dir + "/singular");
  ASSERT_EQ(0, built.status) << built.err;
  EXPECT_EQ("1 1 1 1\n", run_program(dir + "/singular").out);
}

// A relation that compares an algebraic unknown: its mode is settled with Z (rhs with the mode
// live, set_modes from the mode held), its switching function is measured at the Z of the held
// mode, and modes that cycle (z = -1 where z > 0, else 1) are reported, not followed.
TEST(GeneratedCode, ModesOfRelationsOnAlgebraicUnknownsAreSettled) {
  std::string dir = make_scratch_dir("generated_settled_modes");
  write_file(dir + "/settle.dae",
             "model settle;\nparameter c = 2;\nvariable x(start = 0), z;\nequation\n"
             "  x' = z;\n  law: z = if z > 0 then c else 1;\nend settle;\n");
  ASSERT_EQ(0,
            run_daec(shell_quote(dir + "/settle.dae") + " -o " + shell_quote(dir + "/settle.cpp"))
                .status);
  write_file(dir + "/main.cpp",
             "#include \"settle.cpp\"\n"
             "#include <cstdio>\n"
             "#include <daec/model_error.hpp>\n"
             "int main() {\n"
             "  settle::Model m;\n"
             "  double x[1] = {0}, xdot[1], z[1], g[1];\n"
             "  int index = -1;\n"
             "  int live = m.rhs(0.0, x, xdot, z);\n"
             "  std::printf(\"live %d z %g\\n\", live, z[0]);\n"
             "  m.modes()[0] = 0.0;\n"
             "  int held = m.rhs(0.0, x, xdot, z);\n"
             "  m.conditions(0.0, x, g);\n"
             "  std::printf(\"held %d z %g g %g\\n\", held, z[0], g[0]);\n"
             "  int set = m.set_modes(0.0, x);\n"
             "  std::printf(\"set %d mode %g\\n\", set, m.modes()[0]);\n"
             "  m.set_parameter(\"c\", -1.0);\n"
             "  m.modes()[0] = -1.0;\n"
             "  int cycle = m.rhs(0.0, x, xdot, z);\n"
             "  int why = m.rhs_failure(0.0, x, &index);\n"
             "  std::printf(\"cycle %d why %d index %d\\n\", cycle, why, index);\n"
             "  std::printf(\"%s\\n\", daec::text::rhs_failure(m, 0.0, x).c_str());\n"
             "  int unsettled = m.set_modes(0.0, x);\n"
             "  std::printf(\"unsettled %d mode %g\\n\", unsettled, m.modes()[0]);\n"
             "  return 0;\n"
             "}\n");
  CommandResult built =
      compile_cpp({dir + "/main.cpp"}, dir + "/settle",
                  {"g++", false, "-I" + shell_quote(source_dir() + "/include"), ""});
  ASSERT_EQ(0, built.status) << built.err;
  EXPECT_EQ(
      "live 0 z 2\n"             // true first: z = c = 2 > 0 holds
      "held 0 z 1 g 1\n"         // held false: z = 1, and g = z - 0 at that z
      "set 0 mode 1\n"           // from false: z = 1 > 0, so true: z = 2 > 0 holds
      "cycle 3 why 5 index 0\n"  // c = -1: true gives -1, false gives 1
      "the modes of the conditions do not settle: the condition 'law: z > 0' changes in every "
      "round of solving for the algebraic unknowns with them (no set of modes holds with the "
      "unknowns it gives)\n"
      "unsettled 3 mode 0\n",  // the first round's value: z = -1 is not > 0
      run_program(dir + "/settle").out);
  std::string code = read_file(dir + "/settle.cpp");
  EXPECT_NE(std::string::npos, code.find("int settle_modes(")) << code;
}

TEST(GeneratedCode, ProjectionSkipsDependentConstraints) {
  // The pendulum at the pivot (x = y = 0): the row of rod in H = dh/dX vanishes, the Gram matrix
  // H H^T is singular, and the sparse Cholesky's pivot test gives rod's multiplier 0 and moves
  // only along rod', which holds already. rod (x^2 + y^2 = 1) cannot be met from there: 1, and
  // the state as it was, finite. From (1.2, 1.6) the steps converge onto both constraints.
  std::string dir = make_scratch_dir("generated_dependent_constraints");
  ASSERT_EQ(0, run_daec(shell_quote(source_dir() + "/models/pendulum.dae") + " -o " +
                        shell_quote(dir + "/pendulum.cpp"))
                   .status);
  write_file(
      dir + "/main.cpp",
      "#include \"pendulum.cpp\"\n"
      "#include <cstdio>\n"
      "int main() {\n"
      "  pendulum::Model model;\n"
      "  double x[4] = {0, 0, 1, 0.5}, h[2];\n"
      "  int stuck = model.project(0.0, x);\n"
      "  std::printf(\"%d %g %g %g %g\\n\", stuck, x[0], x[1], x[2], x[3]);\n"
      "  double y[4] = {1.2, 1.6, 1, 0.5};\n"
      "  int status = model.project(0.0, y);\n"
      "  model.invariants(0.0, y, h);\n"
      "  std::printf(\"%d %d\\n\", status, std::fabs(h[0]) < 1e-12 && std::fabs(h[1]) < 1e-12);\n"
      "  return 0;\n"
      "}\n");
  CommandResult built = compile_cpp({dir + "/main.cpp"}, dir + "/project");
  ASSERT_EQ(0, built.status) << built.err;
  EXPECT_EQ("1 0 0 1 0.5\n0 1\n", run_program(dir + "/project").out);
}

TEST(GeneratedCode, ProjectionTakesAVelocityConstraintOutOfTheVelocities) {
  // The pendulum's chains x' = u, y' = v make x, y the lower order: projection_weight 1e-3 for
  // them, 1 for u, v. On rod (x = 0.6, y = -0.8) with velocities off rod' (x u + y v = -0.2),
  // the correction comes out of u and v; x and y move by about 1e-6 of it (2.2e-7). In unit
  // weights the positions took more of it than the velocities: x went to 0.673, u to 1.04.
  std::string dir = make_scratch_dir("generated_projection_orders");
  ASSERT_EQ(0, run_daec(shell_quote(source_dir() + "/models/pendulum.dae") + " -o " +
                        shell_quote(dir + "/pendulum.cpp"))
                   .status);
  write_file(
      dir + "/main.cpp",
      "#include \"pendulum.cpp\"\n"
      "#include <cstdio>\n"
      "int main() {\n"
      "  pendulum::Model model;\n"
      "  for (double w : model.projection_weight) std::printf(\"%g \", w);\n"
      "  double x[4] = {0.6, -0.8, 1, 1}, h[2];\n"
      "  int status = model.project(0.0, x);\n"
      "  model.invariants(0.0, x, h);\n"
      "  std::printf(\"\\n%d %d %d %.6f %.6f\\n\", status,\n"
      "              std::fabs(h[0]) < 1e-12 && std::fabs(h[1]) < 1e-12,\n"
      "              std::fabs(x[0] - 0.6) < 1e-6 && std::fabs(x[1] + 0.8) < 1e-6, x[2], x[3]);\n"
      "  return 0;\n"
      "}\n");
  CommandResult built = compile_cpp({dir + "/main.cpp"}, dir + "/project");
  ASSERT_EQ(0, built.status) << built.err;
  // u, v: the least change in u and v alone onto 0.6 u - 0.8 v = 0, (1, 1) + 0.2 (0.6, -0.8).
  EXPECT_EQ("0.001 0.001 1 1 \n0 1 1 1.120000 0.840000\n", run_program(dir + "/project").out);
}

TEST(GeneratedCode, ProjectionWeighsAFirstOrderStateAsAPosition) {
  // w' = 1 - w (a chain of one) in the position constraint beside x, y: it weighs as they do,
  // not as the velocities u, v; in unit weight it took rod's residual from the positions.
  std::string dir = make_scratch_dir("generated_projection_first_order");
  write_file(dir + "/m.dae",
             "model mixed_weights;\n"
             "variable x(start = 1), y(start = 0), u, v, lambda, w(start = 0, fixed = true);\n"
             "equation\n"
             "  x' = u;\n  y' = v;\n  u' = -lambda*x;\n  v' = -lambda*y - 9.81;\n"
             "  w' = 1 - w;\n"
             "  rod: x^2 + y^2 = 1 + w^2;\n"
             "end\n");
  ASSERT_EQ(0, run_daec(shell_quote(dir + "/m.dae") + " -o " + shell_quote(dir + "/m.cpp")).status);
  std::string code = read_file(dir + "/m.cpp");
  EXPECT_NE(code.find("state_names[] = {\"x\", \"y\", \"u\", \"v\", \"w\"};"), std::string::npos);
  EXPECT_NE(code.find("projection_weight[num_states > 0 ? num_states : 1] =\n"
                      "      {0.001, 0.001, 1.0, 1.0, 0.001};"),
            std::string::npos)
      << code.substr(0, 6000);
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
  for (const std::string& compiler : generated_code_compilers()) {
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

// Builds the ```cpp example of docs/generated-code.md that holds `marker` against the pendulum
// (pendulum.cpp and pendulum.h, as the examples say) and runs it; the examples are compiled from
// the document itself, so that the two cannot drift apart.
CommandResult run_documented_example(const std::string& marker, const std::string& name,
                                     const CompileOptions& options = {}) {
  std::string doc = read_file(source_dir() + "/docs/generated-code.md");
  size_t at = doc.find(marker);
  // The block's opening line: ```cpp, or ```cpp file=main.cpp where the docs' own test
  // (tests/docs/doc_commands.py) writes it to a file.
  size_t begin = doc.rfind("```cpp", at);
  if (at == std::string::npos || begin == std::string::npos) return {1, "", "no example " + marker};
  begin = doc.find('\n', begin) + 1;
  std::string dir = make_scratch_dir(name);
  write_file(dir + "/main.cpp", doc.substr(begin, doc.find("```", begin) - begin));
  CommandResult generated = run_daec(shell_quote(source_dir() + "/models/pendulum.dae") + " -o " +
                                     shell_quote(dir + "/pendulum.cpp") + " --header " +
                                     shell_quote(dir + "/pendulum.h"));
  if (generated.status != 0) return generated;
  CommandResult built =
      compile_cpp({dir + "/main.cpp", dir + "/pendulum.cpp"}, dir + "/example", options);
  return built.status != 0 ? built : run_program(dir + "/example");
}

TEST(GeneratedCode, DocumentedIntegratorExampleWorks) {
  // The pendulum driven by a Runge-Kutta loop of its own.
  CommandResult run = run_documented_example("classical Runge", "generated_documented_example");
  EXPECT_EQ(0, run.status) << run.err;
  EXPECT_EQ(0u, run.out.find("x(1) = 0.8673486406")) << run.out;  // published: ...604551746
}

TEST(GeneratedCode, DocumentedIdaExampleWorks) {
  // IDA's SUNSparseMatrix filled from residual_jacobian_values and factored with KLU.
  CompileOptions options;
  options.link_sundials = true;  // IDA, the sparse matrix, KLU: among the simulator's libraries
  CommandResult run =
      run_documented_example("#include <ida/ida.h>", "generated_documented_ida", options);
  EXPECT_EQ(0, run.status) << run.err;
  EXPECT_EQ("x(1) = 0.8673486406\n", run.out);  // published: 0.867348640604551746
}

}  // namespace
}  // namespace daec::test
