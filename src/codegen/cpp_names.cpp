// Identifier renaming and escaping for the generated C++.
#include "codegen/cpp_names.h"

#include <cctype>
#include <cstdio>
#include <set>

namespace daec {

// C++17 keywords and alternative tokens, plus names the generated code and the platform claim:
// namespaces of the standard library, the Model struct, and macros that <cmath>, <cstdio>,
// <cstdlib>, <cstring>, <cerrno>, glibc (GNU mode) or g++ in gnu++ mode (`linux`, `unix`) define.
static const std::set<std::string>& unsafe_names() {
  static const std::set<std::string> names = {
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
      // namespaces and types the generated code refers to
      "std",
      "posix",
      "Model",
      "daec",
      // macros of the compilers and the C library
      "linux",
      "unix",
      "i386",
      "NULL",
      "EOF",
      "BUFSIZ",
      "FILENAME_MAX",
      "FOPEN_MAX",
      "L_tmpnam",
      "TMP_MAX",
      "SEEK_SET",
      "SEEK_CUR",
      "SEEK_END",
      "stdin",
      "stdout",
      "stderr",
      "errno",
      "assert",
      "offsetof",
      "EXIT_SUCCESS",
      "EXIT_FAILURE",
      "RAND_MAX",
      "MB_CUR_MAX",
      "INFINITY",
      "NAN",
      "HUGE_VAL",
      "HUGE_VALF",
      "HUGE_VALL",
      "FP_NAN",
      "FP_INFINITE",
      "FP_ZERO",
      "FP_SUBNORMAL",
      "FP_NORMAL",
      "FP_ILOGB0",
      "FP_ILOGBNAN",
      "MATH_ERRNO",
      "MATH_ERREXCEPT",
      "math_errhandling",
      "isnan",
      "isinf",
      "isfinite",
      "signbit",
      "fpclassify",
      "isnormal",
      "EDOM",
      "ERANGE",
      "EILSEQ",
      "CHAR_BIT",
      "INT_MAX",
      "INT_MIN",
      "LONG_MAX",
      "LONG_MIN",
      "M_E",
      "M_LOG2E",
      "M_LOG10E",
      "M_LN2",
      "M_LN10",
      "M_PI",
      "M_PI_2",
      "M_PI_4",
      "M_1_PI",
      "M_2_PI",
      "M_2_SQRTPI",
      "M_SQRT2",
      "M_SQRT1_2",
      "DOMAIN",
      "SING",
      "OVERFLOW",
      "UNDERFLOW",
      "TLOSS",
      "PLOSS",
      "major",
      "minor",
      "makedev",
      "RCONST",
      "SUNTRUE",
      "SUNFALSE",
      "TRUE",
      "FALSE",
      "CV_BDF",
      "CV_ADAMS",
      "CV_NORMAL",
      "CV_ONE_STEP",
      "CV_SUCCESS",
      "BIG_REAL",
      "SMALL_REAL",
      "UNIT_ROUNDOFF",
  };
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
