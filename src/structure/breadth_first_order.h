// An order of a graph's nodes that follows its structure and not their numbers: Cuthill-McKee
// from a pseudo-peripheral node of each component. The reduction numbers a large model's
// variables and equations this way (reduction/structural_order.h), so that a chain of bodies
// declared body by body, as arrays or in any order comes out numbered the same way along the
// chain (docs/generated-code.md, "Large models").
#pragma once

#include <vector>

namespace daec {

/// The nodes in Cuthill-McKee order: each connected component is numbered breadth first from
/// one of its ends, each node's unnumbered neighbours in the order of their structural keys
/// (label, then degree, then the sum of the neighbours' degrees), ties by number. The end: George
/// and Liu's pseudo-peripheral node (from a seed, move to a least node of the last breadth-first
/// level while that makes the levels deeper), then, of the least nodes at that end and at the far
/// one, the one whose levels are deepest and then narrowest, so that a chain is numbered from the
/// same end in any numbering of its nodes. Components come in the order of their least nodes.
/// neighbours[v]: the nodes adjacent to v (symmetric, no self loops, no repeats); labels[v]
/// (empty: all 0) what the caller knows of node v beyond the graph, to tell apart nodes that
/// the graph alone does not (the x and the y of a body). Returns a permutation of 0 .. size - 1.
std::vector<int> breadth_first_order(const std::vector<std::vector<int>>& neighbours,
                                     const std::vector<long>& labels = {});

}  // namespace daec
