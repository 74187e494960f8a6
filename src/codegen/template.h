// Filling the templates of templates/ (embedded into daec at build time): `{{name}}` placeholders
// are replaced by text. A placeholder alone on its line takes a block of lines, each indented like
// the placeholder; an empty block removes the line. A section, the lines between `{{#name}}` and
// `{{/name}}` (each alone on its line), is kept when the value of name is `true` and dropped when
// it is `false`: text that only some models have stays in the template too. Every placeholder
// outside dropped sections must get a value and every value must be used, so a template and its
// generator cannot drift apart silently.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace daec {

/// A template and the values given for it do not match (a bug in daec, not in the model).
struct TemplateError : std::logic_error {
  using std::logic_error::logic_error;
};

using TemplateValues = std::map<std::string, std::string>;

/// `text` with every `{{name}}` replaced by values.at(name) and its sections kept or dropped.
/// `template_name` names the template in errors. Throws TemplateError on a placeholder without a
/// value, a value without a placeholder, an unterminated `{{`, a section whose value is neither
/// `true` nor `false`, or sections that are unclosed, nested or closed out of order.
std::string render_template(std::string_view template_name, std::string_view text,
                            const TemplateValues& values);

/// The text of an embedded template by file name (`model.cpp.in`); throws TemplateError if
/// there is none.
std::string_view embedded_template(std::string_view file_name);

/// The text of an embedded runtime header by include path (`daec/simulator/run.hpp`); throws
/// TemplateError if there is none.
std::string_view embedded_runtime_header(std::string_view include_path);

}  // namespace daec
