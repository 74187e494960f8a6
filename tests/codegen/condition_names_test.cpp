// The names the generated code gives its conditions (Model::condition_names, the simulator's
// events): the label of the first equation of the model's text holding the relation, whatever
// part of the reduced system that equation went to (docs/generated-code.md, "Conditions").
#include <gtest/gtest.h>

#include "codegen/condition_code.h"
#include "reduction/pipeline.h"
#include "test_util.h"

namespace daec {
namespace {

std::vector<std::string> condition_names(const std::string& text) {
  auto run = test::run(text);
  EXPECT_TRUE(run->model.has_value()) << run->diagnostics();
  if (!run->model) return {};
  std::optional<ReducedSystem> system = reduce_model(*run->model, {}, run->diags);
  EXPECT_TRUE(system.has_value()) << run->diagnostics();
  if (!system) return {};
  std::vector<std::string> names;
  for (size_t k = 0; k < system->relations.size(); ++k)
    names.push_back(condition_name(*system, k));
  return names;
}

// The algebraic equation eq1 comes first in the file; the reduced system lists the differential
// equation eq3 first, and used to name the relation after it.
TEST(ConditionNames, FirstEquationOfTheFileNamesTheRelation) {
  EXPECT_EQ((std::vector<std::string>{"eq1: t < 5"}), condition_names(R"(model ev;
variable x(start = 0), z, w;
equation
  z = if t < 5 then 1 else 2;
  w = 2*z;
  x' = z + w + (if t < 5 then 0 else 1);
end
)"));
}

TEST(ConditionNames, DifferentialEquationWrittenFirst) {
  EXPECT_EQ((std::vector<std::string>{"growth: t < 5"}), condition_names(R"(model ev;
variable x(start = 0), z;
equation
  growth: x' = z + (if t < 5 then 0 else 1);
  limit: z = if t < 5 then 1 else 2;
end
)"));
}

// Each relation is named by its own first equation, in the order the relations occur.
TEST(ConditionNames, EachRelationByItsOwnFirstEquation) {
  EXPECT_EQ((std::vector<std::string>{"b: x < 1", "a: t > 2"}), condition_names(R"(model ev;
variable x(start = 0), z;
equation
  a: z = if t > 2 then 1 else x;
  b: x' = if x < 1 then z else 0;
end
)"));
}

}  // namespace
}  // namespace daec
