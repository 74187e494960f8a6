// Coarse Dulmage–Mendelsohn decomposition by alternating-path searches, fine decomposition of the
// well-determined part by block_triangular_form().
#include "structure/dulmage_mendelsohn.h"

#include <stdexcept>

namespace daec {

namespace {

struct Reached {
  std::vector<bool> rows;
  std::vector<bool> cols;
};

// Rows and columns reachable by alternating paths from the unmatched rows: from a row to any of
// its columns, from a column to its matched row. Reaching an unmatched column would mean an
// augmenting path, so a non-maximum matching is refused here. Used on the transpose (with the
// matching's two directions swapped) for the paths from unmatched columns.
Reached reach_from_unmatched_rows(const SparsityPattern& pattern,
                                  const std::vector<int>& row_to_col,
                                  const std::vector<int>& col_to_row) {
  Reached reached{std::vector<bool>(pattern.rows(), false),
                  std::vector<bool>(pattern.cols(), false)};
  std::vector<int> queue;
  for (int r = 0; r < pattern.rows(); ++r) {
    if (row_to_col[r] != kUnmatched) continue;
    reached.rows[r] = true;
    queue.push_back(r);
  }
  for (size_t head = 0; head < queue.size(); ++head) {
    for (int c : pattern.row(queue[head])) {
      if (reached.cols[c]) continue;
      reached.cols[c] = true;
      int next = col_to_row[c];
      if (next == kUnmatched) {
        throw std::invalid_argument("Dulmage-Mendelsohn: the matching is not maximum");
      }
      if (!reached.rows[next]) {
        reached.rows[next] = true;
        queue.push_back(next);
      }
    }
  }
  return reached;
}

std::vector<int> indices_where(const std::vector<bool>& marked) {
  std::vector<int> indices;
  for (int i = 0; i < static_cast<int>(marked.size()); ++i) {
    if (marked[i]) indices.push_back(i);
  }
  return indices;
}

std::vector<int> indices_where_neither(const std::vector<bool>& a, const std::vector<bool>& b) {
  std::vector<int> indices;
  for (int i = 0; i < static_cast<int>(a.size()); ++i) {
    if (!a[i] && !b[i]) indices.push_back(i);
  }
  return indices;
}

// The irreducible blocks of the well-determined part: its own pattern and matching (the part is
// perfectly matched within itself), renumbered back to the original rows and columns.
BlockTriangularForm well_part_blocks(const SparsityPattern& pattern, const Matching& matching,
                                     const std::vector<int>& rows, const std::vector<int>& cols) {
  std::vector<int> row_position(pattern.rows(), kUnmatched);
  std::vector<int> col_position(pattern.cols(), kUnmatched);
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) row_position[rows[i]] = i;
  for (int j = 0; j < static_cast<int>(cols.size()); ++j) col_position[cols[j]] = j;
  Matching part_matching;
  for (int r : rows) part_matching.row_to_col.push_back(col_position[matching.row_to_col[r]]);
  for (int c : cols) part_matching.col_to_row.push_back(row_position[matching.col_to_row[c]]);
  part_matching.size = static_cast<int>(rows.size());

  BlockTriangularForm form = block_triangular_form(pattern.submatrix(rows, cols), part_matching);
  for (int& r : form.row_order) r = rows[r];
  for (int& c : form.col_order) c = cols[c];
  return form;
}

// The orders described in the header: unmatched rows first and unmatched columns last, so that
// the matched pairs line up on one diagonal through all three parts.
void build_orders(DulmageMendelsohn& dm) {
  const Matching& m = dm.matching;
  for (int r : dm.over_rows) {
    if (m.row_to_col[r] == kUnmatched) dm.row_order.push_back(r);
  }
  for (int c : dm.over_cols) {
    dm.row_order.push_back(m.col_to_row[c]);
    dm.col_order.push_back(c);
  }
  dm.row_order.insert(dm.row_order.end(), dm.well_blocks.row_order.begin(),
                      dm.well_blocks.row_order.end());
  dm.col_order.insert(dm.col_order.end(), dm.well_blocks.col_order.begin(),
                      dm.well_blocks.col_order.end());
  for (int r : dm.under_rows) {
    dm.row_order.push_back(r);
    dm.col_order.push_back(m.row_to_col[r]);
  }
  for (int c : dm.under_cols) {
    if (m.col_to_row[c] == kUnmatched) dm.col_order.push_back(c);
  }
}

}  // namespace

DulmageMendelsohn dulmage_mendelsohn(const SparsityPattern& pattern, const Matching& maximum) {
  if (!is_valid_matching(pattern, maximum)) {
    throw std::invalid_argument("Dulmage-Mendelsohn: not a matching of the pattern");
  }
  DulmageMendelsohn dm;
  dm.matching = maximum;
  dm.structural_rank = maximum.size;

  Reached over = reach_from_unmatched_rows(pattern, maximum.row_to_col, maximum.col_to_row);
  Reached under =  // rows and columns swap roles on the transpose
      reach_from_unmatched_rows(pattern.transposed(), maximum.col_to_row, maximum.row_to_col);
  dm.over_rows = indices_where(over.rows);
  dm.over_cols = indices_where(over.cols);
  dm.under_rows = indices_where(under.cols);
  dm.under_cols = indices_where(under.rows);
  dm.well_rows = indices_where_neither(over.rows, under.cols);
  dm.well_cols = indices_where_neither(over.cols, under.rows);

  dm.well_blocks = well_part_blocks(pattern, maximum, dm.well_rows, dm.well_cols);
  build_orders(dm);
  return dm;
}

DulmageMendelsohn dulmage_mendelsohn(const SparsityPattern& pattern) {
  return dulmage_mendelsohn(pattern, maximum_matching(pattern));
}

}  // namespace daec
