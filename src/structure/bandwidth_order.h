// A bandwidth-reducing order of a symmetric pattern (reverse Cuthill-McKee): the linear solve puts
// each block of A in this order so that the fill-in of partial pivoting stays small, linear in the
// size for banded blocks (docs/generated-code.md).
#pragma once

#include <set>
#include <vector>

namespace daec {

/// Reverse Cuthill-McKee on the graph whose node v is adjacent to neighbours[v] (symmetric: an
/// edge for an entry at (i, j) or (j, i), no self loops). Each connected component is numbered
/// breadth first from a node of least degree, each node's unnumbered neighbours by increasing
/// degree; the whole order is then reversed. Returns the nodes in their new order (a permutation
/// of 0 .. size - 1). Deterministic: ties go to the lower node. Cuthill-McKee keeps the bandwidth
/// small, not minimal: its level structure is what bounds the fill of an elimination in this
/// order, which is what the linear solve needs.
std::vector<int> bandwidth_order(const std::vector<std::set<int>>& neighbours);

}  // namespace daec
