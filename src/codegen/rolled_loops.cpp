// Loops for repeated assignments (see the header).
#include "codegen/rolled_loops.h"

#include <cctype>
#include <cstdlib>
#include <map>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "codegen/function_parts.h"
#include "model/expression_walk.h"

namespace daec::function_code {
namespace {

using GiNaC::ex;

// An assignment with its indices taken out: the text it compiles to with each NAME[digits]
// written NAME[#] (the shape, interned), and the indices and NAME[digits] in order of appearance.
struct Pattern {
  int shape = -1;
  std::vector<long> indices;
  std::vector<std::string> tokens;
  std::vector<bool> renamable;  ///< the target or a symbol's code: a loop may move it
};

// The part of `symbols` that `value` uses.
SymbolCode symbols_of(const SymbolCode& symbols, const ex& value) {
  SymbolCode own;
  for_each_node(value, [&](const GiNaC::basic& node) {
    if (GiNaC::is_a<GiNaC::numeric>(node)) return false;
    auto found = symbols.find(ex(node));
    if (found != symbols.end()) own.insert(*found);
    return true;
  });
  return own;
}

// The code of one assignment alone: its temporaries, then `target = value`.
std::string assignment_text(const SymbolCode& own, const Assignment& a) {
  if (a.value.is_zero()) return a.target + " = 0.0";
  ExpressionCompiler compiler(own);
  const size_t handle = compiler.add(a.value);
  std::string text;
  for (const std::string& statement : compiler.statements()) text += statement + "\n";
  return text + a.target + " = " + compiler.code_for(handle);
}

// The shape text of `code` and its indices (see Pattern).
std::string take_indices(const std::string& code, Pattern& pattern) {
  std::string shape;
  size_t k = 0;
  while (k < code.size()) {
    const size_t open = code.find('[', k);
    if (open == std::string::npos) break;
    size_t digits = open + 1, end = digits;
    while (end < code.size() && std::isdigit(static_cast<unsigned char>(code[end]))) ++end;
    size_t name = open;
    while (name > 0 && is_word(code[name - 1])) --name;
    if (end == digits || end >= code.size() || code[end] != ']' || name == open) {
      shape += code.substr(k, open + 1 - k);
      k = open + 1;
      continue;
    }
    shape += code.substr(k, digits - k) + "#]";
    pattern.indices.push_back(std::stol(code.substr(digits, end - digits)));
    pattern.tokens.push_back(code.substr(name, end + 1 - name));
    k = end + 1;
  }
  return shape + code.substr(k);
}

std::vector<Pattern> patterns_of(const SymbolCode& symbols, const std::vector<Assignment>& list) {
  std::map<std::string, int> shapes;
  std::vector<Pattern> patterns(list.size());
  for (size_t e = 0; e < list.size(); ++e) {
    const SymbolCode own = symbols_of(symbols, list[e].value);
    Pattern& pattern = patterns[e];
    const std::string shape = take_indices(assignment_text(own, list[e]), pattern);
    pattern.shape = shapes.emplace(shape, static_cast<int>(shapes.size())).first->second;
    for (const std::string& token : pattern.tokens) {
      bool renamable = token == list[e].target;
      for (const auto& entry : own) renamable = renamable || entry.second == token;
      pattern.renamable.push_back(renamable);
    }
  }
  return patterns;
}

// Whether assignment `at` is assignment `base` moved `times` times by `step` (its indices'
// moves from `base` to `base + period`).
bool repeats(const std::vector<Pattern>& p, size_t base, size_t at, long times,
             const std::vector<long>& step) {
  if (p[at].shape != p[base].shape) return false;
  for (size_t h = 0; h < step.size(); ++h)
    if (p[at].indices[h] != p[base].indices[h] + times * step[h]) return false;
  return true;
}

// The moves of each of the period's assignments, or none where a symbol would move by two
// amounts (the loop's body renames each symbol once) or an index that is not a symbol's or the
// target's would move.
std::optional<std::vector<std::vector<long>>> steps_of(const std::vector<Pattern>& p, size_t first,
                                                       size_t period) {
  std::vector<std::vector<long>> steps(period);
  std::map<std::string, long> moves;  // token at k = 0 -> its move
  for (size_t j = 0; j < period; ++j) {
    const Pattern &a = p[first + j], &b = p[first + j + period];
    if (a.shape != b.shape) return std::nullopt;
    for (size_t h = 0; h < a.indices.size(); ++h) {
      const long move = b.indices[h] - a.indices[h];
      if (move != 0 && !a.renamable[h]) return std::nullopt;
      steps[j].push_back(move);
      auto [it, added] = moves.emplace(a.tokens[h], move);
      if (!added && it->second != move) return std::nullopt;
    }
  }
  return steps;
}

// Whether the assignment at `first` repeats kRolledMinRepeats times with this period: a test
// of a few indices that turns down most periods before the whole period is compared.
bool first_repeats(const std::vector<Pattern>& p, size_t first, size_t period) {
  const Pattern &a = p[first], &b = p[first + period];
  if (a.shape != b.shape) return false;
  std::vector<long> step(a.indices.size());
  for (size_t h = 0; h < step.size(); ++h) step[h] = b.indices[h] - a.indices[h];
  for (size_t k = 2; k < kRolledMinRepeats; ++k)
    if (!repeats(p, first, first + k * period, static_cast<long>(k), step)) return false;
  return true;
}

// The longest run starting at `first`, if one has kRolledMinRepeats repetitions.
std::optional<RolledRun> run_at(const std::vector<Pattern>& p, size_t first) {
  std::optional<RolledRun> best;
  const size_t left = p.size() - first;
  for (size_t period = 1; period <= kRolledMaxPeriod && period * kRolledMinRepeats <= left;
       ++period) {
    if (!first_repeats(p, first, period)) continue;
    const auto steps = steps_of(p, first, period);
    if (!steps) continue;
    size_t count = 2;
    for (; (count + 1) * period <= left; ++count) {
      bool all = true;
      for (size_t j = 0; j < period && all; ++j)
        all = repeats(p, first + j, first + j + count * period, static_cast<long>(count),
                      (*steps)[j]);
      if (!all) break;
    }
    if (count >= kRolledMinRepeats && (!best || period * count > best->period * best->count))
      best = RolledRun{first, period, count};
  }
  return best;
}

// `name[index]` moved by `step` per repetition i.
std::string moved(const std::string& token, long step) {
  if (step == 0) return token;
  const size_t open = token.find('[');
  const std::string name = token.substr(0, open);
  const std::string index = token.substr(open + 1, token.size() - open - 2);
  const std::string times = (step == 1 || step == -1) ? "i" : fmt::format("{}*i", std::labs(step));
  if (index == "0") return fmt::format("{}[{}{}]", name, step < 0 ? "-" : "", times);
  return fmt::format("{}[{} {} {}]", name, index, step < 0 ? "-" : "+", times);
}

// The loop of one run: the period's assignments with every index moved by i.
std::string loop_of(const SymbolCode& symbols, const std::vector<Assignment>& list,
                    const std::vector<Pattern>& p, const RolledRun& run) {
  const auto steps = steps_of(p, run.first, run.period);
  SymbolCode renamed;
  std::vector<std::string> targets;
  for (size_t j = 0; j < run.period; ++j) {
    const Pattern& a = p[run.first + j];
    for (const auto& [symbol, code] : symbols_of(symbols, list[run.first + j].value)) {
      long step = 0;
      for (size_t h = 0; h < a.tokens.size(); ++h)
        if (a.tokens[h] == code) step = (*steps)[j][h];
      renamed.emplace(symbol, moved(code, step));
    }
    const std::string& target = list[run.first + j].target;
    long step = 0;
    for (size_t h = 0; h < a.tokens.size(); ++h)
      if (a.tokens[h] == target) step = (*steps)[j][h];
    targets.push_back(moved(target, step));
  }
  ExpressionCompiler compiler(renamed, "lw");
  std::vector<size_t> handles;
  for (size_t j = 0; j < run.period; ++j) {
    const ex& value = list[run.first + j].value;
    handles.push_back(value.is_zero() ? SIZE_MAX : compiler.add(value));
  }
  // Temporaries that read no moved index (p[0]/p[3]^2, say) are computed once, before the loop:
  // the compiler cannot hoist them itself, as the loop's stores might change p for all it knows.
  std::vector<std::string> before, inside, moving;
  for (const std::string& statement : compiler.statements()) {
    bool moves = statement.find("i]") != std::string::npos;
    for (size_t k = 0; k < moving.size() && !moves; ++k) moves = uses_name(statement, moving[k]);
    if (moves) {
      const size_t name = statement.find("lw");
      moving.push_back(statement.substr(name, statement.find(' ', name) - name));
    }
    (moves ? inside : before).push_back(statement);
  }
  const std::string indent = before.empty() ? "  " : "    ";
  std::string code = before.empty() ? "" : "  {\n";
  for (const std::string& statement : before) code += indent + statement + "\n";
  code += fmt::format("{}for (int i = 0; i < {}; ++i) {{\n", indent, run.count);
  for (const std::string& statement : inside) code += indent + "  " + statement + "\n";
  for (size_t j = 0; j < run.period; ++j) {
    code += fmt::format("{}  {} = {};\n", indent, targets[j],
                        handles[j] == SIZE_MAX ? "0.0" : compiler.code_for(handles[j]));
  }
  code += indent + "}\n";
  return before.empty() ? code : code + "  }\n";
}

// The runs of the assignments with these patterns (see rolled_runs).
std::vector<RolledRun> runs_of(const std::vector<Pattern>& p) {
  std::vector<RolledRun> runs;
  for (size_t first = 0; first + 1 < p.size();) {
    const std::optional<RolledRun> run = run_at(p, first);
    if (!run) {
      ++first;
      continue;
    }
    runs.push_back(*run);
    first += run->period * run->count;
  }
  return runs;
}

bool may_roll(const std::vector<Assignment>& list) {
  if (list.size() < kRolledMinimum) return false;
  for (const Assignment& a : list)
    if (!a.prefix.empty()) return false;
  return true;
}

}  // namespace

std::vector<RolledRun> rolled_runs(const SymbolCode& symbols, const std::vector<Assignment>& list) {
  return may_roll(list) ? runs_of(patterns_of(symbols, list)) : std::vector<RolledRun>{};
}

std::vector<std::string> rolled_statements(const SymbolCode& symbols,
                                           const std::vector<Assignment>& list) {
  if (!may_roll(list)) return assignment_statements(symbols, list);
  const std::vector<Pattern> p = patterns_of(symbols, list);
  const std::vector<RolledRun> runs = runs_of(p);
  if (runs.empty()) return assignment_statements(symbols, list);
  // The assignments outside the runs, compiled together (their temporaries w0, w1, ... are the
  // function's; a loop's, lw0, ..., live in its body). No assignment reads another's target,
  // so the loops may come after them.
  std::vector<Assignment> rest;
  size_t next = 0;
  for (const RolledRun& run : runs) {
    for (; next < run.first; ++next) rest.push_back(list[next]);
    next = run.first + run.period * run.count;
  }
  for (; next < list.size(); ++next) rest.push_back(list[next]);
  std::vector<std::string> statements = assignment_statements(symbols, rest);
  for (const RolledRun& run : runs) statements.push_back(loop_of(symbols, list, p, run));
  return statements;
}

}  // namespace daec::function_code
