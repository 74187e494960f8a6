// Counting expression nodes and checking the limits.
#include "reduction/limits.h"

#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "support/text.h"
#include "support/watchdog.h"

namespace daec {

namespace {

// An exceeded size is counted on up to this many times the limit, so that the message can say how
// large the expression got without counting an arbitrarily large one.
constexpr size_t kReportedMultiple = 4;

}  // namespace

// Depth-first over the subexpressions not seen yet. Equal subexpressions count once, whether GiNaC
// shares them or holds equal copies: which of the two it does depends on the order in which it
// happened to build them, which changes from run to run, and the count must not. Operands GiNaC
// builds on the fly (a term c*x of a sum is stored as the pair (x, c)) count as nodes too.
size_t dag_size(const GiNaC::ex& e, size_t stop_above) {
  if (e.nops() == 0) return 1;  // a symbol or a number: most entries of a Jacobian
  std::unordered_set<GiNaC::ex, std::hash<GiNaC::ex>, GiNaC::ex_is_equal> seen;
  std::vector<GiNaC::ex> pending{e};
  while (!pending.empty() && seen.size() <= stop_above) {
    GiNaC::ex node = std::move(pending.back());
    pending.pop_back();
    if (!seen.insert(node).second) continue;
    for (size_t i = 0; i < node.nops(); ++i) pending.push_back(node.op(i));
  }
  return seen.size();
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
    size_t size = dag_size(e, cap);
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
