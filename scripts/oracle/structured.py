"""Structured DAEs whose index is known by construction, with chosen exact trajectories.

A Structured DAE is Hessenberg-like: every differential variable y of order m (1 or 2) has one
dynamic equation `mass*y^(m) [+ cubic*y'^3] = rhs`, and constraints `0 = g - r(t)`. The blocks:

- ode: x' = -k x + (skew coupling) + (bounded nonlinear terms); q'' = -k q - c q' + ...  (index 0)
- index1: x' = f(x, z), 0 = g(x, z), g_z lower triangular with a positive diagonal (index 1)
- index2: x' = f(x, z), 0 = C x + eps*phi(x) - r(t), f_z = C^T + noise (index 2)
- mechanical: M q'' = -K q - C q' + ... - G(q)^T phi(lambda), 0 = g(q) - r(t) (index 3),
  written with second derivatives or as q' = u, M u' = ...
- chain: x1 + c*sin(x1) = r(t), x_i' = x_{i+1} + ... (index k of the chain)

The exact trajectories are chosen first; `with_sources` then adds the functions of t (source terms
of the dynamics, right-hand sides r(t) of the constraints) that make them satisfy every equation.
"""
import signal
from dataclasses import dataclass, field

import sympy

from jets import jet, t
from time_limit import TimeLimitExceeded, within


@dataclass
class Variable:
    name: str
    order: int  # 0 algebraic, 1 or 2: highest derivative in the structured equations
    exact: sympy.Expr
    block: int = 0


@dataclass
class Dynamic:
    """mass*name^(order) + cubic*name'^3 = rhs + source."""
    name: str
    order: int
    rhs: sympy.Expr
    mass: sympy.Expr = sympy.Integer(1)
    cubic: sympy.Expr = sympy.Integer(0)
    label: str = ""


@dataclass
class Constraint:
    """0 = expr - r(t). `simplify`: r(t) may collapse to a constant (a pendulum's rod)."""
    expr: sympy.Expr
    label: str = ""
    simplify: bool = False


@dataclass
class Structured:
    variables: list = field(default_factory=list)
    dynamics: list = field(default_factory=list)
    constraints: list = field(default_factory=list)
    parameters: dict = field(default_factory=dict)  # Symbol -> exact value, in declaration order
    index: int = 0
    description: list = field(default_factory=list)

    def names(self):
        return [v.name for v in self.variables]

    def variable(self, name):
        return next(v for v in self.variables if v.name == name)

    def exact(self):
        return {v.name: v.exact for v in self.variables}

    def state_symbols(self, block=None):
        """Symbols of the first-order state: each differential variable and, for order 2, its
        velocity."""
        symbols = []
        for v in self.variables:
            if block is None or v.block == block:
                symbols += [jet(v.name, o) for o in range(v.order)]
        return symbols


class Namer:
    """Unique names: x1, x2, ... per prefix."""

    def __init__(self):
        self.counts = {}

    def __call__(self, prefix):
        self.counts[prefix] = self.counts.get(prefix, 0) + 1
        return f"{prefix}{self.counts[prefix]}"


class Builder:
    """Adds blocks to one Structured DAE."""

    def __init__(self, draw):
        self.draw = draw
        self.dae = Structured()
        self.names = Namer()
        self.blocks = 0

    def parameter(self, prefix, value):
        """A named parameter with `value` (sometimes), else the number itself."""
        if not self.draw.chance(0.4):
            return value
        symbol = sympy.Symbol(self.names(prefix), real=True)
        self.dae.parameters[symbol] = value
        return symbol

    def new_block(self):
        self.blocks += 1
        return self.blocks

    def add_variable(self, prefix, order, block, exact=None):
        name = self.names(prefix)
        exact = self.draw.trajectory() if exact is None else exact
        self.dae.variables.append(Variable(name, order, exact, block))
        return name

    def coupling(self, upstream, scale=0.3):
        """A bounded term in the states of earlier blocks (one-way coupling), or 0."""
        if not upstream or not self.draw.chance(0.7):
            return 0
        return self.draw.bounded_term(upstream, scale)

    def upstream_states(self, block):
        return [s for v in self.dae.variables if v.block < block and v.order > 0
                for s in [jet(v.name, o) for o in range(v.order)]]


def ode_block(b, size, second_order):
    """size variables: first-order states, and some damped second-order ones if second_order."""
    block = b.new_block()
    upstream = b.upstream_states(block)
    n2 = b.draw.integer(1, max(1, size // 2)) if second_order else 0
    xs = [b.add_variable("x", 1, block) for _ in range(size - n2)]
    qs = [b.add_variable("q", 2, block) for _ in range(n2)]
    states = [jet(x) for x in xs] + [jet(q, o) for q in qs for o in range(2)]
    rhs = {x: -b.parameter("k", b.draw.coefficient(0.8, 3)) * jet(x) for x in xs}
    for x, y in zip(xs[::2], xs[1::2]):  # skew-symmetric coupling keeps the decay rates
        s = b.draw.coefficient(0.2, 1.5, signed=True)
        rhs[x] += s * jet(y)
        rhs[y] -= s * jet(x)
    for q in qs:
        stiffness = b.parameter("k", b.draw.coefficient(0.5, 4))
        damping = b.parameter("c", b.draw.coefficient(1.5, 3))
        rhs[q] = -stiffness * jet(q) - damping * jet(q, 1)
    for name in xs + qs:
        rhs[name] += b.draw.bounded_term(states, 0.25) + b.coupling(upstream)
        b.dae.dynamics.append(Dynamic(name, 2 if name in qs else 1, rhs[name]))
    b.dae.description.append(f"ODE block ({len(xs)} first-order, {len(qs)} second-order)")
    b.dae.index = max(b.dae.index, 0)


def index1_block(b, nx, nz, linearity):
    """x' = f(x, z), 0 = g(x, z); linearity 'linear', 'nonlinear' or 'mixed' (per z)."""
    block = b.new_block()
    upstream = b.upstream_states(block)
    xs = [b.add_variable("x", 1, block) for _ in range(nx)]
    zs = [b.add_variable("z", 0, block) for _ in range(nz)]
    nonlinear = {z: linearity == "nonlinear" or (linearity == "mixed" and i % 2 == 1)
                 for i, z in enumerate(zs)}
    x_syms = [jet(x) for x in xs]
    for i, z in enumerate(zs):
        a = b.draw.coefficient(1, 2.5)
        g = a * jet(z)
        if nonlinear[z]:
            c = b.draw.coefficient(0.1, 0.4)
            g += b.draw.choice([c * jet(z) ** 3, a * c * sympy.sin(jet(z))])
        for j in range(i):
            if b.draw.chance(0.5):
                coefficient = b.draw.coefficient(0.2, 0.8, signed=True)
                g += coefficient * (jet(zs[j]) ** 2 / 2 if nonlinear[zs[j]] else jet(zs[j]))
        g += b.draw.coefficient(0.3, 1.2, signed=True) * jet(b.draw.choice(xs))
        g += b.draw.bounded_term(x_syms, 0.5) + b.coupling(upstream)
        b.dae.constraints.append(Constraint(g))
    for x in xs:
        f = -b.parameter("k", b.draw.coefficient(1.5, 3.5)) * jet(x)
        for z in b.draw.sample(zs, b.draw.integer(1, nz)):
            coefficient = b.draw.coefficient(0.2, 0.7, signed=True)
            bent = nonlinear[z] and b.draw.chance(0.5)
            f += coefficient * (sympy.sin(jet(z)) if bent else jet(z))
        f += b.draw.bounded_term(x_syms, 0.2) + b.coupling(upstream)
        b.dae.dynamics.append(Dynamic(x, 1, f))
    kinds = {True: "nonlinear", False: "linear"}
    b.dae.description.append(
        f"index-1 block ({nx} states, algebraic " +
        ", ".join(f"{z} {kinds[nonlinear[z]]}" for z in zs) + ")")
    b.dae.index = max(b.dae.index, 1)


def index2_block(b, nx, m, nonlinear_z, extra):
    """x' = f(x, z), 0 = C x + eps*phi(x) - r(t) (m constraints, m multipliers z); `extra`: an
    added index-1 algebraic variable w ('linear', 'nonlinear' or None) feeding f."""
    block = b.new_block()
    upstream = b.upstream_states(block)
    xs = [b.add_variable("x", 1, block) for _ in range(nx)]
    zs = [b.add_variable("z", 0, block) for _ in range(m)]
    x_syms = [jet(x) for x in xs]
    pivots = b.draw.sample(range(nx), m)
    C = sympy.zeros(m, nx)
    for j, p in enumerate(pivots):
        C[j, p] = b.draw.coefficient(0.8, 1.5, signed=True)
        for other in b.draw.sample([i for i in range(nx) if i not in pivots], min(1, nx - m)):
            C[j, other] = b.draw.coefficient(0.2, 0.6, signed=True)
    for j in range(m):
        g = sum(C[j, i] * x_syms[i] for i in range(nx))
        if b.draw.chance(0.6):
            g += b.draw.bounded_term(x_syms, 0.3)
        b.dae.constraints.append(Constraint(g))
    phi = {z: jet(z) + b.draw.coefficient(0.1, 0.3) * jet(z) ** 3 if nonlinear_z else jet(z)
           for z in zs}
    w = None
    if extra:
        w = b.add_variable("w", 0, block)
        h = b.draw.coefficient(1, 2) * jet(w) - b.draw.coefficient(0.3, 1, signed=True) * jet(
            b.draw.choice(xs)) + b.draw.bounded_term(x_syms, 0.4)
        if extra == "nonlinear":
            h += b.draw.coefficient(0.1, 0.3) * jet(w) ** 3
        b.dae.constraints.append(Constraint(h))
    for i, x in enumerate(xs):
        f = -b.parameter("k", b.draw.coefficient(1.5, 3)) * jet(x)
        for j, z in enumerate(zs):
            weight = C[j, i] + (b.draw.coefficient(0.05, 0.2, signed=True) if C[j, i] else 0)
            f -= weight * phi[z]
        if w is not None and b.draw.chance(0.5):
            f += b.draw.coefficient(0.2, 0.6, signed=True) * jet(w)
        f += b.draw.bounded_term(x_syms, 0.2) + b.coupling(upstream)
        b.dae.dynamics.append(Dynamic(x, 1, f))
    text = f"index-2 block ({nx} states, {m} constraints, multipliers " + (
        "nonlinear" if nonlinear_z else "linear")
    b.dae.description.append(text + (f", index-1 variable {w} {extra})" if w else ")"))
    b.dae.index = max(b.dae.index, 2)


def mechanical_block(b, nq, m, first_order, nonlinear_lambda):
    """M q'' = -K q - C q' + small - G^T phi(lambda), 0 = g(q) - r(t); index 3."""
    block = b.new_block()
    upstream = b.upstream_states(block)
    names = [b.names("q") for _ in range(nq)]
    exact = {q: b.draw.trajectory() for q in names}
    forms = []
    for j in range(m):
        form = b.draw.choice(["rod", "linear", "bilinear", "sine"])
        a, c = b.draw.sample(names, 2)
        if form == "rod" and j == 0 and b.draw.chance(0.5):  # a true pendulum: r(t) constant
            angle, radius = b.draw.trajectory(), b.draw.coefficient(0.8, 1.5)
            exact[a], exact[c] = radius * sympy.cos(angle), radius * sympy.sin(angle)
        forms.append((form, a, c))
    for q in names:
        b.dae.variables.append(Variable(q, 1 if first_order else 2, exact[q], block))
    velocity = {}
    for q in names:
        if first_order:
            u = b.add_variable("u", 1, block, sympy.diff(exact[q], t))
            b.dae.dynamics.append(Dynamic(q, 1, jet(u)))
            velocity[q] = jet(u)
        else:
            velocity[q] = jet(q, 1)
    q_syms = [jet(q) for q in names]
    lambdas = [b.add_variable("lam", 0, block) for _ in range(m)]
    constraints = []
    for form, a, c in forms:
        qa, qc = jet(a), jet(c)
        k1 = b.draw.coefficient(0.6, 1.5, signed=True)
        k2 = b.draw.coefficient(0.2, 0.6, signed=True)
        g = {"rod": qa**2 + qc**2,
             "linear": k1 * qa + k2 * qc,
             "bilinear": k1 * qa + k2 * qa * qc,
             "sine": k1 * qa + k2 * sympy.sin(qc)}[form]
        constraints.append(g)
        b.dae.constraints.append(Constraint(g, simplify=form == "rod"))
    phi = [jet(lam) + b.draw.coefficient(0.1, 0.3) * jet(lam) ** 3 if nonlinear_lambda
           else jet(lam) for lam in lambdas]
    states = q_syms + list(velocity.values())
    for i, q in enumerate(names):
        force = -b.parameter("k", b.draw.coefficient(0.5, 3)) * q_syms[i]
        force -= b.parameter("c", b.draw.coefficient(1.5, 3)) * velocity[q]
        force += b.draw.bounded_term(states, 0.2) + b.coupling(upstream)
        force -= sum(sympy.diff(g, q_syms[i]) * p for g, p in zip(constraints, phi))
        mass = b.parameter("m", b.draw.coefficient(0.5, 2)) if b.draw.chance(0.5) else 1
        target = velocity[q].name.split("__")[0] if first_order else q
        b.dae.dynamics.append(Dynamic(target, 1 if first_order else 2, force, mass))
    b.dae.description.append(
        f"mechanical index-3 block ({nq} positions, constraints "
        + ", ".join(f[0] for f in forms)
        + (", first-order form" if first_order else ", second derivatives")
        + (", multipliers nonlinear)" if nonlinear_lambda else ", multipliers linear)"))
    b.dae.index = max(b.dae.index, 3)


def chain_block(b, k):
    """x1 + c*sin(x1) = r(t), x_i' = x_{i+1} + small(x_1..x_i): index k."""
    block = b.new_block()
    xs = [b.add_variable("y", 1 if i < k - 1 else 0, block) for i in range(k)]
    b.dae.constraints.append(
        Constraint(jet(xs[0]) + b.draw.coefficient(0.1, 0.5) * sympy.sin(jet(xs[0]))))
    for i in range(k - 1):
        rhs = jet(xs[i + 1]) + b.draw.bounded_term([jet(x) for x in xs[: i + 1]], 0.3)
        b.dae.dynamics.append(Dynamic(xs[i], 1, rhs))
    b.dae.description.append(f"index-{k} chain block")
    b.dae.index = max(b.dae.index, k)


# CPU seconds trigsimp may spend on one rod's r(t) before r is left as it is. A pendulum's
# r = R^2 (cos^2 + sin^2) of a nested angle took 13 s (seed 48800003, on a loaded machine); a
# sum of squares of exp and sin terms, which has nothing to collapse, ran for over ten minutes in
# sympy's factorization (seeds 48700171, 48800080). Unsimplified, r is as exact, only longer.
TRIGSIMP_CPU_LIMIT = 30


def simplified(r):
    """sympy.trigsimp(r), or r itself where that takes over TRIGSIMP_CPU_LIMIT CPU seconds
    (the profiling timer counts this process's CPU time, so a loaded machine draws the same)."""
    try:
        return within(TRIGSIMP_CPU_LIMIT, lambda: sympy.trigsimp(r), signal.ITIMER_PROF)
    except TimeLimitExceeded:
        return r


@dataclass
class SourcedEquation:
    residual: sympy.Expr  # vanishes on the exact trajectories
    source: sympy.Expr  # the function of t that made it vanish (added to rhs, or r(t))
    dynamic: Dynamic = None  # for a dynamic equation


def with_sources(dae):
    """The structured equations as residuals that vanish on the exact trajectories, dynamics
    first. Parameters keep their symbols."""
    values = {}
    for v in dae.variables:
        expr = v.exact
        for order in range(4):
            values[jet(v.name, order)] = expr
            expr = sympy.diff(expr, t)
    values.update(dae.parameters)
    equations = []
    for d in dae.dynamics:
        lhs = d.mass * jet(d.name, d.order) + d.cubic * jet(d.name, 1) ** 3
        source = (lhs - d.rhs).xreplace(values)
        equations.append(SourcedEquation(lhs - d.rhs - source, source, d))
    for c in dae.constraints:
        r = c.expr.xreplace(values)
        if c.simplify:
            r = simplified(r)
        equations.append(SourcedEquation(c.expr - r, r))
    return equations
