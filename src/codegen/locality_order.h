// The order in which a long function computes its assignments. The generated code of a large
// model is cut into parts (function_parts.h), and a temporary that a later part reads goes through
// memory; computing the assignments in the order of their targets (the unknowns' order, which is
// the order in which the model happens to declare them) puts assignments that share
// subexpressions far apart when the declarations are shuffled, and the spilled temporaries
// doubled the cost of the rhs of a shuffled pendulum chain. Breadth first over the unknowns the
// assignments read keeps neighbours together whatever the declaration order
// (docs/generated-code.md, "Large models").
#pragma once

#include <cstddef>
#include <vector>

namespace daec {

/// A permutation of 0 .. uses.size() - 1: the assignments in breadth-first order of the graph in
/// which two assignments are adjacent when they read a common unknown (`uses[i]`: the unknowns,
/// as numbers, assignment i reads). An unknown read by more than `hub_limit` assignments joins
/// none of them (a parameter-like quantity that every assignment reads says nothing about
/// locality). Each component, taken in the order of its first assignment, starts from an
/// assignment farthest from that one (the last a breadth-first walk from it reaches): a chain is
/// swept from one end, whichever of its links the given order lists first.
std::vector<size_t> locality_order(const std::vector<std::vector<int>>& uses, size_t hub_limit);

}  // namespace daec
