"""Hiding a structured DAE's structure without changing its solution set or its index.

- Coordinate change y = psi(w): each structured variable y becomes c*w + sum a*phi(w_j) over
  variables w_j earlier in a random order (triangular, constant nonzero diagonal: invertible
  everywhere, exact inverse by substitution in that order). 'within' keeps every variable's class:
  an algebraic y takes other algebraic w linearly and differential w through any phi; a
  first-order y takes differential w; a second-order y takes second-order w only. 'cross' also
  lets a first-order y take algebraic w (which then appear differentiated).
- Equation mixing: elementary row operations (row_i += a*row_j) among the dynamic equations
  ('dynamic') or among all of them ('all', so constraints get derivatives), and rows scaled by
  constants or by positive state-dependent factors 1 + a*w^2.

The differentiation index is invariant under both (the derivative array is transformed by
invertible maps), which index_analysis.py checks independently on the result.
"""
from dataclasses import dataclass, field

import sympy

from jets import jet, orders_in, total_derivative


@dataclass
class Equation:
    residual: sympy.Expr
    lhs: sympy.Expr = None  # an explicit form lhs = rhs, when the equation is still one
    rhs: sympy.Expr = None
    constraint: bool = False


@dataclass
class Model:
    variables: list  # [(name, exact w(t))] in declaration order
    equations: list
    parameters: dict
    index: int
    description: list = field(default_factory=list)

    def names(self):
        return [name for name, _ in self.variables]

    def exact(self):
        return dict(self.variables)

    def orders(self):
        """{name: highest derivative order in the equations}."""
        orders = {name: 0 for name in self.names()}
        for e in self.equations:
            for name, order in orders_in(e.residual, orders).items():
                orders[name] = max(orders[name], order)
        return orders


def _phi(draw, symbols, linear):
    """A term a*phi(w) of one or two of `symbols`."""
    w = draw.choice(symbols)
    a = draw.coefficient(0.1, 0.5, signed=True)
    if linear:
        return a * w
    v = draw.choice(symbols)
    return draw.choice([a * w, a * w**2, a * sympy.sin(w), a * w * v, a * sympy.atan(w)])


def coordinate_change(draw, dae, mode):
    """{name: psi_y(w)} and {name: exact w(t)} for mode 'identity', 'within' or 'cross'."""
    names = draw.shuffled(dae.names())
    psi, exact_w = {}, {}
    for position, name in enumerate(names):
        order = dae.variable(name).order
        psi[name] = jet(name)
        if mode != "identity" and draw.chance(0.7):
            psi[name] = draw.coefficient(0.5, 2, signed=True) * jet(name)
            earlier = [(n, dae.variable(n).order) for n in names[:position]]
            for _ in range(draw.integer(0, 2)):
                if order == 0:
                    pool = [n for n, o in earlier if o >= 1]
                    linear_pool = [n for n, o in earlier if o == 0]
                elif order == 1:
                    pool = [n for n, o in earlier if o >= 1 or mode == "cross"]
                    linear_pool = []
                else:
                    pool = [n for n, o in earlier if o == 2]
                    linear_pool = []
                if linear_pool and (not pool or draw.chance(0.5)):
                    psi[name] += _phi(draw, [jet(n) for n in linear_pool], linear=True)
                elif pool:
                    psi[name] += _phi(draw, [jet(n) for n in pool], linear=False)
        rest = psi[name] - psi[name].coeff(jet(name)) * jet(name)
        exact_w[name] = (dae.variable(name).exact - rest.xreplace(exact_w_symbols(exact_w))) / \
            psi[name].coeff(jet(name))
    return psi, exact_w


def exact_w_symbols(exact_w):
    return {jet(name): value for name, value in exact_w.items()}


def substitute(residual, psi, names):
    """residual(y, y', y'') with y = psi(w), y' = d/dt psi(w), ..."""
    replacement = {}
    for name, expr in psi.items():
        for order in range(3):
            replacement[jet(name, order)] = expr
            expr = total_derivative(expr, names)
    return residual.xreplace(replacement)


def mix_equations(draw, equations, mode, states):
    """Elementary row operations and row scalings on `equations` (list of Equation) in place."""
    if mode == "none":
        return
    rows = [i for i, e in enumerate(equations) if mode == "all" or not e.constraint]
    if len(rows) >= 2:
        for _ in range(draw.integer(1, min(3, len(rows) - 1))):
            i, j = draw.sample(rows, 2)
            a = draw.coefficient(0.3, 1.5, signed=True)
            equations[i] = Equation(equations[i].residual + a * equations[j].residual,
                                    constraint=equations[i].constraint and equations[j].constraint)
    for i in rows:
        if draw.chance(0.3):
            factor = draw.coefficient(0.5, 2, signed=True)
            if states and draw.chance(0.5):
                factor = 1 + draw.coefficient(0.1, 0.5) * draw.choice(states) ** 2
            equations[i] = Equation(factor * equations[i].residual,
                                    constraint=equations[i].constraint)


def disguise(draw, dae, sourced, coordinates, mixing):
    """The Model of `dae` (with its sourced equations) after a coordinate change and mixing."""
    psi, exact_w = coordinate_change(draw, dae, coordinates)
    names = dae.names()
    equations = []
    for e in sourced:
        residual = substitute(e.residual, psi, names)
        d = e.dynamic
        if d is not None and psi[d.name] == jet(d.name):
            lhs = d.mass * jet(d.name, d.order) + d.cubic * jet(d.name, 1) ** 3
            equations.append(Equation(residual, lhs, lhs - residual))
        else:
            equations.append(Equation(residual, constraint=d is None))
    model = Model([], equations, dict(dae.parameters), dae.index, list(dae.description))
    model.variables = [(name, exact_w[name]) for name in draw.shuffled(names)]
    orders = model.orders()
    states = [jet(n) for n in names if orders[n] >= 1]
    mix_equations(draw, model.equations, mixing, states)
    model.equations = draw.shuffled(model.equations)
    return model
