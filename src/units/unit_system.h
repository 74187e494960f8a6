// Physical units (docs/language.md, "Units"): the one owner of the udunits2 unit database, and
// the unit values the dimensional check computes with. udunits2 parses the strings of
// `unit = "..."` (SI symbols with prefixes, products `kg.m2`, quotients, powers) and multiplies,
// divides, raises and compares them. udunits2 is not thread-safe: daec uses it from one thread.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

struct ut_system;
union ut_unit;

namespace daec {

/// A unit: a udunits2 unit and how it is shown in messages: as the model writes it. A declared
/// unit keeps the user's spelling; a computed one (a product, quotient, power or root) is spelled
/// from the spellings of its operands, each symbol as written with its exponents summed
/// (`uF` times `V/s` is `uF.V/s`, `mH.A/s`, `degC/min`), so that a prefix or a unit such as `min`
/// shows as written and a conversion factor only in the note that names it (factor_note).
class Unit {
 public:
  /// The symbols of a spelling and their exponents, in the order written: `kg.m2/s2` is kg 1,
  /// m 2, s -2. A spelling this cannot read (`(N.m)2`, with a factor or offset) is one symbol.
  using Factors = std::vector<std::pair<std::string, int>>;

  /// How the unit is shown: `m/s`, `kg.m2/s2`, `uF.V/s`.
  const std::string& spelling() const { return spelling_; }
  bool is_dimensionless() const;
  /// Equal units: the same dimension and no conversion factor between them (`N.m` and
  /// `kg.m2/s2`, `rad` and `1`; not `km` and `m`).
  bool same_as(const Unit& other) const;
  /// The factor f with 1 `this` = f `other`, when both have the same dimension (`km`, `m`:
  /// 1000) and no offset; nullopt otherwise.
  std::optional<double> factor_to(const Unit& other) const;

  /// udunits2 keeps the exponent of each base unit in a 16-bit integer: one beyond this wraps
  /// around silently (m^1000000 would be m16960), so the arithmetic below must not reach it.
  static constexpr int kMaxExponent = 32767;
  /// The largest |exponent| of a base unit in this unit (m2.kg.s-3: 3; a pure number: 0).
  int largest_exponent() const;

  Unit times(const Unit& other) const;
  Unit divided_by(const Unit& other) const;
  /// This unit to the integer power `n`.
  Unit raised(int n) const;
  /// The `n`-th root, or nullopt when an exponent is not divisible by n (the root of `m`).
  std::optional<Unit> root(int n) const;
  /// The unit with another spelling (the same udunits2 unit).
  Unit spelled(std::string spelling) const;
  /// The symbols of the spelling and their exponents (`kg.m2/s2`: kg 1, m 2, s -2).
  Factors factors() const;

 private:
  friend class UnitSystem;
  Unit(std::shared_ptr<ut_unit> unit, std::string spelling);
  static Unit from(ut_unit* unit);
  /// The unit `unit` computed by udunits2, spelled from `factors` (udunits2's canonical form
  /// where they cannot spell it).
  static Unit from(ut_unit* unit, const std::optional<Factors>& factors);

  std::shared_ptr<ut_unit> unit_;
  std::string spelling_;
};

/// The udunits2 unit database, read once per process (its XML file holds the SI units).
class UnitSystem {
 public:
  /// The process's unit database; throws std::runtime_error naming the file when it cannot be
  /// read.
  static UnitSystem& instance();

  /// The unit `text` stands for, or nullopt with `problem` saying why not ("unknown unit 'xyz'
  /// ..."): the whole diagnostic message.
  std::optional<Unit> parse(const std::string& text, std::string& problem) const;
  /// The pure number 1.
  Unit one() const;
  /// The second, the unit of time `t`.
  Unit second() const;

  UnitSystem(const UnitSystem&) = delete;
  UnitSystem& operator=(const UnitSystem&) = delete;

 private:
  UnitSystem();
  ~UnitSystem();

  ut_system* system_ = nullptr;
};

}  // namespace daec
