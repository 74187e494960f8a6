// Markdown primitives for the reports (GitHub-flavoured): escaping text from the model, inline
// code, headings, lists in prose and tables padded so that the Markdown source lines up too. They
// know nothing of models or reductions: report/markdown_report builds the report from them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace daec {

/// `text` (a description from the model) escaped so that Markdown shows it as written: no
/// emphasis, code, links, HTML or table cell breaks; line breaks become spaces.
std::string markdown_text(const std::string& text);

namespace markdown {

/// Inline code: names, labels and formulas, which hold no backticks. `|` is escaped so that a
/// formula cannot end a table cell (GitHub unescapes it inside code in tables).
std::string code(const std::string& text);

/// code() of each item.
std::vector<std::string> coded(const std::vector<std::string>& items);

/// A heading of `level` (1: `#`) followed by a blank line.
std::string heading(int level, const std::string& text);

/// "a", "a and b", "a, b and c".
std::string listing(const std::vector<std::string>& items);

/// A table padded so that its columns line up in the Markdown source too (widths count UTF-8
/// characters, at least 3). The first `left_columns` columns are left-aligned, the others
/// centred; every row has as many cells as the header. Ends with a blank line.
std::string table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows, std::size_t left_columns = 1);

}  // namespace markdown
}  // namespace daec
