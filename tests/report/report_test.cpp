// Tests of the reports of a reduction (docs/command-line.md): the --check summary, the Markdown and
// JSON reports (golden files for the bundled models), the JSON string escaper and the SVG spy plot.
//
// Golden files live in tests/golden/<model>.report.md, .report.json and .spy.svg. After an
// intended change, regenerate them with DAEC_UPDATE_GOLDEN=1 and read the diff.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "codegen/generate.h"
#include "reduction/pipeline.h"
#include "report/json_report.h"
#include "report/markdown_report.h"
#include "report/reduction_summary.h"
#include "report/spy_svg.h"
#include "test_util.h"

namespace daec {
namespace {

struct Reduced {
  std::unique_ptr<test::FrontendRun> run;
  std::optional<ReducedSystem> system;

  const Model& model() const { return *run->model; }
  std::string markdown(const std::string& svg = "") const {
    return markdown_report(model(), *system, svg);
  }
  std::string json() const { return json_report(model(), *system); }
};

Reduced reduce_text(const std::string& text, const FlattenOptions& options = {}) {
  Reduced r{test::run(text, "test.dae", options), std::nullopt};
  EXPECT_TRUE(r.run->model.has_value()) << r.run->diagnostics();
  if (r.run->model) r.system = reduce_model(*r.run->model, ReductionOptions{}, r.run->diags);
  EXPECT_TRUE(r.system.has_value()) << r.run->diagnostics();
  return r;
}

Reduced reduce_file(const std::string& path) {
  return reduce_text(test::read_source_file(path));
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// ---- the reports parsed by a strict JSON reader (nlohmann's) ----

using Json = nlohmann::ordered_json;

Json parse_json(const std::string& text) {
  return Json::parse(text);
}

// ---- a well-formedness check of the SVG, enough for what spy_svg writes ----

// Empty if `xml` is well-formed as far as these tests need: one XML declaration first, tags
// that nest and close, quoted attributes, and every & starting a known entity; else the problem.
std::string xml_problem(const std::string& xml) {
  std::vector<std::string> open;
  for (size_t i = 0; i < xml.size(); ++i) {
    if (xml[i] == '&') {
      size_t semi = xml.find(';', i);
      std::string entity = semi == std::string::npos ? "" : xml.substr(i, semi - i + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" &&
          entity != "&apos;") {
        return "bad entity at " + std::to_string(i);
      }
    }
    if (xml[i] == '>') return "stray > at " + std::to_string(i);
    if (xml[i] != '<') continue;
    size_t end = xml.find('>', i);
    if (end == std::string::npos) return "unclosed tag at " + std::to_string(i);
    std::string tag = xml.substr(i + 1, end - i - 1);
    if (tag.find('<') != std::string::npos) return "< inside a tag at " + std::to_string(i);
    if (count(tag, "\"") % 2 != 0) return "unbalanced quotes in <" + tag + ">";
    if (tag.front() == '?') {
      if (i != 0) return "XML declaration not first";
    } else if (tag.front() == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return "mismatched </" + tag.substr(1);
      open.pop_back();
    } else {
      std::string name = tag.substr(0, tag.find_first_of(" /"));
      if (open.empty() && name != "svg") return "root element is not svg";
      if (tag.back() != '/') open.push_back(name);
    }
    i = end;
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

// ---- golden files ----

bool updating_goldens() {
  const char* value = std::getenv("DAEC_UPDATE_GOLDEN");
  return value != nullptr && std::string(value) == "1";
}

void expect_golden(const std::string& name, const std::string& actual) {
  std::string path = test::source_dir() + "/tests/golden/" + name;
  if (updating_goldens()) {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "missing golden file " << path << "; DAEC_UPDATE_GOLDEN=1 creates it";
    return;
  }
  std::ostringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(expected.str(), actual)
      << "tests/golden/" << name << " differs; if the change is intended, regenerate it with "
      << "DAEC_UPDATE_GOLDEN=1 and review the diff";
}

void expect_goldens(const std::string& model) {
  Reduced r = reduce_file("models/" + model + ".dae");
  ASSERT_TRUE(r.system);
  expect_golden(model + ".report.md", r.markdown(model + ".spy.svg"));
  expect_golden(model + ".report.json", r.json());
  expect_golden(model + ".spy.svg", final_spy_svg(*r.system));
}

TEST(Report, PendulumGolden) {
  expect_goldens("pendulum");
}
TEST(Report, Example12_1Golden) {
  expect_goldens("example_12_1");
}
TEST(Report, CoupledPendulumsGolden) {
  expect_goldens("coupled_pendulums");
}

// The result of docs/method.md's second example (§7): seven final unknowns in this order, A
// structurally nonsingular, and the three length constraints and their first derivatives as hidden
// constraints.
TEST(Report, CoupledPendulumsShowTheSeedResult) {
  Reduced r = reduce_file("models/coupled_pendulums.dae");
  ASSERT_TRUE(r.system);
  std::string md = r.markdown("coupled_pendulums.spy.svg");
  EXPECT_NE(md.find("- Algebraic unknowns Z (7): `lambda1`, `lambda2`, `lambda3`, `u1_dot`, "
                    "`v1_dot`, `u2_dot`, `v2_dot`\n"),
            std::string::npos);
  EXPECT_NE(md.find("structural rank 7 of 7"), std::string::npos);
  EXPECT_NE(md.find("- Hidden constraints (6): "), std::string::npos);
  EXPECT_NE(md.find("![Spy plot of A in block lower-triangular form, blocks outlined]"
                    "(coupled_pendulums.spy.svg)"),
            std::string::npos);

  Json json = parse_json(r.json());
  EXPECT_EQ(json["algebraic"].get<std::vector<std::string>>(),
            (std::vector<std::string>{"lambda1", "lambda2", "lambda3", "u1_dot", "v1_dot", "u2_dot",
                                      "v2_dot"}));
  EXPECT_EQ(json["A"]["structural_rank"].get<double>(), 7);
  EXPECT_EQ(json["rounds"][2]["structural_rank"].get<double>(), 7);
  std::vector<std::string> invariants;
  for (const Json& h : json["invariants"]) invariants.push_back(h["name"].get<std::string>());
  EXPECT_EQ(invariants, (std::vector<std::string>{"constraint1", "constraint2", "constraint3",
                                                  "constraint1'", "constraint2'", "constraint3'"}));
}

// Spec §3: the keys a tool may rely on, with the right types.
// The words for each origin of an unknown come from one place (origin_words): every output
// names a velocity, a dummy derivative and the derivative of a promoted variable alike.
TEST(Report, OriginsAreNamedAlikeInEveryOutput) {
  Reduced velocities = reduce_file("tests/data/start_conditions.dae");
  Reduced promoted = reduce_file("models/implicit_index1.dae");
  ASSERT_TRUE(velocities.system && promoted.system);
  std::string code = generate_code(*velocities.system, CodegenOptions{}).source;
  EXPECT_NE(code.find("//   x[4] x_dot (velocity of x)\n"), std::string::npos);
  EXPECT_NE(code.find("//   z[2] T_dot (dummy derivative of T)\n"), std::string::npos);
  EXPECT_EQ(count(velocities.markdown(), "| velocity `x'` (first-order form) |"), 1u);
  EXPECT_EQ(count(velocities.json(), "\"origin\": \"velocity\""), 2u);
  code = generate_code(*promoted.system, CodegenOptions{}).source;
  EXPECT_NE(code.find("//   z[0] y_dot (derivative of a nonlinear algebraic variable of y)\n"),
            std::string::npos);
  EXPECT_EQ(count(promoted.markdown(), "| dummy for `y'` (`y` promoted) "), 1u);
  EXPECT_EQ(count(promoted.json(), "\"origin\": \"nonlinear_dummy\""), 2u);
  EXPECT_EQ(count(promoted.json(), "\"origin\": \"dummy\""), 1u);
}

TEST(Report, JsonHasTheKeysOfTheSpec) {
  for (const char* model : {"pendulum", "example_12_1", "coupled_pendulums"}) {
    SCOPED_TRACE(model);
    Reduced r = reduce_file(std::string("models/") + model + ".dae");
    ASSERT_TRUE(r.system);
    Json json = parse_json(r.json());
    EXPECT_EQ(json["model"].get<std::string>(), model);
    EXPECT_EQ(json["index"].get<double>(), 3);
    for (const char* key : {"states", "algebraic", "dummies"}) {
      ASSERT_TRUE(json[key].is_array()) << key;
      for (const Json& name : json[key]) EXPECT_TRUE(name.is_string());
    }
    for (const Json& h : json["invariants"]) {
      EXPECT_TRUE(h["name"].is_string());
      EXPECT_TRUE(h["expression"].is_string());
    }
    ASSERT_EQ(json["rounds"].size(), 3u);
    for (const Json& round : json["rounds"]) {
      for (const char* key : {"number", "rows", "columns", "pattern", "structural_rank", "rank",
                              "differentiated", "dummies", "null_space"}) {
        EXPECT_TRUE(round.contains(key)) << key;
      }
    }
  }
}

TEST(Report, JsonStringEscapesWhatJsonRequires) {
  EXPECT_EQ(json_string("plain"), "\"plain\"");
  EXPECT_EQ(json_string(""), "\"\"");
  EXPECT_EQ(json_string("a\"b\\c/d"), "\"a\\\"b\\\\c/d\"");
  EXPECT_EQ(json_string("\n\t\r\b\f"), "\"\\n\\t\\r\\b\\f\"");
  EXPECT_EQ(json_string(std::string("\x01\x1f\0", 3)), "\"\\u0001\\u001f\\u0000\"");
  EXPECT_EQ(json_string("\x7f"), "\"\x7f\"");  // DEL needs no escape
  // Non-ASCII stays UTF-8; bytes that are not UTF-8 become U+FFFD, so the output stays JSON.
  EXPECT_EQ(json_string("λ → ü"), "\"λ → ü\"");
  EXPECT_EQ(json_string("a\xff"
                        "b\xc3"),
            "\"a\xef\xbf\xbd"
            "b\xef\xbf\xbd\"");
  EXPECT_EQ(parse_json(json_string("q\"\\\n\x01λ")).get<std::string>(), "q\"\\\n\x01λ");
}

// Descriptions from the model reach the JSON escaped, whatever they hold.
TEST(Report, JsonOfAwkwardDescriptionsParses) {
  Reduced r = reduce_text(
      "model m \"say \\\"hi\\\" \\\\ back\";\n"
      "parameter k = 2 \"tab\tand λ\";\n"
      "variable x(start = 1) \"{\\\"json\\\": [1]}\";\n"
      "equation x' = -k*x; end\n");
  ASSERT_TRUE(r.system);
  Json json = parse_json(r.json());
  EXPECT_EQ(json["description"].get<std::string>(), "say \"hi\" \\ back");
  EXPECT_EQ(json["parameters"][0]["description"].get<std::string>(), "tab\tand λ");
  EXPECT_EQ(json["variables"][0]["description"].get<std::string>(), "{\"json\": [1]}");
  EXPECT_EQ(json["index"].get<double>(), 0);
}

TEST(Report, SummaryOfThePendulum) {
  Reduced r = reduce_file("models/pendulum.dae");
  ASSERT_TRUE(r.system);
  EXPECT_EQ(format_reduction_summary(*r.system),
            "reduction: index 3 (2 differentiation rounds + 1 for the algebraic variable lambda)\n"
            "  4 states, 3 algebraic unknowns, 2 dummy variables, 2 invariants\n"
            "  dummy variables: u_dot = u', v_dot = v'\n"
            "  round 1: B 3x3, structural rank 2, rank 2: differentiated rod\n"
            "  round 2: B 3x3, structural rank 2, rank 2: differentiated rod'\n"
            "  round 3: B 3x3, structural rank 3, rank 3: nonsingular, index 1 reached\n"
            "  hidden constraints: rod, rod'\n");
}

TEST(Report, SummaryOfAnOde) {
  Reduced r = reduce_file("models/exponential_ode.dae");
  ASSERT_TRUE(r.system);
  EXPECT_EQ(format_reduction_summary(*r.system),
            "reduction: index 0 (an ODE: no constraints)\n"
            "  1 state, 0 algebraic unknowns, 0 dummy variables, 0 invariants\n"
            "  hidden constraints: (none)\n");
  std::string md = r.markdown("ode.spy.svg");
  EXPECT_NE(md.find("**Index 0.** The model has no constraints"), std::string::npos);
  EXPECT_EQ(md.find("## Structure of A"), std::string::npos);
  EXPECT_EQ(md.find("!["), std::string::npos);  // no picture of an empty A
}

// A track whose rates hold the multiplier: the second round introduces the dummy variables.
constexpr const char* kTrack =
    "model track;\n"
    "variable x(start = 1), y, u, v(start = 1), lambda;\n"
    "equation\n"
    "  x' = u; y' = v;\n"
    "  u' = lambda*x + 2*y; v' = lambda*y - 2*x;\n"
    "  track: x^2 + y^2 = 1;\n"
    "end\n";

TEST(Report, DummiesOfARoundAreReported) {
  Reduced r = reduce_text(kTrack);
  ASSERT_TRUE(r.system);
  std::string summary = format_reduction_summary(*r.system);
  EXPECT_NE(summary.find("  round 2: B 1x1, structural rank 0, rank 0: differentiated track'; "
                         "new dummy variables u_dot, v_dot\n"),
            std::string::npos)
      << summary;
  std::string md = r.markdown();
  EXPECT_NE(md.find("dummy for `u'` (round 2)"), std::string::npos);
  EXPECT_NE(md.find("`u_dot` for `u'` and `v_dot` for `v'`. Their defining equations joined "
                    "the constraints"),
            std::string::npos);
  EXPECT_EQ(parse_json(r.json())["rounds"][1]["dummies"].get<std::vector<std::string>>(),
            (std::vector<std::string>{"u_dot", "v_dot"}));
}

// B = [1 1; 2 2] has no zero row: the combination 2 c1 - c2 comes from its left null space.
TEST(Report, NullSpacePathIsReported) {
  Reduced r = reduce_text(
      "model ns;\n"
      "variable x(start = 1), y(start = 2), z1, z2;\n"
      "equation x' = z1; y' = z2; c1: z1 + z2 = x; c2: 2*z1 + 2*z2 = y;\n"
      "end\n");
  ASSERT_TRUE(r.system);
  EXPECT_NE(
      format_reduction_summary(*r.system).find("(combinations from the left null space of B)"),
      std::string::npos);
  std::string md = r.markdown();
  EXPECT_NE(md.find("structural rank 2, rank 1: B is singular. No row of B is zero"),
            std::string::npos);
  EXPECT_NE(md.find("(null-space path, docs/method.md §5, step 2)"), std::string::npos);
  EXPECT_EQ(md.find("zero-row path"), std::string::npos);
  Json json = parse_json(r.json());
  EXPECT_TRUE(json["rounds"][0]["null_space"].get<bool>());
  EXPECT_FALSE(json["rounds"][1]["null_space"].get<bool>());
}

// At index 7 the rows that nested combinations would combine have their unknowns made states
// (docs/reduction.md, "High index"): the summary, the unknowns and the round say so.
TEST(Report, UnknownsMadeStatesAtHighIndexAreReported) {
  Reduced r = reduce_file("tests/data/n_pendulum3.dae");
  ASSERT_TRUE(r.system);
  EXPECT_NE(format_reduction_summary(*r.system).find(
                "  round 3: B 5x5, structural rank 4, rank 4: differentiated rod'', tie2, "
                "eq1, eq2; made states instead of combining: lam, x_dot_dot, "
                "y_dot_dot\n"),
            std::string::npos)
      << format_reduction_summary(*r.system);
  std::string md = r.markdown();
  EXPECT_NE(md.find("| `lam`          |      | differential (X) | promoted in round 3 | variable"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("the rows `rod''`, `tie2`, `eq1` and `eq2` hold fewer algebraic unknowns than "
                    "there are of them. Rather than combining them"),
            std::string::npos);
  EXPECT_NE(md.find("their unknowns `lam`, `x_dot_dot` and `y_dot_dot` are made states"),
            std::string::npos);
  EXPECT_NE(md.find("the originals are kept as hidden constraints"), std::string::npos);
  Json json = parse_json(r.json());
  EXPECT_TRUE(std::count(json["promoted"].begin(), json["promoted"].end(), "lam"))
      << json["promoted"];
}

TEST(Report, MarkdownEscapesDescriptions) {
  EXPECT_EQ(markdown_text("mass [kg]"), "mass [kg]");
  EXPECT_EQ(markdown_text("a|b *c* _d_ `e` <i> ~f~ \\"),
            "a\\|b \\*c\\* \\_d\\_ \\`e\\` \\<i\\> \\~f\\~ \\\\");
  EXPECT_EQ(markdown_text("[x](http://e) [y][z]"), "[x\\](http://e) [y\\][z]");
  EXPECT_EQ(markdown_text("two\nlines"), "two lines");

  Reduced r = reduce_text(
      "model m \"<script>alert(1)</script>\";\n"
      "variable x(start = 1) \"a | b\";\n"
      "equation x' = -x; end\n");
  ASSERT_TRUE(r.system);
  std::string md = r.markdown();
  EXPECT_EQ(md.find("<script>"), std::string::npos);
  EXPECT_NE(md.find("\\<script\\>alert(1)\\</script\\>"), std::string::npos);
  EXPECT_NE(md.find("| a \\| b "), std::string::npos);
}

// The same model gives the same bytes, even reduced in another front-end run (GiNaC orders
// terms by hash values that differ between symbol tables).
TEST(Report, ReportsAreDeterministic) {
  Reduced a = reduce_file("models/coupled_pendulums.dae");
  Reduced b = reduce_file("models/coupled_pendulums.dae");
  ASSERT_TRUE(a.system && b.system);
  EXPECT_EQ(a.markdown("x.svg"), b.markdown("x.svg"));
  EXPECT_EQ(a.json(), b.json());
  EXPECT_EQ(final_spy_svg(*a.system), final_spy_svg(*b.system));
  EXPECT_EQ(format_reduction_summary(*a.system), format_reduction_summary(*b.system));
}

// ---- the spy plot ----

TEST(Report, SpySvgMarksEveryNonzero) {
  SparsityPattern pattern =
      SparsityPattern::from_text("0001100\n0000011\n0001111\n1011000\n1010100\n0110010\n0110001\n");
  std::vector<std::string> rows{"c1''", "c2''", "c3''", "c4", "c5", "c6", "c7"};
  std::vector<std::string> cols{"l1", "l2", "l3", "u1", "v1", "u2", "v2"};
  std::string svg = spy_svg(pattern, rows, cols, {});
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_EQ(count(svg, "<rect class=\"nz\""), static_cast<size_t>(pattern.nonzeros()));
  EXPECT_EQ(count(svg, "<rect class=\"block\""), 0u);
  EXPECT_NE(svg.find("nz = 20"), std::string::npos);
  EXPECT_NE(svg.find(">c1''</text>"), std::string::npos);  // labels as written
  EXPECT_NE(svg.find(">v2</text>"), std::string::npos);
  EXPECT_EQ(svg, spy_svg(pattern, rows, cols, {}));
}

TEST(Report, SpySvgEscapesLabels) {
  SparsityPattern pattern = SparsityPattern::from_text("11\n01\n");
  std::string svg = spy_svg(pattern, {"a<b", "c&d"}, {"\"q\"", "x]]>y"}, {});
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find("a&lt;b"), std::string::npos);
  EXPECT_NE(svg.find("c&amp;d"), std::string::npos);
  EXPECT_NE(svg.find("&quot;q&quot;"), std::string::npos);
  EXPECT_NE(svg.find("x]]&gt;y"), std::string::npos);
  EXPECT_EQ(svg.find("a<b"), std::string::npos);
  EXPECT_EQ(xml_escape(std::string("bell\x07", 5)), "bell\xEF\xBF\xBD");
}

TEST(Report, SpySvgOutlinesBlocks) {
  SparsityPattern pattern = SparsityPattern::from_text("100\n110\n011\n");
  auto blocks = [&](const std::vector<int>& starts) {
    std::string svg = spy_svg(pattern, {"a", "b", "c"}, {"x", "y", "z"}, starts);
    EXPECT_EQ(xml_problem(svg), "");
    return count(svg, "<rect class=\"block\"");
  };
  EXPECT_EQ(blocks({0, 1, 3}), 2u);  // as BlockTriangularForm::block_start
  EXPECT_EQ(blocks({0, 1}), 2u);     // the end may be left out
  EXPECT_EQ(blocks({0, 1, 2, 3}), 3u);
  EXPECT_EQ(blocks({}), 0u);
  EXPECT_EQ(blocks({7, -1}), 0u);  // out of range: ignored
}

TEST(Report, SpySvgOfAnEmptyPatternIsWellFormed) {
  std::string svg = spy_svg(SparsityPattern(), {}, {}, {});
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_EQ(count(svg, "<rect class=\"nz\""), 0u);
}

// The picture the report links to is A in block lower-triangular order with its blocks.
TEST(Report, FinalSpySvgShowsTheBlockForm) {
  Reduced r = reduce_file("models/rlc_circuit.dae");
  ASSERT_TRUE(r.system);
  std::string svg = final_spy_svg(*r.system);
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_EQ(count(svg, "<rect class=\"block\""),
            static_cast<size_t>(r.system->blocks.block_count()));
  EXPECT_EQ(count(svg, "<rect class=\"nz\""), r.system->A.nonzeros());
}

// A large model's reports grow with the model, not with its square: tables of more than 10,000
// cells become a note, and the JSON lists their entries row by row.
TEST(Report, LargeTablesBecomeNotesAndSparseLists) {
  FlattenOptions sixty_links;  // A: 180 x 180
  sixty_links.defines.push_back({"N", "60"});
  Reduced r = reduce_text(test::read_source_file("models/pendulum_chain.dae"), sixty_links);
  ASSERT_TRUE(r.system);
  std::string markdown = r.markdown();
  EXPECT_EQ(1u, count(markdown,
                      "(The table, 180 × 181, is left out: it has more than 10,000 "
                      "cells. `daec --report-json` lists its entries row by row.)"));
  // Round 3's B, the pattern of A and its block form.
  EXPECT_EQ(3u, count(markdown, "(The table, 180 × 180, is left out"));
  Json json = parse_json(r.json());
  const Json& A = json["A"];
  EXPECT_FALSE(A.contains("pattern"));
  EXPECT_FALSE(A.contains("entries"));
  ASSERT_EQ(180u, A["pattern_by_row"].size());
  ASSERT_EQ(180u, A["entries_by_row"].size());
  for (size_t i = 0; i < 180; ++i) {
    const Json& columns = A["pattern_by_row"][i];
    const Json& entries = A["entries_by_row"][i];
    ASSERT_EQ(columns.size(), entries.size());
    for (size_t k = 0; k < columns.size(); ++k)
      EXPECT_EQ(columns[k].get<double>(), entries[k][0].get<double>());
  }
  // Round 1 (B: 60 x 60) fits: it keeps the dense pattern; round 3 (180 x 180) does not.
  EXPECT_TRUE(json["rounds"][0].contains("pattern"));
  EXPECT_TRUE(json["rounds"][2].contains("pattern_by_row"));
}

TEST(Report, JsonListsTheWhenClausesAndTheirRelations) {
  Json doc = parse_json(reduce_file("models/bouncing_ball.dae").json());
  EXPECT_EQ(Json::parse(R"(["h < 0"])"), doc["relations"]);
  EXPECT_EQ(Json::parse(R"([{"name": "when h < 0", "reinit": ["v = -e*v"]}])"), doc["when"]);
  EXPECT_FALSE(parse_json(reduce_file("models/pendulum.dae").json()).contains("when"));
}

}  // namespace
}  // namespace daec
