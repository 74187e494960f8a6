// Sample points on the constraints found so far. The reduction decides ranks at random points;
// off the hidden constraints, a constraint written with a nonvanishing factor (f*(x - sin t) = 0)
// has derivatives whose Jacobian has a larger rank than on them (the factor's derivative times
// x - sin t), and a combination chosen there vanishes to second order on the solution: its
// derivative gives A a zero row at every consistent point. Points moved onto h(X, t) = 0 (the
// invariants so far) make the decisions those of the solution's neighbourhood.
#pragma once

#include <cstddef>
#include <vector>

#include <ginac/ginac.h>

namespace daec {

class ManifoldProjection {
 public:
  /// The invariants h(X, t) (functions of `states` and t) to be satisfied.
  ManifoldProjection(std::vector<GiNaC::ex> invariants, std::vector<GiNaC::ex> states);

  /// Moves the states of `point` (which assigns every symbol, parameters included) to a nearby
  /// point where every invariant vanishes: Gauss-Newton with minimum-norm steps in doubles, then
  /// refined to many digits (reduction/symbolic.h, kPreciseDigits) so that rank decisions with
  /// many digits see the invariants hold. Returns false, leaving `point` as it was, where the
  /// iteration does not converge.
  bool project(GiNaC::exmap& point) const;

 private:
  bool try_project(GiNaC::exmap& point) const;

  std::vector<GiNaC::ex> invariants_;
  std::vector<GiNaC::ex> states_;
  std::vector<std::vector<std::pair<size_t, GiNaC::ex>>>
      jacobian_;  // per invariant: (state, dh/dx)
};

/// Invariants at most this many, states at most kMaxProjectedStates: larger systems are sampled
/// off the manifold (a dense minimum-norm step costs the cube of the count).
constexpr size_t kMaxProjectedInvariants = 120;
constexpr size_t kMaxProjectedStates = 600;

}  // namespace daec
