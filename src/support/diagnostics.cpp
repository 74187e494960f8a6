// Collecting diagnostics and printing them with the offending source line and a caret.
#include "support/diagnostics.h"

#include <algorithm>
#include <limits>
#include <ostream>
#include <sstream>

#include "support/text.h"

namespace daec {

void DiagnosticEngine::error(const SourceLocation& loc, std::string message) {
  add(Severity::Error, loc, std::move(message));
}

void DiagnosticEngine::warning(const SourceLocation& loc, std::string message) {
  add(Severity::Warning, loc, std::move(message));
}

void DiagnosticEngine::note(const SourceLocation& loc, std::string message) {
  add(Severity::Note, loc, std::move(message));
}

void DiagnosticEngine::add(Severity severity, const SourceLocation& loc, std::string message) {
  if (severity == Severity::Error) {
    ++error_count_;
    dropping_ = error_count_ > kMaxStoredErrors;
  } else if (severity == Severity::Warning) {
    ++warning_count_;
    dropping_ = false;
  }
  if (dropping_) return;
  diagnostics_.push_back(Diagnostic{severity, loc, std::move(message)});
}

void DiagnosticEngine::sort_by_location(size_t first) {
  if (first >= diagnostics_.size()) return;
  // Groups: an error or warning with the notes that follow it.
  std::vector<std::vector<Diagnostic>> groups;
  for (size_t i = first; i < diagnostics_.size(); ++i) {
    if (groups.empty() || diagnostics_[i].severity != Severity::Note) groups.emplace_back();
    groups.back().push_back(std::move(diagnostics_[i]));
  }
  auto key = [](const std::vector<Diagnostic>& group) {
    const SourceLocation& loc = group.front().location;
    return loc.valid() ? loc.offset : std::numeric_limits<size_t>::max();
  };
  std::stable_sort(groups.begin(), groups.end(),
                   [&](const auto& a, const auto& b) { return key(a) < key(b); });
  diagnostics_.resize(first);
  for (std::vector<Diagnostic>& group : groups) {
    for (Diagnostic& d : group) diagnostics_.push_back(std::move(d));
  }
}

static const char* severity_name(Severity severity) {
  switch (severity) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
  }
  return "error";
}

// The caret line reproduces the tabs of the source line so that the caret lands under the column.
static std::string caret_line(std::string_view line, int column) {
  std::string out;
  int current = 1;
  for (size_t i = 0; i < line.size() && current < column; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte: same column
    out += (c == '\t') ? '\t' : ' ';
    ++current;
  }
  while (current < column) {  // a column just past the end of the line
    out += ' ';
    ++current;
  }
  out += '^';
  return out;
}

std::string format_diagnostic(const Diagnostic& d) {
  std::ostringstream out;
  if (d.location.valid()) {
    out << d.location.file->name() << ':' << d.location.line << ':' << d.location.column << ": ";
  } else if (d.location.file != nullptr) {
    out << d.location.file->name() << ": ";
  }
  out << severity_name(d.severity) << ": " << d.message;
  if (d.location.valid()) {
    std::string_view line = d.location.file->line_text(d.location.line);
    out << '\n' << printable_text(line) << '\n' << caret_line(line, d.location.column);
  }
  return out.str();
}

void DiagnosticEngine::print(std::ostream& out) const {
  for (const Diagnostic& d : diagnostics_) out << format_diagnostic(d) << '\n';
  if (error_count_ > kMaxStoredErrors) {
    size_t hidden = error_count_ - kMaxStoredErrors;
    out << "daec: " << hidden << " further error" << (hidden == 1 ? "" : "s")
        << " not shown (the first " << kMaxStoredErrors << " are above)\n";
  }
}

std::string DiagnosticEngine::str() const {
  std::ostringstream out;
  print(out);
  return out.str();
}

}  // namespace daec
