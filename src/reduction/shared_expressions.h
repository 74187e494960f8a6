// Walks of GiNaC expressions that visit each distinct subexpression once.
//
// GiNaC shares subexpressions: a constraint differentiated round after round holds the same
// subexpressions many times over, and as a tree it can be thousands of times larger than the
// graph GiNaC keeps in memory (docs/limits.md). GiNaC's own diff and subs walk the tree; these
// walk the graph, remembering the result for each node they have seen, so that their cost follows
// the number of distinct subexpressions. Their results are the same expressions GiNaC's diff and
// a substitution of symbols give.
#pragma once

#include <cstddef>
#include <functional>
#include <set>
#include <string>

#include <ginac/ginac.h>

namespace daec {

/// The number of nodes of `e` written out as a tree (each path anew), without signs (-x counts
/// as x, -(a - b)*c as (b - a)*c: GiNaC orders terms by hashes of addresses, and that order
/// decides which sum or product carries a sign, so that only so is the count the same in every
/// run), counted from the graph, each stored node once: the size that GiNaC's
/// own walks of it (its checks of a sum or product it builds, its comparisons) and a tree's text
/// follow, and that grows with each differentiation of a constraint whose derivatives multiply.
/// Counting stops once it exceeds `stop_above` (the value returned is then above it).
size_t written_size(const GiNaC::ex& e, size_t stop_above);

/// Whether written_size(e) is at most `bound`, told cheaply for small expressions: true when a
/// bound on the tree of e (each path once, each stored operand counted) is that small; false
/// when it is not, which says nothing.
bool written_size_at_most(const GiNaC::ex& e, size_t bound);

/// d e / d s, the expression GiNaC's e.diff(s) gives, each distinct subexpression differentiated
/// once.
GiNaC::ex shared_derivative(const GiNaC::ex& e, const GiNaC::symbol& s);

/// `e` with the symbols that are keys of `values` replaced by their values (simultaneously),
/// each distinct subexpression visited once. The values must not be patterns: keys that are not
/// symbols are ignored.
GiNaC::ex shared_substitute(const GiNaC::ex& e, const GiNaC::exmap& values);

/// Calls `found` with each distinct symbol of `e` until it returns false.
void for_each_symbol(const GiNaC::ex& e, const std::function<bool(const GiNaC::ex&)>& found);

/// The names of the functions `e` calls where a derivative of `e` differentiates them: outside the
/// conditions of its if-expressions (whose derivative takes each branch's, model/conditions.h).
std::set<std::string> differentiated_functions(const GiNaC::ex& e);

}  // namespace daec
