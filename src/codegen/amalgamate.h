// Pasting daec's runtime headers (include/daec/, embedded at build time) into one self-contained
// text, for the simulator that `daec --main` writes: users without the installed package compile
// one file (`g++ sim.cpp -lsundials_cvode ...`).
#pragma once

#include <string>
#include <string_view>

namespace daec {

/// The embedded runtime header `name` (an include path such as "daec/simulator/run.hpp") with
/// each `#include <daec/...>` replaced by that header's text, recursively, every header once (at
/// its first inclusion, as the preprocessor would); `#pragma once` lines are dropped. Throws
/// TemplateError (codegen/template.h) for a header that is not embedded.
std::string amalgamate_runtime(std::string_view name);

}  // namespace daec
