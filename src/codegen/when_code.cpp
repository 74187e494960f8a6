// The when-clause members of a generated Model.
#include "codegen/when_code.h"

#include <fmt/format.h>

#include "codegen/code_tables.h"
#include "codegen/cpp_names.h"
#include "codegen/function_families.h"
#include "model/conditions.h"

namespace daec {

using function_code::Generator;

namespace {

// The fixed part: the reset map of one clause (docs/generated-code.md, "When clauses").
const char* const kReinitFunctions =
    R"(int Model::reinit(int clause, double t, const double* x_before, double* x, double* z,
                  bool* held) const {
  if (clause < 0 || clause >= num_when_clauses) return -1;
  double v[num_reinits];
  reinit_values(t, x_before, v);
  for (int r = 0; r < num_reinits; ++r) {
    if (reinit_clause[r] != clause) continue;
    if (!std::isfinite(v[r])) return 2;
    const int at = reinit_target[r];
    if (at >= 0) {
      x[at] = v[r];
      held[at] = true;
    } else {
      z[-1 - at] = v[r];
      held[num_states - 1 - at] = true;
    }
  }
  return 0;
}

)";

// Where reinit `r` writes: x[i] (i >= 0) or z[-1 - i], as variable_location.
int target_of(const ReducedSystem& system, const Reinit& r) {
  const std::string& variable = system.context.variable_names[r.variable];
  for (size_t i = 0; i < system.states.size(); ++i) {
    const Unknown& u = system.states[i];
    bool velocity = u.origin == UnknownOrigin::Velocity && u.derivative_of == variable;
    if ((r.order == 0 && u.name == variable && u.origin == UnknownOrigin::Variable) ||
        (r.order == 1 && velocity))
      return static_cast<int>(i);
  }
  // The reduction left it among the algebraic unknowns: held there through `held`.
  std::string name = r.order == 0 ? variable : "";
  for (size_t j = 0; j < system.algebraic.size(); ++j) {
    const Unknown& u = system.algebraic[j];
    bool velocity = u.origin == UnknownOrigin::Velocity && u.derivative_of == variable;
    if ((r.order == 0 && u.name == variable) || (r.order == 1 && velocity))
      return -1 - static_cast<int>(j);
  }
  throw std::logic_error("reinit target " + r.target + " is neither a state nor an unknown");
}

std::string when_conditions(Generator& gen) {
  std::vector<function_code::Assignment> list;
  const auto& clauses = gen.system.context.when_clauses;
  for (size_t k = 0; k < clauses.size(); ++k)
    list.push_back({fmt::format("c[{}]", k), daec_if(clauses[k].condition, 1, 0), clauses[k].name});
  std::string code = gen.parts.body(
      {"when_conditions",
       {function_code::kP, function_code::kT, function_code::kX, function_code::out("c")},
       function_code::assignment_statements(gen.symbols(false), list)});
  return function_code::body(code, {"t", "x", "c"});
}

}  // namespace

size_t reinit_count(const ReducedSystem& system) {
  size_t count = 0;
  for (const WhenClause& w : system.context.when_clauses) count += w.reinits.size();
  return count;
}

std::string when_members(Generator& gen) {
  const ReducedSystem& system = gen.system;
  if (system.context.when_clauses.empty()) return "";
  std::string names;
  std::vector<int> clause_of, target;
  for (size_t k = 0; k < system.context.when_clauses.size(); ++k) {
    const WhenClause& w = system.context.when_clauses[k];
    names += fmt::format("    \"{}\",\n", cpp_string_contents(w.name));
    for (const Reinit& r : w.reinits) {
      clause_of.push_back(static_cast<int>(k));
      target.push_back(target_of(system, r));
    }
  }
  return fmt::format("const char* const Model::when_names[] = {{\n{}}};\n", names) +
         member_table("reinit_clause", clause_of) + member_table("reinit_target", target) +
         "\nvoid Model::when_conditions(double t, const double* x, double* c) const {\n" +
         when_conditions(gen) +
         "\n}\n\nvoid Model::reinit_values(double t, const double* x, double* v) const {\n" +
         function_code::reinit_values(gen) + "\n}\n\n" + kReinitFunctions;
}

}  // namespace daec
