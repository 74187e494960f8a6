// The mutations of the mutation test.
#include "mutator.h"

#include <cctype>
#include <utility>
#include <vector>

namespace daec::test {

namespace {

struct Span {
  size_t begin = 0, size = 0;
};

bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Rough tokens: names, numbers (digits, '.', exponents) and single other characters.
std::vector<Span> tokens_of(const std::string& text) {
  std::vector<Span> tokens;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    size_t j = i + 1;
    if (std::isspace(static_cast<unsigned char>(c))) {
      i = j;
      continue;
    }
    if (is_name_start(c)) {
      while (j < text.size() && is_name_char(text[j])) ++j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (j < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '.'))
        ++j;
    }
    tokens.push_back({i, j - i});
    i = j;
  }
  return tokens;
}

std::vector<Span> lines_of(const std::string& text) {
  std::vector<Span> lines;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    end = end == std::string::npos ? text.size() : end + 1;
    lines.push_back({begin, end - begin});
    begin = end;
  }
  return lines;
}

std::vector<Span> filter(const std::vector<Span>& tokens, const std::string& text,
                         bool (*keep)(char)) {
  std::vector<Span> kept;
  for (const Span& token : tokens) {
    if (keep(text[token.begin])) kept.push_back(token);
  }
  return kept;
}

// Exchanges two non-overlapping spans of `s` (the later one first, so the earlier stays valid);
// the same span twice leaves `s` as it is.
std::string swap_spans(std::string& s, const Span& x, const Span& y) {
  if (x.begin == y.begin) return s;
  const Span& first = x.begin < y.begin ? x : y;
  const Span& second = x.begin < y.begin ? y : x;
  std::string a = s.substr(first.begin, first.size), b = s.substr(second.begin, second.size);
  return s.replace(second.begin, second.size, a).replace(first.begin, first.size, b);
}

bool starts_number(char c) {
  return std::isdigit(static_cast<unsigned char>(c));
}
bool is_operator(char c) {
  return std::string("+-*/^=<>[]{}:").find(c) != std::string::npos;
}

const char* const kKeywords[] = {
    "model",  "parameter", "variable", "output", "equation", "end",     "der",   "start",
    "fixed",  "true",      "false",    "t",      "pi",       "sin",     "atan2", "pow",
    "sqrt",   "log",       "for",      "in",     "loop",     "if",      "then",  "else",
    "elseif", "and",       "or",       "not",    "sum",      "product", "min",   "max"};
const char* const kNumbers[] = {"0",      "0.0", "1e400", "-1",     "99999999999999999999999",
                                "1e-400", "-0",  "1e308", "2.5e-8", "1."};
const char* const kOperators[] = {"+", "-",  "*", "/",  "^",  "=",  "'", ",", ";", "(", ")",
                                  "<", "<=", ">", ">=", "==", "<>", "[", "]", "{", "}", ":"};
const char* const kInsertions[] = {"'",
                                   "''",
                                   "der(",
                                   "der(x, 3)",
                                   "(",
                                   ")",
                                   "^",
                                   "^-1",
                                   ";",
                                   "=",
                                   "[1]",
                                   "[0]",
                                   "[N]",
                                   "[i+1]",
                                   "[1, 2]",
                                   "end for;",
                                   "{1, 2}",
                                   "for i in 1:N loop ",
                                   "if t > 1 then 1 else ",
                                   "sum(1 for i in 1:N)",
                                   " and t < 1",
                                   "[999999999]"};
// The first stands for a NUL byte, which a C string cannot hold.
const char* const kBytes[] = {"",   "\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80",
                              "\t", "\r",   "\"",   "/*",       "//"};

template <size_t N>
std::string pick(const char* const (&choices)[N], size_t index) {
  return choices[index % N];
}

}  // namespace

std::string Mutator::mutate(const std::string& text, std::string& kind) {
  std::string s = text;
  std::vector<Span> tokens = tokens_of(s);
  std::vector<Span> lines = lines_of(s);
  if (tokens.empty() || lines.empty()) {
    kind = "empty";
    return "";
  }
  const Span& token = tokens[below(tokens.size())];
  const Span& other = tokens[below(tokens.size())];
  const Span& line = lines[below(lines.size())];
  const Span& other_line = lines[below(lines.size())];
  size_t at = below(s.size() + 1);
  switch (below(17)) {
    case 0:
      kind = "delete bytes";
      return s.erase(at, 1 + below(8));
    case 1:
      kind = "insert byte";
      return s.insert(at, 1, static_cast<char>(32 + below(95)));
    case 2:
      kind = "duplicate bytes";
      return s.insert(at, s.substr(at, 1 + below(16)));
    case 3: {
      kind = "swap bytes";
      size_t from = below(s.size()), to = below(s.size());  // in this order, for determinism
      std::swap(s[from], s[to]);
      return s;
    }
    case 4:
      kind = "delete line";
      return s.erase(line.begin, line.size);
    case 5:
      kind = "duplicate line";
      return s.insert(line.begin, s.substr(line.begin, line.size));
    case 6:
      kind = "swap lines";
      return swap_spans(s, line, other_line);
    case 7:
      kind = "delete token";
      return s.erase(token.begin, token.size);
    case 8:
      kind = "duplicate token";
      return s.insert(token.begin, s.substr(token.begin, token.size) + " ");
    case 9:
      kind = "swap tokens";
      return swap_spans(s, token, other);
    case 10: {
      kind = "replace name";
      std::vector<Span> names = filter(tokens, s, is_name_start);
      if (names.empty()) return s;
      const Span& from = names[below(names.size())];
      const Span& to = names[below(names.size())];
      return s.replace(from.begin, from.size, s.substr(to.begin, to.size));
    }
    case 11: {
      kind = "change number";
      std::vector<Span> numbers = filter(tokens, s, starts_number);
      if (numbers.empty()) return s;
      const Span& number = numbers[below(numbers.size())];
      return s.replace(number.begin, number.size, pick(kNumbers, below(100)));
    }
    case 12: {
      kind = "change operator";
      std::vector<Span> operators = filter(tokens, s, is_operator);
      if (operators.empty()) return s;
      const Span& op = operators[below(operators.size())];
      return s.replace(op.begin, op.size, pick(kOperators, below(100)));
    }
    case 13:
      kind = "truncate";
      return s.substr(0, at);
    case 14:
      kind = "insert keyword";
      return s.insert(token.begin, pick(kKeywords, below(100)) + " ");
    case 15:
      kind = "insert prime or der";
      return s.insert(token.begin + token.size, pick(kInsertions, below(100)));
    default: {
      kind = "insert NUL or invalid UTF-8";
      size_t choice = below(std::size(kBytes));
      return s.insert(at, choice == 0 ? std::string(1, '\0') : std::string(kBytes[choice]));
    }
  }
}

}  // namespace daec::test
