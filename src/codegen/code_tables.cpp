// Writing constant tables.
#include "codegen/code_tables.h"

#include <fmt/format.h>

namespace daec {

std::string braced(const std::vector<std::string>& items, const std::string& empty) {
  if (items.empty()) return "{" + empty + "}";
  std::string text = "{", line;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string item = items[i] + (i + 1 < items.size() ? "," : "");
    if (!line.empty() && line.size() + item.size() > 90) {
      text += line + "\n     ";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + item;
  }
  return text + line + "}";
}

static std::vector<std::string> texts_of(const std::vector<int>& values) {
  std::vector<std::string> items;
  items.reserve(values.size());
  for (int v : values) items.push_back(std::to_string(v));
  return items;
}

std::string constant_table(const std::string& name, const std::vector<int>& values) {
  return fmt::format("constexpr int {}[{}] = {};\n", name, std::max<size_t>(1, values.size()),
                     braced(texts_of(values), "0"));
}

std::string member_table(const std::string& name, const std::vector<int>& values) {
  return fmt::format("const int Model::{}[] = {};\n", name, braced(texts_of(values), "0"));
}

}  // namespace daec
