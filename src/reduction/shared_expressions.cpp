// Graph walks of GiNaC expressions: each distinct node once (see the header).
#include "reduction/shared_expressions.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "model/conditions.h"

namespace daec {

using GiNaC::ex;

namespace {

// The node `e` points to: the key of the memo tables. Nodes are immutable, and each table keeps
// its keys alive (an operand of a sum is built on the fly, and its address could be reused once
// it is freed), so an address stands for one subexpression for the whole walk.
const GiNaC::basic* node_of(const ex& e) {
  return &GiNaC::ex_to<GiNaC::basic>(e);
}

// Results by node, each with the expression that holds the node.
class Memo {
 public:
  const ex* find(const ex& e) const {
    auto known = results_.find(node_of(e));
    return known == results_.end() ? nullptr : &known->second.second;
  }
  void add(const ex& e, const ex& result) { results_.emplace(node_of(e), std::make_pair(e, result)); }

 private:
  std::unordered_map<const GiNaC::basic*, std::pair<ex, ex>> results_;
};

// GiNaC's sums and products keep their terms as (rest, coefficient) pairs, and a function's
// partial derivatives are protected; the derivatives below build exactly what GiNaC's own do, so
// they read these through member pointers taken in a derived class (access is checked where the
// pointer is named, not where it is used).
struct PairsOf : GiNaC::expairseq {
  static const GiNaC::epvector& pairs(const GiNaC::expairseq& e) { return e.*(&PairsOf::seq); }
  static const ex& coefficient(const GiNaC::expairseq& e) { return e.*(&PairsOf::overall_coeff); }
};

struct PartialsOf : GiNaC::function {
  static ex partial(const GiNaC::function& f, unsigned i) {
    return (f.*(&PartialsOf::pderivative))(i);
  }
};

// GiNaC's functions whose derivative is explicit (not the chain rule) and that the memoised walk
// does not rebuild: differentiated by GiNaC itself.
bool has_explicit_derivative(const std::string& name) {
  return name == "abs" || name == "conjugate" || name == "real_part" || name == "imag_part";
}

class Differentiation {
 public:
  explicit Differentiation(const GiNaC::symbol& s) : s_(s) {}

  ex of(const ex& e) {
    if (GiNaC::is_a<GiNaC::symbol>(e)) return e.is_equal(s_) ? 1 : 0;
    if (e.nops() == 0) return 0;  // numbers and constants
    if (const ex* known = memo_.find(e)) return *known;
    ex result = compute(e);
    memo_.add(e, result);
    return result;
  }

 private:
  ex compute(const ex& e) {
    if (GiNaC::is_exactly_a<GiNaC::add>(e)) return of_sum(GiNaC::ex_to<GiNaC::add>(e));
    if (GiNaC::is_exactly_a<GiNaC::mul>(e)) return of_product(GiNaC::ex_to<GiNaC::mul>(e));
    if (GiNaC::is_exactly_a<GiNaC::power>(e)) return of_power(e.op(0), e.op(1), e);
    if (GiNaC::is_exactly_a<GiNaC::function>(e)) return of_function(e);
    return e.diff(s_);  // anything else (never produced by the front end)
  }

  // add::derivative: each term's rest, with its coefficient.
  ex of_sum(const GiNaC::add& sum) {
    GiNaC::epvector terms;
    terms.reserve(sum.nops());
    for (const GiNaC::expair& term : PairsOf::pairs(sum))
      terms.push_back(GiNaC::expair(of(term.rest), term.coeff));
    return GiNaC::dynallocate<GiNaC::add>(std::move(terms));
  }

  // mul::derivative: D(a*b*c) = D(a)*b*c + a*D(b)*c + a*b*D(c), each factor rest^coeff.
  ex of_product(const GiNaC::mul& product) {
    const GiNaC::epvector& factors = PairsOf::pairs(product);
    const ex& coefficient = PairsOf::coefficient(product);
    GiNaC::exvector terms;
    terms.reserve(factors.size());
    GiNaC::epvector with_derivative = factors;
    for (size_t i = 0; i < factors.size(); ++i) {
      const GiNaC::expair& factor = factors[i];
      GiNaC::expair replaced =
          as_factor(GiNaC::pow(factor.rest, factor.coeff - 1) * of(factor.rest));
      std::swap(replaced, with_derivative[i]);
      terms.push_back(GiNaC::dynallocate<GiNaC::mul>(with_derivative, coefficient * factor.coeff));
      std::swap(replaced, with_derivative[i]);
    }
    return GiNaC::dynallocate<GiNaC::add>(terms);
  }

  // mul::split_ex_to_pair: a power with a numeric exponent is (basis, exponent).
  static GiNaC::expair as_factor(const ex& e) {
    if (GiNaC::is_exactly_a<GiNaC::power>(e) && GiNaC::is_exactly_a<GiNaC::numeric>(e.op(1)))
      return GiNaC::expair(e.op(0), e.op(1));
    return GiNaC::expair(e, 1);
  }

  // power::derivative.
  ex of_power(const ex& basis, const ex& exponent, const ex& e) {
    if (GiNaC::is_a<GiNaC::numeric>(exponent)) {
      const GiNaC::epvector factors = {GiNaC::expair(basis, exponent - 1),
                                       GiNaC::expair(of(basis), 1)};
      return GiNaC::dynallocate<GiNaC::mul>(factors, exponent);
    }
    return e * (of(exponent) * GiNaC::log(basis) + exponent * of(basis) * GiNaC::pow(basis, -1));
  }

  // function::derivative: the explicit derivative where there is one, else the chain rule.
  ex of_function(const ex& e) {
    if (is_if(e)) return daec_if(e.op(0), of(e.op(1)), of(e.op(2)));
    const auto& f = GiNaC::ex_to<GiNaC::function>(e);
    if (has_explicit_derivative(f.get_name())) return e.diff(s_);
    ex result;
    for (size_t i = 0; i < e.nops(); ++i) {
      ex argument = of(e.op(i));
      if (!argument.is_zero()) result += PartialsOf::partial(f, static_cast<unsigned>(i)) * argument;
    }
    return result;
  }

  const GiNaC::symbol& s_;
  Memo memo_;
};

class Substitution : public GiNaC::map_function {
 public:
  explicit Substitution(const GiNaC::exmap& values) : values_(values) {}

  ex operator()(const ex& e) override {
    if (GiNaC::is_a<GiNaC::symbol>(e)) {
      auto value = values_.find(e);
      return value == values_.end() ? e : value->second;
    }
    if (e.nops() == 0) return e;
    if (const ex* known = memo_.find(e)) return *known;
    ex result = e.map(*this);
    memo_.add(e, result);
    return result;
  }

 private:
  const GiNaC::exmap& values_;
  Memo memo_;
};

struct ValueHash {
  size_t operator()(const ex& e) const { return e.gethash(); }
};
struct ValueEqual {
  bool operator()(const ex& a, const ex& b) const { return a.is_equal(b); }
};

bool is_sign(const ex& e) {
  return GiNaC::is_exactly_a<GiNaC::numeric>(e) &&
         GiNaC::abs(GiNaC::ex_to<GiNaC::numeric>(e)).is_equal(1);
}

}  // namespace

// Distinct by value, not by address: whether GiNaC shares two equal subexpressions or holds equal
// copies depends on the order in which it built them, which changes from run to run.
size_t distinct_size(const ex& e, size_t stop_above) {
  if (e.nops() == 0) return 1;
  std::unordered_set<ex, ValueHash, ValueEqual> seen;
  std::vector<ex> pending{e};
  size_t count = 0;
  while (!pending.empty() && count <= stop_above) {
    ex node = std::move(pending.back());
    pending.pop_back();
    if (!seen.insert(node).second) continue;
    if (GiNaC::is_exactly_a<GiNaC::mul>(node)) {
      size_t signs = 0;
      for (size_t i = 0; i < node.nops(); ++i) {
        if (is_sign(node.op(i)))
          ++signs;
        else
          pending.push_back(node.op(i));
      }
      if (node.nops() - signs != 1) ++count;  // -x counts as x
      continue;
    }
    ++count;
    for (size_t i = 0; i < node.nops(); ++i) pending.push_back(node.op(i));
  }
  return count;
}

ex shared_derivative(const ex& e, const GiNaC::symbol& s) {
  return Differentiation(s).of(e);
}

ex shared_substitute(const ex& e, const GiNaC::exmap& values) {
  if (values.empty()) return e;
  Substitution substitution(values);
  return substitution(e);
}

void for_each_symbol(const ex& e, const std::function<bool(const ex&)>& found) {
  std::unordered_map<const GiNaC::basic*, ex> seen;  // holding each node (see node_of)
  std::vector<ex> pending{e};
  while (!pending.empty()) {
    ex node = std::move(pending.back());
    pending.pop_back();
    if (!seen.emplace(node_of(node), node).second) continue;
    if (GiNaC::is_a<GiNaC::symbol>(node)) {
      if (!found(node)) return;
      continue;
    }
    for (size_t i = 0; i < node.nops(); ++i) pending.push_back(node.op(i));
  }
}

}  // namespace daec
