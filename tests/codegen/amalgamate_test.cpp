// The runtime headers pasted into one text for daec --main (codegen/amalgamate.h).
#include <gtest/gtest.h>

#include <string>

#include "codegen/amalgamate.h"
#include "codegen/template.h"

namespace daec {
namespace {

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST(Amalgamate, EveryHeaderOnceInIncludeOrderWithoutItsIncludes) {
  std::string text = amalgamate_runtime("daec/simulator/run.hpp");
  EXPECT_EQ(count(text, "#pragma once"), 0u);
  EXPECT_EQ(count(text, "#include <daec/"), 0u);
  EXPECT_EQ(count(text, "#include \"daec/"), 0u);
  for (const char* header : {"daec/model_error.hpp", "daec/simulator/run.hpp",
                             "daec/simulator/radau.hpp", "daec/integrators/radau5.hpp",
                             "daec/integrators/jacobian_matrix.hpp", "daec/adapters/sundials.hpp"})
    EXPECT_EQ(count(text, std::string("// ----- ") + header + "\n"), 1u) << header;
  // A header comes before the first one that includes it is done: model_error.hpp before the
  // end of run.hpp, whose own text closes the amalgamation.
  EXPECT_LT(text.find("// ----- daec/model_error.hpp"), text.rfind("int run(int argc"));
  EXPECT_EQ(text.rfind("// ----- daec/simulator/run.hpp", 0), 0u);
}

TEST(Amalgamate, UnknownHeaderIsAnInternalError) {
  EXPECT_THROW(amalgamate_runtime("daec/no_such.hpp"), TemplateError);
}

}  // namespace
}  // namespace daec
