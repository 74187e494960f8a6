// Tests of identifier renaming and escaping for the generated C++ (src/codegen/cpp_names).
#include <gtest/gtest.h>

#include "codegen/cpp_names.h"

namespace daec {
namespace {

TEST(CppNames, PlainNamesAreSafe) {
  for (const char* name : {"x", "lambda", "x_dot", "Pendulum2", "model_"}) {
    EXPECT_TRUE(is_safe_cpp_identifier(name)) << name;
  }
}

TEST(CppNames, KeywordsReservedNamesAndMacrosAreNot) {
  for (const char* name : {"class", "int",    "and",  "std",  "Model", "linux",    "NULL", "errno",
                           "M_PI",  "_x",     "__x",  "a__b", "_Big",  "1a",       "",     "a-b",
                           "sin",   "printf", "exit", "main", "CVode", "realtype", "FILE"}) {
    EXPECT_FALSE(is_safe_cpp_identifier(name)) << name;
  }
}

// g++ knows these as built-in functions although no header declares them: `namespace isnan`
// fails under -Werror (-Wbuiltin-declaration-mismatch).
TEST(CppNames, CompilerBuiltinsAreNot) {
  for (const char* name : {"isnan", "isinf", "isfinite", "signbit", "fpclassify", "cabs", "conj",
                           "creal", "fesetround", "sqrtf128"}) {
    EXPECT_FALSE(is_safe_cpp_identifier(name)) << name;
    EXPECT_EQ(std::string(name) + "_model", cpp_identifier(name));
  }
}

TEST(CppNames, RenamingGivesSafeReadableNames) {
  EXPECT_EQ("pendulum", cpp_identifier("pendulum"));
  EXPECT_EQ("class_model", cpp_identifier("class"));
  EXPECT_EQ("std_model", cpp_identifier("std"));
  EXPECT_EQ("linux_model", cpp_identifier("linux"));
  EXPECT_EQ("sin_model", cpp_identifier("sin"));
  EXPECT_EQ("main_model", cpp_identifier("main"));
  EXPECT_EQ("x", cpp_identifier("__x"));
  EXPECT_EQ("a_b", cpp_identifier("a__b"));
  EXPECT_EQ("model_1", cpp_identifier("_1"));
  EXPECT_EQ("model", cpp_identifier("___"));
  for (const char* name : {"class", "__x", "_1", "___", "NULL", "x__"}) {
    EXPECT_TRUE(is_safe_cpp_identifier(cpp_identifier(name))) << name;
  }
}

TEST(CppNames, StringContentsAreEscaped) {
  EXPECT_EQ("a\\\"b\\\\c", cpp_string_contents("a\"b\\c"));
  EXPECT_EQ("*/ is fine", cpp_string_contents("*/ is fine"));
  EXPECT_EQ("what\\?\\?=", cpp_string_contents("what?"
                                               "?="));  // no trigraph can form
  EXPECT_EQ("tab\\011end", cpp_string_contents("tab\tend"));
  EXPECT_EQ("\\302\\260C1", cpp_string_contents("\xC2\xB0"
                                                "C1"));  // octal: 1 cannot extend it
}

TEST(CppNames, QuotedCommentNeverEndsInABackslash) {
  EXPECT_EQ("\"C:\\\\\"", cpp_quoted_comment("C:\\"));
  EXPECT_EQ("\"line\\012break\"", cpp_quoted_comment("line\nbreak"));
}

}  // namespace
}  // namespace daec
