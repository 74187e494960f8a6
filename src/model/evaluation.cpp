// Guarded floating-point evaluation of expressions.
#include "model/evaluation.h"

#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "model/conditions.h"
#include "support/work_counters.h"

namespace daec {

using GiNaC::ex;
using GiNaC::numeric;

void check_defined(const std::string& function, const GiNaC::exvector& args) {
  if (args.empty()) return;
  const ex& x = args[0];
  if (function == "pow" && x.is_zero() && GiNaC::is_exactly_a<numeric>(args.at(1))) {
    const numeric& e = GiNaC::ex_to<numeric>(args[1]);
    if (e.is_zero()) throw std::domain_error("pow(0,0) is undefined");
    if (e.real().is_negative()) throw std::domain_error("division by zero");
    if (e.real().is_zero()) throw std::domain_error("0 to an imaginary power is undefined");
  }
  if (function == "log" && x.is_zero()) throw std::domain_error("log(0)");
  if (function == "tan" && ex(GiNaC::cos(x)).is_zero()) throw std::domain_error("simple pole");
  if (function == "tanh" && ex(GiNaC::cosh(x)).is_zero()) throw std::domain_error("simple pole");
  if (function == "atan" && (x - GiNaC::I).is_zero()) throw std::domain_error("logarithmic pole");
  if (function == "atan" && (x + GiNaC::I).is_zero()) throw std::domain_error("logarithmic pole");
}

namespace {

// Hands ex::map the operands computed beforehand, in op order; never throws.
class PrecomputedOperands : public GiNaC::map_function {
 public:
  explicit PrecomputedOperands(const GiNaC::exvector& operands) : operands_(operands) {}
  ex operator()(const ex&) override { return operands_[next_++]; }

 private:
  const GiNaC::exvector& operands_;
  size_t next_ = 0;
};

}  // namespace

ex with_operands(const ex& e, const GiNaC::exvector& operands) {
  if (operands.size() != e.nops()) throw std::logic_error("with_operands: operand count");
  if (GiNaC::is_exactly_a<GiNaC::power>(e)) {
    check_defined("pow", operands);
    return GiNaC::pow(operands[0], operands[1]);
  }
  if (GiNaC::is_exactly_a<GiNaC::function>(e)) {
    check_defined(GiNaC::ex_to<GiNaC::function>(e).get_name(), operands);
    return GiNaC::function(GiNaC::ex_to<GiNaC::function>(e).get_serial(), operands);
  }
  PrecomputedOperands precomputed(operands);
  return e.map(precomputed);
}

double nearest_double(const numeric& n) {
  static const numeric kSmallestNormal = numeric(1) / GiNaC::pow(numeric(2), numeric(1022));
  static const numeric kScale = GiNaC::pow(numeric(2), numeric(1074));  // 1 / the smallest step
  if (!n.is_rational() || n.is_zero() || GiNaC::abs(n) >= kSmallestNormal) return n.to_double();
  // A multiple of 2^-1074 below 2^-1022: the nearest integer to |n| 2^1074, exactly.
  numeric scaled = GiNaC::abs(n) * kScale;
  numeric p = scaled.numer(), q = scaled.denom();
  numeric whole = GiNaC::iquo(p, q);
  numeric twice_rest = 2 * (p - whole * q);
  if (twice_rest > q || (twice_rest == q && whole.is_odd())) whole += 1;
  double magnitude = std::ldexp(whole.to_double(), -1074);
  return n.is_negative() ? -magnitude : magnitude;
}

GiNaC::ex from_double(double d) {
  if (d == 0 || !std::isfinite(d) || std::fabs(d) >= std::numeric_limits<double>::min()) return d;
  // A subnormal double is an integer multiple of 2^-1074, the integer below 2^52.
  auto steps = static_cast<long>(std::ldexp(d, 1074));
  return numeric(steps) / GiNaC::pow(numeric(2), numeric(1074));
}

std::string beyond_double(const numeric& n) {
  if (!n.is_real()) return {};
  double d = nearest_double(n);
  if (std::isinf(d)) return "it is too large for a double";
  if (d == 0 && !n.is_zero()) return "it is too small for a double (underflows to 0)";
  return {};
}

namespace {

const numeric* as_numeric(const ex& e) {
  return GiNaC::is_exactly_a<numeric>(e) ? &GiNaC::ex_to<numeric>(e) : nullptr;
}

// Throws if a result with ln |result| about `log_magnitude` is out of range (nan: no bound).
void check_log_magnitude(double log_magnitude) {
  if (log_magnitude > kMaxLogMagnitude) throw ValueOutOfRange("it is too large for a double");
  if (log_magnitude < -kMaxLogMagnitude) {
    throw ValueOutOfRange("it is too small for a double (underflows to 0)");
  }
}

// ln |n| as a double; nan for 0. Quick for numbers within the range of a double.
double log_magnitude(const numeric& n) {
  if (n.is_zero()) return std::nan("");
  double magnitude = std::abs(std::complex<double>(n.real().to_double(), n.imag().to_double()));
  if (std::isfinite(magnitude) && magnitude > 1e-300) return std::log(magnitude);
  return GiNaC::log(GiNaC::abs(n)).to_double();
}

// Refuses exp, sinh, cosh and powers of evaluated arguments whose results would be out of range.
void check_growth(const ex& e, const GiNaC::exvector& args) {
  if (GiNaC::is_exactly_a<GiNaC::power>(e)) {
    const numeric* base = as_numeric(args[0]);
    const numeric* exponent = as_numeric(args[1]);
    if (!base || !exponent || exponent->is_zero()) return;
    double log_base = log_magnitude(*base);
    if (std::isnan(log_base) || log_base == 0) return;  // 0^p is check_defined's, 1^p is 1
    check_log_magnitude(exponent->real().to_double() * log_base);
    return;
  }
  const numeric* x = args.size() == 1 ? as_numeric(args[0]) : nullptr;
  if (!x) return;
  std::string name = GiNaC::ex_to<GiNaC::function>(e).get_name();
  double real = x->real().to_double();
  if (name == "exp") check_log_magnitude(real);
  if (name == "sinh" || name == "cosh") check_log_magnitude(std::fabs(real));
}

// Evaluates children before parents, so that each check sees numbers.
class BoundedEvaluation : public GiNaC::map_function {
 public:
  explicit BoundedEvaluation(const GiNaC::exmap& values) : values_(values) {}

  ex operator()(const ex& e) override {
    if (GiNaC::is_a<GiNaC::symbol>(e)) {
      auto it = values_.find(e);
      return it == values_.end() ? e : checked(it->second.evalf());
    }
    // Exact numbers stay exact: (-1.0)^2 is 1, but (-1.0)^2.0 is complex, exp(2.0 log(-1.0)).
    if (GiNaC::is_exactly_a<numeric>(e)) return e;
    // Each distinct subexpression once: a constraint differentiated again and again holds the
    // same subexpressions many times over. The table holds each key, so that an operand built on
    // the fly (a term of a sum) keeps its address for the whole evaluation.
    auto known = values_of_.find(&GiNaC::ex_to<GiNaC::basic>(e));
    if (known != values_of_.end()) return known->second.second;
    ex value = evaluate_node(e);
    values_of_.emplace(&GiNaC::ex_to<GiNaC::basic>(e), std::make_pair(e, value));
    return value;
  }

 private:
  ex evaluate_node(const ex& e) {
    count_work(WorkKind::Nodes);
    if (ex decided; evaluate_decided(e, decided)) return decided;
    // Operands first, then the node (with_operands checks that it is defined): nothing may
    // throw inside GiNaC. The range check looks only at exp, sinh, cosh and powers of nonzero
    // bases, none of which check_defined refuses, so it may come first.
    GiNaC::exvector args;
    for (size_t i = 0; i < e.nops(); ++i) args.push_back((*this)(e.op(i)));
    if (GiNaC::is_exactly_a<GiNaC::power>(e) || GiNaC::is_exactly_a<GiNaC::function>(e))
      check_growth(e, args);
    return checked(with_operands(e, args).evalf());
  }

  static ex checked(const ex& value) {
    if (const numeric* n = as_numeric(value)) check_log_magnitude(log_magnitude(*n));
    return value;
  }

  // The branch of a conditional expression that its condition selects, and `and`/`or` whose
  // first operand decides them, evaluated without the rest: the branch not taken may be undefined
  // there (`if a > 0 then log(a) else 0` at a = 0).
  bool evaluate_decided(const ex& e, ex& result) {
    bool is_if_call = is_if(e);
    std::string name = is_if_call || !GiNaC::is_exactly_a<GiNaC::function>(e)
                           ? std::string()
                           : GiNaC::ex_to<GiNaC::function>(e).get_name();
    if (!is_if_call && name != "daec_and" && name != "daec_or") return false;
    bool value;
    if (!decided_condition((*this)(e.op(0)), value)) return false;
    if (is_if_call) {
      result = (*this)(e.op(value ? 1 : 2));
    } else if (value == (name == "daec_or")) {
      result = value ? 1 : 0;  // true or ..., false and ...
    } else {
      result = (*this)(e.op(1));
    }
    return true;
  }

  const GiNaC::exmap& values_;
  std::unordered_map<const GiNaC::basic*, std::pair<ex, ex>> values_of_;
};

}  // namespace

ex evaluate_bounded(const ex& value, const GiNaC::exmap& values) {
  BoundedEvaluation evaluation(values);
  return evaluation(value);
}

class BoundedEvaluator::Evaluation : public BoundedEvaluation {
 public:
  using BoundedEvaluation::BoundedEvaluation;
};

BoundedEvaluator::BoundedEvaluator(const GiNaC::exmap& values)
    : evaluation_(std::make_unique<Evaluation>(values)) {}
BoundedEvaluator::~BoundedEvaluator() = default;

ex BoundedEvaluator::operator()(const ex& value) {
  return (*evaluation_)(value);
}

}  // namespace daec
