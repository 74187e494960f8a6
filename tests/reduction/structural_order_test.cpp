// Tests of the numbering of a model's variables and equations (reduction/structural_order.h):
// when a model is numbered by its structure, that a chain declared field by field or shuffled
// comes out link by link from one end, that a hub variable does not make the labels grow, and
// that the first-order stage takes the unknowns and equations in that order while the context
// keeps declaration order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "reduction/first_order.h"
#include "reduction/structural_order.h"
#include "test_util.h"

namespace daec {
namespace {

// `count` scalar variables x1 ... x<count>, each with x' = -x.
std::string decaying(int count) {
  std::string text = "model m;\n";
  for (int i = 1; i <= count; ++i) text += "variable x" + std::to_string(i) + ";\n";
  text += "equation\n";
  for (int i = 1; i <= count; ++i)
    text += "  x" + std::to_string(i) + "' = -x" + std::to_string(i) + ";\n";
  return text + "end\n";
}

TEST(StructuralOrder, LargeModelsAreNumberedByStructureUnlessDeclaredIsAsked) {
  auto small = test::run(decaying(static_cast<int>(kStructuralOrderVariables) - 1));
  auto large = test::run(decaying(static_cast<int>(kStructuralOrderVariables)));
  ASSERT_TRUE(small->model && large->model);
  EXPECT_FALSE(numbers_by_structure(*small->model, UnknownOrder::Automatic));
  EXPECT_TRUE(numbers_by_structure(*large->model, UnknownOrder::Automatic));
  EXPECT_TRUE(numbers_by_structure(*small->model, UnknownOrder::Structural));
  EXPECT_FALSE(numbers_by_structure(*large->model, UnknownOrder::Declared));
}

// A chain of `links` bodies of two variables, a (position) and b (velocity), each body's
// acceleration pulled by its neighbours: declared all a's, then all b's, the equations in the
// order `equation_order` gives the links.
std::string chain(int links, const std::vector<int>& equation_order) {
  std::string text = "model chain;\n";
  for (const char* name : {"a", "b"})
    for (int i = 1; i <= links; ++i)
      text += std::string("variable ") + name + std::to_string(i) + ";\n";
  text += "equation\n";
  for (int i : equation_order) {
    const std::string k = std::to_string(i);
    const std::string left = i == 1 ? "0" : "a" + std::to_string(i - 1);
    const std::string right = i == links ? "0" : "a" + std::to_string(i + 1);
    text += "  p" + k + ": a" + k + "' = b" + k + ";\n";
    text += "  q" + k + ": b" + k + "' = " + left + " - 2*a" + k + " + " + right + ";\n";
  }
  return text + "end\n";
}

// The digits at the end of a name: its link.
int link_of(const std::string& name) {
  return std::stoi(name.substr(name.find_first_of("0123456789")));
}

// The links of `names` in order: they start at one end and never step back more than one link.
void expect_along_the_chain(const std::vector<std::string>& names, int links) {
  ASSERT_FALSE(names.empty());
  const int first = link_of(names.front());
  EXPECT_TRUE(first == 1 || first == links) << names.front();
  const int direction = first == 1 ? 1 : -1;
  int furthest = first;
  for (const std::string& name : names) {
    const int link = link_of(name);
    EXPECT_LE(std::abs(link - furthest), 1) << name;
    if ((link - furthest) * direction > 0) furthest = link;
  }
}

TEST(StructuralOrder, AChainComesOutLinkByLinkWhateverItsDeclarationOrder) {
  constexpr int kLinks = 12;
  std::vector<int> forwards(kLinks), shuffled(kLinks);
  for (int i = 0; i < kLinks; ++i) forwards[static_cast<size_t>(i)] = i + 1;
  for (int i = 0; i < kLinks; ++i) shuffled[static_cast<size_t>(i)] = (i * 5) % kLinks + 1;
  for (const std::vector<int>* links : {&forwards, &shuffled}) {
    auto run = test::run(chain(kLinks, *links));
    ASSERT_TRUE(run->model) << run->diagnostics();
    const Model& model = *run->model;
    const ModelOrder order = model_order(model, UnknownOrder::Structural);
    ASSERT_EQ(model.variables.size(), order.variables.size());
    ASSERT_EQ(model.equations.size(), order.equations.size());
    std::vector<std::string> variables, equations;
    for (size_t v : order.variables) variables.push_back(model.variables[v].name);
    for (size_t e : order.equations) equations.push_back(model.equations[e].label);
    expect_along_the_chain(variables, kLinks);
    expect_along_the_chain(equations, kLinks);
    std::sort(variables.begin(), variables.end());
    EXPECT_EQ(variables.end(), std::adjacent_find(variables.begin(), variables.end()));

    const ModelOrder declared = model_order(model, UnknownOrder::Declared);
    for (size_t k = 0; k < declared.variables.size(); ++k) EXPECT_EQ(k, declared.variables[k]);
    for (size_t k = 0; k < declared.equations.size(); ++k) EXPECT_EQ(k, declared.equations[k]);
  }
}

TEST(StructuralOrder, TheFirstOrderStageFollowsItAndTheContextKeepsDeclarationOrder) {
  constexpr int kLinks = 6;
  auto run = test::run(chain(kLinks, {1, 2, 3, 4, 5, 6}));
  ASSERT_TRUE(run->model) << run->diagnostics();
  const Model& model = *run->model;
  const ModelOrder order = model_order(model, UnknownOrder::Structural);
  const FirstOrderSystem system = to_first_order(model, UnknownOrder::Structural);
  ASSERT_EQ(order.variables.size(), system.unknowns.size());
  for (size_t k = 0; k < order.variables.size(); ++k)
    EXPECT_EQ(model.variables[order.variables[k]].name, system.unknowns[k].name);
  ASSERT_EQ(order.equations.size(), system.equations.size());
  for (size_t k = 0; k < order.equations.size(); ++k)
    EXPECT_EQ(model.equations[order.equations[k]].label, system.equations[k].label);
  ASSERT_EQ(model.variables.size(), system.context.variable_names.size());
  for (size_t v = 0; v < model.variables.size(); ++v)
    EXPECT_EQ(model.variables[v].name, system.context.variable_names[v]);
}

// A variable that 4,000 equations hold (a hub): the numbering is a permutation. The labels are
// ranks, as short as each node's own list; they once concatenated their neighbours' keys, and
// each of the 4,000 equations carried the hub's key of 4,001 entries.
TEST(StructuralOrder, AHubVariableIsNumberedWithoutItsKeysGrowing) {
  auto run = test::run(
      "model hub;\nparameter N = 4000;\nvariable x[N](start = 1), s;\nequation\n"
      "  for i in 1:N loop\n    x[i]' = -x[i] + s;\n  end for;\n"
      "  s = sum(x[i] for i in 1:N)/N;\nend\n");
  ASSERT_TRUE(run->model) << run->diagnostics();
  const Model& model = *run->model;
  const ModelOrder order = model_order(model, UnknownOrder::Automatic);
  std::vector<size_t> variables = order.variables, equations = order.equations;
  ASSERT_EQ(model.variables.size(), variables.size());
  ASSERT_EQ(model.equations.size(), equations.size());
  std::sort(variables.begin(), variables.end());
  std::sort(equations.begin(), equations.end());
  for (size_t k = 0; k < variables.size(); ++k) EXPECT_EQ(k, variables[k]);
  for (size_t k = 0; k < equations.size(); ++k) EXPECT_EQ(k, equations[k]);
}

}  // namespace
}  // namespace daec
