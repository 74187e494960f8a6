// Minimum-degree order and symbolic factorisation of H H^T, and the generated code that factors
// by them (templates/gram_cholesky.cpp.in).
#include "codegen/gram_cholesky.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "codegen/code_tables.h"
#include "codegen/template.h"

namespace daec {

namespace {

// The graph of G: constraints i and l are adjacent when a column of H holds both.
std::vector<std::set<int>> gram_graph(const ColumnPattern& h) {
  std::vector<std::set<int>> adjacent(h.rows);
  for (int j = 0; j < h.cols(); ++j) {
    for (int a = h.colptr[j]; a < h.colptr[j + 1]; ++a) {
      for (int b = a + 1; b < h.colptr[j + 1]; ++b) {
        adjacent[h.rowval[a]].insert(h.rowval[b]);
        adjacent[h.rowval[b]].insert(h.rowval[a]);
      }
    }
  }
  return adjacent;
}

// Eliminates the nodes of least degree first (ties: the lowest node), the graph gaining the
// fill as it goes: the neighbours of each node when it is eliminated are the rows of its column
// of L. Returns the order and, for each node, those neighbours.
std::vector<int> minimum_degree(std::vector<std::set<int>> adjacent,
                                std::vector<std::vector<int>>& column_rows) {
  int size = static_cast<int>(adjacent.size());
  std::set<std::pair<size_t, int>> queue;
  for (int v = 0; v < size; ++v) queue.insert({adjacent[v].size(), v});
  std::vector<int> order;
  column_rows.assign(size, {});
  while (!queue.empty()) {
    int v = queue.begin()->second;
    queue.erase(queue.begin());
    order.push_back(v);
    std::vector<int> neighbours(adjacent[v].begin(), adjacent[v].end());
    column_rows[v] = neighbours;
    for (int u : neighbours) {
      queue.erase({adjacent[u].size(), u});
      adjacent[u].erase(v);
      for (int w : neighbours) {
        if (w != u) adjacent[u].insert(w);
      }
      queue.insert({adjacent[u].size(), u});
    }
    adjacent[v].clear();
  }
  return order;
}

}  // namespace

GramPlan plan_gram_cholesky(const ColumnPattern& h) {
  GramPlan plan;
  plan.size = h.rows;
  std::vector<std::vector<int>> neighbours;
  plan.order = minimum_degree(gram_graph(h), neighbours);
  std::vector<int> position(plan.size);
  for (int i = 0; i < plan.size; ++i) position[plan.order[i]] = i;
  plan.factor.rows = plan.size;
  for (int j = 0; j < plan.size; ++j) {
    std::vector<int> rows{j};
    for (int v : neighbours[plan.order[j]]) rows.push_back(position[v]);
    std::sort(rows.begin(), rows.end());
    if (rows.front() != j) throw std::logic_error("Gram factor: fill above the diagonal");
    plan.factor.rowval.insert(plan.factor.rowval.end(), rows.begin(), rows.end());
    plan.factor.colptr.push_back(plan.factor.nonzeros());
  }
  for (int j = 0; j < h.cols(); ++j) {
    for (int a = h.colptr[j]; a < h.colptr[j + 1]; ++a) {
      for (int b = a; b < h.colptr[j + 1]; ++b) {
        int i = position[h.rowval[a]], l = position[h.rowval[b]];
        int target = plan.factor.find(std::max(i, l), std::min(i, l));
        if (target < 0) throw std::logic_error("Gram factor: an entry of G outside L");
        plan.products.push_back({target, a, b});
      }
    }
  }
  // Row j of L (left of the diagonal): the columns c < j holding row j.
  std::vector<std::vector<std::array<int, 2>>> rows(plan.size);
  for (int c = 0; c < plan.size; ++c) {
    for (int e = plan.factor.colptr[c] + 1; e < plan.factor.colptr[c + 1]; ++e)
      rows[plan.factor.rowval[e]].push_back({e, plan.factor.colptr[c + 1]});
  }
  for (const auto& row : rows) {
    plan.row_entries.insert(plan.row_entries.end(), row.begin(), row.end());
    plan.row_start.push_back(static_cast<int>(plan.row_entries.size()));
  }
  return plan;
}

std::string gram_cholesky_code(const GramPlan& plan) {
  std::vector<int> order(plan.order.begin(), plan.order.end());
  std::string tables =
      "// The projection's Gram matrix G = H H^T (H = dh/dX), permuted to keep its Cholesky\n"
      "// factor L sparse: kGramOrder[i] is the constraint in place i; L by columns "
      "(kGramStart,\n"
      "// kGramRow, the diagonal first); the products of entries of H that make up G, as\n"
      "// {entry of L, entry of H, entry of H}; and each row of L left of the diagonal as\n"
      "// {entry of L, end of its column}.\n" +
      constant_table("kGramOrder", order) + constant_table("kGramStart", plan.factor.colptr) +
      constant_table("kGramRow", plan.factor.rowval) +
      fmt::format("constexpr int kGramEntries = {};\nconstexpr int kGramProducts = {};\n",
                  plan.factor.nonzeros(), plan.products.size()) +
      constant_rows("kGramProduct", plan.products) +
      constant_table("kGramRowStart", plan.row_start) +
      constant_rows("kGramRowEntry", plan.row_entries) +
      fmt::format("constexpr int kGramRowEntries = {};\n", plan.row_entries.size());
  return render_template("gram_cholesky.cpp.in", embedded_template("gram_cholesky.cpp.in"),
                         {{"tables", tables}});
}

}  // namespace daec
