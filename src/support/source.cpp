// Loading source text and mapping byte offsets to lines and columns.
#include "support/source.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace daec {

SourceFile::SourceFile(std::string name, std::string text, std::string path)
    : name_(std::move(name)), text_(std::move(text)), path_(std::move(path)) {
  if (path_.empty()) path_ = name_;
}

// Read with read(2) rather than std::cin, which cannot tell a closed or unreadable standard
// input (a directory, `<&-`) from an empty one.
static bool read_standard_input(std::string& text, std::string& error) {
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n > 0) {
      text.append(buffer, static_cast<size_t>(n));
    } else if (n == 0) {
      return true;
    } else if (errno != EINTR) {
      error = std::strerror(errno);
      return false;
    }
  }
}

std::unique_ptr<SourceFile> SourceFile::load(const std::string& path, std::string& error) {
  if (path == "-") {
    std::string text;
    if (!read_standard_input(text, error)) return nullptr;
    return std::make_unique<SourceFile>("<stdin>", std::move(text), "-");
  }
  // Opening a directory succeeds; reading it then throws from inside the stream buffer.
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    error = std::strerror(EISDIR);
    return nullptr;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = std::strerror(errno);
    return nullptr;
  }
  std::string text;
  try {
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::exception&) {
    in.setstate(std::ios::badbit);
  }
  if (in.bad()) {
    error = "read error";
    return nullptr;
  }
  return std::make_unique<SourceFile>(path, std::move(text));
}

// A UTF-8 continuation byte does not start a new column.
static bool is_continuation_byte(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

SourceLocation SourceFile::location_at(size_t offset) const {
  if (offset > text_.size()) offset = text_.size();
  SourceLocation loc{this, 1, 1, offset};
  for (size_t i = 0; i < offset; ++i) {
    unsigned char c = static_cast<unsigned char>(text_[i]);
    if (c == '\n') {
      ++loc.line;
      loc.column = 1;
    } else if (!is_continuation_byte(c)) {
      ++loc.column;
    }
  }
  return loc;
}

std::string_view SourceFile::line_text(int line) const {
  size_t start = 0;
  for (int current = 1; current < line; ++current) {
    size_t newline = text_.find('\n', start);
    if (newline == std::string::npos) return {};
    start = newline + 1;
  }
  size_t end = text_.find('\n', start);
  if (end == std::string::npos) end = text_.size();
  std::string_view view(text_.data() + start, end - start);
  if (!view.empty() && view.back() == '\r') view.remove_suffix(1);
  return view;
}

}  // namespace daec
