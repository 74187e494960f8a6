// Cutting straight-line code into parts.
#include "codegen/function_parts.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <fmt/format.h>

namespace daec {

namespace {

// Arrays up to this many elements live on the stack.
constexpr size_t kStackElements = 4096;

size_t cost_of(const std::string& statement) {
  return static_cast<size_t>(std::count(statement.begin(), statement.end(), '\n')) +
         statement.size() / 100;
}

// Calls `found` with each identifier of `code` (numbers and comments left out); stops when it
// returns false. No allocation: it runs over every statement of a model's code.
template <typename Found>
void for_each_identifier(std::string_view code, Found found) {
  for (size_t pos = 0; pos < code.size();) {
    if (code.compare(pos, 2, "//") == 0) {
      pos = code.find('\n', pos);
      if (pos == std::string_view::npos) return;
    } else if (std::isdigit(static_cast<unsigned char>(code[pos]))) {
      while (pos < code.size() && (is_word(code[pos]) || code[pos] == '.')) ++pos;  // 1.5e-08
    } else if (is_word(code[pos])) {
      size_t end = pos;
      while (end < code.size() && is_word(code[end])) ++end;
      if (!found(code.substr(pos, end - pos))) return;
      pos = end;
    } else {
      ++pos;
    }
  }
}

// The index of a temporary `w12`, or -1 if `word` is not one.
long temporary_index(std::string_view word) {
  if (word.size() < 2 || word[0] != 'w') return -1;
  long index = 0;
  for (size_t i = 1; i < word.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(word[i]))) return -1;
    index = index * 10 + (word[i] - '0');
  }
  return index;
}

// What one statement defines (a temporary, or -1) and which temporaries it reads.
struct StatementTemporaries {
  long defines = -1;
  std::vector<long> reads;
};

StatementTemporaries temporaries_of(const std::string& statement) {
  StatementTemporaries result;
  static const std::string kDefinition = "const double w";
  size_t start = statement.find_first_not_of(' ');
  bool defines =
      start != std::string::npos && statement.compare(start, kDefinition.size(), kDefinition) == 0;
  result.reads = temporaries_in(statement);
  if (defines) {
    size_t name = start + kDefinition.size() - 1, end = name;
    while (end < statement.size() && is_word(statement[end])) ++end;
    result.defines = temporary_index(statement.substr(name, end - name));
    result.reads.erase(std::remove(result.reads.begin(), result.reads.end(), result.defines),
                       result.reads.end());
  }
  return result;
}

// Consecutive statements, each part's cost at most max_cost (a statement costlier than that
// alone in its part): the index of each part's first statement, then the end.
std::vector<size_t> part_bounds(const std::vector<std::string>& statements, size_t max_cost) {
  std::vector<size_t> bounds{0};
  size_t cost = 0;
  for (size_t s = 0; s < statements.size(); ++s) {
    size_t c = cost_of(statements[s]);
    if (cost > 0 && cost + c > max_cost) {
      bounds.push_back(s);
      cost = 0;
    }
    cost += c;
  }
  bounds.push_back(statements.size());
  return bounds;
}

std::string parameter_list(const std::vector<CodeParameter>& parameters, const std::string& body) {
  std::string list;
  for (const CodeParameter& p : parameters) {
    if (!list.empty()) list += ", ";
    list += p.type;
    if (uses_name(body, p.name)) list += " " + p.name;  // unnamed if unused: no warning
  }
  return list;
}

}  // namespace

bool is_word(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool uses_name(const std::string& code, const std::string& name) {
  bool used = false;
  for_each_identifier(code, [&](std::string_view word) { return !(used = word == name); });
  return used;
}

std::vector<long> temporaries_in(const std::string& code) {
  std::vector<long> found;
  for_each_identifier(code, [&](std::string_view word) {
    long index = temporary_index(word);
    if (index >= 0) found.push_back(index);
    return true;
  });
  return found;
}

std::string local_array(const std::string& type, const std::string& name, size_t count,
                        bool zeroed) {
  zeroed = zeroed || count == 0;  // the one unused slot is read by no one, yet passed on
  count = std::max<size_t>(count, 1);
  if (count <= kStackElements) {
    return fmt::format("  {} {}[{}]{};\n", type, name, count, zeroed ? " = {}" : "");
  }
  return fmt::format("  std::vector<{0}> {1}_storage({2});\n  {0}* {1} = {1}_storage.data();\n",
                     type, name, count);
}

std::string FunctionParts::body(const StraightLine& code) {
  std::vector<size_t> bounds = part_bounds(code.statements, max_cost_ ? max_cost_ : SIZE_MAX);
  size_t part_count = bounds.size() - 1;
  if (part_count <= 1) {
    std::string text;
    for (const std::string& s : code.statements) text += s;
    return text;
  }
  // Where each statement's temporaries are defined and read, by part.
  std::vector<StatementTemporaries> temporaries;
  std::map<long, size_t> defined_in;
  std::map<long, std::set<size_t>> read_in;
  for (size_t part = 0; part < part_count; ++part) {
    for (size_t s = bounds[part]; s < bounds[part + 1]; ++s) {
      temporaries.push_back(temporaries_of(code.statements[s]));
      if (temporaries.back().defines >= 0) defined_in[temporaries.back().defines] = part;
      for (long w : temporaries.back().reads) read_in[w].insert(part);
    }
  }
  std::map<long, size_t> slot;  // the spilled temporaries: read outside their own part
  for (const auto& [w, parts] : read_in) {
    auto defined = defined_in.find(w);
    if (defined == defined_in.end()) continue;  // not a temporary of this code
    if (parts.size() > 1 || *parts.begin() != defined->second) {
      size_t index = slot.size();
      slot[w] = index;
    }
  }
  std::string calls;
  if (!slot.empty()) calls += local_array("double", "spill", slot.size());
  for (size_t part = 0; part < part_count; ++part) {
    std::string name = fmt::format("{}_part{}", code.name, part + 1);
    std::string text;
    std::set<long> loaded;
    for (size_t s = bounds[part]; s < bounds[part + 1]; ++s) {
      for (long w : temporaries[s].reads) {
        if (slot.count(w) && defined_in[w] != part && loaded.insert(w).second)
          text += fmt::format("  const double w{} = spill[{}];\n", w, slot[w]);
      }
    }
    bool returns = false;
    for (size_t s = bounds[part]; s < bounds[part + 1]; ++s) {
      text += code.statements[s];
      returns = returns || code.statements[s].find("return ") != std::string::npos;
      long w = temporaries[s].defines;
      if (w >= 0 && slot.count(w)) text += fmt::format("  spill[{}] = w{};\n", slot[w], w);
    }
    std::vector<CodeParameter> parameters = code.parameters;
    if (!slot.empty()) parameters.push_back({"double*", "spill"});
    std::string signature =
        fmt::format("{} {}({})", returns ? "int" : "void", name, parameter_list(parameters, text));
    // Never inlined back: the compilers would then face the long function again (both inline a
    // function called once).
    parts_.push_back({signature + ";\n", "[[gnu::noinline]] " + signature + " {\n" + text +
                                             (returns ? "  return 0;\n" : "") + "}\n"});
    std::string arguments;
    for (const CodeParameter& p : parameters) arguments += (arguments.empty() ? "" : ", ") + p.name;
    std::string call = fmt::format("{}::{}({})", kPartsNamespace, name, arguments);
    calls += returns ? fmt::format("  if (const int status = {}) return status;\n", call)
                     : "  " + call + ";\n";
  }
  return calls;
}

}  // namespace daec
