"""Printing sympy expressions as .dae text (docs/language.md) and as C/Python text for exact values.

The .dae printer writes `^` for powers (always parenthesising a negative or compound exponent),
`x'`/`x''` or `der(x)`/`der(x, 2)` for the jet symbols of jets.py, exact rationals as `p/q`, and
`exp(1)` for Euler's number. The C printer (sympy's ccode) gives text that C and Python both
evaluate with the names of EXACT_NAMESPACE.
"""
import math

import sympy
from sympy.printing.precedence import PRECEDENCE
from sympy.printing.str import StrPrinter

from jets import split_jet

DAE_FUNCTIONS = {"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp",
                 "log", "sqrt"}


class DaePrinter(StrPrinter):
    """sympy -> .dae expression text. `derivative_style` is 'prime' (x', x'') or 'der'."""

    def __init__(self, derivative_style="prime"):
        super().__init__()
        self.derivative_style = derivative_style

    def _print_Symbol(self, expr):
        name, order = split_jet(expr)
        if order == 0:
            return name
        if self.derivative_style == "der":
            return f"der({name})" if order == 1 else f"der({name}, {order})"
        return name + "'" * order

    def _print_Pow(self, expr, rational=False):
        base, exponent = expr.as_base_exp()
        if exponent == sympy.Rational(1, 2):
            return f"sqrt({self._print(base)})"
        if exponent.is_negative:
            if exponent == -1:
                return f"1/{self.parenthesize(base, PRECEDENCE['Mul'], strict=False)}"
            return f"1/{self._print(sympy.Pow(base, -exponent, evaluate=False))}"
        base_text = self.parenthesize(base, PRECEDENCE["Pow"], strict=False)
        if exponent.is_Integer:
            return f"{base_text}^{exponent}"
        return f"{base_text}^({self._print(exponent)})"

    def _print_Exp1(self, expr):
        return "exp(1)"

    def _print_Pi(self, expr):
        return "pi"

    def _print_Rational(self, expr):
        return f"{expr.p}/{expr.q}" if expr.q != 1 else str(expr.p)

    def _print_Float(self, expr):
        return repr(float(expr))

    def _print_Function(self, expr):
        name = expr.func.__name__
        if name not in DAE_FUNCTIONS:
            raise ValueError(f"function {name} has no .dae spelling")
        return f"{name}({', '.join(self._print(a) for a in expr.args)})"

    def parenthesize(self, item, level, strict=False):
        # A negative number or a product with a negative coefficient as an operand of * or ^ is
        # parenthesised: .dae's unary minus binds looser than ^ (as in Python).
        negative = item.is_Number and item.is_negative
        if negative or (item.is_Mul and item.could_extract_minus_sign()):
            if level >= PRECEDENCE["Mul"]:
                return f"({self._print(item)})"
        return super().parenthesize(item, level, strict)


def dae_text(expr, derivative_style="prime"):
    """expr as .dae text."""
    return DaePrinter(derivative_style).doprint(expr)


EXACT_NAMESPACE = {
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "exp": math.exp, "log": math.log,
    "sqrt": math.sqrt, "atan": math.atan, "sinh": math.sinh, "cosh": math.cosh,
    "tanh": math.tanh, "pow": math.pow, "M_PI": math.pi, "M_E": math.e, "fabs": abs,
}


def exact_text(expr):
    """expr as C text (also valid Python with EXACT_NAMESPACE and `t`)."""
    return sympy.ccode(expr, standard="c99")


def evaluate_exact(text, time):
    """The value of exact_text output at t = time."""
    return eval(text, {"__builtins__": {}}, dict(EXACT_NAMESPACE, t=time))  # noqa: S307


def number_text(value):
    """A float as the shortest .dae number that reads back to the same double."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text
