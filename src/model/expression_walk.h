// Walks over the distinct nodes of a GiNaC expression, without recursion.
//
// GiNaC shares subexpressions: an expression whose outputs use earlier outputs twice
// (o2 = o1*(o1 + 1), o3 = o2*(o2 + 1), ...) is a graph of a few nodes a level but a tree that
// doubles with every level, and GiNaC's preorder iterators walk the tree. These walks visit each
// node once, by address, with an explicit stack, so that neither the size of the tree nor the
// depth of the expression (10,000 outputs each the sine of the last) matters.
//
// The nodes are those GiNaC stores: the terms and factors of a sum or product as it keeps them,
// (rest, coefficient) pairs, rather than as op(i) would build them anew (c*x for the pair (x, c),
// x^n for (x, n)), so that each node's address stays valid while the expression lives.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <ginac/ginac.h>

#include "support/work_counters.h"

namespace daec {

/// GiNaC's sums and products keep their terms as (rest, coefficient) pairs and an overall
/// coefficient, protected members read here through member pointers taken in a derived class
/// (access is checked where the pointer is named, not where it is used).
struct PairsOf : GiNaC::expairseq {
  static const GiNaC::epvector& pairs(const GiNaC::expairseq& e) { return e.*(&PairsOf::seq); }
  static const GiNaC::ex& coefficient(const GiNaC::expairseq& e) {
    return e.*(&PairsOf::overall_coeff);
  }
};

/// The node `e` points to.
inline const GiNaC::basic* node_of(const GiNaC::ex& e) {
  return &GiNaC::ex_to<GiNaC::basic>(e);
}

/// A set of nodes by address; small ones without a heap allocation (the walks run once per row
/// of every Jacobian, mostly on a few dozen nodes).
class NodeSet {
 public:
  /// Adds `node`; false if it was there.
  bool insert(const GiNaC::basic* node) {
    if (large_.empty()) {
      for (size_t i = 0; i < size_; ++i)
        if (small_[i] == node) return false;
      if (size_ < kSmall) {
        small_[size_++] = node;
        return true;
      }
      large_.reserve(4 * kSmall);
      large_.insert(small_, small_ + size_);
    }
    return large_.insert(node).second;
  }

 private:
  static constexpr size_t kSmall = 32;
  const GiNaC::basic* small_[kSmall];
  size_t size_ = 0;
  std::unordered_set<const GiNaC::basic*> large_;
};

/// Calls f with each operand of `node` as the node stores it: a sum's or product's rests, then
/// (with `numbers`) their numeric coefficients and the overall coefficient; the operands of
/// anything else (powers, functions) as op(i) gives them, which are the stored ones.
template <typename F>
void for_each_stored_operand(const GiNaC::basic& node, F f, bool numbers = false) {
  if (GiNaC::is_a<GiNaC::expairseq>(node)) {
    const auto& sequence = static_cast<const GiNaC::expairseq&>(node);
    for (const GiNaC::expair& pair : PairsOf::pairs(sequence)) f(node_of(pair.rest));
    if (!numbers) return;
    for (const GiNaC::expair& pair : PairsOf::pairs(sequence)) f(node_of(pair.coeff));
    f(node_of(PairsOf::coefficient(sequence)));
    return;
  }
  for (size_t i = 0; i < node.nops(); ++i) f(node_of(node.op(i)));
}

/// Calls visit(node) once for each distinct node of `e` (see the header), parents before their
/// operands; the operands of a node are visited only if visit returns true. With `numbers`, the
/// numeric coefficients of sums and products are nodes too. Each node visited counts as work
/// (support/work_counters.h).
template <typename Visit>
void for_each_node(const GiNaC::ex& e, Visit visit, bool numbers = false) {
  NodeSet seen;
  std::vector<const GiNaC::basic*> pending{node_of(e)};
  while (!pending.empty()) {
    const GiNaC::basic* node = pending.back();
    pending.pop_back();
    if (!seen.insert(node)) continue;
    count_work(WorkKind::Nodes);
    if (!visit(*node)) continue;
    for_each_stored_operand(
        *node, [&](const GiNaC::basic* operand) { pending.push_back(operand); }, numbers);
  }
}

}  // namespace daec

namespace daec {

/// How deep an expression nests and how large it is written out (each path of its graph once),
/// memoized by node across calls, so that checking each of 10,000 chained outputs costs the nodes
/// it adds to the earlier ones. Leaves are depth 1 and size 1; a sum's or product's numeric
/// coefficients are not counted. The sizes saturate at UINT64_MAX.
class ExpressionExtent {
 public:
  struct Extent {
    size_t depth = 0;
    uint64_t tree = 0;
  };

  ExpressionExtent() = default;
  ExpressionExtent(const ExpressionExtent&) = delete;
  ExpressionExtent& operator=(const ExpressionExtent&) = delete;

  // GiNaC frees an expression recursively, operand by operand, so a chain the memo held alone
  // would be freed from its outermost node down, one stack frame a level: past a few thousand
  // levels under the sanitizers that overflows. Released deepest first, each node's operands are
  // still held when it goes, and every release frees one node.
  ~ExpressionExtent() {
    std::vector<std::vector<GiNaC::ex*>> by_depth;
    for (auto& entry : memo_) {
      size_t depth = entry.second.second.depth;
      if (by_depth.size() <= depth) by_depth.resize(depth + 1);
      by_depth[depth].push_back(&entry.second.first);
    }
    for (size_t depth = by_depth.size(); depth-- > 0;)
      for (GiNaC::ex* held : by_depth[depth]) *held = GiNaC::ex();
  }

  Extent of(const GiNaC::ex& e) {
    std::vector<std::pair<const GiNaC::basic*, bool>> pending{{node_of(e), false}};
    while (!pending.empty()) {
      auto [node, operands_done] = pending.back();
      pending.pop_back();
      if (memo_.count(node)) continue;
      if (!operands_done) {
        count_work(WorkKind::Nodes);
        pending.push_back({node, true});
        for_each_stored_operand(*node, [&](const GiNaC::basic* operand) {
          if (!memo_.count(operand)) pending.push_back({operand, false});
        });
        continue;
      }
      Extent extent{1, 1};
      for_each_stored_operand(*node, [&](const GiNaC::basic* operand) {
        const Extent& own = memo_.at(operand).second;
        extent.depth = std::max(extent.depth, own.depth + 1);
        extent.tree = own.tree > UINT64_MAX - extent.tree ? UINT64_MAX : extent.tree + own.tree;
      });
      memo_.emplace(node, std::make_pair(GiNaC::ex(*node), extent));
    }
    return memo_.at(node_of(e)).second;
  }

 private:
  // Each with the expression holding its node (see model/expression_walk.h's header).
  std::unordered_map<const GiNaC::basic*, std::pair<GiNaC::ex, Extent>> memo_;
};

}  // namespace daec
