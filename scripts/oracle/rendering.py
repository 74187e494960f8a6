"""Writing one equation of a Model as `.dae` text, in one of the ways a person would write it.

An equation still in explicit form (`m*u' = rhs`) is written so, or mirrored (`rhs = m*u'`: a
derivative on the right-hand side). Any other residual is split into the terms holding
derivatives and the rest (`x' + 2*y' = ...`), or the terms holding variables and the functions
of t for a constraint (`x^2 + y^2 = r(t)`), sometimes as `... = 0` or `0 = ...`; a residual
scaled by a state-dependent factor keeps the factor on both sides.
"""
import sympy

from jets import split_jet, t
from printing import dae_text


def _has_derivative(term, parameters):
    return any(split_jet(s)[1] >= 1 for s in term.free_symbols - parameters if s != t)


def _has_variable(term, parameters):
    return any(s != t for s in term.free_symbols - parameters)


def _split(residual, parameters):
    """(factor, left, right) with residual = factor*(left - right)."""
    factor, core = sympy.Integer(1), residual
    if residual.is_Mul:
        sums = [a for a in residual.args if a.is_Add]
        if sums:
            core = max(sums, key=sympy.count_ops)
            factor = sympy.Mul(*[a for a in residual.args if a is not core])
    terms = sympy.Add.make_args(core)
    test = _has_derivative if any(_has_derivative(u, parameters) for u in terms) else _has_variable
    left = sympy.Add(*[u for u in terms if test(u, parameters)])
    right = -sympy.Add(*[u for u in terms if not test(u, parameters)])
    return factor, left, right


def equation_text(equation, draw, style, parameters):
    """(lhs text, rhs text) of `equation` (a disguise.Equation); style 'prime', 'der' or
    'mixed'; parameters: the set of parameter symbols."""
    if style == "mixed":
        style = draw.choice(["prime", "der"])

    def text(expr):
        return dae_text(expr, style)

    if equation.lhs is not None:
        sides = (text(equation.lhs), text(equation.rhs))
        return sides if draw.chance(0.75) else sides[::-1]
    factor, left, right = _split(equation.residual, parameters)
    shape = draw.rng.random()
    if shape < 0.1:
        return text(equation.residual), "0"
    if shape < 0.2:
        return "0", text(-equation.residual)
    if factor != 1:
        left, right = factor * left, factor * right
    sides = (text(left), text(right))
    return sides if shape < 0.8 else sides[::-1]
