// Loading source text and mapping byte offsets to lines and columns.
#include "support/source.h"

#include "support/text.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

namespace daec {

SourceFile::SourceFile(std::string name, std::string text, std::string path)
    : name_(std::move(name)), text_(std::move(text)), path_(std::move(path)) {
  if (path_.empty()) path_ = name_;
  static const char kByteOrderMark[] = "\xEF\xBB\xBF";
  if (text_.compare(0, 3, kByteOrderMark) == 0) text_.erase(0, 3);
}

// The error for an input that holds more than `max_bytes` bytes.
static std::string too_large(size_t max_bytes) {
  return "it is larger than the input size limit of " + grouped_digits(max_bytes) +
         " bytes (raise it with --max-input-size)";
}

// Reads with read(2) rather than a stream: std::cin cannot tell a closed or unreadable standard
// input (a directory, `<&-`) from an empty one, and a character device (/dev/zero) has no size to
// check first. Stops after max_bytes + 1 bytes (max_bytes 0: no limit).
static bool read_all(int fd, size_t max_bytes, std::string& text, std::string& error) {
  char buffer[1 << 16];
  for (;;) {
    size_t room = sizeof buffer;
    if (max_bytes > 0) room = std::min(room, max_bytes + 1 - std::min(text.size(), max_bytes));
    ssize_t n = ::read(fd, buffer, room);
    if (n > 0) {
      text.append(buffer, static_cast<size_t>(n));
      if (max_bytes > 0 && text.size() > max_bytes) {
        error = too_large(max_bytes);
        return false;
      }
    } else if (n == 0) {
      return true;
    } else if (errno != EINTR) {
      error = std::strerror(errno);
      return false;
    }
  }
}

// read_all with running out of memory reported as an error: the text of a large input is the
// first thing daec holds.
static bool read_text(int fd, size_t max_bytes, std::string& text, std::string& error) {
  try {
    return read_all(fd, max_bytes, text, error);
  } catch (const std::bad_alloc&) {
    text = std::string();
    error = "out of memory while reading it";
    return false;
  }
}

std::unique_ptr<SourceFile> SourceFile::load(const std::string& path, std::string& error,
                                             size_t max_bytes) {
  std::string text;
  if (path == "-") {
    if (!read_text(STDIN_FILENO, max_bytes, text, error)) return nullptr;
    return std::make_unique<SourceFile>("<stdin>", std::move(text), "-");
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return nullptr;
  }
  // Opening a directory succeeds; reading it fails with EISDIR, which read_all reports.
  bool ok = read_text(fd, max_bytes, text, error);
  ::close(fd);
  if (!ok) return nullptr;
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
    if (ends_line(text_, i)) {
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
    size_t end = text_.find_first_of("\r\n", start);
    while (end != std::string::npos && !ends_line(text_, end))
      end = text_.find_first_of("\r\n", end + 1);
    if (end == std::string::npos) return {};
    start = end + 1;
  }
  size_t end = text_.find_first_of("\r\n", start);
  while (end != std::string::npos && !ends_line(text_, end))
    end = text_.find_first_of("\r\n", end + 1);
  if (end == std::string::npos) end = text_.size();
  std::string_view view(text_.data() + start, end - start);
  if (!view.empty() && view.back() == '\r') view.remove_suffix(1);
  return view;
}

}  // namespace daec
