// Counters of the work daec's stages do: the guard that keeps large models linear.
//
// Timing a model on a shared machine measures the machine's load as much as daec; these counts are
// exact and the same on every machine. Each unit of work is charged to the stage running it
// (WorkStageScope): expression nodes that a walk visits (derivatives, substitutions, evaluations,
// sizes, printing, code emission), entries of the maps and tables built (a map of every unknown,
// a point of the rank decisions), and heap allocations (every `new`: whatever a step builds, a
// string per row or a map per row, allocates, so a step that turns quadratic shows there even
// where no walk counts it). A stage whose counts grow faster than the model has turned
// quadratic; tests/driver/work_counters_test.cpp fits the growth of every count on families of
// models of 200 to 1,600 elements, and `daec --work-counts` (hidden, for measuring) prints them.
//
// Allocations are counted by replacing the global operator new (work_counters.cpp); a build
// with the sanitizers keeps theirs and counts none (allocation_counting() is false).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace daec {

/// The stages work is charged to, in pipeline order.
enum class WorkStage : int {
  Other,           ///< outside any stage (the command line, writing files)
  FrontEnd,        ///< reading, parsing, flattening, units
  Structure,       ///< the structural check, first-order and semi-explicit form, the numbering
  Reduction,       ///< the rounds of index reduction
  Index,           ///< the final system: block form, index, start values, conditions on the start
  Summary,         ///< `--check`'s summary and the reports
  CodeGeneration,  ///< the generated code
  Count
};

/// What is counted.
enum class WorkKind : int {
  Nodes,        ///< expression nodes visited by walks
  Entries,      ///< entries of maps, tables and points built
  Allocations,  ///< heap allocations (operator new)
  Count
};

inline constexpr size_t kWorkStages = static_cast<size_t>(WorkStage::Count);
inline constexpr size_t kWorkKinds = static_cast<size_t>(WorkKind::Count);

/// Counts per stage and kind.
using WorkCounts = std::array<std::array<uint64_t, kWorkKinds>, kWorkStages>;

namespace work_detail {
extern thread_local int current_stage;
extern thread_local uint64_t counts[kWorkStages][kWorkKinds];
}  // namespace work_detail

/// Charges `amount` units of `kind` to the current stage.
inline void count_work(WorkKind kind, uint64_t amount = 1) {
  work_detail::counts[work_detail::current_stage][static_cast<int>(kind)] += amount;
}

/// The counts since the last reset_work_counts (of this thread).
WorkCounts work_counts();
void reset_work_counts();

/// Whether allocations are counted (not under the sanitizers, which replace operator new).
bool allocation_counting();

/// "front end", "structure", ... for `--work-counts` and the tests.
const char* work_stage_name(WorkStage stage);
const char* work_kind_name(WorkKind kind);

/// One line per stage that did work: "work: STAGE: N nodes, M entries, K allocations".
std::string format_work_counts(const WorkCounts& counts);

/// Charges the work done while it lives to `stage`, then returns to the stage before.
class WorkStageScope {
 public:
  explicit WorkStageScope(WorkStage stage) : saved_(work_detail::current_stage) {
    work_detail::current_stage = static_cast<int>(stage);
  }
  ~WorkStageScope() { work_detail::current_stage = saved_; }
  WorkStageScope(const WorkStageScope&) = delete;
  WorkStageScope& operator=(const WorkStageScope&) = delete;

 private:
  int saved_;
};

}  // namespace daec
