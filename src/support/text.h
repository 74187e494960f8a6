// Small text utilities shared by the stages: UTF-8 validation and "did you mean" suggestions.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace daec {

/// Byte offsets at which `text` is not well-formed UTF-8 (overlong forms, surrogates and code
/// points above U+10FFFF count as malformed), at most `limit` of them.
std::vector<size_t> find_invalid_utf8(std::string_view text, size_t limit);

/// Levenshtein distance, counting a swap of two adjacent characters as one edit.
size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `name`, if it is close enough to be a plausible typo: at most one
/// edit for short names, at most a third of the name's length for longer ones, and never a
/// candidate that has nothing in common with `name` (`y` for `x`).
std::optional<std::string> closest_name(std::string_view name,
                                        const std::vector<std::string>& candidates);

/// "1 state", "3 states": `count` and the noun, `plural` (default: `singular` + "s") unless
/// `count` is 1.
std::string count_of(size_t count, const std::string& singular, const std::string& plural = {});

/// `number` with its digits grouped by threes for reading: 2345678 -> "2,345,678".
std::string grouped_digits(size_t number);

/// `text` with the control characters that would garble a terminal (all but tab, DEL included)
/// shown as spaces: for text of the model echoed to the terminal (source lines under a
/// diagnostic, the description --check prints).
std::string printable_text(std::string_view text);

}  // namespace daec
