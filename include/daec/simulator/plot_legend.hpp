// The legend of a --plot panel (docs/simulator.md, "Plots"): its entries laid out in columns
// beside the panel, sized from an estimate of the labels' widths so that the picture can be made
// wide and tall enough to hold every entry it shows; curves beyond the styled ones are counted
// in a note instead of listed.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <daec/simulator/plot_style.hpp>

namespace daec::simulator {

// The font size of the axis and legend text, in the picture's units (pixels).
constexpr double kPlotFontSize = 13;
// The height of one legend row.
constexpr double kLegendRow = 18;
// The length of the line sample before a label: long enough to show a whole dash-dot period.
constexpr double kLegendSwatch = 36;
// The space between a line sample and its label, and between two legend columns.
constexpr double kLegendGap = 6;
constexpr double kLegendColumnGap = 18;
// A legend has no more columns than this: the panel grows taller instead (unless its height is
// fixed, as equal scales fix a phase plot's).
constexpr size_t kMaxLegendColumns = 2;
// A label longer than this many characters is cut, ending in an ellipsis.
constexpr size_t kMaxLabelChars = 40;

/// An upper estimate of the width of `text` at `font_size` in a sans-serif font (DejaVu Sans,
/// the usual default, is among the widest): per character by its class, UTF-8 continuation
/// bytes counting nothing.
inline double text_width(const std::string& text, double font_size) {
  const std::string narrow = "ijl.,:;'|!", medium = " ()[]{}frt/-*\"";
  double ems = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) == 0x80) continue;
    if (narrow.find(static_cast<char>(c)) != std::string::npos)
      ems += 0.32;
    else if (medium.find(static_cast<char>(c)) != std::string::npos)
      ems += 0.45;
    else if (c == 'm' || c == 'w' || c == 'M' || c == 'W' || c == '@' || c == '%')
      ems += 1.0;
    else if (c >= 'A' && c <= 'Z')
      ems += 0.76;
    else
      ems += 0.66;
  }
  return ems * font_size;
}

/// `label` cut to kMaxLabelChars characters (an ellipsis last), never inside a UTF-8 character.
inline std::string legend_label(const std::string& label) {
  size_t characters = 0, cut = std::string::npos;
  for (size_t i = 0; i < label.size(); ++i) {
    if ((static_cast<unsigned char>(label[i]) & 0xC0) == 0x80) continue;
    if (characters++ == kMaxLabelChars - 1) cut = i;
  }
  if (characters <= kMaxLabelChars) return label;
  return label.substr(0, cut) + "\u2026";
}

struct LegendEntry {
  std::string label;
  LineStyle style;
};

/// Where a panel's legend entries go: `rows` per column, `columns` columns of `column_width`,
/// then the note (if any) on a row of its own. The legend needs `width` x `height`.
struct LegendLayout {
  size_t rows = 0, columns = 0;
  double column_width = 0, width = 0, height = 0;
  std::string note;
};

/// The note that stands for `more` curves left out of the legend ("" for none).
inline std::string legend_note(size_t more) {
  if (more == 0) return "";
  return "\u2026 and " + std::to_string(more) + " more: use --plot-columns";
}

/// Lays out `entries` (and the note for `more` left out) beside a panel `panel_height` high: as
/// many rows as fit it, in at most `max_columns` columns; where they do not, the legend is taller
/// than the panel and the panel grows to it (the caller uses `height`).
inline LegendLayout layout_legend(const std::vector<LegendEntry>& entries, size_t more,
                                  double panel_height, size_t max_columns = kMaxLegendColumns) {
  LegendLayout layout;
  layout.note = legend_note(more);
  const size_t note_rows = layout.note.empty() ? 0 : 1;
  const size_t fit = std::max<size_t>(1, static_cast<size_t>(panel_height / kLegendRow));
  const size_t fit_entries = fit > note_rows ? fit - note_rows : 1;
  const size_t n = entries.size();
  layout.columns = n == 0 ? 0 : std::min(max_columns, (n + fit_entries - 1) / fit_entries);
  layout.rows = n == 0 ? 0 : (n + layout.columns - 1) / layout.columns;
  double widest = 0;
  for (const LegendEntry& entry : entries)
    widest = std::max(widest, text_width(entry.label, kPlotFontSize));
  layout.column_width = kLegendSwatch + kLegendGap + widest;
  const double columns = static_cast<double>(layout.columns);
  layout.width =
      std::max(columns * layout.column_width + (columns > 0 ? columns - 1 : 0) * kLegendColumnGap,
               text_width(layout.note, kPlotFontSize));
  layout.height = static_cast<double>(layout.rows + note_rows) * kLegendRow;
  return layout;
}

}  // namespace daec::simulator
