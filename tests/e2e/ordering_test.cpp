// The cost of a simulation does not depend on the order in which the model declares its
// variables and equations: the 128-link pendulum chain as the bundled array model and with every
// declaration and equation shuffled (a fixed seed) runs the same steps with LU factors of the
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
    EXPECT_NEAR(static_cast<double>(s.steps), static_cast<double>(a.steps), 0.1 * a.steps);
    ASSERT_GT(a.factor_nonzeros, 0);
    // Before the iteration matrix's pattern left out the diagonal of the algebraic rows, the
    // shuffled chain's factors were 8 times the array model's.
    const double ratio = static_cast<double>(s.factor_nonzeros) / a.factor_nonzeros;
    EXPECT_LT(ratio, 1.25) << s.factor_nonzeros << " against " << a.factor_nonzeros;
    EXPECT_GT(ratio, 1 / 1.25) << s.factor_nonzeros << " against " << a.factor_nonzeros;
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

}  // namespace
}  // namespace daec::test
