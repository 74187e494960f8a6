"""The differentiation index of a model, computed from its equations alone (derivative array).

For F(w, w', w'', t) = 0 let m_v = max(1, highest order of v in F). The derivative array of order
k stacks F, dF/dt, ..., d^kF/dt^k; its Jacobian with respect to the derivatives of order >= m_v
(the orders below m_v are the state, given) is J_k. The index is the smallest k for which J_k is
"1-full" in the columns of order m_v: they are determined uniquely (Campbell and Gear, 1995). For
the first-order form daec builds (velocity states for x''), this is its differentiation index.

The Jacobian entries are evaluated along the exact solution: with p_{v,o} = dF/d(v^(o)),
    d(F^(j))/d(v^(l)) = sum_o binom(j, l - o) * p_{v,o}^(j - l + o)
and the time derivatives of p along the exact solution are ordinary derivatives of a function of t,
taken numerically at 40 digits (mpmath).

The null space of the full derivative-array Jacobian, projected onto the state coordinates, is the
tangent space of the manifold of consistent initial values (StartManifold): it tells how many start
conditions the model takes and whether a set of them determines the start.
"""
from math import comb

import mpmath
import numpy as np
import sympy

from jets import jet, split_jet, t


class RankUndecided(Exception):
    """The derivative array gives no clear answer (rank decisions too close to call)."""


class DerivativeArray:
    """Derivatives of the equations' partial derivatives along the exact solution at time."""

    def __init__(self, residuals, exact, orders, time, highest_k=4):
        mpmath.mp.dps = 40
        self.names = list(exact)
        self.orders = orders
        self.m = {n: max(1, orders[n]) for n in self.names}
        self.count = len(residuals)
        self.highest_k = highest_k
        jet_value = {}
        for name in self.names:
            expr = exact[name]
            for order in range(orders[name] + 1):
                jet_value[jet(name, order)] = sympy.lambdify(t, expr, "mpmath")
                expr = sympy.diff(expr, t)
        self.partial = []  # per equation: {(name, order): [d^n/dt^n p at time, n = 0..highest_k]}
        for residual in residuals:
            entries = {}
            for symbol in residual.free_symbols:
                if symbol == t:
                    continue
                name, order = split_jet(symbol)
                p = sympy.diff(residual, symbol)
                args = sorted(p.free_symbols - {t}, key=lambda s: s.name)
                f = sympy.lambdify([t] + args, p, "mpmath")
                values = [jet_value[a] for a in args]

                def along(tau, f=f, values=values):
                    return f(tau, *[v(tau) for v in values])

                entries[(name, order)] = [float(d) for d in
                                          mpmath.diffs(along, mpmath.mpf(time), highest_k)]
            self.partial.append(entries)

    def columns(self, k, start):
        """[(name, order)] of the array of order k, from order start(name) upwards (at least up
        to m_name, so that a derivative that no equation holds is an unknown left free)."""
        return [(n, l) for n in self.names
                for l in range(start(n), max(self.orders[n] + k, self.m[n]) + 1)]

    def jacobian(self, k, columns):
        position = {c: i for i, c in enumerate(columns)}
        J = np.zeros((self.count * (k + 1), len(columns)))
        for i, entries in enumerate(self.partial):
            for (name, order), derivatives in entries.items():
                for j in range(k + 1):
                    for shift in range(j + 1):  # shift = l - order
                        column = position.get((name, order + shift))
                        if column is not None:
                            J[i * (k + 1) + j, column] += comb(j, shift) * derivatives[j - shift]
        return J


def _rank(matrix):
    """Numerical rank, refusing a decision when the singular values have no clear gap."""
    if matrix.size == 0:
        return 0
    sigma = np.linalg.svd(matrix, compute_uv=False)
    if sigma[0] == 0:
        return 0
    relative = sigma / sigma[0]
    rank = int(np.sum(relative > 1e-8))
    if rank < len(sigma) and relative[rank] > 1e-11 and relative[rank - 1] < 1e-5:
        raise RankUndecided(f"no clear rank gap: {relative[rank - 1]:.2e} vs {relative[rank]:.2e}")
    return rank


def differentiation_index(array):
    """The smallest k whose derivative array is 1-full in the state-derivative columns."""
    for k in range(array.highest_k + 1):
        columns = array.columns(k, lambda n: array.m[n])
        J = array.jacobian(k, columns)
        leading = [i for i, (n, l) in enumerate(columns) if l == array.m[n]]
        rest = [i for i in range(len(columns)) if i not in leading]
        if _rank(J) - _rank(J[:, rest]) == len(leading):
            return k
    raise RankUndecided(f"index above {array.highest_k}")


class StartManifold:
    """The tangent space at the exact solution of the manifold of consistent initial values, from
    the null space of the derivative array of order `index` (every column from order 0).

    Its dimension d is that of the null space projected onto the state coordinates (the columns
    (name, order) with order < m_name: positions, velocities of second-order variables, and the
    algebraic variables' values, which the others determine). `tangent` holds d null vectors
    whose state parts are orthonormal; `row` gives the derivative of a linear start condition
    along them (a d-vector), so that d conditions determine the start locally exactly when their
    rows are independent."""

    def __init__(self, array, index):
        columns = array.columns(index, lambda n: 0)
        J = array.jacobian(index, columns)
        _, sigma, vt = np.linalg.svd(J)
        rank = int(np.sum(sigma > 1e-8 * sigma[0])) if sigma.size else 0
        null = vt[rank:].T
        state_rows = [i for i, (n, l) in enumerate(columns) if l < array.m[n]]
        u, s, wt = np.linalg.svd(null[state_rows], full_matrices=True)
        d = int(np.sum(s > 1e-8 * max(1.0, s[0] if s.size else 1.0)))
        self.d = d
        self.columns = columns
        self.position = {c: i for i, c in enumerate(columns)}
        self.state_columns = [columns[i] for i in state_rows]
        self.tangent = null @ wt[:d].T / s[:d] if d else np.zeros((len(columns), 0))
        # Null directions that leave the state alone: free higher derivatives, which a condition
        # must not involve (it would not be a function of the state).
        self.hidden = null @ wt[d:].T

    def row(self, gradient):
        """The condition sum(c * column) along the tangent basis (a d-vector), or None if it
        involves a column of the array that the state does not determine."""
        g = np.zeros(len(self.columns))
        for column, coefficient in gradient.items():
            if column not in self.position:
                return None
            g[self.position[column]] = float(coefficient)
        if self.hidden.size and np.linalg.norm(g @ self.hidden) > 1e-6 * np.linalg.norm(g):
            return None
        return g @ self.tangent

    def choose(self, candidates):
        """Up to d of `candidates` (columns, in order of preference by groups: a list of lists)
        whose values determine the consistent start locally, chosen greedily for the best
        conditioning (pivoted Gram-Schmidt on their tangent rows), a later group only where the
        earlier ones leave freedom."""
        chosen, basis = [], []
        for group in candidates:
            rows = {c: self.row({c: 1}) for c in group}
            rows = {c: r for c, r in rows.items() if r is not None}
            for c in rows:
                for b in basis:
                    rows[c] = rows[c] - (rows[c] @ b) * b
            while len(chosen) < self.d and rows:
                best = max(rows, key=lambda c: np.linalg.norm(rows[c]))
                pivot = rows.pop(best)
                norm = np.linalg.norm(pivot)
                if norm < 1e-3:
                    break
                chosen.append(best)
                pivot = pivot / norm
                basis.append(pivot)
                for c in rows:  # project the chosen direction out of the others
                    rows[c] = rows[c] - (rows[c] @ pivot) * pivot
        return chosen

    def smallest_singular_value(self, gradients):
        """How independent the conditions are: the smallest singular value of their tangent rows,
        each scaled to length 1 (0 if they are not d, or one is not a function of the state or
        hardly moves along the manifold: a row shorter than 1e-3, as `choose` rejects)."""
        rows = [self.row(g) for g in gradients]
        if len(rows) != self.d or any(r is None or np.linalg.norm(r) < 1e-3 for r in rows):
            return 0.0
        if not rows:
            return 1.0
        R = np.array([r / np.linalg.norm(r) for r in rows])
        return float(np.linalg.svd(R, compute_uv=False)[-1])
