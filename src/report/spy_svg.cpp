// Drawing a sparsity pattern as SVG.
#include "report/spy_svg.h"

#include <algorithm>

#include <fmt/format.h>

namespace daec {

std::string xml_escape(std::string_view text) {
  std::string out;
  for (char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // XML 1.0 forbids control characters other than tab, newline and carriage return.
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') {
          out += "\xEF\xBF\xBD";
        } else {
          out += ch;
        }
    }
  }
  return out;
}

namespace {

// Geometry in pixels. Labels are in a 12 px monospace font, whose characters are about 7.2 px
// wide; 8 px per character leaves room for fonts a little wider than that.
constexpr int kCell = 20;
constexpr int kMark = 14;
constexpr int kCharWidth = 8;
constexpr int kMargin = 10;
constexpr int kGap = 6;

// Characters, not bytes: UTF-8 continuation bytes take no room.
int text_width(const std::string& text) {
  int chars = 0;
  for (char ch : text) chars += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return chars * kCharWidth;
}

int widest(const std::vector<std::string>& labels, size_t count) {
  int width = 0;
  for (size_t i = 0; i < std::min(labels.size(), count); ++i) {
    width = std::max(width, text_width(labels[i]));
  }
  return width;
}

std::string label_at(const std::vector<std::string>& labels, int i) {
  return static_cast<size_t>(i) < labels.size() ? labels[static_cast<size_t>(i)] : std::string();
}

struct Layout {
  int rows, cols;
  int left, top;  // the plot's upper left corner
  int width, height;
};

Layout layout_of(const SparsityPattern& p, const std::vector<std::string>& row_labels,
                 const std::vector<std::string>& col_labels, const std::string& caption) {
  Layout l{p.rows(), p.cols(), 0, 0, 0, 0};
  l.left = kMargin + widest(row_labels, static_cast<size_t>(l.rows)) + kGap;
  l.top = kMargin + widest(col_labels, static_cast<size_t>(l.cols)) + kGap;
  l.width = l.left + std::max(l.cols * kCell, text_width(caption)) + kMargin;
  l.height = l.top + l.rows * kCell + kCell + kMargin;
  return l;
}

// Light lines between the cells, so that a row or column can be followed across the plot.
std::string grid(const Layout& l) {
  std::string d;
  for (int i = 1; i < l.rows; ++i) {
    d += fmt::format("M{} {}h{}", l.left, l.top + i * kCell, l.cols * kCell);
  }
  for (int j = 1; j < l.cols; ++j) {
    d += fmt::format("M{} {}v{}", l.left + j * kCell, l.top, l.rows * kCell);
  }
  if (d.empty()) return "";
  return fmt::format("  <path class=\"grid\" d=\"{}\" stroke=\"#e0e0e0\" fill=\"none\"/>\n", d);
}

std::string labels(const Layout& l, const std::vector<std::string>& row_labels,
                   const std::vector<std::string>& col_labels) {
  std::string out;
  for (int i = 0; i < l.rows; ++i) {
    out += fmt::format("  <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", l.left - kGap,
                       l.top + i * kCell + kCell / 2 + 4, xml_escape(label_at(row_labels, i)));
  }
  for (int j = 0; j < l.cols; ++j) {
    int x = l.left + j * kCell + kCell / 2 + 4, y = l.top - kGap;
    out += fmt::format("  <text x=\"{0}\" y=\"{1}\" transform=\"rotate(-90 {0} {1})\">{2}</text>\n",
                       x, y, xml_escape(label_at(col_labels, j)));
  }
  return out;
}

std::string marks(const Layout& l, const SparsityPattern& p,
                  const std::vector<std::string>& row_labels,
                  const std::vector<std::string>& col_labels) {
  std::string out;
  int inset = (kCell - kMark) / 2;
  for (auto [r, c] : p.entries()) {
    out += fmt::format(
        "  <rect class=\"nz\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#1f4e8c\">"
        "<title>{} × {}</title></rect>\n",
        l.left + c * kCell + inset, l.top + r * kCell + inset, kMark, kMark,
        xml_escape(label_at(row_labels, r)), xml_escape(label_at(col_labels, c)));
  }
  return out;
}

// Block b spans [starts[b], starts[b + 1]); starts past the pattern or out of order are dropped.
std::string block_outlines(const Layout& l, std::vector<int> starts) {
  int size = std::max(l.rows, l.cols);
  starts.erase(
      std::remove_if(starts.begin(), starts.end(), [&](int s) { return s < 0 || s >= size; }),
      starts.end());
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  std::string out;
  for (size_t b = 0; b < starts.size(); ++b) {
    int first = starts[b], end = b + 1 < starts.size() ? starts[b + 1] : size;
    int rows = std::min(end, l.rows) - std::min(first, l.rows);
    int cols = std::min(end, l.cols) - std::min(first, l.cols);
    out += fmt::format(
        "  <rect class=\"block\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
        "stroke=\"#c0392b\" stroke-width=\"2\"/>\n",
        l.left + std::min(first, l.cols) * kCell, l.top + std::min(first, l.rows) * kCell,
        cols * kCell, rows * kCell);
  }
  return out;
}

}  // namespace

std::string spy_svg(const SparsityPattern& pattern, const std::vector<std::string>& row_labels,
                    const std::vector<std::string>& col_labels,
                    const std::vector<int>& block_starts) {
  std::string caption =
      fmt::format("{} × {}, nz = {}", pattern.rows(), pattern.cols(), pattern.nonzeros());
  Layout l = layout_of(pattern, row_labels, col_labels, caption);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"monospace\" font-size=\"12\">\n",
      l.width, l.height);
  out += fmt::format("  <title>Sparsity pattern, {}</title>\n", caption);
  out += fmt::format("  <rect class=\"background\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n",
                     l.width, l.height);
  out += grid(l);
  out += marks(l, pattern, row_labels, col_labels);
  out += fmt::format(
      "  <rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
      "stroke=\"#000000\"/>\n",
      l.left, l.top, l.cols * kCell, l.rows * kCell);
  out += block_outlines(l, block_starts);  // over the frame, which would hide their edges
  out += labels(l, row_labels, col_labels);
  out += fmt::format("  <text x=\"{}\" y=\"{}\">{}</text>\n", l.left,
                     l.top + l.rows * kCell + kCell, caption);
  return out + "</svg>\n";
}

}  // namespace daec
