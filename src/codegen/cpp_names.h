// Making model text safe where it lands in generated C++ (docs/language.md,
// docs/generated-code.md): identifiers that are C++ keywords, reserved names or well-known macros
// are renamed; strings and comments are escaped so that no name, description or file name can end a
// literal or a comment early.
#pragma once

#include <string>

namespace daec {

/// Whether `name` can be used as a C++ identifier as it is: a valid identifier that is not a
/// keyword, not reserved to the implementation (`_X...`, `..__...`), and not a macro that the
/// standard headers, the compilers or SUNDIALS may define (`linux`, `NULL`, `errno`, ...).
bool is_safe_cpp_identifier(const std::string& name);

/// `name` itself when it is safe, else a safe identifier derived from it: `class` -> `class_model`,
/// `__x` -> `x`.
std::string cpp_identifier(const std::string& name);

/// The contents of a C++ string literal (without the quotes) that reads back as `text`:
/// quotes, backslashes, control characters and non-ASCII bytes are escaped (octal, so that a
/// following digit cannot extend the escape); `?` is escaped so that no trigraph can form.
std::string cpp_string_contents(const std::string& text);

/// `text` as a double-quoted, escaped string, for a `//` comment: quoting keeps a trailing
/// backslash (which would splice the next line into the comment) away from the line end.
std::string cpp_quoted_comment(const std::string& text);

}  // namespace daec
