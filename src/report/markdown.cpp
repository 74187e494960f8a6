// Markdown primitives (see the header).
#include "report/markdown.h"

#include <algorithm>
#include <string_view>

#include "report/report_common.h"

namespace daec {

std::string markdown_text(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (static_cast<unsigned char>(ch) < 0x20) {
      out += ' ';
    } else if (std::string_view("\\`*_<>|~").find(ch) != std::string_view::npos) {
      out += '\\';
      out += ch;
    } else if (ch == ']' && (next == '(' || next == '[')) {
      out += "\\]";  // "[text](url)" and "[text][ref]" would be links; "[kg]" alone is not
    } else {
      out += ch;
    }
  }
  return out;
}

namespace markdown {

namespace {

// Display width in characters: UTF-8 continuation bytes take no room.
size_t width_of(const std::string& text) {
  size_t chars = 0;
  for (char ch : text) chars += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return chars;
}

std::string pad(const std::string& text, size_t width, bool centre) {
  size_t room = width - std::min(width, width_of(text));
  size_t before = centre ? room / 2 : 0;
  return std::string(before, ' ') + text + std::string(room - before, ' ');
}

}  // namespace

std::string code(const std::string& text) {
  std::string out = "`";
  for (char ch : text) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out + "`";
}

std::vector<std::string> coded(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const std::string& item : items) out.push_back(code(item));
  return out;
}

std::string table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows, size_t left_columns) {
  std::vector<size_t> widths(header.size(), 3);
  for (size_t c = 0; c < header.size(); ++c) {
    widths[c] = std::max(widths[c], width_of(header[c]));
    for (const auto& row : rows) widths[c] = std::max(widths[c], width_of(row[c]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string text = "|";
    for (size_t c = 0; c < cells.size(); ++c) {
      text += " " + pad(cells[c], widths[c], c >= left_columns) + " |";
    }
    return text + "\n";
  };
  std::string out = line(header) + "|";
  for (size_t c = 0; c < header.size(); ++c) {
    bool centre = c >= left_columns;
    out += (centre ? ":" : "-") + std::string(widths[c], '-') + (centre ? ":|" : "-|");
  }
  out += "\n";
  for (const auto& row : rows) out += line(row);
  return out + "\n";
}

std::string listing(const std::vector<std::string>& items) {
  if (items.size() <= 1) return report::join(items, "");
  std::vector<std::string> head(items.begin(), items.end() - 1);
  return report::join(head, ", ") + " and " + items.back();
}

std::string heading(int level, const std::string& text) {
  return std::string(static_cast<size_t>(level), '#') + " " + text + "\n\n";
}

}  // namespace markdown
}  // namespace daec
