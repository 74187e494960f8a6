// Stage 3 (docs/method.md §3): splits the first-order system
// into x' = f(x, z, t) and 0 = g(x, z, t). An equation x' = expr whose other side holds no
// derivative stays differential; every other derivative x' becomes a dummy variable x_dot with
// x' = x_dot, and its equation joins the algebraic part.
#pragma once

#include "reduction/system.h"

namespace daec {

SemiExplicitSystem to_semi_explicit(const FirstOrderSystem& system);

}  // namespace daec
