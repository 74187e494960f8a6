// The diagnostics engine: every stage reports errors, warnings and notes here, with a location;
// the driver prints them as `file:line:col: error: message`, the source line and a caret.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "support/source.h"

namespace daec {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity;
  SourceLocation location;  ///< may be invalid for diagnostics about a whole file
  std::string message;
};

class DiagnosticEngine {
 public:
  void error(const SourceLocation& loc, std::string message);
  void warning(const SourceLocation& loc, std::string message);
  /// A note attaches to the diagnostic reported just before it (e.g. "previous declaration is
  /// here").
  void note(const SourceLocation& loc, std::string message);

  /// Reorders the diagnostics stored after the first `first` by position in their file, keeping
  /// each note after the diagnostic it belongs to; those without a location go last. For a stage
  /// that checks in several sweeps but should report in source order, as a reader expects.
  void sort_by_location(size_t first);

  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  size_t error_count() const { return error_count_; }
  size_t warning_count() const { return warning_count_; }
  bool has_errors() const { return error_count_ > 0; }

  /// Prints every diagnostic in the order reported, each followed by its source line and caret.
  void print(std::ostream& out) const;
  /// The printed form of all diagnostics, as one string (used by tests and batch mode).
  std::string str() const;

  /// Once this many errors have been reported, further ones are counted but not stored, so that
  /// a pathological input cannot flood the terminal.
  static constexpr size_t kMaxStoredErrors = 100;

 private:
  void add(Severity severity, const SourceLocation& loc, std::string message);

  std::vector<Diagnostic> diagnostics_;
  size_t error_count_ = 0;
  size_t warning_count_ = 0;
  bool dropping_ = false;  ///< the error limit was reached: notes of dropped errors go too
};

/// Formats one diagnostic as compilers print it (without a trailing newline after the caret line).
std::string format_diagnostic(const Diagnostic& diagnostic);

}  // namespace daec
