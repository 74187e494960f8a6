// Tests of the loops for repeated assignments (codegen/rolled_loops.h): short lists are left
// alone; a period of one, a period of three and runs between irregular assignments are found;
// indices that do not move evenly, and a symbol that would move by two amounts, are not rolled.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "codegen/rolled_loops.h"

namespace daec::function_code {
namespace {

using GiNaC::ex;
using GiNaC::realsymbol;

// Symbols x0 ... x<count - 1> read as x[k], and p0 read as p[0].
struct Symbols {
  std::vector<realsymbol> x;
  realsymbol p{"p0"};
  SymbolCode code;

  explicit Symbols(size_t count) {
    for (size_t k = 0; k < count; ++k) {
      x.emplace_back(fmt::format("x{}", k));
      code[x.back()] = fmt::format("x[{}]", k);
    }
    code[p] = "p[0]";
  }
};

Assignment to(size_t entry, const ex& value) {
  return {fmt::format("values[{}]", entry), value};
}

std::string joined(const std::vector<std::string>& statements) {
  std::string text;
  for (const std::string& s : statements) text += s;
  return text;
}

TEST(RolledLoops, ShortListsAreWrittenOut) {
  Symbols s(kRolledMinimum + 1);
  std::vector<Assignment> list;
  for (size_t e = 0; e + 1 < kRolledMinimum; ++e) list.push_back(to(e, 2 * s.x[e] - s.x[e + 1]));
  EXPECT_TRUE(rolled_runs(s.code, list).empty());
  EXPECT_EQ(joined(assignment_statements(s.code, list)), joined(rolled_statements(s.code, list)));
}

TEST(RolledLoops, APeriodOfOneIsOneLoop) {
  constexpr size_t kCount = 3000;
  Symbols s(kCount + 1);
  std::vector<Assignment> list;
  for (size_t e = 0; e < kCount; ++e) list.push_back(to(e, (s.x[e] - s.x[e + 1]) / s.p));
  const std::vector<RolledRun> runs = rolled_runs(s.code, list);
  ASSERT_EQ(1u, runs.size());
  EXPECT_EQ(0u, runs[0].first);
  EXPECT_EQ(1u, runs[0].period);
  EXPECT_EQ(kCount, runs[0].count);
  const std::string code = joined(rolled_statements(s.code, list));
  EXPECT_NE(std::string::npos, code.find("for (int i = 0; i < 3000; ++i) {")) << code;
  EXPECT_NE(std::string::npos, code.find("values[i] = ")) << code;
  EXPECT_NE(std::string::npos, code.find("x[1 + i]")) << code;
  EXPECT_EQ(std::string::npos, code.find("values[1]")) << code;
}

// Entries 3k, 3k + 1, 3k + 2: a number, x[2k]*p, -x[2k + 1]; then 10 irregular entries, then
// the period again from another place.
TEST(RolledLoops, PeriodsBetweenIrregularEntries) {
  constexpr size_t kPeriods = 1000;
  Symbols s(2 * kPeriods + 100);
  std::vector<Assignment> list;
  auto periods = [&](size_t offset) {
    for (size_t k = 0; k < kPeriods; ++k) {
      list.push_back(to(list.size(), ex(-1)));
      list.push_back(to(list.size(), s.x[offset + 2 * k] * s.p));
      list.push_back(to(list.size(), -s.x[offset + 2 * k + 1]));
    }
  };
  periods(0);
  for (size_t k = 0; k < 10; ++k) list.push_back(to(list.size(), s.x[(k * k) % 17] + k));
  periods(50);
  const std::vector<RolledRun> runs = rolled_runs(s.code, list);
  ASSERT_EQ(2u, runs.size());
  EXPECT_EQ(0u, runs[0].first);
  EXPECT_EQ(3u, runs[0].period);
  EXPECT_EQ(kPeriods, runs[0].count);
  EXPECT_EQ(3 * kPeriods + 10, runs[1].first);
  EXPECT_EQ(3u, runs[1].period);
  EXPECT_EQ(kPeriods, runs[1].count);
  const std::string code = joined(rolled_statements(s.code, list));
  EXPECT_NE(std::string::npos, code.find("values[3010 + 3*i] = -1.0;")) << code;
  EXPECT_NE(std::string::npos, code.find("x[50 + 2*i]")) << code;
  EXPECT_NE(std::string::npos, code.find("values[3000] = ")) << code;  // irregular: written out
}

TEST(RolledLoops, UnevenIndicesAreNotRolled) {
  constexpr size_t kCount = 2500;
  Symbols s(kCount * 3);
  std::vector<Assignment> list;
  for (size_t e = 0; e < kCount; ++e) list.push_back(to(e, s.x[(e * e) % (kCount * 3)] * s.p));
  EXPECT_TRUE(rolled_runs(s.code, list).empty());
}

// values[2k] = x[k], values[2k + 1] = x[2k]: at k = 0 both read x[0], which would have to move
// by 1 in one entry and by 2 in the other; no period of this list can rename x[0] once.
TEST(RolledLoops, ASymbolMovingByTwoAmountsIsNotRolled) {
  constexpr size_t kCount = 1500;
  Symbols s(2 * kCount);
  std::vector<Assignment> list;
  for (size_t k = 0; k < kCount; ++k) {
    list.push_back(to(2 * k, ex(s.x[k])));
    list.push_back(to(2 * k + 1, ex(s.x[2 * k])));
  }
  for (const RolledRun& run : rolled_runs(s.code, list)) EXPECT_GT(run.first, 0u);
}

}  // namespace
}  // namespace daec::function_code
