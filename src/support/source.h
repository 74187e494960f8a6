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

/// The default of --max-input-size: 64 MiB, over ten times the text of a model of 200,000
/// equations (docs/limits.md), which is already more than the reduction handles in minutes.
inline constexpr size_t kDefaultMaxInputBytes = size_t{64} << 20;

/// Whether the byte at `i` of `text` ends a line: a line ends at "\n", "\r\n" (at its '\n') or
/// a lone "\r" (old Mac OS files), so that every line break a text editor shows is counted.
inline bool ends_line(const std::string& text, size_t i) {
  return text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'));
}

class SourceFile {
 public:
  /// `name` is what diagnostics print: the path as given, or `<stdin>`. `path` is what the file
  /// was loaded from ("-" for standard input); empty means the same as `name`. A UTF-8 byte
  /// order mark at the start of `text` (some Windows editors write one) is dropped.
  SourceFile(std::string name, std::string text, std::string path = {});

  /// Reads `path` ("-" reads standard input). Returns nullptr and sets `error` when it cannot,
  /// or when it holds more than `max_bytes` bytes (0: no limit): reading stops there, so that an
  /// endless input (/dev/zero) ends with an error rather than when memory runs out.
  static std::unique_ptr<SourceFile> load(const std::string& path, std::string& error,
                                          size_t max_bytes = kDefaultMaxInputBytes);

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
