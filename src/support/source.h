// A source file held in memory, and positions in it (1-based line and column).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace daec {

class SourceFile;

/// A position in a source file. Columns count Unicode code points, so a caret lines up under the
/// character a user sees even after non-ASCII text in a comment or description.
struct SourceLocation {
  const SourceFile* file = nullptr;
  int line = 0;
  int column = 0;
  size_t offset = 0;  ///< byte offset of the position in the file's text

  bool valid() const { return file != nullptr && line > 0; }
};

class SourceFile {
 public:
  /// `name` is what diagnostics print: the path as given, or `<stdin>`. `path` is what the file
  /// was loaded from ("-" for standard input); empty means the same as `name`.
  SourceFile(std::string name, std::string text, std::string path = {});

  /// Reads `path` ("-" reads standard input). Returns nullptr and sets `error` when it cannot.
  static std::unique_ptr<SourceFile> load(const std::string& path, std::string& error);

  const std::string& name() const { return name_; }
  /// The path as given on the command line: "-" for standard input, where name() is `<stdin>`.
  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }

  /// The location of the byte at `offset` (offset == size() gives the end of the file).
  SourceLocation location_at(size_t offset) const;
  /// The text of line `line` (1-based) without its line terminator.
  std::string_view line_text(int line) const;

 private:
  std::string name_;
  std::string text_;
  std::string path_;
};

}  // namespace daec
