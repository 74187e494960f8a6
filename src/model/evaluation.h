// Evaluating an expression to a number in floating point without letting GiNaC throw from inside
// its constructors (it then leaks the half-built object) or CLN run away: CLN's floats have
// unbounded exponents, so exp(exp(exp(20))) took seconds and came out as 1, and
// exp(exp(exp(exp(100)))) asked for petabytes of memory. Used for parameter and start values
// (sema) and for evaluations at points (reduction).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include <ginac/ginac.h>

namespace daec {

/// Thrown when a value or an intermediate result lies far outside the range of a double; what()
/// is the reason, worded to follow "cannot be evaluated: ".
struct ValueOutOfRange : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Far beyond a double (whose largest value is about e^709.8) yet quick for CLN.
constexpr double kMaxLogMagnitude = 1e5;

/// The double nearest to the real number `n` (ties to even), subnormal numbers included: CLN's
/// own conversion flushes exact numbers below 2^-1022 (2.2e-308) to 0, which would turn a
/// parameter of 1e-310 into 0. Infinite beyond the largest double, as a conversion rounds.
double nearest_double(const GiNaC::numeric& n);

/// `d` as a GiNaC number. GiNaC's own conversion throws (CLN: "floating point underflow") for a
/// subnormal double such as 1e-310, which becomes the exact rational it stands for instead.
GiNaC::ex from_double(double d);

/// Whether a real number `n` has no double to stand for it: it rounds to an infinity, or it is
/// not 0 and rounds to 0. Returns the reason, worded like ValueOutOfRange's, or "".
std::string beyond_double(const GiNaC::numeric& n);

/// Throws, with GiNaC's wording, for the arguments at which GiNaC's own evaluation would throw
/// (pow(0, -1), log(0), tan's poles...). `function` is a built-in name; "pow" also stands for ^.
void check_defined(const std::string& function, const GiNaC::exvector& args);

/// The node `e` with its operands replaced by `operands` (as many as e.nops(), in op order),
/// built only after check_defined has passed for a power or a function. GiNaC is not
/// exception-safe: an exception thrown inside ex::map, or by the evaluation of a node it is
/// building, leaks the half-built node. So the walks that may throw (evaluation at a point,
/// substitution of values, of derivatives) compute every operand first, then build the node here,
/// where nothing throws inside GiNaC.
GiNaC::ex with_operands(const GiNaC::ex& e, const GiNaC::exvector& operands);

/// `value` with the symbols of `values` replaced, evaluated node by node (evalf). Throws
/// std::domain_error where GiNaC would throw (check_defined), and ValueOutOfRange before an exp,
/// sinh, cosh or power whose result would exceed e^kMaxLogMagnitude or fall below its inverse,
/// and for any intermediate result beyond those bounds.
GiNaC::ex evaluate_bounded(const GiNaC::ex& value, const GiNaC::exmap& values = {});

/// evaluate_bounded for many expressions at one point: a subexpression that several of them share
/// (a constraint and its derivatives) is evaluated once. `values` must outlive it.
class BoundedEvaluator {
 public:
  explicit BoundedEvaluator(const GiNaC::exmap& values);
  ~BoundedEvaluator();
  BoundedEvaluator(const BoundedEvaluator&) = delete;
  BoundedEvaluator& operator=(const BoundedEvaluator&) = delete;

  /// As evaluate_bounded(value, values); throws as it does.
  GiNaC::ex operator()(const GiNaC::ex& value);

 private:
  class Evaluation;
  std::unique_ptr<Evaluation> evaluation_;
};

}  // namespace daec
