// Filling the templates: metadata arrays, the summary comment and the function bodies.
#include "codegen/generate.h"

#include <algorithm>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "codegen/amalgamate.h"
#include "codegen/block_order.h"
#include "codegen/code_tables.h"
#include "codegen/condition_code.h"
#include "codegen/cpp_names.h"
#include "codegen/expression_code.h"
#include "codegen/linear_solve.h"
#include "codegen/model_functions.h"
#include "codegen/parameter_code.h"
#include "codegen/template.h"
#include "codegen/when_code.h"
#include "model/expression_printer.h"
#include "reduction/expression_matrix.h"
#include "reduction/reduce.h"
#include "support/text.h"

namespace daec {

bool is_valid_namespace(const std::string& name) {
  size_t start = 0;
  while (true) {
    size_t end = name.find("::", start);
    std::string part =
        name.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!is_safe_cpp_identifier(part)) return false;
    if (end == std::string::npos) return true;
    start = end + 2;
  }
}

namespace {

template <typename T, typename Text>
std::string initializer(const std::vector<T>& items, Text text, const char* empty) {
  if (items.empty()) return fmt::format("{{{}}}", empty);
  std::string list;
  for (size_t i = 0; i < items.size(); ++i) list += (i ? ", " : "") + text(items[i]);
  return "{" + list + "}";
}

std::string quoted(const std::string& text) {
  return '"' + cpp_string_contents(text) + '"';
}

// Plain names and paths read as they are; anything unusual is shown quoted and escaped.
std::string comment_text(const std::string& text) {
  for (char c : text) {
    if (c < 0x20 || c > 0x7e || c == '\\' || c == '"') return cpp_quoted_comment(text);
  }
  return text;
}

std::string names_of(const std::vector<Unknown>& unknowns) {
  return initializer(
      unknowns, [](const Unknown& u) { return quoted(u.name); }, "nullptr");
}

// The units of `unknowns` (docs/generated-code.md), "" where they have none.
std::string units_of(const std::vector<Unknown>& unknowns) {
  return initializer(
      unknowns, [](const Unknown& u) { return quoted(u.unit); }, "nullptr");
}

std::string unknown_line(const std::string& array, size_t i, const Unknown& u) {
  std::string line = fmt::format("//   {}[{}] {}", array, i, u.name);
  if (u.origin != UnknownOrigin::Variable) {
    line += fmt::format(" ({} of {})", origin_words(u.origin).description, u.derivative_of);
  }
  if (!u.description.empty()) line += " " + cpp_quoted_comment(u.description);
  return line + "\n";
}

std::string summary(const ReducedSystem& s) {
  const ModelContext& c = s.context;
  std::string text = fmt::format("// Model {}", c.name);
  if (!c.description.empty()) text += " " + cpp_quoted_comment(c.description);
  text += fmt::format(", differentiation index {}.\n// {}, {}, {}, {}, {}.\n", s.index,
                      count_of(s.states.size(), "state", "states"),
                      count_of(s.algebraic.size(), "algebraic unknown", "algebraic unknowns"),
                      count_of(s.invariants.size(), "invariant", "invariants"),
                      count_of(c.parameters.size(), "parameter", "parameters"),
                      count_of(c.outputs.size(), "output", "outputs"));
  for (size_t i = 0; i < s.states.size(); ++i) text += unknown_line("x", i, s.states[i]);
  for (size_t i = 0; i < s.algebraic.size(); ++i) text += unknown_line("z", i, s.algebraic[i]);
  for (size_t k = 0; k < c.parameters.size(); ++k) {
    const Parameter& p = c.parameters[k];
    text += fmt::format("//   p[{}] {} = {}", k, p.name, double_literal(p.value));
    if (has_binding(p)) text += " (= " + comment_text(binding_text(p)) + ")";
    if (!p.description.empty()) text += " " + cpp_quoted_comment(p.description);
    text += "\n";
  }
  for (size_t k = 0; k < s.invariants.size(); ++k) {
    text += fmt::format("//   h[{}] {}: 0 = {}\n", k, s.invariants[k].label,
                        to_dae(s.invariants[k].residual));
  }
  return text;
}

std::string variable_locations(const ReducedSystem& s) {
  std::map<std::string, int> where;  // a name's place: x[i] as i, z[c] as -1 - c
  for (size_t c = 0; c < s.algebraic.size(); ++c)
    where.emplace(s.algebraic[c].name, -1 - static_cast<int>(c));
  for (size_t i = 0; i < s.states.size(); ++i) where[s.states[i].name] = static_cast<int>(i);
  std::vector<int> location;
  for (const std::string& name : s.context.variable_names) {
    auto it = where.find(name);
    if (it == where.end())
      throw std::logic_error("variable " + name + " is neither a state nor algebraic");
    location.push_back(it->second);
  }
  return initializer(
      location, [](int i) { return std::to_string(i); }, "0");
}

// A bool array's initializer: {true, false, ...}, {false} when empty.
std::string bool_initializer(const std::vector<bool>& values) {
  return initializer(
      values, [](bool v) { return std::string(v ? "true" : "false"); }, "false");
}

// Which starts consistent_initialization keeps: X, then Z (the model's fixed = true).
std::string fixed_initializer(const ReducedSystem& s) {
  std::vector<bool> fixed;
  for (const Unknown& u : s.states) fixed.push_back(u.fixed);
  for (const Unknown& u : s.algebraic) fixed.push_back(u.fixed);
  return bool_initializer(fixed);
}

// Whether state u is continuous across an event: a differential variable of the model or the
// velocity of an x'' (a reset keeps it unless a reinit sets it), not a dummy, the rate of a
// promoted unknown or a promoted unknown, which the constraints determine (docs/language.md,
// "When clauses and reinit").
bool continuous(const Unknown& u) {
  return (u.origin == UnknownOrigin::Variable && !u.promoted) ||
         u.origin == UnknownOrigin::Velocity;
}

// Which states' starts are given: a differential variable's written `start = ...` (the user's
// --set adds others at run time). The rest -- dummies, velocities of x'', promoted unknowns and
// every start not written -- are guesses, solved for freely (docs/language.md, "Initial values").
std::string start_given_initializer(const ReducedSystem& s) {
  std::vector<bool> given;
  for (const Unknown& u : s.states)
    given.push_back(u.origin == UnknownOrigin::Variable && !u.promoted && u.start_written);
  return bool_initializer(given);
}

std::string state_continuous_initializer(const ReducedSystem& s) {
  std::vector<bool> kept;
  for (const Unknown& u : s.states) kept.push_back(continuous(u));
  return bool_initializer(kept);
}

// The weight in project's least correction of a state whose right-hand side is another state
// (x' = u: a position, whose velocity is a state): the correction sum (dx_i / w_i)^2 moves it
// only where the states without such a rhs cannot take the residual. Weights enter squared, so
// a velocity constraint's correction moves the positions by 1e-6 of what it moves the
// velocities. In unit weights the positions took most of it wherever the velocities are large
// (the coefficients of G(q) v in q are of their size), and a stiff position (an elastic rod's
// elongation) turned each shift into a vibration far beyond the tolerances (docs/integrators.md,
// "Projection onto the highest derivatives"). One factor for every state below the top of its
// chain, not one per order: along the chains of a high-index model (x, x_dot, ..., x_d8) powers
// of it would span 1e-24 and more, and the Gram matrix H W H^T would lose every digit.
constexpr double kAntiderivativeWeight = 1e-3;
// The weight of an algebraic unknown of the model made a state (promoted: it enters nonlinearly):
// its value is what the constraints holding it say, so their residual is taken out of it first.
// In unit weight a multiplier's drift under `ida` (which projects only the rows it writes) went
// into the velocity beside it in the same acceleration-level constraint, 1.7e-5 off where the
// state itself was right (the oracle's model 72000121); at 30 the multipliers were 1e-6 off, at
// 1e3 within 1e-8.
constexpr double kPromotedWeight = 1e3;

// projection_weight: 1 for the top of a chain, a state that is exactly another state's rhs F_j
// (u of x' = u, the x_dot of an x'') and has no such rhs itself; kPromotedWeight for a promoted
// unknown; kAntiderivativeWeight for the others: the states below the top of a chain and the
// first-order states (x' = f(x, t), a chain of one), which a position-level constraint holds
// beside the positions. In unit weight a first-order state took a position constraint's residual
// from the positions beside it, 1e6 times more than they did: the oracle's model 73000076, whose
// x4' = f(x4, t) alone, ended 11 times its tolerance off under `ida`, and 50 times at 1e-10.
// Every weight 1 but the promoted ones' where no state is the top of a chain (a circuit, a cycle
// x' = y, y' = x: no state to prefer).
std::string projection_weight_initializer(const ReducedSystem& s) {
  const size_t n = s.states.size();
  std::map<GiNaC::ex, size_t, GiNaC::ex_is_less> state_at;
  for (size_t j = 0; j < n; ++j) state_at.emplace(s.states[j].symbol, j);
  std::vector<bool> antiderivative(n, false), velocity(n, false);
  for (const StateEquation& e : s.differential) {
    auto found = state_at.find(e.rhs);
    if (found == state_at.end() || found->second == e.state) continue;
    antiderivative[e.state] = true;
    velocity[found->second] = true;
  }
  std::vector<bool> top(n, false);
  bool any_top = false;  // among the states not promoted, which the weights rank
  for (size_t i = 0; i < n; ++i) {
    top[i] = velocity[i] && !antiderivative[i] && !s.states[i].promoted;
    any_top = any_top || top[i];
  }
  std::vector<double> weight;
  for (size_t i = 0; i < n; ++i) {
    if (s.states[i].promoted) {
      weight.push_back(kPromotedWeight);
    } else {
      weight.push_back(top[i] || !any_top ? 1.0 : kAntiderivativeWeight);
    }
  }
  return initializer(
      weight, [](double w) { return double_literal(w); }, "1.0");
}

TemplateValues declaration_values(const ReducedSystem& s, const std::string& ns) {
  const ModelContext& c = s.context;
  std::string title = "Model " + c.name;
  if (!c.description.empty()) title += ": " + cpp_quoted_comment(c.description);
  return {
      {"namespace", ns},
      {"title", title},
      {"model_name", cpp_string_contents(c.name)},
      {"num_states", std::to_string(s.states.size())},
      {"num_algebraic", std::to_string(s.algebraic.size())},
      {"num_invariants", std::to_string(s.invariants.size())},
      {"num_parameters", std::to_string(c.parameters.size())},
      {"num_outputs", std::to_string(c.outputs.size())},
      {"num_variables", std::to_string(c.variable_names.size())},
      {"num_initial_equations", std::to_string(c.initial_equations.size())},
      {"fixed_initializer", fixed_initializer(s)},
      {"start_given_initializer", start_given_initializer(s)},
      {"state_continuous_initializer", state_continuous_initializer(s)},
      {"projection_weight_initializer", projection_weight_initializer(s)},
      {"parameter_initializer",
       initializer(
           c.parameters, [](const Parameter& p) { return double_literal(p.value); }, "0.0")},
  };
}

std::string position_table(const ReducedSystem& s, const LinearSolvePlan& plan) {
  std::string table;
  for (int b = 0; b < plan.blocks.block_count(); ++b) {
    for (int i = plan.blocks.block_start[b]; i < plan.blocks.block_start[b + 1]; ++i) {
      table += fmt::format("//   {:>3}: {} -> {} (block {})\n", i,
                           s.constraints[plan.blocks.row_order[i]].label,
                           s.algebraic[plan.blocks.col_order[i]].name, b + 1);
    }
  }
  return table;
}

std::string algebraic_solver(const ReducedSystem& s, const std::optional<LinearSolvePlan>& plan,
                             const FunctionBodies& bodies, const ConditionCode& conditions) {
  if (!plan) return "";
  TemplateValues values = {
      {"position_table", position_table(s, *plan)},
      {"lu_entries", std::to_string(plan->storage.size())},
      {"row_start", bodies.row_start},
      {"unknown_at", bodies.unknown_at},
      {"pivot_tables", bodies.pivot_tables},
      {"factor", bodies.factor},
      {"solve", bodies.solve},
      {"evaluate", bodies.evaluate_algebraic},
      {"solve_algebraic", conditions.solve_algebraic},
      {"settled_p", conditions.settled_p},
  };
  return render_template("algebraic_solver.cpp.in", embedded_template("algebraic_solver.cpp.in"),
                         values);
}

// The body of Model::algebraic_condition: the pivots of A's factorisation, or nothing to solve.
std::string algebraic_condition(bool has_algebraic) {
  if (!has_algebraic) {
    return "  (void)t;\n  (void)x;\n  if (unknown != nullptr) *unknown = -1;\n"
           "  if (sign != nullptr) *sign = 1;\n  return 1.0;";
  }
  return "  int position = -1, determinant_sign = 0;\n"
         "  const double ratio = smallest_pivot_ratio(p, t, x, &position, &determinant_sign);\n"
         "  if (unknown != nullptr) *unknown = position >= 0 ? kUnknownAt[position] : -1;\n"
         "  if (sign != nullptr) *sign = determinant_sign;\n"
         "  return ratio > 0.0 ? 1.0 / ratio : std::numeric_limits<double>::infinity();";
}

// The body of Model::algebraic_log_determinant: log |det A| from the pivots of A's
// factorisation as rhs solves (unscaled), or 0 with nothing to solve.
std::string algebraic_log_determinant(bool has_algebraic) {
  if (!has_algebraic) return "  (void)t;\n  (void)x;\n  return 0.0;";
  return "  constexpr int m = num_algebraic;\n"
         "  std::vector<double> a(kLuEntries > 0 ? kLuEntries : 1), r(m);\n"
         "  std::vector<int> pivot(m);\n"
         "  evaluate_A_b(p, t, x, a.data(), r.data());\n"
         "  if (factor_A(a.data(), pivot.data()) != 0) return "
         "-std::numeric_limits<double>::infinity();\n"
         "  double sum = 0.0;  // the diagonal holds 1/pivot\n"
         "  for (int k = 0; k < m; ++k) sum -= std::log(std::fabs(a[kDiagonalAt[k]]));\n"
         "  return sum;";
}

// For each algebraic unknown, the block of A Z = b it is solved in (0-based, in solving order)
// and the label of the equation it is paired with.
std::string algebraic_blocks(const std::optional<LinearSolvePlan>& plan) {
  std::vector<int> block;
  if (plan) {
    block.resize(plan->blocks.col_order.size());
    for (int b = 0; b < plan->blocks.block_count(); ++b) {
      for (int i = plan->blocks.block_start[b]; i < plan->blocks.block_start[b + 1]; ++i)
        block[plan->blocks.col_order[i]] = b;
    }
  }
  return initializer(
      block, [](int b) { return std::to_string(b); }, "0");
}

std::string algebraic_equations(const ReducedSystem& s,
                                const std::optional<LinearSolvePlan>& plan) {
  std::vector<std::string> label;
  if (plan) {
    label.resize(plan->blocks.col_order.size());
    for (size_t i = 0; i < label.size(); ++i)
      label[plan->blocks.col_order[i]] = s.constraints[plan->blocks.row_order[i]].label;
  }
  return initializer(label, quoted, "nullptr");
}

// The entries of A that are nonzero numbers (pivots that cannot vanish), or only those that are 1.
SparsityPattern constant_entries(const ReducedSystem& s, bool only_ones) {
  std::vector<std::pair<int, int>> entries;
  for (size_t r = 0; r < s.A.rows(); ++r) {
    for (const MatrixEntry& entry : s.A.row(r)) {
      const GiNaC::ex& value = entry.value;
      if (!GiNaC::is_a<GiNaC::numeric>(value)) continue;
      if (only_ones && !value.is_equal(1)) continue;
      entries.push_back({static_cast<int>(r), entry.column});
    }
  }
  int n = static_cast<int>(s.algebraic.size());
  return SparsityPattern::from_entries(n, n, entries);
}

// A block of code that ends in one blank line; nothing when `code` is empty.
std::string paragraph(std::string code) {
  if (code.empty()) return code;
  while (!code.empty() && code.back() == '\n') code.pop_back();
  return code + "\n\n";
}

std::string member(const std::string& signature, const std::string& body) {
  return body.empty() ? "" : signature + " {\n" + body + "\n}\n\n";
}

// Which Jacobians there are and their sizes: model_declaration.h.in declares them.
TemplateValues jacobian_declarations(const FunctionBodies& bodies) {
  TemplateValues values{
      {"has_dense_jacobians", bodies.dense_jacobians ? "true" : "false"},
      {"has_sparse_rhs_jacobian", bodies.rhs_pattern ? "true" : "false"},
      {"residual_jacobian_nnz", std::to_string(bodies.residual_pattern.nonzeros())},
      {"invariants_jacobian_nnz", std::to_string(bodies.invariants_pattern.nonzeros())},
      {"rhs_parameter_jacobian_nnz", std::to_string(bodies.rhs_parameter_pattern.nonzeros())},
      {"residual_parameter_jacobian_nnz",
       std::to_string(bodies.residual_parameter_pattern.nonzeros())},
      {"invariants_parameter_jacobian_nnz",
       std::to_string(bodies.invariants_parameter_pattern.nonzeros())},
  };
  if (bodies.rhs_pattern)
    values["rhs_jacobian_nnz"] = std::to_string(bodies.rhs_pattern->nonzeros());
  return values;
}

// The definitions of the static members that hold the sparse patterns.
std::string sparse_patterns(const FunctionBodies& bodies) {
  std::string text = "\n// The patterns of the sparse Jacobians (compressed sparse columns).\n";
  auto add = [&](const char* name, const ColumnPattern& pattern) {
    text += member_table(std::string(name) + "_colptr", pattern.colptr) +
            member_table(std::string(name) + "_rowval", pattern.rowval);
  };
  if (bodies.rhs_pattern) add("rhs_jacobian", *bodies.rhs_pattern);
  add("residual_jacobian", bodies.residual_pattern);
  add("invariants_jacobian", bodies.invariants_pattern);
  add("rhs_parameter_jacobian", bodies.rhs_parameter_pattern);
  add("residual_parameter_jacobian", bodies.residual_parameter_pattern);
  add("invariants_parameter_jacobian", bodies.invariants_parameter_pattern);
  return text;
}

std::string jacobian_members(const FunctionBodies& bodies, const char* which) {
  if (std::string(which) == "rhs") {
    return member("int Model::rhs_jacobian(double t, const double* x, double* J) const",
                  bodies.rhs_jacobian) +
           member("int Model::rhs_jacobian_values(double t, const double* x, double* values) const",
                  bodies.rhs_jacobian_values);
  }
  if (std::string(which) == "residual") {
    return member(
        "void Model::residual_jacobian(double t, const double* x, const double* xdot,\n"
        "                              const double* z, double* dr_dx, double* dr_dxdot,\n"
        "                              double* dr_dz) const",
        bodies.residual_jacobian);
  }
  return member("void Model::invariants_jacobian(double t, const double* x, double* H) const",
                bodies.invariants_jacobian);
}

// d(X')/dp, dr/dp and dh/dp, by columns and (where the model has dense Jacobians) dense.
std::string parameter_jacobian_members(const FunctionBodies& bodies) {
  std::string text =
      member(
          "int Model::rhs_parameter_jacobian_values(double t, const double* x,\n"
          "                                         double* values) const",
          bodies.rhs_parameter_jacobian_values) +
      member(
          "void Model::residual_parameter_jacobian_values(double t, const double* x,\n"
          "                                               const double* xdot, const double* z,\n"
          "                                               double* values) const",
          bodies.residual_parameter_jacobian_values) +
      member(
          "void Model::invariants_parameter_jacobian_values(double t, const double* x,\n"
          "                                                 double* values) const",
          bodies.invariants_parameter_jacobian_values);
  return text +
         member("int Model::rhs_parameter_jacobian(double t, const double* x, double* J) const",
                bodies.rhs_parameter_jacobian) +
         member(
             "void Model::residual_parameter_jacobian(double t, const double* x,\n"
             "                                        const double* xdot, const double* z,\n"
             "                                        double* J) const",
             bodies.residual_parameter_jacobian) +
         member(
             "void Model::invariants_parameter_jacobian(double t, const double* x, double* J) "
             "const",
             bodies.invariants_parameter_jacobian);
}

// Where the parts of long functions go: defined in the main file (inside its anonymous
// namespace), or declared there and defined in `options.split` part files.
void place_parts(const std::vector<FunctionPart>& parts, const CodegenOptions& options,
                 const std::string& name_space, const std::string& source, TemplateValues& values,
                 GeneratedCode& result) {
  std::string namespace_open = fmt::format("namespace {} {{\n\n", kPartsNamespace),
              namespace_close = fmt::format("}}  // namespace {}\n", kPartsNamespace);
  values["parts"] = "";
  values["part_declarations"] = "";
  if (options.split == 0) {
    if (parts.empty()) return;
    std::string definitions;
    for (const FunctionPart& part : parts) definitions += part.definition + "\n";
    values["parts"] = paragraph(namespace_open + definitions + namespace_close);
    return;
  }
  std::string declarations;
  size_t total = 0;
  for (const FunctionPart& part : parts) {
    declarations += part.declaration;
    total += part.definition.size();
  }
  if (!parts.empty())
    values["part_declarations"] = "\n// Defined in the part files.\n" + namespace_open +
                                  declarations + "\n" + namespace_close;
  // Consecutive parts, about the same amount of code in each file.
  std::vector<std::string> definitions(static_cast<size_t>(options.split));
  size_t before = 0;
  for (const FunctionPart& part : parts) {
    size_t file = std::min(definitions.size() - 1, before * definitions.size() / total);
    definitions[file] += part.definition + "\n";
    before += part.definition.size();
  }
  std::string helpers(embedded_template("expression_helpers.cpp.in"));
  for (size_t i = 0; i < definitions.size(); ++i) {
    result.parts.push_back(render_template("model_part.cpp.in",
                                           embedded_template("model_part.cpp.in"),
                                           {{"source", source},
                                            {"part", std::to_string(i + 1)},
                                            {"parts", std::to_string(definitions.size())},
                                            {"main_file", comment_text(options.main_file_name)},
                                            {"namespace", name_space},
                                            {"expression_helpers", helpers},
                                            {"definitions", definitions[i]}}));
  }
}

// A state read by more blocks of A than this links none of them (block_order.h).
constexpr size_t kBlockHubLimit = 64;

// The states each constraint (row of A) reads, for the order of A's blocks.
std::vector<std::vector<int>> constraint_state_uses(const ReducedSystem& s) {
  const SymbolColumns states(s.states);
  std::vector<std::vector<int>> uses;
  uses.reserve(s.constraints.size());
  for (const Constraint& c : s.constraints) uses.push_back(states.columns_in(c.residual));
  return uses;
}

}  // namespace

GeneratedCode generate_code(const ReducedSystem& s, const CodegenOptions& options) {
  GeneratedCode result;
  result.name_space =
      options.name_space.empty() ? cpp_identifier(s.context.name) : options.name_space;
  std::optional<LinearSolvePlan> plan;
  if (!s.algebraic.empty())
    plan = plan_linear_solve(
        s.A.pattern(),
        blocks_in_locality_order(s.A.pattern(), s.blocks, constraint_state_uses(s), kBlockHubLimit),
        constant_entries(s, false), constant_entries(s, true));
  FunctionParts parts(options.part_cost);
  FunctionBodies bodies = function_bodies(s, plan, options.max_expression_size, parts);
  result.rhs_operations = bodies.rhs_operations + (plan ? lu_operation_count(*plan) : 0);
  result.lu_entries = plan ? plan->storage.size() : 0;

  ParameterCode parameters = parameter_code(s.context);
  TemplateValues declaration_template = declaration_values(s, result.name_space);
  declaration_template["parameter_bound_initializer"] = parameters.bound_initializer;
  const char* has_orders = parameters.num_orders > 0 ? "true" : "false";
  declaration_template["has_parameter_orders"] = has_orders;
  declaration_template["num_parameter_orders"] = std::to_string(parameters.num_orders);
  for (auto& [key, value] : jacobian_declarations(bodies)) declaration_template[key] = value;
  ConditionCode conditions = condition_code(s, plan, declaration_template["parameter_initializer"]);
  declaration_template["parameter_initializer"] = conditions.parameter_initializer;
  declaration_template["parameter_array_size"] = conditions.parameter_array_size;
  declaration_template["has_conditions"] = conditions.num_conditions > 0 ? "true" : "false";
  declaration_template["num_conditions"] = std::to_string(conditions.num_conditions);
  declaration_template["has_when"] = s.context.when_clauses.empty() ? "false" : "true";
  declaration_template["num_when_clauses"] = std::to_string(s.context.when_clauses.size());
  declaration_template["num_reinits"] = std::to_string(reinit_count(s));
  std::string declaration = render_template(
      "model_declaration.h.in", embedded_template("model_declaration.h.in"), declaration_template);
  std::string source = comment_text(options.source_name);
  result.header = render_template(
      "model_header.h.in", embedded_template("model_header.h.in"),
      {{"source", source}, {"namespace", result.name_space}, {"declaration", declaration}});
  TemplateValues values = {
      {"source", source},
      {"summary", summary(s)},
      {"declaration", declaration},
      {"namespace", result.name_space},
      {"state_names", names_of(s.states)},
      {"algebraic_names", names_of(s.algebraic)},
      {"invariant_names",
       initializer(
           s.invariants, [](const Constraint& c) { return quoted(c.label); }, "nullptr")},
      {"parameter_names",
       initializer(
           s.context.parameters, [](const Parameter& p) { return quoted(p.name); }, "nullptr")},
      {"output_names",
       initializer(
           s.context.outputs, [](const Output& o) { return quoted(o.name); }, "nullptr")},
      {"variable_names", initializer(s.context.variable_names, quoted, "nullptr")},
      {"variable_descriptions", initializer(s.context.variable_descriptions, quoted, "nullptr")},
      {"output_descriptions",
       initializer(
           s.context.outputs, [](const Output& o) { return quoted(o.description); }, "nullptr")},
      {"parameter_descriptions",
       initializer(
           s.context.parameters, [](const Parameter& p) { return quoted(p.description); },
           "nullptr")},
      {"state_units", units_of(s.states)},
      {"algebraic_units", units_of(s.algebraic)},
      {"parameter_units",
       initializer(
           s.context.parameters, [](const Parameter& p) { return quoted(p.unit); }, "nullptr")},
      {"output_units",
       initializer(
           s.context.outputs, [](const Output& o) { return quoted(o.unit); }, "nullptr")},
      {"variable_units", initializer(s.context.variable_units, quoted, "nullptr")},
      {"variable_location", variable_locations(s)},
      {"algebraic_block", algebraic_blocks(plan)},
      {"algebraic_equation", algebraic_equations(s, plan)},
      {"sparse_patterns", sparse_patterns(bodies)},
      {"expression_helpers", std::string(embedded_template("expression_helpers.cpp.in"))},
      {"rhs_failure", conditions.rhs_failure + bodies.rhs_failure},
      {"algebraic_condition", algebraic_condition(plan.has_value())},
      {"algebraic_log_determinant", algebraic_log_determinant(plan.has_value())},
      {"algebraic_solver", paragraph(algebraic_solver(s, plan, bodies, conditions))},
      {"rhs_jacobian_support", paragraph(bodies.rhs_jacobian_support)},
      {"parameter_jacobian_support", paragraph(bodies.parameter_jacobian_support)},
      {"gram_cholesky", bodies.gram_cholesky},
      {"initial_equation_names", initializer(
                                     s.context.initial_equations,
                                     [](const Equation& e) { return quoted(e.label); }, "nullptr")},
      {"parameter_bindings", parameters.bindings},
      {"has_parameter_orders", has_orders},
      {"parameter_orders", parameters.orders},
      {"update_dependent_parameters", parameters.update},
      {"initial_state", bodies.initial_state},
      {"initial_algebraic", bodies.initial_algebraic},
      {"state_nominal", bodies.state_nominal},
      {"initial_equations", bodies.initial_equations},
      {"rhs", bodies.rhs},
      {"rhs_jacobian_members", jacobian_members(bodies, "rhs")},
      {"residual", bodies.residual},
      {"residual_jacobian_values", bodies.residual_jacobian_values},
      {"residual_jacobian_member", jacobian_members(bodies, "residual")},
      {"invariants", bodies.invariants},
      {"invariants_jacobian_values", bodies.invariants_jacobian_values},
      {"invariants_jacobian_member", jacobian_members(bodies, "invariants")},
      {"parameter_jacobian_members", parameter_jacobian_members(bodies)},
      {"outputs", bodies.outputs},
      {"condition_members", conditions.definitions},
      {"when_members", bodies.when_members},
  };
  place_parts(parts.parts(), options, result.name_space, source, values, result);
  result.source = render_template("model.cpp.in", embedded_template("model.cpp.in"), values);
  if (options.simulator) {
    result.source +=
        render_template("simulator_main.cpp.in", embedded_template("simulator_main.cpp.in"),
                        {{"namespace", result.name_space},
                         {"runtime", amalgamate_runtime("daec/simulator/run.hpp")}});
  }
  if (!options.python_module.empty()) {
    result.source +=
        render_template("python_module.cpp.in", embedded_template("python_module.cpp.in"),
                        {{"namespace", result.name_space},
                         {"module", options.python_module},
                         {"runtime", amalgamate_runtime("daec/adapters/python_binding.hpp")}});
  }
  return result;
}

}  // namespace daec
