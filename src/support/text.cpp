// UTF-8 validation and edit distances for suggestions.
#include "support/text.h"

#include <algorithm>

namespace daec {

// Length of the well-formed UTF-8 sequence starting at `i`, or 0 if it is malformed.
static size_t utf8_sequence_length(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return length;
}

std::vector<size_t> find_invalid_utf8(std::string_view text, size_t limit) {
  std::vector<size_t> offsets;
  size_t i = 0;
  while (i < text.size() && offsets.size() < limit) {
    size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      offsets.push_back(i);
      length = 1;
    }
    i += length;
  }
  return offsets;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance with three rolling rows.
  std::vector<size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::optional<std::string> closest_name(std::string_view name,
                                        const std::vector<std::string>& candidates) {
  size_t allowed = std::max<size_t>(1, name.size() / 3);
  std::optional<std::string> best;
  size_t best_distance = allowed + 1;
  for (const std::string& candidate : candidates) {
    if (candidate == name) continue;
    size_t distance = edit_distance(name, candidate);
    // Replacing every character is no typo: `y` must not suggest `x`.
    if (distance >= std::max(name.size(), candidate.size())) continue;
    if (distance < best_distance) {  // the first of equally close candidates wins: deterministic
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

std::string printable_text(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    unsigned char u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t') || u == 0x7F) c = ' ';
  }
  return out;
}

std::string count_of(size_t count, const std::string& singular, const std::string& plural) {
  std::string noun = count == 1 ? singular : plural.empty() ? singular + "s" : plural;
  return std::to_string(count) + " " + noun;
}

std::string grouped_digits(size_t number) {
  std::string digits = std::to_string(number), text;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return text;
}

}  // namespace daec
