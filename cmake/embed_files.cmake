# Embeds text files into daec at build time: writes a C++ file that holds each file as a raw
# string literal, found by its name through a lookup function. Used for the code templates
# (templates/*.in, by file name) and the runtime headers (include/daec/**, by include path such
# as daec/simulator/run.hpp), which `daec --main` pastes into a self-contained simulator.
# Run as: cmake -DOUTPUT=file.cpp -DFILES="a|b" -DBASE=dir -DFUNCTION=name -DKIND=word
#         -P embed_files.cmake
# Each file is named by its path relative to BASE. FUNCTION(name) returns the text, or throws
# TemplateError("no embedded KIND named ...") -- a bug in daec, not in a model.
string(REPLACE "|" ";" FILES "${FILES}")
set(delimiter "daec_embedded")
set(entries "")
foreach(path IN LISTS FILES)
  file(READ "${path}" text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${path} contains the raw-string delimiter )${delimiter}\"")
  endif()
  file(RELATIVE_PATH name "${BASE}" "${path}")
  string(APPEND entries "    {\"${name}\", R\"${delimiter}(${text})${delimiter}\"},\n")
endforeach()
set(content "// Generated at build time by cmake/embed_files.cmake; edit the embedded files, not
// this file.
#include \"codegen/template.h\"

namespace daec {

namespace {
struct EmbeddedFile {
  std::string_view name;
  std::string_view text;
};
const EmbeddedFile kFiles[] = {
${entries}};
}  // namespace

std::string_view ${FUNCTION}(std::string_view name) {
  for (const EmbeddedFile& file : kFiles) {
    if (file.name == name) return file.text;
  }
  throw TemplateError(\"no embedded ${KIND} named \" + std::string(name));
}

}  // namespace daec
")
# Rewrite only on change, so that an unchanged file does not rebuild daec.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${content}")
