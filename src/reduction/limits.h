// The resource limits checked where expressions grow (docs/limits.md): the size of an expression
// (--max-expression-size) and the time limit (--time-limit, see support/watchdog.h). The
// reduction and the code generator call these at each differentiation and substitution; a limit
// exceeded throws LimitExceeded, which the caller turns into a diagnostic at its location.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include <ginac/ginac.h>

#include "support/diagnostics.h"
#include "support/source.h"

namespace daec {

/// The default of --max-expression-size, in nodes written out: thousands of times the largest
/// expression of the bundled models and of the 128-link benchmark chain, hundreds of times that
/// of the 20-point Fekete model, ten times that of the N-pendulum of index 17 (docs/limits.md).
/// It stops the exploding chain of docs/limits.md at N = 7 in 4 s and at N = 8 in 1 s.
inline constexpr size_t kDefaultMaxExpressionSize = 1'000'000;

/// A resource limit was exceeded; `what()` is the message (without "error: ").
class LimitExceeded : public std::runtime_error {
 public:
  LimitExceeded(const SourceLocation& location, const std::string& message)
      : std::runtime_error(message), location_(location) {}
  const SourceLocation& location() const { return location_; }

 private:
  SourceLocation location_;
};

/// Reports `e` as an error in `diags`; a stage that concerns the model as a whole names no place,
/// and is reported at the start (1:1) of its file, or of `file`.
void report_limit(const LimitExceeded& e, const SourceFile* file, DiagnosticEngine& diags);

/// Reports `e`, thrown by GiNaC from a model's expressions (a division by zero met while
/// substituting, the pole of log(0) in a derivative), as an error at the current stage's location,
/// or at `fallback` for a stage that concerns the whole model: every expression a model can write
/// ends as a diagnostic, never as a crash.
void report_expression_failure(const std::exception& e, const SourceLocation& fallback,
                               DiagnosticEngine& diags);

/// Enters the stage `description` at `location` (see enter_stage) and throws LimitExceeded if the
/// time limit has been reached.
void checkpoint(const SourceLocation& location, const std::string& description);

/// Throws LimitExceeded, naming the current stage, if the time limit has been reached: for loops
/// within one stage.
void check_time();

/// Throws LimitExceeded, naming the current stage, if `e` written out as a tree has more than
/// `max_size` nodes (reduction/shared_expressions.h, written_size: the size GiNaC's own walks and
/// the derivatives of derivatives follow) (max_size 0: no limit); then checks the time as
/// `checkpoint` does.
void check_expression(const GiNaC::ex& e, size_t max_size);

}  // namespace daec
