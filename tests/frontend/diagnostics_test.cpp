// Tests of the diagnostics engine and the source utilities it relies on (src/support): the exact
// printed form of errors, warnings and notes, caret placement, and the error cap.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/diagnostics.h"
#include "support/source.h"
#include "support/text.h"

namespace {

using daec::DiagnosticEngine;
using daec::SourceFile;
using daec::SourceLocation;

// The location of the first occurrence of `needle` in `file`.
SourceLocation at(const SourceFile& file, const std::string& needle) {
  size_t offset = file.text().find(needle);
  EXPECT_NE(std::string::npos, offset) << needle;
  return file.location_at(offset);
}

TEST(Diagnostics, ErrorWithSourceLineAndCaret) {
  SourceFile file("m.dae", "model m;\nvariable x;\nequation\n");
  DiagnosticEngine diags;
  diags.error(at(file, "x;"), "something is wrong with 'x'");
  EXPECT_EQ(
      "m.dae:2:10: error: something is wrong with 'x'\n"
      "variable x;\n"
      "         ^\n",
      diags.str());
  EXPECT_TRUE(diags.has_errors());
  EXPECT_EQ(1u, diags.error_count());
  EXPECT_EQ(0u, diags.warning_count());
}

TEST(Diagnostics, WarningAndNote) {
  SourceFile file("m.dae", "x = abs(y);\ny = 1;\n");
  DiagnosticEngine diags;
  diags.warning(at(file, "abs"), "'abs' is not differentiable at 0");
  diags.note(at(file, "y = 1"), "'y' is defined here");
  EXPECT_EQ(
      "m.dae:1:5: warning: 'abs' is not differentiable at 0\n"
      "x = abs(y);\n"
      "    ^\n"
      "m.dae:2:1: note: 'y' is defined here\n"
      "y = 1;\n"
      "^\n",
      diags.str());
  EXPECT_FALSE(diags.has_errors());
  EXPECT_EQ(1u, diags.warning_count());
}

TEST(Diagnostics, CaretAtFirstColumn) {
  SourceFile file("m.dae", "oops\n");
  EXPECT_EQ("m.dae:1:1: error: bad\noops\n^",
            daec::format_diagnostic({daec::Severity::Error, file.location_at(0), "bad"}));
}

TEST(Diagnostics, TabsAreReproducedInTheCaretLine) {
  SourceFile file("m.dae", "\tx =\t1 + y;\n");
  DiagnosticEngine diags;
  diags.error(at(file, "y"), "use of undeclared name 'y'");
  // A tab counts as one column, and the caret line repeats it so that the caret lines up with
  // the character however wide the terminal draws tabs.
  EXPECT_EQ(
      "m.dae:1:10: error: use of undeclared name 'y'\n"
      "\tx =\t1 + y;\n"
      "\t   \t    ^\n",
      diags.str());
}

TEST(Diagnostics, ColumnAfterUtf8CharacterCountsCharacters) {
  SourceFile file("m.dae", "/* \xCF\x80 */ y = 1;\n");  // "/* π */ y = 1;"
  SourceLocation loc = at(file, "y");
  EXPECT_EQ(1, loc.line);
  EXPECT_EQ(9, loc.column);  // the 2-byte π is one column
  EXPECT_EQ(9u, loc.offset);
  DiagnosticEngine diags;
  diags.error(loc, "unexpected 'y'");
  EXPECT_EQ(
      "m.dae:1:9: error: unexpected 'y'\n"
      "/* \xCF\x80 */ y = 1;\n"
      "        ^\n",
      diags.str());
}

TEST(Diagnostics, ColumnAfterFourByteCharacter) {
  SourceFile file("m.dae", "\"\xF0\x9F\x98\x80\" z\n");  // "😀" z
  SourceLocation loc = at(file, "z");
  EXPECT_EQ(5, loc.column);
  EXPECT_EQ(
      "m.dae:1:5: error: here\n"
      "\"\xF0\x9F\x98\x80\" z\n"
      "    ^",
      daec::format_diagnostic({daec::Severity::Error, loc, "here"}));
}

TEST(Diagnostics, LocationAtEndOfLine) {
  SourceFile file("m.dae", "variable x\nequation\n");
  SourceLocation loc = file.location_at(file.text().find('\n'));
  EXPECT_EQ(1, loc.line);
  EXPECT_EQ(11, loc.column);
  DiagnosticEngine diags;
  diags.error(loc, "expected ';'");
  EXPECT_EQ(
      "m.dae:1:11: error: expected ';'\n"
      "variable x\n"
      "          ^\n",
      diags.str());
}

TEST(Diagnostics, LocationAtEndOfFileAfterFinalNewline) {
  SourceFile file("m.dae", "model m;\n");
  SourceLocation loc = file.location_at(file.text().size());
  EXPECT_EQ(2, loc.line);
  EXPECT_EQ(1, loc.column);
  EXPECT_EQ("m.dae:2:1: error: expected 'end'\n\n^",
            daec::format_diagnostic({daec::Severity::Error, loc, "expected 'end'"}));
}

TEST(Diagnostics, LocationAtEndOfFileWithoutFinalNewline) {
  SourceFile file("m.dae", "model m");
  SourceLocation loc = file.location_at(file.text().size());
  EXPECT_EQ("m.dae:1:8: error: expected ';'\nmodel m\n       ^",
            daec::format_diagnostic({daec::Severity::Error, loc, "expected ';'"}));
}

TEST(Diagnostics, OffsetPastTheEndIsClamped) {
  SourceFile file("m.dae", "ab\ncd");
  SourceLocation loc = file.location_at(1000);
  EXPECT_EQ(2, loc.line);
  EXPECT_EQ(3, loc.column);
  EXPECT_EQ(5u, loc.offset);
}

TEST(Diagnostics, WindowsLineEndingsAreNotPrinted) {
  SourceFile file("m.dae", "model m;\r\nvariable x\r\n");
  SourceLocation loc = at(file, "x");
  EXPECT_EQ(2, loc.line);
  EXPECT_EQ(10, loc.column);
  EXPECT_EQ("m.dae:2:10: error: e\nvariable x\n         ^",
            daec::format_diagnostic({daec::Severity::Error, loc, "e"}));
}

TEST(Diagnostics, ControlCharactersInTheSourceLineArePrintedAsSpaces) {
  SourceFile file("m.dae", "x\x01=\x1b[31m y\n");
  EXPECT_EQ("m.dae:1:10: error: e\nx = [31m y\n         ^",
            daec::format_diagnostic({daec::Severity::Error, at(file, "y"), "e"}));
}

TEST(Diagnostics, WithoutLocation) {
  DiagnosticEngine diags;
  diags.error(SourceLocation{}, "no input model given");
  EXPECT_EQ("error: no input model given\n", diags.str());
}

TEST(Diagnostics, FileWithoutPosition) {
  SourceFile file("m.dae", "");
  DiagnosticEngine diags;
  diags.error(SourceLocation{&file, 0, 0, 0}, "the file is empty");
  diags.warning(SourceLocation{&file, 0, 0, 0}, "and it has no model");
  EXPECT_EQ(
      "m.dae: error: the file is empty\n"
      "m.dae: warning: and it has no model\n",
      diags.str());
}

TEST(Diagnostics, StdinName) {
  SourceFile file("<stdin>", "model m\n");
  EXPECT_EQ("<stdin>:1:1: note: n\nmodel m\n^",
            daec::format_diagnostic({daec::Severity::Note, file.location_at(0), "n"}));
}

TEST(Diagnostics, PrintMatchesStr) {
  SourceFile file("m.dae", "a b\n");
  DiagnosticEngine diags;
  diags.error(at(file, "a"), "first");
  diags.error(at(file, "b"), "second");
  std::ostringstream out;
  diags.print(out);
  EXPECT_EQ(out.str(), diags.str());
  EXPECT_EQ("m.dae:1:1: error: first\na b\n^\nm.dae:1:3: error: second\na b\n  ^\n", out.str());
}

TEST(Diagnostics, ErrorCap) {
  SourceFile file("m.dae", "x\n");
  DiagnosticEngine diags;
  for (int i = 1; i <= 150; ++i) {
    diags.error(file.location_at(0), "error " + std::to_string(i));
    diags.note(file.location_at(0), "note of error " + std::to_string(i));
  }
  EXPECT_EQ(150u, diags.error_count());
  ASSERT_EQ(200u, diags.diagnostics().size());  // 100 errors with their notes
  EXPECT_EQ("error 100", diags.diagnostics()[198].message);
  EXPECT_EQ("note of error 100", diags.diagnostics()[199].message);
  std::string printed = diags.str();
  std::string tail =
      "m.dae:1:1: note: note of error 100\nx\n^\n"
      "daec: 50 further errors not shown (the first 100 are above)\n";
  ASSERT_GE(printed.size(), tail.size());
  EXPECT_EQ(tail, printed.substr(printed.size() - tail.size()));
  EXPECT_EQ(std::string::npos, printed.find("error 101"));
}

TEST(Diagnostics, ErrorCapWithOneMore) {
  DiagnosticEngine diags;
  for (int i = 0; i < 101; ++i) diags.error(SourceLocation{}, "e");
  std::string printed = diags.str();
  EXPECT_NE(std::string::npos,
            printed.find("\ndaec: 1 further error not shown (the first 100 are above)\n"))
      << printed;
}

TEST(Diagnostics, ExactlyAtTheCapNothingIsHidden) {
  DiagnosticEngine diags;
  for (int i = 0; i < 100; ++i) diags.error(SourceLocation{}, "e");
  EXPECT_EQ(100u, diags.diagnostics().size());
  EXPECT_EQ(std::string::npos, diags.str().find("further"));
}

TEST(Diagnostics, WarningsAfterTheCapAreStillShown) {
  DiagnosticEngine diags;
  for (int i = 0; i < 120; ++i) diags.error(SourceLocation{}, "e");
  diags.warning(SourceLocation{}, "w");
  diags.note(SourceLocation{}, "about w");
  ASSERT_EQ(102u, diags.diagnostics().size());
  EXPECT_EQ("w", diags.diagnostics()[100].message);
  EXPECT_EQ("about w", diags.diagnostics()[101].message);
  EXPECT_EQ(1u, diags.warning_count());
}

TEST(Diagnostics, SortByLocationKeepsNotesWithTheirDiagnostic) {
  SourceFile file("m.dae", "a\nb\nc\n");
  DiagnosticEngine diags;
  diags.error(at(file, "a"), "before the sorted range");
  diags.error(at(file, "c"), "third");
  diags.note(at(file, "a"), "note of third");
  diags.error(SourceLocation{}, "no location");
  diags.warning(at(file, "b"), "second");
  diags.error(at(file, "b"), "second too");
  diags.sort_by_location(1);
  std::vector<std::string> messages;
  for (const daec::Diagnostic& d : diags.diagnostics()) messages.push_back(d.message);
  EXPECT_EQ((std::vector<std::string>{"before the sorted range", "second", "second too", "third",
                                      "note of third", "no location"}),
            messages);
}

TEST(Diagnostics, SortByLocationPastTheEndDoesNothing) {
  DiagnosticEngine diags;
  diags.error(SourceLocation{}, "e");
  diags.sort_by_location(5);
  EXPECT_EQ(1u, diags.diagnostics().size());
}

// ---- source files ----

TEST(Diagnostics, LineText) {
  SourceFile file("m.dae", "one\ntwo\r\n\nfour");
  EXPECT_EQ("one", file.line_text(1));
  EXPECT_EQ("two", file.line_text(2));
  EXPECT_EQ("", file.line_text(3));
  EXPECT_EQ("four", file.line_text(4));
  EXPECT_EQ("", file.line_text(5));
}

TEST(Diagnostics, LoadReadsAFile) {
  std::string path = testing::TempDir() + "daec_diagnostics_load.dae";
  {
    std::ofstream out(path, std::ios::binary);
    out << "model m;\n";
  }
  std::string error;
  auto file = SourceFile::load(path, error);
  ASSERT_TRUE(file) << error;
  EXPECT_EQ(path, file->name());
  EXPECT_EQ("model m;\n", file->text());
  std::remove(path.c_str());
}

TEST(Diagnostics, LoadReportsMissingFile) {
  std::string error;
  EXPECT_FALSE(SourceFile::load(testing::TempDir() + "daec_no_such_file.dae", error));
  EXPECT_EQ("No such file or directory", error);
}

TEST(Diagnostics, LoadReportsDirectory) {
  std::string error;
  EXPECT_FALSE(SourceFile::load(testing::TempDir(), error));
  EXPECT_EQ("Is a directory", error);
}

// ---- suggestions and encoding ----

TEST(Diagnostics, EditDistanceCountsASwapAsOneEdit) {
  EXPECT_EQ(0u, daec::edit_distance("alpha", "alpha"));
  EXPECT_EQ(1u, daec::edit_distance("alpah", "alpha"));
  EXPECT_EQ(1u, daec::edit_distance("sinn", "sin"));
  EXPECT_EQ(1u, daec::edit_distance("x", "y"));
  EXPECT_EQ(3u, daec::edit_distance("", "abc"));
  EXPECT_EQ(3u, daec::edit_distance("kitten", "sitting"));
}

TEST(Diagnostics, ClosestName) {
  std::vector<std::string> names{"alpha", "beta", "x", "lambda"};
  EXPECT_EQ("alpha", daec::closest_name("alpah", names).value_or(""));
  EXPECT_EQ("lambda", daec::closest_name("lamda", names).value_or(""));
  EXPECT_EQ("x", daec::closest_name("xx", names).value_or(""));
  EXPECT_FALSE(daec::closest_name("y", names));          // shares nothing with x
  EXPECT_FALSE(daec::closest_name("gamma", names));      // 2 edits from "lambda": too far
  EXPECT_FALSE(daec::closest_name("alpha", {"alpha"}));  // the name itself is no suggestion
  // Equally close candidates: the first wins, so the output is deterministic.
  EXPECT_EQ("ab", daec::closest_name("aa", {"ab", "ba"}).value_or(""));
}

TEST(Diagnostics, FindInvalidUtf8) {
  EXPECT_TRUE(daec::find_invalid_utf8("plain \xCF\x80 \xF0\x9F\x98\x80", 10).empty());
  EXPECT_EQ((std::vector<size_t>{1}), daec::find_invalid_utf8("a\xFF"
                                                              "b",
                                                              10));
  // Each byte that starts no well-formed sequence is reported, as Unicode's "maximal subpart"
  // practice counts them: an overlong form, a surrogate, a code point above U+10FFFF.
  EXPECT_EQ((std::vector<size_t>{0, 1}), daec::find_invalid_utf8("\xC0\xAF", 10));
  EXPECT_EQ((std::vector<size_t>{0, 1, 2}), daec::find_invalid_utf8("\xED\xA0\x80", 10));
  EXPECT_EQ((std::vector<size_t>{0, 1, 2, 3}), daec::find_invalid_utf8("\xF4\x90\x80\x80", 10));
  EXPECT_TRUE(daec::find_invalid_utf8("\xED\x9F\xBF \xF4\x8F\xBF\xBF", 10).empty());  // just below
  EXPECT_EQ((std::vector<size_t>{2}), daec::find_invalid_utf8("ab\xCF", 10));         // truncated
  EXPECT_EQ(2u, daec::find_invalid_utf8("\xFF\xFF\xFF", 2).size());
}

}  // namespace
