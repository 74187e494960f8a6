// Tests of the template substitution mechanism and the embedded templates (src/codegen/template).
#include <gtest/gtest.h>

#include "codegen/template.h"

namespace daec {
namespace {

std::string error_of(std::string_view text, const TemplateValues& values) {
  try {
    render_template("t.in", text, values);
  } catch (const TemplateError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Template, ReplacesPlaceholdersInLine) {
  EXPECT_EQ("int n = 3; // n\n", render_template("t.in", "int {{name}} = {{value}}; // {{name}}",
                                                 {{"name", "n"}, {"value", "3"}}));
}

TEST(Template, BracesThatAreNotPlaceholdersStay) {
  EXPECT_EQ("struct S { int a[2] = {1, 2}; };\n",
            render_template("t.in", "struct S { int a[2] = {{init}}; };", {{"init", "{1, 2}"}}));
}

TEST(Template, BlockPlaceholderIndentsEveryLine) {
  std::string text = "f() {\n  {{body}}\n}\n";
  EXPECT_EQ("f() {\n  a();\n\n  b();\n}\n",
            render_template("t.in", text, {{"body", "a();\n\nb();\n"}}));
}

TEST(Template, EmptyBlockRemovesItsLine) {
  EXPECT_EQ("a\nb\n", render_template("t.in", "a\n    {{nothing}}\nb\n", {{"nothing", ""}}));
}

TEST(Template, MissingValueIsAnError) {
  EXPECT_EQ("template t.in:2: no value for {{b}}", error_of("{{a}}\nx {{b}}", {{"a", "1"}}));
}

TEST(Template, UnusedValueIsAnError) {
  EXPECT_EQ("template t.in: {{extra}} was given but is not used",
            error_of("{{a}}", {{"a", "1"}, {"extra", "2"}}));
}

TEST(Template, UnterminatedPlaceholderIsAnError) {
  EXPECT_EQ("template t.in:1: unterminated {{", error_of("x {{a", {{"a", "1"}}));
}

TEST(Template, SectionIsKeptOrDropped) {
  std::string text = "a\n  {{#dense}}\n  f({{n}});\n  {{/dense}}\nb\n";
  EXPECT_EQ("a\n  f(3);\nb\n", render_template("t.in", text, {{"dense", "true"}, {"n", "3"}}));
  // Dropped: its placeholders need no value, and a value given for them counts as used.
  EXPECT_EQ("a\nb\n", render_template("t.in", text, {{"dense", "false"}}));
  EXPECT_EQ("a\nb\n", render_template("t.in", text, {{"dense", "false"}, {"n", "3"}}));
}

TEST(Template, SectionErrors) {
  EXPECT_EQ("template t.in:1: section {{#s}} needs true or false, not 'yes'",
            error_of("{{#s}}\nx\n{{/s}}", {{"s", "yes"}}));
  EXPECT_EQ("template t.in:2: section {{#s}} is not closed",
            error_of("{{#s}}\nx", {{"s", "true"}}));
  EXPECT_EQ("template t.in:2: {{/u}} closes no open section",
            error_of("{{#s}}\n{{/u}}", {{"s", "true"}}));
  EXPECT_EQ("template t.in:2: section {{#u}} inside {{#s}}",
            error_of("{{#s}}\n{{#u}}\n{{/u}}\n{{/s}}", {{"s", "true"}, {"u", "true"}}));
  EXPECT_EQ("template t.in:1: no value for {{s}}", error_of("{{#s}}\n{{/s}}", {}));
}

TEST(Template, EveryTemplateIsEmbedded) {
  for (const char* name : {"model.cpp.in", "model_declaration.h.in", "model_header.h.in",
                           "algebraic_solver.cpp.in", "gram_cholesky.cpp.in"}) {
    EXPECT_FALSE(embedded_template(name).empty()) << name;
  }
  EXPECT_NE(std::string_view::npos, embedded_template("model.cpp.in").find("{{rhs}}"));
  EXPECT_THROW(embedded_template("nonexistent.in"), TemplateError);
}

}  // namespace
}  // namespace daec
