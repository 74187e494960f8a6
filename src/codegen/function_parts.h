// Long straight-line code split into functions of bounded length (docs/generated-code.md, "Large
// models"): g++ and clang++ at -O2 take time that grows faster than linearly with the length of one
// function, so a large model's statements are cut into "parts", each a function of at most a fixed
// cost, called in order by the function they came from. A temporary (`const double w12 = ...;`)
// that a later part reads is stored into a scratch array `spill` where it is defined and loaded
// from it where it is read; every other temporary stays local to its part. Short code is left as it
// is.
//
// The parts are defined at namespace scope, in the main file or, with --split, spread over
// several files that compile in parallel (generate.cpp places them).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace daec {

struct CodeParameter {
  std::string type;  ///< `const double*`, `double`, `int*`, ...
  std::string name;
};

/// Statements to run in order, each complete (one or more lines, each ending in '\n'). A
/// statement that contains `return ` returns an int status (nonzero: stop), as factor_A's do.
struct StraightLine {
  std::string name;                       ///< the parts are called NAME_part1, NAME_part2, ...
  std::vector<CodeParameter> parameters;  ///< everything the statements may refer to
  std::vector<std::string> statements;
};

/// One part: a function at namespace scope.
struct FunctionPart {
  std::string declaration;  ///< `void rhs_part1(const double* p, ...);`
  std::string definition;
};

/// The namespace the parts live in, inside the model's namespace.
inline constexpr const char* kPartsNamespace = "daec_parts";

class FunctionParts {
 public:
  /// `max_cost`: what one part may hold, in lines plus one per 100 characters (0: no limit).
  explicit FunctionParts(size_t max_cost) : max_cost_(max_cost) {}

  /// Code that runs `code` in place: its statements as they are if they fit in one part, else
  /// the calls of the parts (recorded in parts()), returning early on a nonzero status.
  std::string body(const StraightLine& code);

  const std::vector<FunctionPart>& parts() const { return parts_; }

 private:
  size_t max_cost_;
  std::vector<FunctionPart> parts_;
};

/// Whether `c` may be part of an identifier (a letter, a digit or _).
bool is_word(char c);

/// Whether `code` uses the identifier `name` (comments left out).
bool uses_name(const std::string& code, const std::string& name);

/// The temporaries `code` mentions (`w12` as 12), in order of appearance, comments left out.
std::vector<long> temporaries_in(const std::string& code);

/// The lines for a local array `name` of `count` elements of `type` (`double`, `int`): on the
/// stack when small, in a std::vector when large (a model with tens of thousands of unknowns
/// would overflow the stack). `name` is a pointer or an array; `zeroed` initialises it to 0.
std::string local_array(const std::string& type, const std::string& name, size_t count,
                        bool zeroed = false);

}  // namespace daec
