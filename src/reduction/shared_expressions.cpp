// Graph walks of GiNaC expressions: each distinct node once (see the header).
#include "reduction/shared_expressions.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/conditions.h"
#include "model/evaluation.h"
#include "model/expression_walk.h"
#include "support/work_counters.h"

namespace daec {

using GiNaC::ex;

namespace {

// Nodes (node_of, model/expression_walk.h) are the keys of the memo tables. Nodes are immutable,
// and each table keeps its keys alive (an operand of a sum is built on the fly, and its address
// could be reused once it is freed), so an address stands for one subexpression for the whole
// walk.

// Results by node, each with the expression that holds the node.
class Memo {
 public:
  const ex* find(const ex& e) const {
    auto known = results_.find(node_of(e));
    return known == results_.end() ? nullptr : &known->second.second;
  }
  void add(const ex& e, const ex& result) {
    results_.emplace(node_of(e), std::make_pair(e, result));
  }

 private:
  std::unordered_map<const GiNaC::basic*, std::pair<ex, ex>> results_;
};

// A function's partial derivatives are protected; the derivatives below build exactly what
// GiNaC's own do, so they read them through a member pointer taken in a derived class, as PairsOf
// (model/expression_walk.h) reads the terms of sums and products.
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
    count_work(WorkKind::Nodes);
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
  // Terms whose derivative is 0 are left out: the sum GiNaC builds drops them anyway, and a row
  // of a Jacobian holds many terms free of the unknown it is differentiated by.
  ex of_sum(const GiNaC::add& sum) {
    GiNaC::epvector terms;
    for (const GiNaC::expair& term : PairsOf::pairs(sum)) {
      ex derivative = of(term.rest);
      if (!derivative.is_zero()) terms.push_back(GiNaC::expair(derivative, term.coeff));
    }
    if (terms.empty()) return 0;
    return GiNaC::dynallocate<GiNaC::add>(std::move(terms));
  }

  // mul::derivative: D(a*b*c) = D(a)*b*c + a*D(b)*c + a*b*D(c), each factor rest^coeff; the
  // terms of factors whose derivative is 0 are 0, and left out.
  ex of_product(const GiNaC::mul& product) {
    const GiNaC::epvector& factors = PairsOf::pairs(product);
    const ex& coefficient = PairsOf::coefficient(product);
    GiNaC::exvector terms;
    GiNaC::epvector with_derivative;
    for (size_t i = 0; i < factors.size(); ++i) {
      const GiNaC::expair& factor = factors[i];
      ex derivative = of(factor.rest);
      if (derivative.is_zero()) continue;
      if (with_derivative.empty()) with_derivative = factors;
      GiNaC::expair replaced = as_factor(GiNaC::pow(factor.rest, factor.coeff - 1) * derivative);
      std::swap(replaced, with_derivative[i]);
      terms.push_back(GiNaC::dynallocate<GiNaC::mul>(with_derivative, coefficient * factor.coeff));
      std::swap(replaced, with_derivative[i]);
    }
    if (terms.empty()) return 0;
    if (terms.size() == 1) return terms.front();
    return GiNaC::dynallocate<GiNaC::add>(terms);
  }

  // mul::split_ex_to_pair: a power with a numeric exponent is (basis, exponent).
  static GiNaC::expair as_factor(const ex& e) {
    if (GiNaC::is_exactly_a<GiNaC::power>(e) && GiNaC::is_exactly_a<GiNaC::numeric>(e.op(1)))
      return GiNaC::expair(e.op(0), e.op(1));
    return GiNaC::expair(e, 1);
  }

  // power::derivative. 0^x (a model refused later) has none: checked before GiNaC builds 1/0.
  ex of_power(const ex& basis, const ex& exponent, const ex& e) {
    if (basis.is_zero()) check_defined("pow", {basis, -1});
    if (GiNaC::is_a<GiNaC::numeric>(exponent)) {
      ex derivative = of(basis);
      if (derivative.is_zero()) return 0;
      const GiNaC::epvector factors = {GiNaC::expair(basis, exponent - 1),
                                       GiNaC::expair(derivative, 1)};
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
      if (!argument.is_zero())
        result += PartialsOf::partial(f, static_cast<unsigned>(i)) * argument;
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
    count_work(WorkKind::Nodes);
    GiNaC::exvector operands;
    operands.reserve(e.nops());
    for (size_t i = 0; i < e.nops(); ++i) operands.push_back((*this)(e.op(i)));
    ex result = with_operands(e, operands);
    memo_.add(e, result);
    return result;
  }

 private:
  const GiNaC::exmap& values_;
  Memo memo_;
};

// Whether e is the number 1 or -1: a sign, which the size written out does not count.
bool is_sign(const ex& e) {
  return GiNaC::is_exactly_a<GiNaC::numeric>(e) &&
         GiNaC::abs(GiNaC::ex_to<GiNaC::numeric>(e)).is_equal(1);
}

// x for -x (the product of x and -1), else e.
ex without_sign(const ex& e) {
  if (GiNaC::is_exactly_a<GiNaC::mul>(e) && e.nops() == 2 && is_sign(e.op(1))) return e.op(0);
  return e;
}

size_t saturating_sum(size_t a, size_t b) {
  return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

}  // namespace

// Post-order on an explicit stack, each stored node once (by address, held in `size`); the
// operands op(i) makes anew (the terms c*x of a sum) are visited each time, their operands once.
size_t written_size(const ex& e, size_t stop_above) {
  struct Frame {
    ex node;
    std::vector<ex> operands;
    bool expanded = false;
  };
  std::unordered_map<const GiNaC::basic*, std::pair<ex, size_t>> size;
  std::vector<Frame> stack;
  stack.push_back({without_sign(e), {}, false});
  while (!stack.empty()) {
    Frame& frame = stack.back();
    if (size.count(node_of(frame.node)) != 0) {
      stack.pop_back();
      continue;
    }
    if (!frame.expanded) {
      frame.expanded = true;
      count_work(WorkKind::Nodes);
      const ex node = frame.node;
      const bool product = GiNaC::is_exactly_a<GiNaC::mul>(node);
      std::vector<ex> operands;
      for (size_t i = 0; i < node.nops(); ++i)
        if (!product || !is_sign(node.op(i))) operands.push_back(without_sign(node.op(i)));
      frame.operands = operands;  // (frame stays valid until the pushes below)
      for (const ex& operand : operands) stack.push_back({operand, {}, false});
      continue;
    }
    size_t total = 1;
    for (const ex& operand : frame.operands)
      total = saturating_sum(total, size.at(node_of(operand)).second);
    if (total > stop_above) return total;
    size.emplace(node_of(frame.node), std::make_pair(frame.node, total));
    stack.pop_back();
  }
  return size.at(node_of(without_sign(e))).second;
}

bool written_size_at_most(const ex& e, size_t bound) {
  // Each stored node once per path (a tree, no memo): its operands as op(i) gives them count
  // three nodes a term or factor at most (c*x as the product, c and x; x^n as the power, x and
  // n), and the overall coefficient one more.
  size_t size = 0;
  std::vector<const GiNaC::basic*> pending{node_of(e)};
  while (!pending.empty()) {
    const GiNaC::basic* node = pending.back();
    pending.pop_back();
    size += GiNaC::is_a<GiNaC::expairseq>(*node) ? 2 + 2 * node->nops() : 1;
    if (size > bound) return false;
    for_each_stored_operand(*node,
                            [&](const GiNaC::basic* operand) { pending.push_back(operand); });
  }
  count_work(WorkKind::Nodes, size);
  return true;
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
  bool going = true;
  for_each_node(e, [&](const GiNaC::basic& node) {
    if (!going) return false;
    if (!GiNaC::is_a<GiNaC::symbol>(node)) return true;
    going = found(ex(node));
    return false;
  });
}

std::set<std::string> differentiated_functions(const ex& e) {
  std::set<std::string> names;
  std::unordered_map<const GiNaC::basic*, ex> seen;  // holding each node (see node_of)
  std::vector<ex> pending{e};
  while (!pending.empty()) {
    ex node = std::move(pending.back());
    pending.pop_back();
    if (node.nops() == 0 || !seen.emplace(node_of(node), node).second) continue;
    count_work(WorkKind::Nodes);
    if (GiNaC::is_exactly_a<GiNaC::function>(node) && !is_if(node))
      names.insert(GiNaC::ex_to<GiNaC::function>(node).get_name());
    for (size_t i = is_if(node) ? 1 : 0; i < node.nops(); ++i) pending.push_back(node.op(i));
  }
  return names;
}

}  // namespace daec
