// The template substitution mechanism.
#include "codegen/template.h"

#include <set>

namespace daec {

namespace {

struct Renderer {
  std::string_view name;
  const TemplateValues& values;
  std::set<std::string> used;
  std::string out;

  [[noreturn]] void fail(int line, const std::string& what) const {
    throw TemplateError("template " + std::string(name) + ":" + std::to_string(line) + ": " + what);
  }

  const std::string& value_of(const std::string& key, int line) {
    auto it = values.find(key);
    if (it == values.end()) fail(line, "no value for {{" + key + "}}");
    used.insert(key);
    return it->second;
  }

  // The name of the placeholder a line holds alone (between whitespace), or "" if it holds
  // something else.
  static std::string alone_on_line(std::string_view line) {
    size_t indent = line.find_first_not_of(" \t");
    if (indent == std::string_view::npos || line.compare(indent, 2, "{{") != 0) return "";
    size_t close = line.find("}}", indent);
    if (close == std::string_view::npos || close + 2 != line.size()) return "";
    std::string key(line.substr(indent + 2, close - indent - 2));
    return key.find("{{") == std::string::npos ? key : "";
  }

  // Placeholders in a dropped section count as used when given, and need no value.
  void skip_line(std::string_view line) {
    for (size_t open = line.find("{{"); open != std::string_view::npos;
         open = line.find("{{", open + 2)) {
      size_t close = line.find("}}", open + 2);
      if (close == std::string_view::npos) return;
      std::string key(line.substr(open + 2, close - open - 2));
      if (values.count(key)) used.insert(key);
    }
  }

  // `{{#name}}` or `{{/name}}` alone on the line: opens or closes a section. `section` is the
  // open one ("" for none), `keep` whether its lines are rendered.
  bool render_section_line(std::string_view line, int number, std::string& section, bool& keep) {
    std::string key = alone_on_line(line);
    if (key.size() < 2 || (key[0] != '#' && key[0] != '/')) return false;
    std::string label = key.substr(1);
    if (key[0] == '#') {
      if (!section.empty()) fail(number, "section {{#" + label + "}} inside {{#" + section + "}}");
      const std::string& value = value_of(label, number);
      if (value != "true" && value != "false")
        fail(number, "section {{#" + label + "}} needs true or false, not '" + value + "'");
      section = label;
      keep = value == "true";
    } else {
      if (section != label) fail(number, "{{/" + label + "}} closes no open section");
      section.clear();
      keep = true;
    }
    return true;
  }

  // A line holding only whitespace and one placeholder: the value is a block of lines.
  bool render_block_line(std::string_view line, int number) {
    std::string key = alone_on_line(line);
    if (key.empty()) return false;
    size_t indent = line.find_first_not_of(" \t");
    const std::string& block = value_of(key, number);
    std::string_view prefix = line.substr(0, indent);
    size_t start = 0;
    while (start < block.size()) {
      size_t end = block.find('\n', start);
      if (end == std::string::npos) end = block.size();
      std::string_view part(block.data() + start, end - start);
      if (!part.empty()) out.append(prefix);
      out.append(part);
      out += '\n';
      start = end + 1;
    }
    return true;
  }

  void render_inline(std::string_view line, int number) {
    size_t pos = 0;
    while (true) {
      size_t open = line.find("{{", pos);
      if (open == std::string_view::npos) break;
      size_t close = line.find("}}", open + 2);
      if (close == std::string_view::npos) fail(number, "unterminated {{");
      out.append(line.substr(pos, open - pos));
      out += value_of(std::string(line.substr(open + 2, close - open - 2)), number);
      pos = close + 2;
    }
    out.append(line.substr(pos));
    out += '\n';
  }
};

}  // namespace

std::string render_template(std::string_view template_name, std::string_view text,
                            const TemplateValues& values) {
  Renderer renderer{template_name, values, {}, {}};
  size_t start = 0;
  int number = 1;
  std::string section;
  bool keep = true;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (renderer.render_section_line(line, number, section, keep)) {
      // the section's bounds print nothing
    } else if (!keep) {
      renderer.skip_line(line);
    } else if (!renderer.render_block_line(line, number)) {
      renderer.render_inline(line, number);
    }
    start = end + 1;
    ++number;
  }
  if (!section.empty()) renderer.fail(number - 1, "section {{#" + section + "}} is not closed");
  for (const auto& [key, value] : values) {
    if (renderer.used.count(key) == 0) {
      throw TemplateError("template " + std::string(template_name) + ": {{" + key +
                          "}} was given but is not used");
    }
  }
  return renderer.out;
}

}  // namespace daec
