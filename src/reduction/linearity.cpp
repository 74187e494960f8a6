// Linear / nonlinear classification of algebraic unknowns and the preprocessing step.
//
// Deciding linearity by second derivatives (d2e/dz_i dz_j == 0 for every pair, each tested by
// expanding and normalising) cost minutes on models with long trigonometric expressions. The
// tree of an expression says it directly: an unknown is in an affine position when every node
// above it is a sum, a product whose other factors hold no unknown, or a branch of an `if`.
// Where the tree says "not affine" the answer is checked numerically (a partial derivative that
// changes with the unknowns), and only where that cannot tell, symbolically.
#include "reduction/linearity.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "model/conditions.h"
#include "reduction/expression_matrix.h"
#include "reduction/symbolic.h"
#include "support/watchdog.h"
#include "units/unit_text.h"

namespace daec {

namespace {

using Columns = std::vector<int>;  // sorted, unique

Columns merged(const Columns& a, const Columns& b) {
  Columns out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// The unknowns an expression holds (`present`) and those among them that it holds outside an
// affine position (`suspect`: nonlinear as written, perhaps affine once expanded).
struct Occurrence {
  Columns present, suspect;
};

class AffineScan {
 public:
  explicit AffineScan(const SymbolColumns& columns) : columns_(columns) {}

  Occurrence operator()(const GiNaC::ex& e) {
    if (GiNaC::is_a<GiNaC::symbol>(e)) {
      int column = columns_.column(e);
      return column < 0 ? Occurrence{} : Occurrence{{column}, {}};
    }
    if (GiNaC::is_exactly_a<GiNaC::numeric>(e) || GiNaC::is_a<GiNaC::constant>(e)) return {};
    if (GiNaC::is_exactly_a<GiNaC::add>(e)) return all_affine(e, 0);
    if (is_if(e)) return all_affine(e, 1);  // the condition: see nonlinear_flags
    if (is_condition_call(e)) return {};    // piecewise constant (derivative 0)
    if (GiNaC::is_exactly_a<GiNaC::mul>(e)) return product(e);
    // A power (other than a sum's or product's exponent 1, which GiNaC never keeps) or a
    // function: every unknown inside is suspect.
    Occurrence all;
    for (size_t i = 0; i < e.nops(); ++i)
      all.present = merged(all.present, (*this)(e.op(i)).present);
    all.suspect = all.present;
    return all;
  }

 private:
  // Operands from `first` on each in an affine position.
  Occurrence all_affine(const GiNaC::ex& e, size_t first) {
    Occurrence all;
    for (size_t i = first; i < e.nops(); ++i) {
      Occurrence part = (*this)(e.op(i));
      all.present = merged(all.present, part.present);
      all.suspect = merged(all.suspect, part.suspect);
    }
    return all;
  }

  // Affine in an unknown when no other factor holds an unknown.
  Occurrence product(const GiNaC::ex& e) {
    std::vector<Occurrence> factors;
    for (size_t i = 0; i < e.nops(); ++i) factors.push_back((*this)(e.op(i)));
    size_t holding = 0;
    for (const Occurrence& f : factors) holding += f.present.empty() ? 0 : 1;
    Occurrence all;
    for (const Occurrence& f : factors) {
      all.present = merged(all.present, f.present);
      all.suspect = merged(all.suspect, holding > 1 ? f.present : f.suspect);
    }
    return all;
  }

  const SymbolColumns& columns_;
};

// Decides the suspects of `e`: unknown i is nonlinear when de/dz_i depends on an unknown. Tried
// numerically first (de/dz_i at two points that differ in the unknowns only); where the values
// agree or cannot be computed, symbolically.
class NonlinearityTest {
 public:
  NonlinearityTest(const SemiExplicitSystem& system, const SymbolColumns& columns)
      : system_(system), columns_(columns), points_(system.context.parameter_values(), centers()) {}

  void mark(const GiNaC::ex& e, std::vector<bool>& nonlinear) {
    Occurrence occurrence = AffineScan(columns_)(e);
    for (int i : occurrence.suspect) {
      if (nonlinear[i]) continue;
      GiNaC::ex first;
      try {
        first = derivative(e, system_.algebraic[i].symbol);
      } catch (const std::exception&) {
        nonlinear[i] = true;  // no derivative (0^z): not affine
        continue;
      }
      std::vector<int> inside = columns_.columns_in(first);
      if (inside.empty()) continue;  // affine after all
      if (changes_numerically(first, inside) || changes_symbolically(first, inside, nonlinear))
        nonlinear[i] = true;
    }
  }

 private:
  std::map<GiNaC::ex, double, GiNaC::ex_is_less> centers() const {
    GiNaC::exmap parameters = system_.context.parameter_values();
    std::map<GiNaC::ex, double, GiNaC::ex_is_less> out;
    for (const auto* unknowns : {&system_.states, &system_.algebraic}) {
      for (const Unknown& u : *unknowns) {
        if (std::optional<double> start = evaluate(u.start, parameters)) out[u.symbol] = *start;
      }
    }
    return out;
  }

  std::vector<GiNaC::ex> symbols() const {
    std::vector<GiNaC::ex> all{system_.context.time};
    for (const Unknown& u : system_.states) all.push_back(u.symbol);
    for (const Unknown& u : system_.algebraic) all.push_back(u.symbol);
    return all;
  }

  // A value that differs beyond rounding between two points that share all but the unknowns.
  bool changes_numerically(const GiNaC::ex& first, const std::vector<int>& inside) {
    constexpr int kAttempts = 4;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      GiNaC::exmap a = points_.next(symbols(), attempt);
      GiNaC::exmap b = a;
      std::vector<GiNaC::ex> unknowns;
      for (int j : inside) unknowns.push_back(system_.algebraic[j].symbol);
      GiNaC::exmap moved = points_.next(unknowns, attempt);
      for (const GiNaC::ex& u : unknowns) b[u] = moved[u];
      std::optional<double> va = evaluate(first, a), vb = evaluate(first, b);
      if (!va || !vb) continue;
      double scale = std::max({std::fabs(*va), std::fabs(*vb), 1e-300});
      return std::fabs(*va - *vb) > 1e-8 * scale;
    }
    return false;
  }

  // The old test: a second derivative that does not vanish identically. Marks its partners.
  bool changes_symbolically(const GiNaC::ex& first, const std::vector<int>& inside,
                            std::vector<bool>& nonlinear) {
    bool found = false;
    for (int j : inside) {
      if (!is_identically_zero(derivative(first, system_.algebraic[j].symbol))) {
        nonlinear[j] = true;
        found = true;
      }
    }
    return found;
  }

  const SemiExplicitSystem& system_;
  const SymbolColumns& columns_;
  RandomPoints points_;
};

std::vector<bool> nonlinear_flags(const SemiExplicitSystem& system, ConditionUnknowns conditions) {
  SymbolColumns columns(system.algebraic);
  std::vector<bool> nonlinear(system.algebraic.size(), false);
  NonlinearityTest test(system, columns);
  auto mark = [&](const GiNaC::ex& e) {
    // AffineScan passes over relations (piecewise constant) and takes each branch of an `if`
    // on its own: an unknown inside a relation is linear when every branch is affine in it.
    if (conditions == ConditionUnknowns::Nonlinear) {
      SymbolSet in_conditions = condition_symbols(e);
      for (int i : columns.columns_in(e))
        if (in_conditions.count(system.algebraic[i].symbol)) nonlinear[i] = true;
    }
    test.mark(e, nonlinear);
  };
  // The stage names each equation: what GiNaC throws from one is reported there.
  for (const StateEquation& f : system.differential) {
    enter_stage(f.location, "classifying the algebraic variables");
    mark(f.rhs);
  }
  for (const Constraint& g : system.constraints) {
    enter_stage(g.location, "classifying the algebraic variables");
    mark(g.residual);
  }
  return nonlinear;
}

}  // namespace

std::vector<std::string> nonlinear_unknowns(const SemiExplicitSystem& system,
                                            ConditionUnknowns conditions) {
  std::vector<bool> nonlinear = nonlinear_flags(system, conditions);
  std::vector<std::string> names;
  for (size_t i = 0; i < nonlinear.size(); ++i) {
    if (nonlinear[i]) names.push_back(system.algebraic[i].name);
  }
  return names;
}
std::vector<std::string> promote_to_states(
    SemiExplicitSystem& system, const std::vector<bool>& promote,
    const std::function<std::string(const Unknown&)>& rate_name) {
  std::vector<Unknown> kept, rates;
  std::vector<std::string> promoted;
  for (size_t i = 0; i < system.algebraic.size(); ++i) {
    const Unknown& unknown = system.algebraic[i];
    if (!promote[i]) {
      kept.push_back(unknown);
      continue;
    }
    GiNaC::realsymbol rate = system.context.fresh_symbol(rate_name(unknown));
    rates.push_back(Unknown{rate.get_name(), rate, UnknownOrigin::Nonlinear, unknown.name, 0, false,
                            "", 0, per_second(unknown.unit)});
    system.differential.push_back(
        StateEquation{system.states.size(),
                      rate,
                      derivative_name(unknown.name, 1) + " = " + rate.get_name(),
                      {}});
    system.states.push_back(unknown);
    system.states.back().promoted = true;
    promoted.push_back(unknown.name);
  }
  kept.insert(kept.end(), rates.begin(), rates.end());
  system.algebraic = std::move(kept);
  return promoted;
}

std::vector<std::string> promote_nonlinear(SemiExplicitSystem& system,
                                           ConditionUnknowns conditions) {
  return promote_to_states(system, nonlinear_flags(system, conditions),
                           [](const Unknown& unknown) { return unknown.name + "_dot"; });
}

}  // namespace daec
