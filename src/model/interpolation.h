// Tables: interp(v, XS, YS) (docs/language.md, "Tables: interp") as a conditional expression of
// the language's own functions (model/conditions.h). Lowering a table to daec_if and daec_lt is
// what makes it go through the pipeline with nothing added: each branch is one linear segment, so
// differentiation gives the segment's slope times v'; each breakpoint is one relation v < XS[k],
// which the simulator watches and locates as an event; the elements of XS and YS stay parameter
// symbols, settable in the generated code.
#pragma once

#include <vector>

#include <ginac/ginac.h>

namespace daec {

/// The linear interpolation of the points (xs[k], ys[k]) at `v`, constant outside: ys[0] below
/// xs[0], ys[n-1] from xs[n-1] on. The pieces are chosen by a balanced tree of the relations
/// v < xs[k] (each breakpoint's relation occurs once), so that a table of n points nests log2(n)
/// conditions deep rather than n. Requires xs.size() == ys.size() >= 2; the caller checks that the
/// breakpoints increase strictly (else a segment's slope divides by zero).
GiNaC::ex make_interpolation(const GiNaC::ex& v, const std::vector<GiNaC::ex>& xs,
                             const std::vector<GiNaC::ex>& ys);

}  // namespace daec
