// Tests of the Markdown primitives on their own (src/report/markdown): escaping, inline code,
// headings, listings and padded tables.
#include <gtest/gtest.h>

#include "report/markdown.h"

namespace daec {
namespace {

TEST(Markdown, CodeEscapesTheTableCellBreak) {
  EXPECT_EQ("`a \\| b`", markdown::code("a | b"));
  EXPECT_EQ((std::vector<std::string>{"`x`", "`y'`"}), markdown::coded({"x", "y'"}));
}

TEST(Markdown, HeadingAndListing) {
  EXPECT_EQ("## Index\n\n", markdown::heading(2, "Index"));
  EXPECT_EQ("", markdown::listing({}));
  EXPECT_EQ("a", markdown::listing({"a"}));
  EXPECT_EQ("a and b", markdown::listing({"a", "b"}));
  EXPECT_EQ("a, b and c", markdown::listing({"a", "b", "c"}));
}

TEST(Markdown, TableColumnsLineUpCountingCharactersNotBytes) {
  // "λ" is two bytes but one character wide; columns are at least three wide; the first column
  // is left-aligned, the others centred.
  EXPECT_EQ(
      "| Name |  x  |\n"
      "|------|:---:|\n"
      "| λ    |  1  |\n"
      "| long |  0  |\n"
      "\n",
      markdown::table({"Name", "x"}, {{"λ", "1"}, {"long", "0"}}));
  EXPECT_EQ(
      "| a   | b   |\n"
      "|-----|-----|\n"
      "| 1   | 2   |\n"
      "\n",
      markdown::table({"a", "b"}, {{"1", "2"}}, 2));
}

}  // namespace
}  // namespace daec
