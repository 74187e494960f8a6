// Zero tests, derivatives and generic ranks.
#include "reduction/symbolic.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <cln/real.h>

#include "model/evaluation.h"
#include "reduction/numeric_rank.h"
#include "reduction/shared_expressions.h"
#include "support/work_counters.h"

namespace daec {

bool is_identically_zero(const GiNaC::ex& e) {
  if (e.is_zero()) return true;
  if (GiNaC::is_a<GiNaC::numeric>(e) || GiNaC::is_a<GiNaC::symbol>(e)) return false;
  try {
    return e.expand().is_zero() || e.normal().is_zero();
  } catch (const std::exception&) {
    return false;  // e.g. a division by zero met while normalising: not identically zero
  }
}

size_t expression_size(const GiNaC::ex& e) {
  size_t size = 1;
  for (size_t i = 0; i < e.nops(); ++i) size += expression_size(e.op(i));
  return size;
}

GiNaC::ex substitute_symbols(const GiNaC::ex& e, const GiNaC::exmap& values) {
  return shared_substitute(e, values);
}

GiNaC::ex derivative(const GiNaC::ex& e, const GiNaC::ex& symbol) {
  return shared_derivative(e, GiNaC::ex_to<GiNaC::symbol>(symbol));
}

GiNaC::exmap RandomPoints::next(const std::vector<GiNaC::ex>& symbols, int attempt) {
  std::uniform_real_distribution<double> magnitude(0.5, 1.5);
  std::bernoulli_distribution negative(attempt % 2 == 0 ? 0.3 : 0.0);
  GiNaC::exmap point = fixed_;
  count_work(WorkKind::Entries, fixed_.size() + symbols.size());
  for (const GiNaC::ex& s : symbols) {
    if (point.count(s)) continue;
    auto center = centers_.find(s);
    if (center != centers_.end() && center->second != 0) {
      point[s] = center->second * magnitude(generator_);
      continue;
    }
    double value = magnitude(generator_);
    point[s] = negative(generator_) ? -value : value;
  }
  if (projection_) projection_(point);  // where it fails, the point stays where it was drawn
  return point;
}

namespace {

// Sets GiNaC's working precision for as long as it lives.
class PrecisionScope {
 public:
  explicit PrecisionScope(long digits) : saved_(GiNaC::Digits) { GiNaC::Digits = digits; }
  ~PrecisionScope() { GiNaC::Digits = saved_; }
  PrecisionScope(const PrecisionScope&) = delete;
  PrecisionScope& operator=(const PrecisionScope&) = delete;

 private:
  long saved_;
};

}  // namespace

GiNaC::exmap exact_point(const GiNaC::exmap& point) {
  GiNaC::exmap exact;
  count_work(WorkKind::Entries, point.size());
  for (const auto& [symbol, value] : point) {
    exact[symbol] = value;
    if (!GiNaC::is_exactly_a<GiNaC::numeric>(value)) continue;
    const GiNaC::numeric& number = GiNaC::ex_to<GiNaC::numeric>(value);
    if (number.is_rational() || !number.is_real()) continue;
    // A float of any precision is m * 2^e: its exact rational keeps every digit.
    exact[symbol] = GiNaC::numeric(cln::rational(cln::the<cln::cl_R>(number.to_cl_N())));
  }
  return exact;
}

std::optional<GiNaC::numeric> evaluate_precisely(const GiNaC::ex& e, BoundedEvaluator& at_exact) {
  PrecisionScope precision(kPreciseDigits);
  try {
    GiNaC::ex value = at_exact(e);
    if (!GiNaC::is_a<GiNaC::numeric>(value)) return std::nullopt;
    const GiNaC::numeric& number = GiNaC::ex_to<GiNaC::numeric>(value);
    if (!number.is_real()) return std::nullopt;
    return number;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<GiNaC::numeric> evaluate_precisely(const GiNaC::ex& e, const GiNaC::exmap& exact) {
  BoundedEvaluator at_exact(exact);
  return evaluate_precisely(e, at_exact);
}

std::optional<double> evaluate(const GiNaC::ex& e, BoundedEvaluator& at_point) {
  try {
    // Not e.subs(point).evalf(): GiNaC leaks memory when its evaluation throws (a division by
    // zero at start values), and CLN can take seconds and gigabytes on exp(exp(exp(x))).
    GiNaC::ex value = at_point(e);
    if (!GiNaC::is_a<GiNaC::numeric>(value)) return std::nullopt;
    const GiNaC::numeric& number = GiNaC::ex_to<GiNaC::numeric>(value);
    if (!number.is_real()) return std::nullopt;
    double d = number.to_double();
    if (!std::isfinite(d)) return std::nullopt;
    return d;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<double> evaluate(const GiNaC::ex& e, const GiNaC::exmap& point) {
  BoundedEvaluator at_point(point);
  return evaluate(e, at_point);
}

namespace {

// An entry that cancels to this fraction of the size of its terms (TermSizes) is a close call in
// doubles (sin(x)^2 + cos(x)^2 - 1 is 1e-17 where its terms are 1); to kPreciseDigits digits, to
// kPreciseCancellation of it, it is 0: far below any ratio of units, far above the rounding.
constexpr double kCancellation = 1e-12;
const GiNaC::numeric& precise_cancellation() {
  static const GiNaC::numeric kPreciseCancellation("1e-40");
  return kPreciseCancellation;
}

bool can_cancel(const GiNaC::ex& e) {
  return !GiNaC::is_exactly_a<GiNaC::numeric>(e) && !GiNaC::is_a<GiNaC::symbol>(e);
}

}  // namespace

std::optional<double> TermSizes::operator()(const GiNaC::ex& e) {
  const bool sum = GiNaC::is_exactly_a<GiNaC::add>(e), product = GiNaC::is_exactly_a<GiNaC::mul>(e);
  const bool power =
      GiNaC::is_exactly_a<GiNaC::power>(e) && e.op(1).info(GiNaC::info_flags::posint);
  if (!sum && !product && !power) {
    std::optional<double> v = evaluate(e, at_point_);
    return v ? std::optional<double>(std::fabs(*v)) : std::nullopt;
  }
  if (auto known = sizes_.find(e); known != sizes_.end()) return known->second;
  count_work(WorkKind::Nodes);
  std::optional<double> size;
  if (power) {
    std::optional<double> base = (*this)(e.op(0));
    if (base) size = std::pow(*base, GiNaC::ex_to<GiNaC::numeric>(e.op(1)).to_double());
  } else {
    size = sum ? 0.0 : 1.0;
    for (size_t i = 0; i < e.nops() && size; ++i) {
      std::optional<double> part = (*this)(e.op(i));
      if (!part)
        size.reset();
      else
        size = sum ? *size + *part : *size * *part;
    }
  }
  sizes_.emplace(e, size);
  return size;
}

bool cancels_to_rounding(const GiNaC::ex& e, double value, TermSizes& term_size) {
  if (!can_cancel(e)) return false;
  std::optional<double> size = term_size(e);
  return size && std::fabs(value) <= kCancellation * *size;
}

bool cancels_to_zero(const GiNaC::ex& e, const GiNaC::numeric& value, TermSizes& term_size) {
  if (!can_cancel(e)) return false;
  std::optional<double> size = term_size(e);
  return size && GiNaC::abs(value) <= precise_cancellation() * GiNaC::numeric(*size);
}

std::optional<int> precise_rank_at(const ExpressionMatrix& matrix, const GiNaC::exmap& exact) {
  std::vector<PreciseRow> values(matrix.rows());
  BoundedEvaluator at_exact(exact);
  // The sizes of the terms in doubles: enough to tell a cancellation to 1e-40 from a value.
  const GiNaC::exmap near = exact;
  BoundedEvaluator at_near(near);
  TermSizes term_size(at_near);
  for (size_t r = 0; r < matrix.rows(); ++r) {
    for (const MatrixEntry& entry : matrix.row(r)) {
      std::optional<GiNaC::numeric> v = evaluate_precisely(entry.value, at_exact);
      if (!v) return std::nullopt;
      if (cancels_to_zero(entry.value, *v, term_size)) continue;  // a 0
      values[r].push_back({entry.column, *v});
    }
  }
  return precise_rank(values, matrix.cols());
}

int generic_rank(const ExpressionMatrix& matrix, const std::vector<GiNaC::ex>& symbols,
                 RandomPoints& points) {
  constexpr int kPoints = 3, kAttempts = 20;
  int best = -1, found = 0;
  for (int attempt = 0; attempt < kAttempts && found < kPoints; ++attempt) {
    GiNaC::exmap point = points.next(symbols, attempt);
    std::vector<NumericRow> values(matrix.rows());
    bool finite = true, cancelled = false;
    BoundedEvaluator at_point(point);
    TermSizes term_size(at_point);
    for (size_t r = 0; r < matrix.rows() && finite; ++r) {
      for (const MatrixEntry& entry : matrix.row(r)) {
        std::optional<double> v = evaluate(entry.value, at_point);
        finite = v.has_value();
        if (!finite) break;
        cancelled = cancelled || cancels_to_rounding(entry.value, *v, term_size);
        values[r].push_back({entry.column, *v});
      }
    }
    if (!finite) continue;
    ++found;
    RankDecision decision = decide_rank(values, matrix.cols());
    if (decision.close_call || cancelled) {
      std::optional<int> precise = precise_rank_at(matrix, exact_point(point));
      if (precise) decision.rank = *precise;
    }
    best = std::max(best, decision.rank);
  }
  return best;
}

namespace {

// Whether `term` (a product) is a nonzero number times factors that are never negative: even
// powers of real symbols, exponentials, and factors that never vanish raised to even powers.
// Its sign, when so, in `sign`.
bool signed_term(const GiNaC::ex& term, int& sign) {
  GiNaC::ex coefficient = 1;
  auto nonnegative = [](const GiNaC::ex& f) {
    if (GiNaC::is_a<GiNaC::function>(f))
      return GiNaC::ex_to<GiNaC::function>(f).get_name() == "exp";
    if (!GiNaC::is_exactly_a<GiNaC::power>(f)) return false;
    const GiNaC::ex& exponent = f.op(1);
    if (!exponent.info(GiNaC::info_flags::even)) return false;
    return GiNaC::is_a<GiNaC::symbol>(f.op(0)) || never_vanishes(f.op(0));
  };
  std::vector<GiNaC::ex> factors;
  if (GiNaC::is_exactly_a<GiNaC::mul>(term)) {
    for (size_t i = 0; i < term.nops(); ++i) factors.push_back(term.op(i));
  } else {
    factors.push_back(term);
  }
  for (const GiNaC::ex& f : factors) {
    if (GiNaC::is_exactly_a<GiNaC::numeric>(f))
      coefficient *= f;
    else if (!nonnegative(f))
      return false;
  }
  if (!GiNaC::is_exactly_a<GiNaC::numeric>(coefficient)) return false;
  const GiNaC::numeric& c = GiNaC::ex_to<GiNaC::numeric>(coefficient);
  if (!c.is_real() || c.is_zero()) return false;
  sign = c.is_positive() ? 1 : -1;
  return true;
}

}  // namespace

bool never_vanishes(const GiNaC::ex& e) {
  if (GiNaC::is_exactly_a<GiNaC::numeric>(e)) return !e.is_zero();
  if (GiNaC::is_a<GiNaC::function>(e)) return GiNaC::ex_to<GiNaC::function>(e).get_name() == "exp";
  if (GiNaC::is_exactly_a<GiNaC::mul>(e)) {
    for (size_t i = 0; i < e.nops(); ++i) {
      if (!never_vanishes(e.op(i))) return false;
    }
    return true;
  }
  if (GiNaC::is_exactly_a<GiNaC::power>(e))
    return e.op(1).info(GiNaC::info_flags::integer) && never_vanishes(e.op(0));
  if (!GiNaC::is_exactly_a<GiNaC::add>(e)) return false;
  int common = 0;
  bool has_number = false;
  for (size_t i = 0; i < e.nops(); ++i) {
    int sign = 0;
    if (!signed_term(e.op(i), sign) || (common != 0 && sign != common)) return false;
    common = sign;
    has_number = has_number || GiNaC::is_exactly_a<GiNaC::numeric>(e.op(i));
  }
  return has_number;
}

}  // namespace daec
