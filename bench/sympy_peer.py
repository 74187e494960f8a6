#!/usr/bin/env python3
"""sympy_peer.py N [-o OUT.c] — the peer of daec in the benchmarks (bench/run.sh): the same
symbolic work as `daec models/pendulum_chain.dae -D N=...` done by hand with sympy (Debian python3-sympy), for
the N-link planar pendulum chain of models/pendulum_chain.dae, and the same outputs printed as
C (compilable as C++).

What it does — exactly the dummy-variable reduction daec finds for this model (daec's default):
  1. symbols for the states X = (x_i, y_i, u_i, v_i), the multipliers l_i, the dummy variables
     ud_i = u_i', vd_i = v_i' and the parameters m, L, g; the model's equations written as in
     models/pendulum_chain.dae (x_i' = u_i, y_i' = v_i, u_i' = (...)/m, v_i' = (...)/m - g,
     rod_i: (x_i - x_{i-1})^2 + (y_i - y_{i-1})^2 - L^2 = 0);
  2. differentiates every constraint twice in t (total derivatives, chain rule over the states,
     with x' = u, y' = v and u' = ud, v' = vd) — rod_i' and rod_i'' — with sympy.diff;
  3. forms the index-1 system in Z = (l, ud, vd): R(X, Z) = [ud_i - f_u_i; vd_i - f_v_i; rod_i''] = 0,
     A = dR/dZ, b = -R(X, 0), X' = F(X, Z) = (u, v, ud, vd), the invariants h = (rod_i, rod_i'),
     and the derivatives every output function needs: dR/dX (for rhs_jacobian and
     residual_jacobian), dF/dX, dF/dZ, dh/dX (sympy Matrix.jacobian);
  4. removes common subexpressions with sympy.cse, one function at a time (as daec does);
  5. prints C with sympy.ccode: rhs (A and b, then a dense LU solve), rhs_jacobian (implicit
     differentiation of A Z = b, column by column), residual, residual_jacobian, invariants and
     invariants_jacobian, plus the state and algebraic names.

What it does not do, and daec does (so the comparison favours the peer): it is told the answer
(which constraints to differentiate, which derivatives become dummy variables, the index), so it
does no structural analysis (matching, Dulmage-Mendelsohn, block-triangular form), no symbolic
rank test, no classification of the variables; its LU is one generic dense routine (fixed
text, no symbolic work), where daec emits an LU specialised to the sparsity and block structure
of A; it prints no projection, consistent initialisation or simulator (in daec those are fixed
text around the invariants and their Jacobian, which the peer does print).

Prints one line on stderr: the time of the symbolic work (after the interpreter has started and
sympy is imported) and the time of importing sympy, so that the runner can report both.
"""

import argparse
import sys
import time

T_START = time.perf_counter()
import sympy  # noqa: E402  (timed: the import is part of what a user of the peer waits for)
from sympy import Matrix, Symbol, ccode, cse, numbered_symbols  # noqa: E402

T_IMPORTED = time.perf_counter()


def chain_model(n):
    """Symbols and equations of the N-link chain, as models/pendulum_chain.dae writes them."""
    m, L, g = sympy.symbols("m L g", real=True)
    params = [m, L, g]

    def syms(prefix):
        return [Symbol(f"{prefix}{i}", real=True) for i in range(1, n + 1)]

    x, y, u, v, lam = syms("x"), syms("y"), syms("u"), syms("v"), syms("l")
    ud, vd = syms("u_dot"), syms("v_dot")
    states, states_dot = [], []
    for i in range(n):
        states += [x[i], y[i], u[i], v[i]]
        states_dot += [u[i], v[i], ud[i], vd[i]]  # X' = F(X, Z): x' = u, y' = v, u' = ud, v' = vd

    def diff_x(i):
        return x[i] - (x[i - 1] if i > 0 else 0)

    def diff_y(i):
        return y[i] - (y[i - 1] if i > 0 else 0)

    newton_u, newton_v, rods = [], [], []
    for i in range(n):
        fx = -lam[i] * diff_x(i) + (lam[i + 1] * (x[i + 1] - x[i]) if i + 1 < n else 0)
        fy = -lam[i] * diff_y(i) + (lam[i + 1] * (y[i + 1] - y[i]) if i + 1 < n else 0)
        newton_u.append(fx / m)
        newton_v.append(fy / m - g)
        rods.append(diff_x(i) ** 2 + diff_y(i) ** 2 - L**2)
    return dict(params=params, states=states, states_dot=states_dot, lam=lam, ud=ud, vd=vd,
                newton_u=newton_u, newton_v=newton_v, rods=rods, n=n)


def total_derivative(expr, states, states_dot):
    """d/dt expr(X) = sum over the states s of d(expr)/ds * s' (the model has no explicit t)."""
    return sum(sympy.diff(expr, s) * sd for s, sd in zip(states, states_dot))


def reduce(model):
    """Steps 2 and 3: the hidden constraints, the index-1 system and every Jacobian needed."""
    n = model["n"]
    X = model["states"]
    Z = model["lam"] + model["ud"] + model["vd"]
    # x' = u, y' = v for the first derivative; for the second, also u' = ud, v' = vd
    # (states_dot already says so: positions first differentiate to velocities, velocities to
    # the dummy variables).
    rod1 = [total_derivative(r, X, model["states_dot"]) for r in model["rods"]]
    rod2 = [total_derivative(r, X, model["states_dot"]) for r in rod1]
    R = Matrix([model["ud"][i] - model["newton_u"][i] for i in range(n)]
               + [model["vd"][i] - model["newton_v"][i] for i in range(n)]
               + rod2)
    zero = {z: 0 for z in Z}
    A = R.jacobian(Z)
    b = -R.subs(zero)
    F = Matrix(model["states_dot"])
    h = Matrix(model["rods"] + rod1)
    return dict(X=X, Z=Z, R=R, A=A, b=b, F=F, dR_dX=R.jacobian(X), dF_dX=F.jacobian(X),
                dF_dZ=F.jacobian(Z), h=h, H=h.jacobian(X),
                invariant_names=[f"rod{i}" for i in range(1, n + 1)]
                + [f"rod{i}'" for i in range(1, n + 1)])


class Emitter:
    """C text for lists of (target, expression) assignments, after sympy.cse."""

    def __init__(self):
        self.out = []

    def line(self, text=""):
        self.out.append(text + "\n")

    def assignments(self, pairs):
        """pairs: [(C lvalue, sympy expression)]; zero entries are skipped by the caller."""
        if not pairs:
            return
        replacements, reduced = cse([e for _, e in pairs], symbols=numbered_symbols("w"))
        for w, e in replacements:
            self.line(f"  const double {w} = {ccode(e)};")
        for (target, _), e in zip(pairs, reduced):
            self.line(f"  {target} = {ccode(e)};")


def sparse_entries(matrix, name, columns):
    return [(f"{name}[{r * columns + c}]", matrix[r, c])
            for r in range(matrix.rows) for c in range(matrix.cols) if matrix[r, c] != 0]


LU_CODE = r"""
/* Generic dense LU with partial pivoting of the n x n row-major a; 1 if singular. */
static int peer_lu_factor(double* a, int* piv, int n) {
  for (int k = 0; k < n; ++k) {
    int q = k;
    for (int i = k + 1; i < n; ++i) if (fabs(a[i * n + k]) > fabs(a[q * n + k])) q = i;
    if (!(fabs(a[q * n + k]) > 0.0)) return 1;
    piv[k] = q;
    if (q != k) for (int j = 0; j < n; ++j) { double s = a[k * n + j]; a[k * n + j] = a[q * n + j]; a[q * n + j] = s; }
    for (int i = k + 1; i < n; ++i) {
      double f = a[i * n + k] / a[k * n + k];
      a[i * n + k] = f;
      if (f != 0.0) for (int j = k + 1; j < n; ++j) a[i * n + j] -= f * a[k * n + j];
    }
  }
  return 0;
}
static void peer_lu_solve(const double* a, const int* piv, int n, double* r) {
  for (int k = 0; k < n; ++k) { double s = r[k]; r[k] = r[piv[k]]; r[piv[k]] = s; }
  for (int i = 1; i < n; ++i) for (int j = 0; j < i; ++j) r[i] -= a[i * n + j] * r[j];
  for (int i = n - 1; i >= 0; --i) {
    for (int j = i + 1; j < n; ++j) r[i] -= a[i * n + j] * r[j];
    r[i] /= a[i * n + i];
  }
}
"""


def emit(model, red):
    X, Z = red["X"], red["Z"]
    nx, nz, nh = len(X), len(Z), red["h"].rows
    params = model["params"]
    e = Emitter()
    e.line(f"/* generated by bench/sympy_peer.py {model['n']}: the {model['n']}-link pendulum chain,")
    e.line("   reduced to index 1 with dummy variables (sympy diff, jacobian, cse, ccode). */")
    e.line("#include <math.h>")
    e.line("#include <string.h>")
    e.line(f"enum {{ peer_num_states = {nx}, peer_num_algebraic = {nz}, peer_num_invariants = {nh} }};")
    e.line("static const char* const peer_state_names[] = {"
           + ", ".join(f'"{s}"' for s in X) + "};")
    e.line("static const char* const peer_algebraic_names[] = {"
           + ", ".join(f'"{s}"' for s in Z) + "};")
    e.line("static const char* const peer_invariant_names[] = {"
           + ", ".join(f'"{s}"' for s in red["invariant_names"]) + "};")
    e.line(LU_CODE)

    def unpack(pairs):
        """Names for the parameters, states and algebraic unknowns the expressions use."""
        used = set().union(*(expr.free_symbols for _, expr in pairs)) if pairs else set()
        for array, symbols in (("p", params), ("x", X), ("z", Z)):
            for k, s in enumerate(symbols):
                if s in used:
                    e.line(f"  const double {s} = {array}[{k}];")
        e.line("  (void)p;")
        e.line("  (void)t;")

    # A(X) and b(X), A factored, Z solved: the core of rhs and rhs_jacobian.
    e.line("static int peer_solve_algebraic(const double* p, double t, const double* x, double* a, int* piv, double* r) {")
    pairs = sparse_entries(red["A"], "a", nz) + [(f"r[{k}]", red["b"][k]) for k in range(nz)]
    unpack(pairs)
    e.line(f"  memset(a, 0, sizeof(double) * {nz * nz});")
    e.assignments(pairs)
    e.line(f"  if (peer_lu_factor(a, piv, {nz})) return 1;")
    e.line(f"  peer_lu_solve(a, piv, {nz}, r);")
    e.line("  return 0;")
    e.line("}")

    # rhs: X' = F(X, Z).
    e.line("static int peer_rhs(const double* p, double t, const double* x, double* xdot, double* zout) {")
    e.line(f"  double a[{nz * nz}], z[{nz}]; int piv[{nz}];")
    e.line("  if (peer_solve_algebraic(p, t, x, a, piv, z)) return 1;")
    pairs = [(f"xdot[{k}]", red["F"][k]) for k in range(nx)]
    unpack(pairs)
    e.assignments(pairs)
    e.line(f"  if (zout) memcpy(zout, z, sizeof z);")
    e.line("  return 0;")
    e.line("}")

    # rhs_jacobian: dZ/dX = -A^-1 dR/dX column by column, J = dF/dX + dF/dZ dZ/dX.
    e.line("static int peer_rhs_jacobian(const double* p, double t, const double* x, double* J) {")
    e.line(f"  double a[{nz * nz}], z[{nz}], dRdX[{nz * nx}], dFdZ[{nx * nz}], col[{nz}]; int piv[{nz}];")
    e.line("  if (peer_solve_algebraic(p, t, x, a, piv, z)) return 1;")
    pairs = (sparse_entries(red["dF_dX"], "J", nx) + sparse_entries(red["dR_dX"], "dRdX", nx)
             + sparse_entries(red["dF_dZ"], "dFdZ", nz))
    unpack(pairs)
    e.line(f"  memset(J, 0, sizeof(double) * {nx * nx});")
    e.line("  memset(dRdX, 0, sizeof dRdX);")
    e.line("  memset(dFdZ, 0, sizeof dFdZ);")
    e.assignments(pairs)
    e.line(f"  for (int c = 0; c < {nx}; ++c) {{")
    e.line(f"    for (int k = 0; k < {nz}; ++k) col[k] = -dRdX[k * {nx} + c];")
    e.line(f"    peer_lu_solve(a, piv, {nz}, col);")
    e.line(f"    for (int i = 0; i < {nx}; ++i) for (int k = 0; k < {nz}; ++k) J[i * {nx} + c] += dFdZ[i * {nz} + k] * col[k];")
    e.line("  }")
    e.line("  return 0;")
    e.line("}")

    # residual: r = [X' - F(X, Z); R(X, Z)] and its Jacobians (dr/dX' is the identity on top).
    e.line("static void peer_residual(const double* p, double t, const double* x, const double* xdot, const double* z, double* r) {")
    pairs = ([(f"r[{k}]", Symbol(f"xdot[{k}]") - red["F"][k]) for k in range(nx)]
             + [(f"r[{nx + k}]", red["R"][k]) for k in range(nz)])
    unpack(pairs)
    e.assignments(pairs)
    e.line("}")
    e.line("static void peer_residual_jacobian(const double* p, double t, const double* x, const double* z, double* dr_dx, double* dr_dz) {")
    pairs = (sparse_entries(-red["dF_dX"], "dr_dx", nx) + sparse_entries(-red["dF_dZ"], "dr_dz", nz)
             + [(f"dr_dx[{(nx + k) * nx + c}]", red["dR_dX"][k, c])
                for k in range(nz) for c in range(nx) if red["dR_dX"][k, c] != 0]
             + [(f"dr_dz[{(nx + k) * nz + c}]", red["A"][k, c])
                for k in range(nz) for c in range(nz) if red["A"][k, c] != 0])
    unpack(pairs)
    e.line(f"  memset(dr_dx, 0, sizeof(double) * {(nx + nz) * nx});")
    e.line(f"  memset(dr_dz, 0, sizeof(double) * {(nx + nz) * nz});")
    e.assignments(pairs)
    e.line("}")

    # invariants h(X) and dh/dX.
    e.line("static void peer_invariants(const double* p, double t, const double* x, double* h) {")
    pairs = [(f"h[{k}]", red["h"][k]) for k in range(nh)]
    unpack(pairs)
    e.assignments(pairs)
    e.line("}")
    e.line("static void peer_invariants_jacobian(const double* p, double t, const double* x, double* H) {")
    pairs = sparse_entries(red["H"], "H", nx)
    unpack(pairs)
    e.line(f"  memset(H, 0, sizeof(double) * {nh * nx});")
    e.assignments(pairs)
    e.line("}")
    return "".join(e.out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, help="number of links of the pendulum chain")
    parser.add_argument("-o", "--output", default="-", help="output C file ('-': stdout)")
    args = parser.parse_args()
    if args.n < 1:
        parser.error("N must be at least 1")

    t0 = time.perf_counter()
    model = chain_model(args.n)
    red = reduce(model)
    text = emit(model, red)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)
    t1 = time.perf_counter()
    print(f"sympy_peer: N={args.n}; symbolic work {t1 - t0:.3f} s; import sympy "
          f"{T_IMPORTED - T_START:.3f} s; sympy {sympy.__version__}; wrote {len(text)} bytes",
          file=sys.stderr)


if __name__ == "__main__":
    main()
