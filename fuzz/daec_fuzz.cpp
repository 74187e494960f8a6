// The libFuzzer target (issue 6; spec §6: no input crashes daec or makes it hang): the bytes are a
// .dae file run through the whole pipeline in process — front end, reduction, code generation —
// with the diagnostics printed into a string, as the daec command would print them.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

#include "codegen/generate.h"
#include "frontend/frontend.h"
#include "reduction/limits.h"
#include "reduction/pipeline.h"
#include "support/diagnostics.h"
#include "support/source.h"

// A few bytes can ask for a large model (`for i in 1:9999 loop ...`, or `parameter N = 300` in
// the pendulum chain); the element budget of the flattening stage keeps the inputs the fuzzer
// tries at sizes that reduce in well under its 10 s timeout with the sanitizers (the bundled
// array models fit: the Fekete model takes 94 at its N = 4, 282 at N = 8). The default budget
// (1,000,000) is tested by tests/frontend/flatten_test.cpp.
constexpr size_t kFuzzMaxElements = 300;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  daec::SourceFile file("fuzz.dae", std::string(reinterpret_cast<const char*>(data), size));
  daec::DiagnosticEngine diags;
  daec::FlattenOptions options;
  options.max_elements = kFuzzMaxElements;
  std::optional<daec::Model> model = daec::run_frontend(file, diags, options);
  std::optional<daec::ReducedSystem> reduced;
  if (model) reduced = daec::reduce_model(*model, daec::ReductionOptions{}, diags);
  std::ostringstream printed;
  diags.print(printed);
  if (reduced) {
    try {
      daec::GeneratedCode code = daec::generate_code(*reduced, daec::CodegenOptions{});
      if (code.source.empty()) __builtin_trap();  // generated code is never empty
    } catch (const daec::LimitExceeded&) {
      // The expression-size limit: daec reports it as an error in the model. Any other
      // exception escapes, and libFuzzer reports it as a crash (daec would call it internal).
    }
  }
  return 0;
}
