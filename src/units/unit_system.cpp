// The udunits2 unit database and unit arithmetic (unit_system.h).
#include "units/unit_system.h"

#include <udunits2.h>

#include <algorithm>
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

Unit Unit::times(const Unit& other) const {
  return from(ut_multiply(unit_.get(), other.unit_.get()));
}

Unit Unit::divided_by(const Unit& other) const {
  return from(ut_divide(unit_.get(), other.unit_.get()));
}

Unit Unit::raised(int n) const {
  return from(ut_raise(unit_.get(), n));
}

std::optional<Unit> Unit::root(int n) const {
  ut_unit* result = ut_root(unit_.get(), n);
  if (!result) return std::nullopt;
  return from(result);
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
