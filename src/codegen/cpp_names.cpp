// Identifier renaming and escaping for the generated C++.
#include "codegen/cpp_names.h"

#include <cctype>
#include <cstdio>
#include <iterator>
#include <set>

namespace daec {

// C++17 keywords and alternative tokens, plus names the generated code and the platform claim:
// namespaces of the standard library, the Model struct, `main` (the simulator's), the names the
// included headers declare globally or define as macros, and the compilers' own macros in gnu++
// mode (`linux`, `unix`).
// An array of C strings, turned into the set at run time: a braced list of thousands of
// std::string temporaries takes clang minutes and gigabytes to compile under the sanitizers.
static const std::set<std::string>& unsafe_names() {
  static const char* const listed[] = {
      "alignas",
      "alignof",
      "and",
      "and_eq",
      "asm",
      "auto",
      "bitand",
      "bitor",
      "bool",
      "break",
      "case",
      "catch",
      "char",
      "char8_t",
      "char16_t",
      "char32_t",
      "class",
      "compl",
      "concept",
      "const",
      "consteval",
      "constexpr",
      "constinit",
      "const_cast",
      "continue",
      "co_await",
      "co_return",
      "co_yield",
      "decltype",
      "default",
      "delete",
      "do",
      "double",
      "dynamic_cast",
      "else",
      "enum",
      "explicit",
      "export",
      "extern",
      "false",
      "float",
      "for",
      "friend",
      "goto",
      "if",
      "inline",
      "int",
      "long",
      "mutable",
      "namespace",
      "new",
      "noexcept",
      "not",
      "not_eq",
      "nullptr",
      "operator",
      "or",
      "or_eq",
      "private",
      "protected",
      "public",
      "register",
      "reinterpret_cast",
      "requires",
      "return",
      "short",
      "signed",
      "sizeof",
      "static",
      "static_assert",
      "static_cast",
      "struct",
      "switch",
      "template",
      "this",
      "thread_local",
      "throw",
      "true",
      "try",
      "typedef",
      "typeid",
      "typename",
      "union",
      "unsigned",
      "using",
      "virtual",
      "void",
      "volatile",
      "wchar_t",
      "while",
      "xor",
      "xor_eq",
      "final",
      "override",
      "import",
      "module",
      // namespaces and names of the generated code itself
      "std",
      "posix",
      "Model",
      "daec",
      "main",
  // every global name and macro of the headers the generated code includes (sin, printf, exit,
  // CVode, realtype, NULL, linux, ...), listed by scripts/list_global_names.sh
#include "codegen/global_names.inc"
  // the compilers' built-in functions that no header declares (isnan, cabs, fesetround, ...),
  // which g++ refuses as namespace names; listed by scripts/list_builtin_names.sh
#include "codegen/builtin_names.inc"
  };
  static const std::set<std::string> names(std::begin(listed), std::end(listed));
  return names;
}

static bool is_identifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

static bool is_reserved(const std::string& name) {
  if (name.find("__") != std::string::npos) return true;
  return name.size() >= 2 && name[0] == '_' && std::isupper(static_cast<unsigned char>(name[1]));
}

bool is_safe_cpp_identifier(const std::string& name) {
  return is_identifier(name) && !is_reserved(name) && name[0] != '_' &&
         unsafe_names().count(name) == 0;
}

std::string cpp_identifier(const std::string& name) {
  if (is_safe_cpp_identifier(name)) return name;
  std::string tidy;  // runs of '_' collapsed, none leading or trailing, other characters dropped
  for (char c : name) {
    bool word = std::isalnum(static_cast<unsigned char>(c)) != 0;
    if (word) {
      tidy += c;
    } else if (!tidy.empty() && tidy.back() != '_') {
      tidy += '_';
    }
  }
  while (!tidy.empty() && tidy.back() == '_') tidy.pop_back();
  if (tidy.empty() || std::isdigit(static_cast<unsigned char>(tidy[0]))) tidy = "model_" + tidy;
  while (!tidy.empty() && tidy.back() == '_') tidy.pop_back();
  if (!is_safe_cpp_identifier(tidy) || tidy == name) tidy += "_model";
  return tidy;
}

static std::string octal_escape(unsigned char c) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "\\%03o", static_cast<unsigned>(c));
  return buffer;
}

std::string cpp_string_contents(const std::string& text) {
  std::string out;
  for (char ch : text) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '?') {
      out += "\\?";
    } else if (c < 0x20 || c >= 0x7f) {
      out += octal_escape(c);
    } else {
      out += ch;
    }
  }
  return out;
}

std::string cpp_quoted_comment(const std::string& text) {
  return '"' + cpp_string_contents(text) + '"';
}

}  // namespace daec
