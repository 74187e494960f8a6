// The work counters (see the header) and the operator new that counts allocations.
#include "support/work_counters.h"

#include <cstdlib>
#include <new>

#include <fmt/format.h>

#include "support/text.h"

// The sanitizers bring their own operator new (and check that delete matches it): there the
// allocations go uncounted.
#if defined(__SANITIZE_ADDRESS__)
#define DAEC_COUNT_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define DAEC_COUNT_ALLOCATIONS 0
#endif
#endif
#ifndef DAEC_COUNT_ALLOCATIONS
#define DAEC_COUNT_ALLOCATIONS 1
#endif

namespace daec {

namespace work_detail {
// Constant-initialized: operator new may run before anything else is constructed.
thread_local int current_stage = 0;
thread_local uint64_t counts[kWorkStages][kWorkKinds] = {};
}  // namespace work_detail

WorkCounts work_counts() {
  WorkCounts result{};
  for (size_t s = 0; s < kWorkStages; ++s)
    for (size_t k = 0; k < kWorkKinds; ++k) result[s][k] = work_detail::counts[s][k];
  return result;
}

void reset_work_counts() {
  for (size_t s = 0; s < kWorkStages; ++s)
    for (size_t k = 0; k < kWorkKinds; ++k) work_detail::counts[s][k] = 0;
}

bool allocation_counting() {
  return DAEC_COUNT_ALLOCATIONS != 0;
}

const char* work_stage_name(WorkStage stage) {
  switch (stage) {
    case WorkStage::Other:
      return "other";
    case WorkStage::FrontEnd:
      return "front end";
    case WorkStage::Structure:
      return "structure";
    case WorkStage::Reduction:
      return "reduction";
    case WorkStage::Index:
      return "index";
    case WorkStage::Summary:
      return "summary";
    case WorkStage::CodeGeneration:
      return "code generation";
    case WorkStage::Count:
      break;
  }
  return "?";
}

const char* work_kind_name(WorkKind kind) {
  switch (kind) {
    case WorkKind::Nodes:
      return "nodes";
    case WorkKind::Entries:
      return "entries";
    case WorkKind::Allocations:
      return "allocations";
    case WorkKind::Count:
      break;
  }
  return "?";
}

std::string format_work_counts(const WorkCounts& counts) {
  std::string text;
  for (size_t s = 0; s < kWorkStages; ++s) {
    const auto& row = counts[s];
    if (row[0] == 0 && row[1] == 0 && row[2] == 0) continue;
    text += fmt::format("work: {}: {} nodes, {} entries, {} allocations\n",
                        work_stage_name(static_cast<WorkStage>(s)), grouped_digits(row[0]),
                        grouped_digits(row[1]), grouped_digits(row[2]));
  }
  return text;
}

}  // namespace daec

#if DAEC_COUNT_ALLOCATIONS
// Every other form of operator new in the standard library (arrays, nothrow) calls this one, and
// the library's operator delete frees what malloc gave: only this one is replaced.
void* operator new(std::size_t size) {
  daec::count_work(daec::WorkKind::Allocations);
  if (size == 0) size = 1;
  for (;;) {
    if (void* p = std::malloc(size)) return p;
    std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}
#endif
