// The cost of a simulation does not depend on the order in which the model declares its
// variables and equations: the 128-link pendulum chain as the bundled array model and with every
// declaration and equation shuffled (a fixed seed) runs the same steps with LU factors of the
// same size, by the default method (radau5-dae with KLU) and by IDA (SUNDIALS' KLU). The counted
// work, never wall time: the statistics line's factor nonzeros. The fast slice of
// bench/ordering/run.sh; docs/integrators.md, "Sparse factorization and declaration order".
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
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

}  // namespace
}  // namespace daec::test
