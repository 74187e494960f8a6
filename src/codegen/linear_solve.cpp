// Emitting the block-structured sparse LU for A Z = b from its plan.
#include "codegen/linear_solve.h"

#include <fmt/format.h>

namespace daec {

static std::string entry(const LinearSolvePlan& plan, int row, int column) {
  return fmt::format("a[{}]", plan.index(row, column));
}

// Chooses the largest candidate as the pivot and swaps it into place (right of k only: the
// multipliers of earlier steps stay where the forward substitution expects them).
static std::string pivot_search(const LinearSolvePlan& plan, const PivotStep& step) {
  int k = step.position;
  std::string code =
      fmt::format("    int q = {};\n    double largest = std::fabs({});\n", k, entry(plan, k, k));
  for (size_t c = 1; c < step.candidates.size(); ++c) {
    int i = step.candidates[c];
    code += fmt::format(
        "    if (std::fabs({0}) > largest) {{\n      q = {1};\n      largest = std::fabs({0});\n"
        "    }}\n",
        entry(plan, i, k), i);
  }
  code += fmt::format(
      "    if (!(largest > 0.0)) return {};\n    pivot[{}] = q;\n    switch (q) {{\n", k + 1, k);
  for (size_t c = 1; c < step.candidates.size(); ++c) {
    int i = step.candidates[c];
    code += fmt::format("      case {}:\n", i);
    code += fmt::format("        std::swap({}, {});\n", entry(plan, k, k), entry(plan, i, k));
    for (int j : step.columns) {
      code += fmt::format("        std::swap({}, {});\n", entry(plan, k, j), entry(plan, i, j));
    }
    code += "        break;\n";
  }
  return code + fmt::format("      default:\n        break;\n    }}\n    {0} = 1.0 / {0};\n",
                            entry(plan, k, k));
}

static std::string elimination(const LinearSolvePlan& plan, const PivotStep& step) {
  int k = step.position;
  std::string code;
  for (size_t c = 1; c < step.candidates.size(); ++c) {
    int i = step.candidates[c];
    if (step.unit_pivot) {  // the multiplier is the entry itself
      code += fmt::format("    {{\n      const double m = {};\n", entry(plan, i, k));
    } else {
      code += fmt::format("    {{\n      const double m = {} * {};\n      {} = m;\n",
                          entry(plan, i, k), entry(plan, k, k), entry(plan, i, k));
    }
    for (int j : step.columns) {
      code += fmt::format("      {} -= m * {};\n", entry(plan, i, j), entry(plan, k, j));
    }
    code += "    }\n";
  }
  return code;
}

std::vector<std::string> factor_steps(const LinearSolvePlan& plan) {
  std::vector<std::string> steps;
  for (const PivotStep& step : plan.steps) {
    int k = step.position;
    std::string code;
    if (step.unit_pivot) {
      code += fmt::format("  // position {}: the pivot is 1\n", k);
    } else if (step.fixed_pivot) {  // a nonzero number: no test needed
      code += fmt::format("  {0} = 1.0 / {0};\n", entry(plan, k, k));
    } else if (step.candidates.size() == 1) {
      code += fmt::format("  if (!(std::fabs({0}) > 0.0)) return {1};\n  {0} = 1.0 / {0};\n",
                          entry(plan, k, k), k + 1);
    }
    if (step.candidates.size() == 1 || step.fixed_pivot) {
      if (step.candidates.size() > 1) code += "  {\n" + elimination(plan, step) + "  }\n";
    } else {
      code += fmt::format("  {{  // position {}: pivot among {} rows\n", k, step.candidates.size());
      code += pivot_search(plan, step) + elimination(plan, step) + "  }\n";
    }
    steps.push_back(std::move(code));
  }
  return steps;
}

std::string factor_code(const LinearSolvePlan& plan) {
  std::string code;
  for (const std::string& step : factor_steps(plan)) code += step;
  if (code.find("a[") == std::string::npos) code = "  (void)a;  // A is the identity\n" + code;
  if (code.find("pivot[") == std::string::npos)
    code = "  (void)pivot;  // every block is solved without row exchanges\n" + code;
  return code + "  return 0;\n";
}

static std::string back_substitution(const LinearSolvePlan& plan, const PivotStep& step) {
  int k = step.position;
  std::string sum;
  for (int j : step.columns) sum += fmt::format(" - {} * r[{}]", entry(plan, k, j), j);
  if (step.unit_pivot) return sum.empty() ? "" : fmt::format("  r[{}] = r[{}]{};\n", k, k, sum);
  if (sum.empty()) return fmt::format("  r[{}] *= {};\n", k, entry(plan, k, k));
  return fmt::format("  r[{}] = (r[{}]{}) * {};\n", k, k, sum, entry(plan, k, k));
}

std::vector<std::string> solve_statements(const LinearSolvePlan& plan) {
  std::vector<std::string> code;
  size_t first_step = 0;
  for (int b = 0; b < plan.blocks.block_count(); ++b) {
    int begin = plan.blocks.block_start[b], end = plan.blocks.block_start[b + 1];
    code.push_back(fmt::format("  // block {} (positions {}..{})\n", b + 1, begin, end - 1));
    for (int i = begin; i < end; ++i) {
      for (int j : plan.earlier_columns[i]) {
        code.push_back(fmt::format("  r[{}] -= {} * r[{}];\n", i, entry(plan, i, j), j));
      }
    }
    size_t last_step = first_step + static_cast<size_t>(end - begin);
    for (size_t s = first_step; s < last_step; ++s) {
      const PivotStep& step = plan.steps[s];
      if (step.candidates.size() == 1) continue;
      if (!step.fixed_pivot) {
        code.push_back(fmt::format("  std::swap(r[{0}], r[pivot[{0}]]);\n", step.position));
      }
      for (size_t c = 1; c < step.candidates.size(); ++c) {
        int i = step.candidates[c];
        code.push_back(fmt::format("  r[{}] -= {} * r[{}];\n", i, entry(plan, i, step.position),
                                   step.position));
      }
    }
    for (size_t s = last_step; s-- > first_step;) {
      std::string line = back_substitution(plan, plan.steps[s]);
      if (!line.empty()) code.push_back(std::move(line));
    }
    first_step = last_step;
  }
  return code;
}

std::string solve_code(const LinearSolvePlan& plan) {
  std::string code;
  for (const std::string& line : solve_statements(plan)) code += line;
  if (code.find("r[") == std::string::npos)
    code = "  (void)a;  // A is the identity: Z = b\n  (void)r;\n" + code;
  if (code.find("pivot[") == std::string::npos)
    code = "  (void)pivot;  // every block is solved without row exchanges\n" + code;
  return code;
}

}  // namespace daec
