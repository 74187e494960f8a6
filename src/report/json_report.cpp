// Writing the JSON report. A small value tree keeps the key order fixed and the layout readable
// without an external JSON library.
#include "report/json_report.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "model/expression_printer.h"
#include "report/check_summary.h"
#include "report/report_common.h"
#include "structure/matching.h"
#include "support/text.h"

namespace daec {

static void append_escaped_char(std::string& out, char ch) {
  switch (ch) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(ch) < 0x20) {
        out += fmt::format("\\u{:04x}", static_cast<unsigned char>(ch));
      } else {
        out += ch;
      }
  }
}

std::string json_string(std::string_view text) {
  std::vector<size_t> invalid = find_invalid_utf8(text, SIZE_MAX);
  size_t next_invalid = 0;
  std::string out = "\"";
  for (size_t i = 0; i < text.size(); ++i) {
    if (next_invalid < invalid.size() && invalid[next_invalid] == i) {
      out += "\\ufffd";
      ++next_invalid;
    } else {
      append_escaped_char(out, text[i]);
    }
  }
  return out + "\"";
}

namespace {

// A JSON value: a literal (number, string, true, false, null), an array or an object whose
// members keep the order they were added in.
class Json {
 public:
  static Json literal(std::string text) { return Json(Kind::Literal, std::move(text)); }
  static Json string(std::string_view text) { return literal(json_string(text)); }
  static Json number(long long value) { return literal(std::to_string(value)); }
  static Json boolean(bool value) { return literal(value ? "true" : "false"); }
  static Json null() { return literal("null"); }
  static Json array() { return Json(Kind::Array, ""); }
  static Json object() { return Json(Kind::Object, ""); }

  Json& push(Json item) {
    members_.emplace_back("", std::move(item));
    return *this;
  }
  Json& set(const std::string& key, Json value) {
    members_.emplace_back(key, std::move(value));
    return *this;
  }
  void write(std::string& out, int depth) const;

 private:
  enum class Kind { Literal, Array, Object };
  Json(Kind kind, std::string text) : kind_(kind), text_(std::move(text)) {}
  bool is_flat(int depth) const;

  Kind kind_;
  std::string text_;
  std::vector<std::pair<std::string, Json>> members_;  // array items have empty keys
};

// Arrays of literals go on one line, so that lists of names and the rows of a pattern stay
// readable; so do objects of literals that fit in kFlatWidth characters.
constexpr size_t kFlatWidth = 100;

bool Json::is_flat(int depth) const {
  for (const auto& member : members_) {
    if (member.second.kind_ != Kind::Literal) return false;
  }
  if (kind_ == Kind::Array || members_.empty()) return true;
  size_t width = static_cast<size_t>(2 * depth) + 2;
  for (const auto& [key, value] : members_)
    width += json_string(key).size() + value.text_.size() + 4;
  return width <= kFlatWidth;
}

void Json::write(std::string& out, int depth) const {
  if (kind_ == Kind::Literal) {
    out += text_;
    return;
  }
  const char* open = kind_ == Kind::Array ? "[" : "{";
  const char* close = kind_ == Kind::Array ? "]" : "}";
  bool flat = is_flat(depth);
  std::string indent(static_cast<size_t>(2 * (depth + 1)), ' ');
  out += open;
  for (size_t i = 0; i < members_.size(); ++i) {
    out += i == 0 ? "" : ",";
    out += flat ? (i == 0 ? "" : " ") : "\n" + indent;
    if (kind_ == Kind::Object) out += json_string(members_[i].first) + ": ";
    members_[i].second.write(out, depth + 1);
  }
  if (!flat) out += "\n" + std::string(static_cast<size_t>(2 * depth), ' ');
  out += close;
}

Json strings(const std::vector<std::string>& items) {
  Json array = Json::array();
  for (const std::string& item : items) array.push(Json::string(item));
  return array;
}

Json pattern_rows(const SparsityPattern& pattern) {
  Json rows = Json::array();
  for (int r = 0; r < pattern.rows(); ++r) {
    Json row = Json::array();
    for (int c = 0; c < pattern.cols(); ++c) row.push(Json::number(pattern.has(r, c) ? 1 : 0));
    rows.push(std::move(row));
  }
  return rows;
}

// A pattern as rows of 0 and 1 ("pattern"), or, when it has more than report::kMaxTableCells
// cells, as the columns of each row's entries ("pattern_by_row").
void set_pattern(Json& o, const SparsityPattern& pattern) {
  if (report::table_fits(static_cast<size_t>(pattern.rows()),
                         static_cast<size_t>(pattern.cols()))) {
    o.set("pattern", pattern_rows(pattern));
    return;
  }
  Json rows = Json::array();
  for (int r = 0; r < pattern.rows(); ++r) {
    Json row = Json::array();
    for (int c : pattern.row(r)) row.push(Json::number(c));
    rows.push(std::move(row));
  }
  o.set("pattern_by_row", std::move(rows));
}

Json rank_value(int rank) {
  return rank < 0 ? Json::null() : Json::number(rank);
}

Json round_object(const ReductionRound& round) {
  Json o = Json::object();
  o.set("number", Json::number(round.number));
  o.set("rows", strings(round.table.rows));
  o.set("columns", strings(round.table.columns));
  set_pattern(o, round.table.pattern);
  o.set("structural_rank", Json::number(round.structural_rank));
  o.set("rank", rank_value(round.rank));
  o.set("nonsingular", Json::boolean(round.nonsingular));
  o.set("null_space", Json::boolean(round.used_null_space));
  o.set("decided_off_invariants", Json::boolean(round.decided_off_invariants));
  o.set("differentiated", strings(round.differentiated));
  o.set("dummies", strings(round.dummies));
  return o;
}

Json constraint_list(const std::vector<Constraint>& constraints) {
  Json list = Json::array();
  for (const Constraint& c : constraints) {
    Json o = Json::object();
    o.set("name", Json::string(c.label));
    o.set("expression", Json::string(to_dae(c.residual)));
    o.set("base", Json::string(c.base_label));
    o.set("level", Json::number(c.level));
    list.push(std::move(o));
  }
  return list;
}

}  // namespace

namespace {

// Parameters, or the constants fixed at compile time: name, value, description.
template <typename NamedValue>
Json value_list(const std::vector<NamedValue>& items) {
  Json list = Json::array();
  for (const NamedValue& p : items) {
    Json o = Json::object();
    o.set("name", Json::string(p.name));
    // JSON has no infinities or NaN.
    o.set("value", std::isfinite(p.value) ? Json::literal(shortest_double(p.value)) : Json::null());
    o.set("description", Json::string(p.description));
    list.push(std::move(o));
  }
  return list;
}

// The variables as declared, with the classification of the model (before any reduction).
Json variable_list(const Model& model) {
  Json list = Json::array();
  for (const Variable& v : model.variables) {
    Json o = Json::object();
    o.set("name", Json::string(v.name));
    o.set("kind", Json::string(v.is_differential() ? "differential" : "algebraic"));
    o.set("start", Json::string(to_dae(v.start)));
    o.set("fixed", Json::boolean(v.fixed));
    o.set("description", Json::string(v.description));
    list.push(std::move(o));
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
      o.set("name", Json::string(u.name));
      o.set("role", Json::string(unknowns == &system.states ? "state" : "algebraic"));
      o.set("origin", Json::string(origin_words(u.origin).key));
      o.set("derivative_of",
            u.derivative_of.empty() ? Json::null() : Json::string(u.derivative_of));
      o.set("promoted", Json::boolean(promoted));
      o.set("description", Json::string(u.description));
      list.push(std::move(o));
    }
  }
  return list;
}

Json differential_list(const ReducedSystem& system) {
  Json list = Json::array();
  for (const StateEquation& e : system.differential) {
    Json o = Json::object();
    o.set("state", Json::string(system.states[e.state].name));
    o.set("rhs", Json::string(to_dae(e.rhs)));
    o.set("label", Json::string(e.label));
    list.push(std::move(o));
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
        printed.push(Json::string(to_dae(system.A.at(r, c))));
    } else {
      for (const MatrixEntry& e : system.A.row(r)) {
        Json pair = Json::array();
        pair.push(Json::number(e.column));
        pair.push(Json::string(to_dae(e.value)));
        printed.push(std::move(pair));
      }
    }
    entries.push(std::move(printed));
  }
  return entries;
}

Json matrix_A(const ReducedSystem& system) {
  SparsityPattern pattern = system.A.pattern();
  Json o = Json::object();
  o.set("rows", strings(constraint_labels(system.constraints)));
  o.set("columns", strings(report::names_of(system.algebraic)));
  set_pattern(o, pattern);
  o.set("structural_rank", Json::number(structural_rank(pattern)));
  bool dense = report::table_fits(system.A.rows(), system.A.cols());
  o.set(dense ? "entries" : "entries_by_row", entries_of_A(system));
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
    block.set("rows", strings({rows.begin() + first, rows.begin() + end}));
    block.set("columns", strings({cols.begin() + first, cols.begin() + end}));
    blocks.push(std::move(block));
  }
  Json o = Json::object();
  o.set("row_order", strings(rows));
  o.set("column_order", strings(cols));
  o.set("blocks", std::move(blocks));
  return o;
}

}  // namespace

std::string json_report(const Model& model, const ReducedSystem& system) {
  std::vector<std::string> dummies;
  for (const Unknown* d : report::dummy_variables(system)) dummies.push_back(d->name);
  Json rounds = Json::array();
  for (const ReductionRound& round : system.rounds) rounds.push(round_object(round));
  Json b = Json::array();
  for (const GiNaC::ex& e : system.b) b.push(Json::string(to_dae(e)));

  Json doc = Json::object();
  doc.set("model", Json::string(model.name));
  doc.set("index", Json::number(system.index));
  doc.set("states", strings(report::names_of(system.states)));
  doc.set("algebraic", strings(report::names_of(system.algebraic)));
  doc.set("dummies", strings(dummies));
  doc.set("invariants", constraint_list(system.invariants));
  doc.set("rounds", std::move(rounds));
  doc.set("description", Json::string(model.description));
  doc.set("index_reason", Json::string(report::index_reason(system)));
  doc.set("differentiations", Json::number(system.differentiations));
  doc.set("promoted", strings(system.promoted));
  doc.set("parameters", value_list(model.parameters));
  doc.set("constants", value_list(model.constants));
  doc.set("variables", variable_list(model));
  doc.set("unknowns", unknown_list(system));
  doc.set("differential", differential_list(system));
  doc.set("constraints", constraint_list(system.constraints));
  doc.set("A", matrix_A(system));
  doc.set("b", std::move(b));
  doc.set("blocks", block_form(system));
  std::vector<std::string> relations;
  for (const GiNaC::ex& r : system.relations) relations.push_back(to_dae(r));
  doc.set("relations", strings(relations));
  std::string out;
  doc.write(out, 0);
  return out + "\n";
}

}  // namespace daec
