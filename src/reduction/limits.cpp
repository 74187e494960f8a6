// Counting expression nodes and checking the limits.
#include "reduction/limits.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "reduction/shared_expressions.h"
#include "support/text.h"
#include "support/watchdog.h"

namespace daec {

namespace {

// An exceeded size is counted on up to this many times the limit, so that the message can say how
// large the expression got without counting an arbitrarily large one.
constexpr size_t kReportedMultiple = 4;

}  // namespace

void report_limit(const LimitExceeded& e, const SourceFile* file, DiagnosticEngine& diags) {
  SourceLocation location = e.location();
  if (!location.file) location.file = file;
  // A stage about the whole model points at the start of the file, as out-of-memory errors do
  // (driver/process_model.cpp), so that the message keeps the FILE:LINE:COL form.
  if (!location.valid() && location.file) location = location.file->location_at(0);
  diags.error(location, e.what());
}

void report_expression_failure(const std::exception& e, const SourceLocation& fallback,
                               DiagnosticEngine& diags) {
  std::string detail = e.what();
  // GiNaC prefixes the function that threw ("power::eval(): division by zero").
  size_t prefix_end = detail.find("(): ");
  if (prefix_end != std::string::npos) detail.erase(0, prefix_end + 4);
  SourceLocation location = current_stage_location();
  if (!location.valid()) location = fallback;
  std::string stage = current_stage().empty() ? "reducing the model" : current_stage();
  diags.error(location,
              fmt::format("the model's expressions are undefined while {} ({})", stage, detail));
}

void checkpoint(const SourceLocation& location, const std::string& description) {
  enter_stage(location, description);
  check_time();
}

void check_time() {
  if (time_is_up()) throw LimitExceeded(current_stage_location(), time_limit_message());
}

void check_expression(const GiNaC::ex& e, size_t max_size) {
  const SourceLocation& location = current_stage_location();
  // Most expressions are small: a bound on their tree says so without the table of nodes.
  constexpr size_t kSmallTree = 4096;
  if (max_size > 0 && !written_size_at_most(e, std::min(max_size, kSmallTree))) {
    size_t cap = max_size > SIZE_MAX / kReportedMultiple ? SIZE_MAX : max_size * kReportedMultiple;
    size_t size = written_size(e, cap);
    if (size > max_size) {
      std::string reached = size > cap ? "more than " + grouped_digits(cap) : grouped_digits(size);
      throw LimitExceeded(location,
                          fmt::format("expression size limit exceeded while {}: {} nodes, limit {} "
                                      "(raise it with --max-expression-size)",
                                      current_stage(), reached, grouped_digits(max_size)));
    }
  }
  check_time();
}

}  // namespace daec
