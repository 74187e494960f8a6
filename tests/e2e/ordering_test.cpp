// The cost of a simulation does not depend on the order in which the model declares its
// variables and equations: the 128-link pendulum chain as the bundled array model and with every
// declaration and equation shuffled (a fixed seed) is numbered the same way (a model of 256
// variables or more is numbered by its structure) and runs the same steps with LU factors of the
// same size, by the default method (radau5-dae with KLU) and by IDA (SUNDIALS' KLU). The counted
// work, never wall time: the statistics line's factor nonzeros. The fast slice of
// bench/ordering/run.sh; docs/integrators.md, "Sparse factorization and declaration order".
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace daec::test {
namespace {

constexpr int kLinks = 128;

// Fisher-Yates with std::mt19937, whose sequence the standard fixes (std::shuffle's use of it
// is the library's own), so that the order is the same everywhere.
template <typename T>
void shuffle(std::vector<T>& items, std::mt19937& random) {
  for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[random() % i]);
}

// models/pendulum_chain.dae at N = links written with scalars, term for term, one declaration
// per variable, declarations and equations shuffled.
std::string shuffled_chain(int links) {
  std::vector<std::string> declarations, equations;
  for (int i = 1; i <= links; ++i) {
    const std::string k = std::to_string(i), next = std::to_string(i + 1);
    const std::string px = i == 1 ? "0" : "x" + std::to_string(i - 1);
    const std::string py = i == 1 ? "0" : "y" + std::to_string(i - 1);
    declarations.push_back("variable x" + k + "(start = " + k + ");");
    for (const char* name : {"y", "u", "v", "l"})
      declarations.push_back(std::string("variable ") + name + k + "(start = 0);");
    const std::string nx = i < links ? " + l" + next + "*(x" + next + " - x" + k + ")" : "";
    const std::string ny = i < links ? " + l" + next + "*(y" + next + " - y" + k + ")" : "";
    equations.push_back("x" + k + "' = u" + k + ";");
    equations.push_back("y" + k + "' = v" + k + ";");
    equations.push_back("u" + k + "' = (-l" + k + "*(x" + k + " - " + px + ")" + nx + ")/m;");
    equations.push_back("v" + k + "' = (-l" + k + "*(y" + k + " - " + py + ")" + ny + ")/m - g;");
    equations.push_back("rod" + k + ": (x" + k + " - " + px + ")^2 + (y" + k + " - " + py +
                        ")^2 = L^2;");
  }
  std::mt19937 random(20261204);
  shuffle(declarations, random);
  shuffle(equations, random);
  std::string text = "model shuffled_chain;\nparameter m = 1, L = 1, g = 9.81;\n";
  for (const std::string& d : declarations) text += d + "\n";
  text += "equation\n";
  for (const std::string& e : equations) text += "  " + e + "\n";
  return text + "end shuffled_chain;\n";
}

// models/reaction_diffusion.dae at N = points written with scalars, term for term, one
// declaration per variable, declarations and equations shuffled.
std::string shuffled_reaction_diffusion(int points) {
  std::vector<std::string> declarations, equations;
  for (int i = 1; i <= points; ++i) {
    const std::string k = std::to_string(i);
    const std::string left_a = i == 1 ? "0" : "a" + std::to_string(i - 1);
    const std::string left_b = i == 1 ? "0" : "b" + std::to_string(i - 1);
    const std::string right_a = i == points ? "0" : "a" + std::to_string(i + 1);
    const std::string right_b = i == points ? "0" : "b" + std::to_string(i + 1);
    declarations.push_back("variable a" + k + "(start = sin(pi*" + k + "*h));");
    declarations.push_back("variable b" + k + "(start = K*sin(pi*" + k + "*h));");
    declarations.push_back("variable r" + k + ";");
    equations.push_back("a" + k + "' = DA*(" + left_a + " - 2*a" + k + " + " + right_a +
                        ")/h^2 - r" + k + ";");
    equations.push_back("b" + k + "' = DB*(" + left_b + " - 2*b" + k + " + " + right_b +
                        ")/h^2 + r" + k + ";");
    equations.push_back("equilibrium" + k + ": b" + k + " = K*a" + k + ";");
  }
  std::mt19937 random(20261204);
  shuffle(declarations, random);
  shuffle(equations, random);
  std::string text = "model shuffled_reaction_diffusion;\nparameter N = " + std::to_string(points) +
                     ", DA = 1, DB = 0.5, K = 2;\nparameter h = 1/(N + 1);\n";
  for (const std::string& d : declarations) text += d + "\n";
  text += "equation\n";
  for (const std::string& e : equations) text += "  " + e + "\n";
  return text + "end shuffled_reaction_diffusion;\n";
}

// The number in `constexpr int NAME = <number>;` of generated code, or -1.
long generated_constant(const std::string& code, const std::string& name) {
  const std::string key = "constexpr int " + name + " = ";
  const size_t at = code.find(key);
  return at == std::string::npos ? -1 : std::stol(code.substr(at + key.size()));
}

// The point of each block of A, in the generated solve's order, from its comment lines
// ("//     0: equilibrium1' -> b1_dot (block 1)" or "... -> b[1]_dot (block 1)"): the digits of
// the unknown's name, the first time each block is named.
std::vector<int> block_points(const std::string& code) {
  std::vector<int> points;
  size_t at = 0;
  int last_block = 0;
  while ((at = code.find(" -> ", at)) != std::string::npos) {
    const size_t end = code.find('\n', at);
    const std::string line = code.substr(at + 4, end - at - 4);
    at = end;
    const size_t block = line.find("(block ");
    if (block == std::string::npos) continue;
    const int b = std::stoi(line.substr(block + 7));
    if (b == last_block) continue;
    last_block = b;
    const size_t digit = line.find_first_of("0123456789");
    points.push_back(std::stoi(line.substr(digit)));
  }
  return points;
}

SimulatorStats run(const Build& build, const std::string& method) {
  CommandResult result =
      run_program(build.executable, "--t-end 0.05 --quiet --output /dev/null --method " + method);
  EXPECT_EQ(0, result.status) << result.err;
  std::optional<SimulatorStats> stats = parse_simulator_stats(result.err);
  EXPECT_TRUE(stats.has_value()) << result.err;
  return stats.value_or(SimulatorStats{});
}

TEST(Ordering, AShuffledChainFactorsAsLittleAsTheArrayModel) {
  const std::string dir = make_scratch_dir("ordering_chain");
  write_file(dir + "/shuffled_chain.dae", shuffled_chain(kLinks));
  // -O0 after the fixed -O1: the run is short, the compile of 128 links is not.
  Build arrays = build_simulator("models/pendulum_chain.dae", dir, "g++",
                                 "-D N=" + std::to_string(kLinks), "-O0");
  ASSERT_TRUE(arrays.ok) << arrays.log;
  Build shuffled = build_simulator(dir + "/shuffled_chain.dae", dir, "g++", "", "-O0");
  ASSERT_TRUE(shuffled.ok) << shuffled.log;
  for (const char* method : {"radau5-dae", "ida"}) {
    SCOPED_TRACE(method);
    const SimulatorStats a = run(arrays, method), s = run(shuffled, method);
    EXPECT_EQ("klu", a.linear_solver);
    EXPECT_EQ("klu", s.linear_solver);
    ASSERT_GT(a.factor_nonzeros, 0);
    // Before the iteration matrix's pattern left out the diagonal of the algebraic rows, the
    // shuffled chain's factors were 8 times the array model's, and before large models were
    // numbered by their structure they still differed by a third (10,907 against 8,391 by IDA):
    // now both are the same model numbered the same way.
    EXPECT_EQ(a.steps, s.steps);
    EXPECT_EQ(a.factor_nonzeros, s.factor_nonzeros);
  }
}

// The reaction-diffusion model's A is one 3 x 3 block per point. Written shuffled, its blocks
// were solved in the declaration order and with other pivots (a -1 where the arrays model has a
// 1): 5,482 solve operations at N = 1,000 against 5,000, and a sparse rhs Jacobian 1.3 to 1.6
// times as costly (bench/ordering/SPARSE_RHS_JACOBIAN.md). The counted work is now the same, and
// the blocks sweep the grid in both orders (breadth first over the states they share, a point
// sharing states with the two on either side): each block's point at most three from the last.
TEST(Ordering, AShuffledReactionDiffusionModelSolvesAsTheArrayModel) {
  constexpr int kPoints = 64;
  const std::string dir = make_scratch_dir("ordering_reaction_diffusion");
  write_file(dir + "/shuffled.dae", shuffled_reaction_diffusion(kPoints));
  CommandResult arrays =
      run_daec(shell_quote(source_dir() + "/models/reaction_diffusion.dae") +
               " -D N=" + std::to_string(kPoints) + " -o " + shell_quote(dir + "/arrays.cpp"));
  ASSERT_EQ(0, arrays.status) << arrays.err;
  CommandResult shuffled =
      run_daec(shell_quote(dir + "/shuffled.dae") + " -o " + shell_quote(dir + "/shuffled.cpp"));
  ASSERT_EQ(0, shuffled.status) << shuffled.err;
  const std::string a = read_file(dir + "/arrays.cpp"), s = read_file(dir + "/shuffled.cpp");
  for (const char* name : {"kLuEntries", "kSolveOps"}) {
    SCOPED_TRACE(name);
    ASSERT_GT(generated_constant(a, name), 0);
    EXPECT_EQ(generated_constant(a, name), generated_constant(s, name));
  }
  for (const std::string* code : {&a, &s}) {
    const std::vector<int> points = block_points(*code);
    ASSERT_EQ(static_cast<size_t>(kPoints), points.size());
    for (size_t i = 1; i < points.size(); ++i)
      EXPECT_LE(std::abs(points[i] - points[i - 1]), 3) << "block " << i + 1;
  }
}

// The state names of generated code (its state_names table), with array brackets dropped so that
// x[12] of the array model and x12 of the scalar one read alike.
std::vector<std::string> state_names(const std::string& code) {
  const std::string key = "Model::state_names[] = {";
  const size_t start = code.find(key);
  if (start == std::string::npos) return {};
  const size_t end = code.find('}', start);
  std::vector<std::string> names;
  std::string name;
  bool quoted = false;
  for (size_t k = start + key.size(); k < end; ++k) {
    const char c = code[k];
    if (c == '"') {
      if (quoted) names.push_back(name);
      name.clear();
      quoted = !quoted;
    } else if (quoted && c != '[' && c != ']') {
      name += c;
    }
  }
  return names;
}

// The operations daec's summary line reports for the rhs ("(rhs: 4177 operations)"), or -1.
long rhs_operations(const std::string& summary) {
  const size_t at = summary.find("(rhs: ");
  return at == std::string::npos ? -1 : std::stol(summary.substr(at + 6));
}

// A model of 256 or more variables is numbered by its structure (--unknown-order auto): the
// 128-link chain, 640 variables, as arrays and shuffled comes out with its states in the same
// order, link by link along the chain, and the same counted work; declaration order, asked for,
// keeps the shuffled order.
TEST(Ordering, ALargeModelIsNumberedByItsStructureWhateverItsOrder) {
  const std::string dir = make_scratch_dir("ordering_numbering");
  write_file(dir + "/shuffled.dae", shuffled_chain(kLinks));
  auto generate = [&](const std::string& model, const std::string& arguments,
                      const std::string& out, std::string& code) {
    CommandResult result =
        run_daec(shell_quote(model) + " " + arguments + " -o " + shell_quote(dir + "/" + out));
    EXPECT_EQ(0, result.status) << result.err;
    code = read_file(dir + "/" + out);
    return rhs_operations(result.out);
  };
  std::string arrays, shuffled, declared;
  const long arrays_operations = generate(source_dir() + "/models/pendulum_chain.dae",
                                          "-D N=" + std::to_string(kLinks), "arrays.cpp", arrays);
  const long shuffled_operations = generate(dir + "/shuffled.dae", "", "shuffled.cpp", shuffled);
  generate(dir + "/shuffled.dae", "--unknown-order declared", "declared.cpp", declared);
  ASSERT_GT(arrays_operations, 0);
  EXPECT_EQ(arrays_operations, shuffled_operations);
  for (const char* name : {"num_states", "residual_jacobian_nnz", "kLuEntries", "kSolveOps"}) {
    SCOPED_TRACE(name);
    ASSERT_GT(generated_constant(arrays, name), 0);
    EXPECT_EQ(generated_constant(arrays, name), generated_constant(shuffled, name));
  }
  const std::vector<std::string> a = state_names(arrays), s = state_names(shuffled);
  ASSERT_EQ(static_cast<size_t>(generated_constant(arrays, "num_states")), a.size());
  EXPECT_EQ(a, s);
  // Along the chain from one end: each state's link at most two past the furthest before it.
  auto link_of = [](const std::string& name) {
    const size_t digit = name.find_first_of("0123456789");
    return digit == std::string::npos ? -1 : std::stoi(name.substr(digit));
  };
  const bool from_the_pivot = link_of(a.front()) == 1;
  EXPECT_TRUE(from_the_pivot || link_of(a.front()) == kLinks) << a.front();
  int furthest = 0;
  for (const std::string& name : a) {
    ASSERT_GT(link_of(name), 0) << name;
    const int along = from_the_pivot ? link_of(name) : kLinks + 1 - link_of(name);
    EXPECT_LE(along, furthest + 2) << name;
    furthest = std::max(furthest, along);
  }
  EXPECT_NE(a, state_names(declared));
}

// Numbering by structure moves a small model's states too when asked for; what the simulator
// writes does not move: the columns stay in declaration order and hold the same solution.
TEST(Ordering, NumberingByStructureKeepsTheDeclaredColumnsAndTheSolution) {
  const std::string declared_dir = make_scratch_dir("ordering_columns_declared");
  const std::string structural_dir = make_scratch_dir("ordering_columns_structural");
  Build declared = build_simulator("models/coupled_pendulums.dae", declared_dir, "g++",
                                   "--unknown-order declared");
  ASSERT_TRUE(declared.ok) << declared.log;
  Build structural = build_simulator("models/coupled_pendulums.dae", structural_dir, "g++",
                                     "--unknown-order structural");
  ASSERT_TRUE(structural.ok) << structural.log;
  EXPECT_NE(state_names(read_file(declared_dir + "/coupled_pendulums.cpp")),
            state_names(read_file(structural_dir + "/coupled_pendulums.cpp")));
  const std::string arguments = "--t-end 2 --rtol 1e-10 --atol 1e-10 --quiet";
  CommandResult d = run_program(declared.executable, arguments);
  CommandResult s = run_program(structural.executable, arguments);
  ASSERT_EQ(0, d.status) << d.err;
  ASSERT_EQ(0, s.status) << s.err;
  const Csv a = parse_csv(d.out), b = parse_csv(s.out);
  EXPECT_EQ(a.header, b.header);
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (const std::string& name : a.header) {
    SCOPED_TRACE(name);
    EXPECT_NEAR(a.last(name), b.last(name), 1e-7);
  }
}

}  // namespace
}  // namespace daec::test
