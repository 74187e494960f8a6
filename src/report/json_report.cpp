// Writing the JSON report: the document is an nlohmann::ordered_json (keys in the order they are
// set; the library escapes strings and prints numbers), written out with a layout of our own that
// keeps long lists readable: arrays of plain values on one line, as are small objects of them.
#include "report/json_report.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/expression_printer.h"
#include "report/check_summary.h"
#include "report/report_common.h"
#include "structure/matching.h"

namespace daec {

namespace {

using Json = nlohmann::ordered_json;

// A plain value (string, number, boolean, null) as JSON text. Bytes that are not well-formed
// UTF-8 become U+FFFD, so that any model description gives valid JSON.
std::string scalar_text(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace

std::string json_string(std::string_view text) {
  return scalar_text(Json(std::string(text)));
}

namespace {

// Arrays of plain values go on one line, so that lists of names and the rows of a pattern stay
// readable; so do objects of plain values that fit in kFlatWidth characters.
constexpr size_t kFlatWidth = 100;

bool is_flat(const Json& value, int depth) {
  size_t width = static_cast<size_t>(2 * depth) + 2;
  for (const auto& item : value.items()) {
    if (item.value().is_structured()) return false;
    if (value.is_object()) width += json_string(item.key()).size() + scalar_text(item.value()).size() + 4;
  }
  return value.is_array() || width <= kFlatWidth;
}

void write(const Json& value, std::string& out, int depth) {
  if (!value.is_structured()) {
    out += scalar_text(value);
    return;
  }
  const bool array = value.is_array(), flat = value.empty() || is_flat(value, depth);
  const std::string indent(static_cast<size_t>(2 * (depth + 1)), ' ');
  out += array ? "[" : "{";
  bool first = true;
  for (const auto& item : value.items()) {
    out += first ? "" : ",";
    out += flat ? (first ? "" : " ") : "\n" + indent;
    if (!array) out += json_string(item.key()) + ": ";
    write(item.value(), out, depth + 1);
    first = false;
  }
  if (!flat) out += "\n" + std::string(static_cast<size_t>(2 * depth), ' ');
  out += array ? "]" : "}";
}

// A parameter's or constant's value: an integer where it is one (2, not 2.0), null where it is
// not finite (JSON has no infinities or NaN).
Json number(double value) {
  constexpr double kLargestExactInteger = 9007199254740992.0;  // 2^53
  if (!std::isfinite(value)) return nullptr;
  if (value == std::floor(value) && std::fabs(value) < kLargestExactInteger)
    return static_cast<long long>(value);
  return value;
}

Json strings(const std::vector<std::string>& items) {
  return Json(items);
}

Json pattern_rows(const SparsityPattern& pattern) {
  Json rows = Json::array();
  for (int r = 0; r < pattern.rows(); ++r) {
    Json row = Json::array();
    for (int c = 0; c < pattern.cols(); ++c) row.push_back(Json(pattern.has(r, c) ? 1 : 0));
    rows.push_back(std::move(row));
  }
  return rows;
}

// A pattern as rows of 0 and 1 ("pattern"), or, when it has more than report::kMaxTableCells
// cells, as the columns of each row's entries ("pattern_by_row").
void set_pattern(Json& o, const SparsityPattern& pattern) {
  if (report::table_fits(static_cast<size_t>(pattern.rows()),
                         static_cast<size_t>(pattern.cols()))) {
    o["pattern"] = pattern_rows(pattern);
    return;
  }
  Json rows = Json::array();
  for (int r = 0; r < pattern.rows(); ++r) {
    Json row = Json::array();
    for (int c : pattern.row(r)) row.push_back(Json(c));
    rows.push_back(std::move(row));
  }
  o["pattern_by_row"] = std::move(rows);
}

Json rank_value(int rank) {
  return rank < 0 ? Json(nullptr) : Json(rank);
}

Json round_object(const ReductionRound& round) {
  Json o = Json::object();
  o["number"] = round.number;
  o["rows"] = strings(round.table.rows);
  o["columns"] = strings(round.table.columns);
  set_pattern(o, round.table.pattern);
  o["structural_rank"] = round.structural_rank;
  o["rank"] = rank_value(round.rank);
  o["nonsingular"] = round.nonsingular;
  o["null_space"] = round.used_null_space;
  o["decided_off_invariants"] = round.decided_off_invariants;
  o["differentiated"] = strings(round.differentiated);
  o["dummies"] = strings(round.dummies);
  return o;
}

Json constraint_list(const std::vector<Constraint>& constraints) {
  Json list = Json::array();
  for (const Constraint& c : constraints) {
    Json o = Json::object();
    o["name"] = c.label;
    o["expression"] = to_dae(c.residual);
    o["base"] = c.base_label;
    o["level"] = c.level;
    list.push_back(std::move(o));
  }
  return list;
}

}  // namespace

namespace {

// The declared unit (docs/language.md, "Units"); constants fixed at compile time have none.
std::string unit_of(const Parameter& p) {
  return p.unit;
}
std::string unit_of(const Constant&) {
  return "";
}

// Parameters, or the constants fixed at compile time: name, value, unit, description.
template <typename NamedValue>
Json value_list(const std::vector<NamedValue>& items) {
  Json list = Json::array();
  for (const NamedValue& p : items) {
    Json o = Json::object();
    o["name"] = p.name;
    o["value"] = number(p.value);
    o["unit"] = unit_of(p);
    o["description"] = p.description;
    list.push_back(std::move(o));
  }
  return list;
}

// The outputs: name, unit, description.
Json output_list(const Model& model) {
  Json list = Json::array();
  for (const Output& output : model.outputs) {
    Json o = Json::object();
    o["name"] = output.name;
    o["unit"] = output.unit;
    o["description"] = output.description;
    list.push_back(std::move(o));
  }
  return list;
}

// The variables as declared, with the classification of the model (before any reduction).
Json variable_list(const Model& model) {
  Json list = Json::array();
  for (const Variable& v : model.variables) {
    Json o = Json::object();
    o["name"] = v.name;
    o["kind"] = Json(v.is_differential() ? "differential" : "algebraic");
    o["start"] = to_dae(v.start);
    o["fixed"] = v.fixed;
    o["unit"] = v.unit;
    o["description"] = v.description;
    list.push_back(std::move(o));
  }
  return list;
}

// Every unknown of the final system: where it is (X or Z) and why it exists.
Json unknown_list(const ReducedSystem& system) {
  Json list = Json::array();
  for (const auto* unknowns : {&system.states, &system.algebraic}) {
    for (const Unknown& u : *unknowns) {
      bool promoted = std::count(system.promoted.begin(), system.promoted.end(), u.name) > 0;
      Json o = Json::object();
      o["name"] = u.name;
      o["role"] = Json(unknowns == &system.states ? "state" : "algebraic");
      o["origin"] = origin_words(u.origin).key;
      o["derivative_of"] = u.derivative_of.empty() ? Json(nullptr) : Json(u.derivative_of);
      o["promoted"] = promoted;
      o["unit"] = u.unit;
      o["description"] = u.description;
      list.push_back(std::move(o));
    }
  }
  return list;
}

Json differential_list(const ReducedSystem& system) {
  Json list = Json::array();
  for (const StateEquation& e : system.differential) {
    Json o = Json::object();
    o["state"] = system.states[e.state].name;
    o["rhs"] = to_dae(e.rhs);
    o["label"] = e.label;
    list.push_back(std::move(o));
  }
  return list;
}

std::vector<std::string> constraint_labels(const std::vector<Constraint>& constraints) {
  std::vector<std::string> labels;
  for (const Constraint& c : constraints) labels.push_back(c.label);
  return labels;
}

// A's entries as rows of expressions ("entries", "0" where zero), or, for a matrix with more than
// report::kMaxTableCells cells, each row's nonzero entries as [column, expression] pairs
// ("entries_by_row").
Json entries_of_A(const ReducedSystem& system) {
  bool dense = report::table_fits(system.A.rows(), system.A.cols());
  Json entries = Json::array();
  for (size_t r = 0; r < system.A.rows(); ++r) {
    Json printed = Json::array();
    if (dense) {
      for (size_t c = 0; c < system.A.cols(); ++c)
        printed.push_back(Json(to_dae(system.A.at(r, c))));
    } else {
      for (const MatrixEntry& e : system.A.row(r)) {
        Json pair = Json::array();
        pair.push_back(Json(e.column));
        pair.push_back(Json(to_dae(e.value)));
        printed.push_back(std::move(pair));
      }
    }
    entries.push_back(std::move(printed));
  }
  return entries;
}

Json matrix_A(const ReducedSystem& system) {
  SparsityPattern pattern = system.A.pattern();
  Json o = Json::object();
  o["rows"] = strings(constraint_labels(system.constraints));
  o["columns"] = strings(report::names_of(system.algebraic));
  set_pattern(o, pattern);
  o["structural_rank"] = structural_rank(pattern);
  bool dense = report::table_fits(system.A.rows(), system.A.cols());
  o[dense ? "entries" : "entries_by_row"] = entries_of_A(system);
  return o;
}

// Block lower-triangular form of A: the solve order, one irreducible block after the other.
Json block_form(const ReducedSystem& system) {
  const BlockTriangularForm& form = system.blocks;
  auto row_name = [&](int r) { return system.constraints[static_cast<size_t>(r)].label; };
  auto col_name = [&](int c) { return system.algebraic[static_cast<size_t>(c)].name; };
  std::vector<std::string> rows, cols;
  for (int r : form.row_order) rows.push_back(row_name(r));
  for (int c : form.col_order) cols.push_back(col_name(c));
  Json blocks = Json::array();
  for (int b = 0; b < form.block_count(); ++b) {
    auto first = static_cast<size_t>(form.block_start[static_cast<size_t>(b)]);
    auto end = static_cast<size_t>(form.block_start[static_cast<size_t>(b) + 1]);
    Json block = Json::object();
    block["rows"] = strings({rows.begin() + first, rows.begin() + end});
    block["columns"] = strings({cols.begin() + first, cols.begin() + end});
    blocks.push_back(std::move(block));
  }
  Json o = Json::object();
  o["row_order"] = strings(rows);
  o["column_order"] = strings(cols);
  o["blocks"] = std::move(blocks);
  return o;
}

}  // namespace

std::string json_report(const Model& model, const ReducedSystem& system) {
  std::vector<std::string> dummies;
  for (const Unknown* d : report::dummy_variables(system)) dummies.push_back(d->name);
  Json rounds = Json::array();
  for (const ReductionRound& round : system.rounds) rounds.push_back(round_object(round));
  Json b = Json::array();
  for (const GiNaC::ex& e : system.b) b.push_back(Json(to_dae(e)));

  Json doc = Json::object();
  doc["model"] = model.name;
  doc["index"] = system.index;
  doc["states"] = strings(report::names_of(system.states));
  doc["algebraic"] = strings(report::names_of(system.algebraic));
  doc["dummies"] = strings(dummies);
  doc["invariants"] = constraint_list(system.invariants);
  doc["rounds"] = std::move(rounds);
  doc["description"] = model.description;
  doc["index_reason"] = report::index_reason(system);
  doc["differentiations"] = system.differentiations;
  doc["promoted"] = strings(system.promoted);
  doc["parameters"] = value_list(model.parameters);
  doc["constants"] = value_list(model.constants);
  doc["outputs"] = output_list(model);
  doc["variables"] = variable_list(model);
  doc["unknowns"] = unknown_list(system);
  doc["differential"] = differential_list(system);
  doc["constraints"] = constraint_list(system.constraints);
  doc["A"] = matrix_A(system);
  doc["b"] = std::move(b);
  doc["blocks"] = block_form(system);
  std::vector<std::string> relations;
  for (const GiNaC::ex& r : system.relations) relations.push_back(to_dae(r));
  doc["relations"] = strings(relations);
  // The when clauses (docs/language.md), only where the model has some: their names (the
  // condition as written) and reinits, each "target = value".
  if (!system.context.when_clauses.empty()) {
    Json clauses = Json::array();
    for (const WhenClause& w : system.context.when_clauses) {
      std::vector<std::string> reinits;
      for (const Reinit& r : w.reinits) reinits.push_back(r.target + " = " + to_dae(r.value));
      clauses.push_back(Json{{"name", w.name}, {"reinit", strings(reinits)}});
    }
    doc["when"] = std::move(clauses);
  }
  std::string out;
  write(doc, out, 0);
  return out + "\n";
}

}  // namespace daec
