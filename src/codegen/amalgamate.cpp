// Amalgamation of the embedded runtime headers.
#include "codegen/amalgamate.h"

#include <set>

#include "codegen/template.h"

namespace daec {

namespace {

constexpr std::string_view kInclude = "#include ";
constexpr std::string_view kDaecPrefix = "daec/";

/// "daec/simulator/run.hpp" for the line `#include <daec/simulator/run.hpp>` (or with quotes),
/// else "".
std::string_view daec_include(std::string_view line, std::string_view header) {
  if (line.substr(0, kInclude.size()) != kInclude || line.size() <= kInclude.size()) return {};
  const char open = line[kInclude.size()];
  if (open != '<' && open != '"') return {};
  std::string_view path = line.substr(kInclude.size() + 1);
  if (path.substr(0, kDaecPrefix.size()) != kDaecPrefix) return {};
  size_t close = path.find(open == '<' ? '>' : '"');
  if (close == std::string_view::npos)
    throw TemplateError("runtime header " + std::string(header) + ": malformed include");
  return path.substr(0, close);
}

void paste(std::string_view name, std::set<std::string, std::less<>>& pasted, std::string& out) {
  if (!pasted.insert(std::string(name)).second) return;
  std::string_view text = embedded_runtime_header(name);
  out += "// ----- " + std::string(name) + "\n";
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line == "#pragma once") continue;
    if (std::string_view included = daec_include(line, name); !included.empty()) {
      paste(included, pasted, out);
      continue;
    }
    out.append(line);
    out += '\n';
  }
}

}  // namespace

std::string amalgamate_runtime(std::string_view name) {
  std::set<std::string, std::less<>> pasted;
  std::string out;
  paste(name, pasted, out);
  return out;
}

}  // namespace daec
