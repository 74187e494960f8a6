// Tests of the unit parser and unit arithmetic on udunits2 (src/units/unit_system.cpp).
#include "units/unit_system.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using daec::Unit;
using daec::UnitSystem;

Unit parse(const std::string& text) {
  std::string problem;
  std::optional<Unit> unit = UnitSystem::instance().parse(text, problem);
  EXPECT_TRUE(unit.has_value()) << text << ": " << problem;
  return unit ? *unit : UnitSystem::instance().one();
}

std::string problem_of(const std::string& text) {
  std::string problem;
  EXPECT_FALSE(UnitSystem::instance().parse(text, problem).has_value()) << text;
  return problem;
}

TEST(UnitSystem, ParsesSiSymbolsPrefixesProductsQuotientsAndPowers) {
  for (const char* text :
       {"m", "km", "kg.m2/s2", "N.m", "mol/L", "K",   "rad", "m/s2", "V", "A",        "Ohm",
        "F", "H",  "W",        "J",   "kg/m3", "1/s", "mm",  "us",   "1", "kg/(m.s2)"}) {
    parse(text);
  }
}

// The exponents udunits2 holds in 16 bits: the dimensional check stays below Unit::kMaxExponent.
TEST(UnitSystem, LargestExponent) {
  EXPECT_EQ(0, parse("1").largest_exponent());
  EXPECT_EQ(1, parse("km").largest_exponent());
  EXPECT_EQ(3, parse("kg.m2/s3").largest_exponent());
  EXPECT_EQ(2, parse("degC/s2").largest_exponent());
  EXPECT_EQ(10000, parse("m").raised(100).raised(100).largest_exponent());
}

TEST(UnitSystem, ReadsUtf8Symbols) {
  EXPECT_TRUE(parse("\u00b5m").same_as(parse("um")));
  EXPECT_TRUE(parse("\u03a9").same_as(parse("Ohm")));
  EXPECT_TRUE(parse("kg\u00b7m\u00b2/s\u00b2").same_as(parse("J")));
}

TEST(UnitSystem, KeepsTheUsersSpelling) {
  EXPECT_EQ("kg.m2/s2", parse("kg.m2/s2").spelling());
}

TEST(UnitSystem, EqualUnitsWrittenDifferently) {
  EXPECT_TRUE(parse("N.m").same_as(parse("kg.m2/s2")));
  EXPECT_TRUE(parse("J").same_as(parse("N.m")));
  EXPECT_TRUE(parse("V.A").same_as(parse("W")));
  EXPECT_TRUE(parse("rad").same_as(parse("1")));
  EXPECT_TRUE(parse("Hz").same_as(parse("1/s")));
}

TEST(UnitSystem, AConversionFactorIsNotEquality) {
  EXPECT_FALSE(parse("km").same_as(parse("m")));
  EXPECT_DOUBLE_EQ(1000, *parse("km").factor_to(parse("m")));
  EXPECT_FALSE(parse("mol/L").same_as(parse("mol/m3")));
  EXPECT_FALSE(parse("m").factor_to(parse("s")).has_value());
  EXPECT_FALSE(parse("degC").factor_to(parse("K")).has_value());  // an offset, not a factor
}

TEST(UnitSystem, Arithmetic) {
  EXPECT_TRUE(parse("kg").times(parse("m/s2")).same_as(parse("N")));
  EXPECT_TRUE(parse("m").divided_by(parse("s")).same_as(parse("m/s")));
  EXPECT_TRUE(parse("m/s").raised(2).same_as(parse("m2/s2")));
  EXPECT_TRUE(parse("m2").root(2)->same_as(parse("m")));
  EXPECT_FALSE(parse("m").root(2).has_value());
  // A computed unit is spelled from its parts as written, each symbol's exponents summed; a
  // prefix or a factor stays in the symbol (km, uF, min), never a number in the spelling.
  EXPECT_EQ("m/s", parse("m").divided_by(parse("s")).spelling());
  EXPECT_EQ("N.m", parse("N").times(parse("m")).spelling());
  EXPECT_EQ("N/m2", parse("N").divided_by(parse("m2")).spelling());
  EXPECT_EQ("1/s", parse("1").divided_by(parse("s")).spelling());
  EXPECT_EQ("km", parse("km").times(parse("1")).spelling());
  EXPECT_EQ("uF.V/s", parse("uF").times(parse("V/s")).spelling());
  EXPECT_EQ("kg.m2/s2", parse("kg.m/s2").times(parse("m")).spelling());
  EXPECT_EQ("1/(s.m)", parse("1/s").divided_by(parse("m")).spelling());
  EXPECT_EQ("1", parse("m/s").divided_by(parse("m/s")).spelling());
  EXPECT_EQ("m2/s2", parse("m/s").raised(2).spelling());
  EXPECT_EQ("m/s", parse("m2/s2").root(2)->spelling());
  EXPECT_EQ("degC/min", parse("1/min").times(parse("degC")).spelling());
  // A spelling of another form is kept whole, in parentheses where it is combined.
  EXPECT_EQ("(kg·m²/s²)/s", parse("kg·m²/s²").divided_by(parse("s")).spelling());
  EXPECT_TRUE(parse("rad").is_dimensionless());
  EXPECT_FALSE(parse("m").is_dimensionless());
}

TEST(UnitSystem, UnknownAndInvalidUnits) {
  EXPECT_EQ(
      "unknown unit 'xyz' (expected SI symbols with prefixes, products, quotients and powers: "
      "'kg.m2/s2', 'N.m', 'mol/L')",
      problem_of("xyz"));
  EXPECT_EQ(
      "invalid unit 'm//s' (write a product of SI symbols with '.', a quotient with '/' and "
      "powers as digits: 'kg.m2/s2')",
      problem_of("m//s"));
  // udunits2 alone reads "m)" as m.
  EXPECT_EQ(
      "invalid unit 'm/s)' (write a product of SI symbols with '.', a quotient with '/' and "
      "powers as digits: 'kg.m2/s2')",
      problem_of("m/s)"));
  EXPECT_NE("", problem_of("(m/s"));
}

}  // namespace
