# Embeds the code templates (templates/*.in) into daec at build time: writes a C++ file that
# holds each template as a raw string literal, found by file name through embedded_template().
# Run as: cmake -DOUTPUT=file.cpp -DTEMPLATES="a.in|b.in" -P embed_templates.cmake
string(REPLACE "|" ";" TEMPLATES "${TEMPLATES}")
set(delimiter "daec_template")
set(entries "")
foreach(path IN LISTS TEMPLATES)
  file(READ "${path}" text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${path} contains the raw-string delimiter )${delimiter}\"")
  endif()
  get_filename_component(name "${path}" NAME)
  string(APPEND entries "    {\"${name}\", R\"${delimiter}(${text})${delimiter}\"},\n")
endforeach()
set(content "// Generated at build time from templates/ by cmake/embed_templates.cmake; edit the
// templates, not this file.
#include \"codegen/template.h\"

namespace daec {

namespace {
struct EmbeddedTemplate {
  std::string_view name;
  std::string_view text;
};
const EmbeddedTemplate kTemplates[] = {
${entries}};
}  // namespace

std::string_view embedded_template(std::string_view file_name) {
  for (const EmbeddedTemplate& t : kTemplates) {
    if (t.name == file_name) return t.text;
  }
  throw TemplateError(\"no embedded template named \" + std::string(file_name));
}

}  // namespace daec
")
# Rewrite only on change, so that an unchanged template does not rebuild daec.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${content}")
