// Counting expression nodes and checking the limits.
#include "reduction/limits.h"

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

// Depth-first. Operands GiNaC builds on the fly (a term c*x of a sum is stored as the pair (x, c))
// count as nodes too. The measure is the tree's, not the shared graph's: GiNaC shares equal
// subexpressions or holds equal copies depending on the order in which it happened to build them,
// but its algorithms walk every occurrence, and a model whose expressions repeat a large
// subexpression many times (a constraint differentiated again and again) costs time and memory
// in proportion to the tree.
size_t tree_size(const GiNaC::ex& e, size_t stop_above) {
  if (e.nops() == 0) return 1;  // a symbol or a number: most entries of a Jacobian
  size_t count = 0;
  std::vector<GiNaC::ex> pending{e};
  while (!pending.empty() && count <= stop_above) {
    GiNaC::ex node = std::move(pending.back());
    pending.pop_back();
    if (GiNaC::is_exactly_a<GiNaC::mul>(node)) {
      // A sign is free: -x counts as x, and -(a - b) as b - a. Which factor or term carries a
      // sign is GiNaC's choice, made by an order of terms that changes from run to run (it
      // hashes addresses): counting it would make the limit's decision vary.
      size_t signs = 0;
      for (size_t i = 0; i < node.nops(); ++i) {
        const GiNaC::ex& factor = node.op(i);
        if (GiNaC::is_exactly_a<GiNaC::numeric>(factor) &&
            GiNaC::abs(GiNaC::ex_to<GiNaC::numeric>(factor)).is_equal(1)) {
          ++signs;
        } else {
          pending.push_back(factor);
        }
      }
      if (node.nops() - signs != 1) ++count;  // a product of one factor is that factor
      continue;
    }
    ++count;
    for (size_t i = 0; i < node.nops(); ++i) pending.push_back(node.op(i));
  }
  return count;
}

void report_limit(const LimitExceeded& e, const SourceFile* file, DiagnosticEngine& diags) {
  SourceLocation location = e.location();
  if (!location.file) location.file = file;
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
  if (max_size > 0) {
    size_t cap = max_size > SIZE_MAX / kReportedMultiple ? SIZE_MAX : max_size * kReportedMultiple;
    size_t size = distinct_size(e, cap);
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
