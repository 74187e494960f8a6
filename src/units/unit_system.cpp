// The udunits2 unit database and unit arithmetic (unit_system.h).
#include "units/unit_system.h"

#include <udunits2.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace daec {

namespace {

/// Room for udunits2's canonical form of a unit (`m2.kg.s-3.A-2`, with a factor).
constexpr size_t kFormatBufferSize = 256;

/// Relative tolerance when a converter's factor is compared with 1 (`rad` and `1` are alike).
constexpr double kFactorTolerance = 1e-12;

// "m2.kg.s-2" as a user writes it, "m2.kg/s2": the negative powers after one '/', in parentheses
// when there are several ("kg/(m.s)"). A factor ("1000 m") or offset ("K @ 273.15") is kept.
std::string as_quotient(const std::string& product) {
  if (product.find_first_of(" @") != std::string::npos) return product;
  std::string numerator, denominator;
  int denominators = 0;
  size_t start = 0;
  while (start <= product.size()) {
    size_t end = product.find('.', start);
    if (end == std::string::npos) end = product.size();
    std::string factor = product.substr(start, end - start);
    size_t minus = factor.find('-');
    if (minus == std::string::npos) {
      numerator += (numerator.empty() ? "" : ".") + factor;
    } else {
      std::string power = factor.substr(minus + 1);
      denominator +=
          (denominator.empty() ? "" : ".") + factor.substr(0, minus) + (power == "1" ? "" : power);
      ++denominators;
    }
    start = end + 1;
  }
  if (denominators == 0) return product;
  return (numerator.empty() ? "1" : numerator) + "/" +
         (denominators > 1 ? "(" + denominator + ")" : denominator);
}

std::string canonical_spelling(const ut_unit* unit) {
  char buffer[kFormatBufferSize];
  // In base units (m2.kg.s-2): the named unit udunits2 would pick may be a surprise (Gy for m2/s2).
  int length = ut_format(unit, buffer, sizeof buffer, UT_ASCII | UT_DEFINITION);
  if (length < 0 || static_cast<size_t>(length) >= sizeof buffer) return "?";
  return as_quotient(std::string(buffer, static_cast<size_t>(length)));
}

// ut_accept_visitor callbacks: the largest |exponent| of a base unit, into *(int*)arg. A scaled,
// shifted, time-stamp or logarithmic unit has those of the unit it is built on.
ut_status visit_basic(const ut_unit*, void* arg) {
  int& largest = *static_cast<int*>(arg);
  largest = std::max(largest, 1);
  return UT_SUCCESS;
}
ut_status visit_product(const ut_unit*, int count, const ut_unit* const*, const int* powers,
                        void* arg) {
  int& largest = *static_cast<int*>(arg);
  for (int i = 0; i < count; ++i) largest = std::max(largest, std::abs(powers[i]));
  return UT_SUCCESS;
}
ut_status visit_underlying(const ut_unit* underlying, void* arg);
ut_status visit_galilean(const ut_unit*, double, const ut_unit* underlying, double, void* arg) {
  return visit_underlying(underlying, arg);
}
ut_status visit_timestamp(const ut_unit*, const ut_unit* time_unit, double, void* arg) {
  return visit_underlying(time_unit, arg);
}
ut_status visit_logarithmic(const ut_unit*, double, const ut_unit* reference, void* arg) {
  return visit_underlying(reference, arg);
}
const ut_visitor kExponentVisitor = {visit_basic, visit_product, visit_galilean, visit_timestamp,
                                     visit_logarithmic};
ut_status visit_underlying(const ut_unit* underlying, void* arg) {
  return ut_accept_visitor(underlying, &kExponentVisitor, arg);
}

// UTF-8 that writes a product or a power (·, ², ³, ¹ and the other superscripts): a spelling
// holding one is kept whole.
bool has_utf8_operator(const std::string& symbol) {
  for (const char* mark : {"\xc2\xb7", "\xc2\xb2", "\xc2\xb3", "\xc2\xb9", "\xe2\x81"})
    if (symbol.find(mark) != std::string::npos) return true;
  return false;
}

// One symbol of a spelling with its exponent, `m2`, `s-1`, `uF`: letters (any byte that is not a
// digit, sign or operator, so that µm and Ω read) then an optional signed integer.
bool read_factor(const std::string& token, int sign, Unit::Factors& factors) {
  size_t end = token.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(token[end - 1]))) --end;
  int exponent = 1;
  if (end < token.size()) {
    const bool negative = end > 0 && token[end - 1] == '-';
    exponent = std::atoi(token.c_str() + end) * (negative ? -1 : 1);
    if (negative) --end;
  }
  const std::string symbol = token.substr(0, end);
  if (symbol.empty() || symbol.find_first_of("()/.^*+- @") != std::string::npos ||
      has_utf8_operator(symbol))
    return false;
  if (symbol == "1" && exponent == 1) return true;
  factors.emplace_back(symbol, sign * exponent);
  return true;
}

// The symbols of `text` (products with '.'), each with `sign` times its exponent; false where a
// token is no symbol.
bool read_product(const std::string& text, int sign, Unit::Factors& factors) {
  if (text == "1") return true;
  size_t start = 0;
  while (true) {
    const size_t dot = text.find('.', start);
    if (!read_factor(text.substr(start, dot - start), sign, factors)) return false;
    if (dot == std::string::npos) return true;
    start = dot + 1;
  }
}

// `a.b/c.d`, `a/(c.d)`, `1/s`: the factors of a spelling, or nullopt where it is something else.
std::optional<Unit::Factors> read_spelling(const std::string& spelling) {
  Unit::Factors factors;
  const size_t slash = spelling.find('/');
  std::string numerator = spelling.substr(0, slash);
  if (!read_product(numerator, 1, factors)) return std::nullopt;
  if (slash == std::string::npos) return factors;
  std::string denominator = spelling.substr(slash + 1);
  if (denominator.size() > 2 && denominator.front() == '(' && denominator.back() == ')')
    denominator = denominator.substr(1, denominator.size() - 2);
  if (!read_product(denominator, -1, factors)) return std::nullopt;
  return factors;
}

// The factors of `a` and `b` (raised to `power_b`), exponents of one symbol summed, in the order
// the symbols first come; those that cancel are dropped.
Unit::Factors combined(const Unit::Factors& a, const Unit::Factors& b, int power_b) {
  Unit::Factors result = a;
  for (const auto& [symbol, exponent] : b) {
    auto same = std::find_if(result.begin(), result.end(),
                             [&](const auto& factor) { return factor.first == symbol; });
    if (same == result.end()) {
      result.emplace_back(symbol, exponent * power_b);
    } else {
      same->second += exponent * power_b;
    }
  }
  result.erase(std::remove_if(result.begin(), result.end(),
                              [](const auto& factor) { return factor.second == 0; }),
               result.end());
  return result;
}

// `kg.m2/s2`, `1/s`, `uF.V/(m.s)`, `1`: the factors as a unit is written.
std::string spelling_of(const Unit::Factors& factors) {
  std::string numerator, denominator;
  int denominators = 0;
  for (const auto& [symbol, exponent] : factors) {
    const int power = std::abs(exponent);
    std::string item = symbol + (power == 1 ? "" : std::to_string(power));
    std::string& side = exponent > 0 ? numerator : denominator;
    side += (side.empty() ? "" : ".") + item;
    denominators += exponent < 0 ? 1 : 0;
  }
  if (numerator.empty()) numerator = "1";
  if (denominators == 0) return numerator;
  return numerator + "/" + (denominators > 1 ? "(" + denominator + ")" : denominator);
}

// Every ')' closes an earlier '(' and every '(' is closed.
bool balanced_parentheses(const std::string& text) {
  int depth = 0;
  for (char c : text) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth == 0;
}

}  // namespace

int Unit::largest_exponent() const {
  int largest = 0;
  ut_accept_visitor(unit_.get(), &kExponentVisitor, &largest);
  return largest;
}

Unit::Unit(std::shared_ptr<ut_unit> unit, std::string spelling)
    : unit_(std::move(unit)), spelling_(std::move(spelling)) {}

// Takes ownership of a unit udunits2 returned; a null one means udunits2 ran out of memory or
// was given units of two systems, neither of which daec does.
Unit Unit::from(ut_unit* unit) {
  if (!unit) throw std::runtime_error("udunits2 failed to compute a unit");
  return Unit(std::shared_ptr<ut_unit>(unit, ut_free), canonical_spelling(unit));
}

bool Unit::is_dimensionless() const {
  return ut_is_dimensionless(unit_.get()) != 0;
}

std::optional<double> Unit::factor_to(const Unit& other) const {
  if (!ut_are_convertible(unit_.get(), other.unit_.get())) return std::nullopt;
  cv_converter* converter = ut_get_converter(unit_.get(), other.unit_.get());
  if (!converter) return std::nullopt;
  double zero = cv_convert_double(converter, 0.0);
  double factor = cv_convert_double(converter, 1.0);
  cv_free(converter);
  if (zero != 0.0) return std::nullopt;  // an offset (degC and K): no plain factor
  return factor;
}

bool Unit::same_as(const Unit& other) const {
  if (ut_compare(unit_.get(), other.unit_.get()) == 0) return true;
  std::optional<double> factor = factor_to(other);
  return factor && std::fabs(*factor - 1.0) <= kFactorTolerance;
}

Unit Unit::from(ut_unit* unit, const std::optional<Factors>& factors) {
  Unit result = from(unit);
  if (factors) result.spelling_ = spelling_of(*factors);
  return result;
}

Unit::Factors Unit::factors() const {
  if (std::optional<Factors> read = read_spelling(spelling_)) return *read;
  return {{"(" + spelling_ + ")", 1}};  // spelled whole, in parentheses where it is combined
}

Unit Unit::times(const Unit& other) const {
  return from(ut_multiply(unit_.get(), other.unit_.get()), combined(factors(), other.factors(), 1));
}

Unit Unit::divided_by(const Unit& other) const {
  return from(ut_divide(unit_.get(), other.unit_.get()), combined(factors(), other.factors(), -1));
}

Unit Unit::raised(int n) const {
  return from(ut_raise(unit_.get(), n), combined({}, factors(), n));
}

std::optional<Unit> Unit::root(int n) const {
  ut_unit* result = ut_root(unit_.get(), n);
  if (!result) return std::nullopt;
  Factors factors = this->factors();
  bool divisible = true;
  for (auto& [symbol, exponent] : factors) {
    divisible = divisible && exponent % n == 0;
    exponent /= n;
  }
  return from(result, divisible ? std::optional<Factors>(factors) : std::nullopt);
}

Unit Unit::spelled(std::string spelling) const {
  return Unit(unit_, std::move(spelling));
}

UnitSystem::UnitSystem() {
  // ut_read_xml reports each overridden definition of the database on stderr by default.
  ut_set_error_message_handler(ut_ignore);
  system_ = ut_read_xml(nullptr);
  if (!system_) {
    ut_status where = UT_SUCCESS;
    throw std::runtime_error("cannot read the udunits2 unit database (" +
                             std::string(ut_get_path_xml(nullptr, &where)) +
                             "); install libudunits2-dev or set UDUNITS2_XML_PATH");
  }
}

UnitSystem::~UnitSystem() {
  ut_free_system(system_);
}

UnitSystem& UnitSystem::instance() {
  static UnitSystem system;
  return system;
}

std::optional<Unit> UnitSystem::parse(const std::string& text, std::string& problem) const {
  // UTF-8 (the model file's encoding) reads ASCII as well as µm, Ω, °C and kg·m²/s².
  // udunits2 stops reading at an unmatched ')' and accepts what came before ("m)" as m):
  // parentheses are checked here.
  const bool balanced = balanced_parentheses(text);
  ut_unit* unit = balanced ? ut_parse(system_, text.c_str(), UT_UTF8) : nullptr;
  if (unit) return Unit(std::shared_ptr<ut_unit>(unit, ut_free), text);
  // udunits2 sets UT_UNKNOWN for an unknown symbol but leaves the status alone on a syntax error.
  if (balanced && ut_get_status() == UT_UNKNOWN) {
    problem = "unknown unit '" + text +
              "' (expected SI symbols with prefixes, products, quotients and powers: 'kg.m2/s2', "
              "'N.m', 'mol/L')";
  } else {
    problem = "invalid unit '" + text +
              "' (write a product of SI symbols with '.', a quotient with '/' and powers as "
              "digits: 'kg.m2/s2')";
  }
  return std::nullopt;
}

Unit UnitSystem::one() const {
  return Unit::from(ut_get_dimensionless_unit_one(system_)).spelled("1");
}

Unit UnitSystem::second() const {
  std::string problem;
  return *parse("s", problem);
}

}  // namespace daec
