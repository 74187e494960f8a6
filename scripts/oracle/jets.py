"""Symbols for variables and their derivatives, and the total time derivative on them.

A variable `x` and its derivatives are the sympy symbols `x`, `x__d1` (x'), `x__d2` (x''), ...:
an equation of the model is an ordinary sympy expression in these symbols and the time `t`.
"""
import re

import sympy

t = sympy.Symbol("t", real=True)

_DERIVATIVE = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*?)__d(?P<order>[0-9]+)$")


def jet(name, order=0):
    """The symbol of the `order`-th derivative of the variable `name`."""
    return sympy.Symbol(name if order == 0 else f"{name}__d{order}", real=True)


def split_jet(symbol):
    """(name, order) of a jet symbol; order 0 for a plain name."""
    match = _DERIVATIVE.match(symbol.name)
    if match:
        return match.group("name"), int(match.group("order"))
    return symbol.name, 0


def orders_in(expr, names):
    """{name: highest derivative order of that variable in expr} (absent names are left out)."""
    orders = {}
    for symbol in expr.free_symbols:
        name, order = split_jet(symbol)
        if name in names:
            orders[name] = max(orders.get(name, 0), order)
    return orders


def total_derivative(expr, names):
    """d/dt of expr along any trajectory: partial in t plus the chain rule on every jet symbol."""
    result = sympy.diff(expr, t)
    for symbol in expr.free_symbols:
        name, order = split_jet(symbol)
        if name in names:
            result += sympy.diff(expr, symbol) * jet(name, order + 1)
    return result


def jet_values(exact, names, highest):
    """{jet symbol: exact expression in t} for every variable and order 0..highest."""
    values = {}
    for name in names:
        expr = exact[name]
        for order in range(highest + 1):
            values[jet(name, order)] = expr
            expr = sympy.diff(expr, t)
    return values
