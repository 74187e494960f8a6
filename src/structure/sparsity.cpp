// Construction, queries, permutation and text rendering of sparsity patterns.
#include "structure/sparsity.h"

#include <algorithm>
#include <stdexcept>

namespace daec {

static void check_dimensions(int rows, int cols) {
  if (rows < 0 || cols < 0) throw std::invalid_argument("sparsity pattern: negative dimension");
}

SparsityPattern::SparsityPattern(int rows, int cols) : rows_(rows), cols_(cols) {
  check_dimensions(rows, cols);
  row_start_.assign(rows + 1, 0);
}

static void check_entry(int r, int c, int rows, int cols) {
  if (r < 0 || r >= rows || c < 0 || c >= cols) {
    throw std::invalid_argument("sparsity pattern: entry (" + std::to_string(r) + ", " +
                                std::to_string(c) + ") outside a " + std::to_string(rows) + " x " +
                                std::to_string(cols) + " matrix");
  }
}

SparsityPattern SparsityPattern::from_entries(int rows, int cols,
                                              const std::vector<std::pair<int, int>>& entries) {
  SparsityPattern pattern(rows, cols);
  // Bucket the columns by row (a counting sort, linear in the entries), then sort each row.
  std::vector<int> bucket_start(rows + 1, 0);
  for (const auto& [r, c] : entries) {
    check_entry(r, c, rows, cols);
    ++bucket_start[r + 1];
  }
  for (int r = 0; r < rows; ++r) bucket_start[r + 1] += bucket_start[r];
  std::vector<int> columns(entries.size());
  std::vector<int> next(bucket_start.begin(), bucket_start.end() - 1);
  for (const auto& [r, c] : entries) columns[next[r]++] = c;

  pattern.col_index_.reserve(columns.size());
  for (int r = 0; r < rows; ++r) {
    auto first = columns.begin() + bucket_start[r];
    auto last = columns.begin() + bucket_start[r + 1];
    std::sort(first, last);
    pattern.col_index_.insert(pattern.col_index_.end(), first, std::unique(first, last));
    pattern.row_start_[r + 1] = pattern.nonzeros();
  }
  return pattern;
}

SparsityPattern SparsityPattern::from_rows(int cols,
                                           const std::vector<std::vector<int>>& row_columns) {
  std::vector<std::pair<int, int>> entries;
  for (int r = 0; r < static_cast<int>(row_columns.size()); ++r) {
    for (int c : row_columns[r]) entries.emplace_back(r, c);
  }
  return from_entries(static_cast<int>(row_columns.size()), cols, entries);
}

SparsityPattern SparsityPattern::from_dense(const std::vector<std::vector<int>>& matrix, int cols) {
  int width = matrix.empty() ? std::max(cols, 0) : static_cast<int>(matrix[0].size());
  std::vector<std::pair<int, int>> entries;
  for (int r = 0; r < static_cast<int>(matrix.size()); ++r) {
    if (static_cast<int>(matrix[r].size()) != width) {
      throw std::invalid_argument("sparsity pattern: dense rows of different lengths");
    }
    for (int c = 0; c < width; ++c) {
      if (matrix[r][c] != 0) entries.emplace_back(r, c);
    }
  }
  return from_entries(static_cast<int>(matrix.size()), width, entries);
}

// Reads one line of from_text into `row`: true for an entry, false for none.
static std::vector<bool> parse_pattern_line(std::string_view line) {
  static constexpr std::string_view kMiddleDot = "\xC2\xB7";
  std::vector<bool> row;
  for (size_t i = 0; i < line.size(); ++i) {
    char ch = line[i];
    if (ch == ' ' || ch == '\t' || ch == '\r') continue;
    if (ch == '1' || ch == 'x' || ch == 'X' || ch == '*') {
      row.push_back(true);
    } else if (ch == '0' || ch == '.') {
      row.push_back(false);
    } else if (line.substr(i, kMiddleDot.size()) == kMiddleDot) {
      row.push_back(false);
      i += kMiddleDot.size() - 1;
    } else {
      throw std::invalid_argument("sparsity pattern: unexpected character '" + std::string(1, ch) +
                                  "' in text");
    }
  }
  return row;
}

SparsityPattern SparsityPattern::from_text(std::string_view text) {
  std::vector<std::vector<int>> dense;
  while (!text.empty()) {
    size_t end = std::min(text.find('\n'), text.size());
    std::vector<bool> row = parse_pattern_line(text.substr(0, end));
    text.remove_prefix(std::min(end + 1, text.size()));
    if (!row.empty()) dense.emplace_back(row.begin(), row.end());
  }
  return from_dense(dense);
}

IndexSpan SparsityPattern::row(int r) const {
  const int* base = col_index_.data();
  return IndexSpan{base + row_start_[r], base + row_start_[r + 1]};
}

bool SparsityPattern::has(int r, int c) const {
  if (r < 0 || r >= rows_ || c < 0 || c >= cols_) return false;
  IndexSpan columns = row(r);
  return std::binary_search(columns.begin(), columns.end(), c);
}

std::vector<std::pair<int, int>> SparsityPattern::entries() const {
  std::vector<std::pair<int, int>> result;
  result.reserve(col_index_.size());
  for (int r = 0; r < rows_; ++r) {
    for (int c : row(r)) result.emplace_back(r, c);
  }
  return result;
}

SparsityPattern SparsityPattern::transposed() const {
  SparsityPattern result(cols_, rows_);
  // Counting sort by column; walking the rows in order keeps each new row sorted.
  for (int c : col_index_) ++result.row_start_[c + 1];
  for (int c = 0; c < cols_; ++c) result.row_start_[c + 1] += result.row_start_[c];
  result.col_index_.resize(col_index_.size());
  std::vector<int> next(result.row_start_.begin(), result.row_start_.end() - 1);
  for (int r = 0; r < rows_; ++r) {
    for (int c : row(r)) result.col_index_[next[c]++] = r;
  }
  return result;
}

// Position of each index in `list` (or -1), checking that the list has no repeats or strays.
static std::vector<int> positions_in(const std::vector<int>& list, int size, const char* what) {
  std::vector<int> position(size, -1);
  for (int i = 0; i < static_cast<int>(list.size()); ++i) {
    int index = list[i];
    if (index < 0 || index >= size || position[index] != -1) {
      throw std::invalid_argument(std::string("sparsity pattern: bad ") + what + " list");
    }
    position[index] = i;
  }
  return position;
}

SparsityPattern SparsityPattern::submatrix(const std::vector<int>& row_list,
                                           const std::vector<int>& col_list) const {
  positions_in(row_list, rows_, "row");
  std::vector<int> new_col = positions_in(col_list, cols_, "column");
  std::vector<std::pair<int, int>> kept;
  for (int i = 0; i < static_cast<int>(row_list.size()); ++i) {
    for (int c : row(row_list[i])) {
      if (new_col[c] != -1) kept.emplace_back(i, new_col[c]);
    }
  }
  return from_entries(static_cast<int>(row_list.size()), static_cast<int>(col_list.size()), kept);
}

SparsityPattern SparsityPattern::permuted(const std::vector<int>& row_order,
                                          const std::vector<int>& col_order) const {
  if (!is_permutation_of(row_order, rows_) || !is_permutation_of(col_order, cols_)) {
    throw std::invalid_argument("sparsity pattern: permuted() needs two permutations");
  }
  return submatrix(row_order, col_order);
}

std::string SparsityPattern::to_text(std::string_view present, std::string_view absent) const {
  std::string text;
  for (int r = 0; r < rows_; ++r) {
    IndexSpan columns = row(r);
    const int* next = columns.begin();
    for (int c = 0; c < cols_; ++c) {
      if (c > 0) text += ' ';
      bool entry = next != columns.end() && *next == c;
      if (entry) ++next;
      text += entry ? present : absent;
    }
    text += '\n';
  }
  return text;
}

bool operator==(const SparsityPattern& a, const SparsityPattern& b) {
  return a.rows_ == b.rows_ && a.cols_ == b.cols_ && a.row_start_ == b.row_start_ &&
         a.col_index_ == b.col_index_;
}

bool is_permutation_of(const std::vector<int>& order, int size) {
  if (static_cast<int>(order.size()) != size) return false;
  std::vector<bool> seen(size, false);
  for (int index : order) {
    if (index < 0 || index >= size || seen[index]) return false;
    seen[index] = true;
  }
  return true;
}

std::vector<int> inverse_permutation(const std::vector<int>& order) {
  std::vector<int> inverse(order.size());
  for (int i = 0; i < static_cast<int>(order.size()); ++i) inverse[order[i]] = i;
  return inverse;
}

}  // namespace daec
