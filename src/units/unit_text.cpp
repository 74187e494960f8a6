// Units as text (unit_text.h).
#include "units/unit_text.h"

#include <cctype>

namespace daec {

namespace {

bool all_digits(const std::string& text) {
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

std::string per_second(const std::string& unit) {
  if (unit.empty()) return "";
  size_t slash = unit.rfind('/');
  if (slash == std::string::npos) return unit + "/s";
  std::string denominator = unit.substr(slash + 1);
  // "/s" and "/sN" (a power of the second) take one more second.
  if (denominator == "s") return unit + "2";
  if (denominator.size() > 1 && denominator[0] == 's' && all_digits(denominator.substr(1))) {
    return unit.substr(0, slash + 2) + std::to_string(std::stoi(denominator.substr(1)) + 1);
  }
  return "(" + unit + ")/s";
}

}  // namespace daec
