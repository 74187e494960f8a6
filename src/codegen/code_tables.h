// Constant tables in the generated code: `constexpr int kName[size] = {...};` with the values
// wrapped to a readable width, for the index tables that drive the sparse Jacobians, the
// projection and the solver.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace daec {

/// `items` as a braced list wrapped at about 90 columns; an empty list holds `empty` (C++ has no
/// zero-length arrays).
std::string braced(const std::vector<std::string>& items, const std::string& empty);

/// `constexpr int NAME[size] = {...};` followed by a newline; one unused 0 when `values` is
/// empty.
std::string constant_table(const std::string& name, const std::vector<int>& values);

/// `constexpr int NAME[size][W] = {{...}, ...};` followed by a newline.
template <size_t W>
std::string constant_rows(const std::string& name, const std::vector<std::array<int, W>>& rows) {
  std::vector<std::string> items;
  for (const auto& row : rows) {
    std::string item = "{";
    for (size_t i = 0; i < W; ++i) item += (i ? ", " : "") + std::to_string(row[i]);
    items.push_back(item + "}");
  }
  std::string zero = "{";
  for (size_t i = 0; i < W; ++i) zero += i ? ", 0" : "0";
  return "constexpr int " + name + "[" + std::to_string(rows.empty() ? 1 : rows.size()) + "][" +
         std::to_string(W) + "] = " + braced(items, zero + "}") + ";\n";
}

/// The definition of a static member table `TYPE Model::NAME[] = {...};` of ints.
std::string member_table(const std::string& name, const std::vector<int>& values);

}  // namespace daec
