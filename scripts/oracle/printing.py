"""Printing sympy expressions as .dae text (docs/language.md) and as C/Python text for exact values.

The .dae printer writes `^` for powers (always parenthesising a negative or compound exponent),
`x'`/`x''` or `der(x)`/`der(x, 2)` for the jet symbols of jets.py, exact rationals as `p/q`, and
`exp(1)` for Euler's number. The C printer (sympy's ccode) gives text that C and Python both
evaluate with the names of EXACT_NAMESPACE.
"""
import ast
import math

import sympy
from sympy.printing.precedence import PRECEDENCE
from sympy.printing.str import StrPrinter

from jets import split_jet
from jets import t as _T

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

    def _print_Piecewise(self, expr):
        # (if C then A else B), nested as elseif (docs/language.md, "Conditions"); the last
        # branch's condition must be True.
        pieces = list(expr.args)
        if pieces[-1][1] != sympy.true:
            raise ValueError("a Piecewise without an otherwise branch has no .dae spelling")
        text = f"(if {self._print(pieces[0][1])} then {self._print(pieces[0][0])}"
        for value, condition in pieces[1:-1]:
            text += f" elseif {self._print(condition)} then {self._print(value)}"
        return text + f" else {self._print(pieces[-1][0])})"

    def _print_Relational(self, expr):
        operators = {"<": "<", "<=": "<=", ">": ">", ">=": ">="}
        if expr.rel_op not in operators:
            raise ValueError(f"relation {expr.rel_op} has no .dae spelling here")
        return f"{self._print(expr.lhs)} {operators[expr.rel_op]} {self._print(expr.rhs)}"

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
    "tanh": math.tanh, "asinh": math.asinh, "pow": math.pow, "M_PI": math.pi, "M_E": math.e,
    "fabs": abs,
}


def exact_text(expr):
    """expr as C text (also valid Python with EXACT_NAMESPACE and `t`). A function of t defined
    piecewise (the hybrid kinds of meeting.py) is written `where(t < s, A, B)`: a function of the
    namespace, not C (the header's text is only ever evaluated by Python and parsed by sympy)."""
    if isinstance(expr, sympy.Piecewise):
        pieces = list(expr.args)
        if pieces[-1][1] != sympy.true:
            raise ValueError("a Piecewise exact solution needs an otherwise branch")
        text = exact_text(pieces[-1][0])
        for value, condition in reversed(pieces[:-1]):
            if not (isinstance(condition, sympy.StrictLessThan) and condition.lhs == _T):
                raise ValueError(f"a piece of an exact solution ends at t < s, not {condition}")
            text = f"where(t < {sympy.ccode(condition.rhs, standard='c99')}, " \
                   f"{exact_text(value)}, {text})"
        return text
    if expr.has(sympy.Piecewise):
        raise ValueError("a Piecewise exact solution is written as one Piecewise of t")
    return sympy.ccode(expr, standard="c99")


class _Lazy(ast.NodeTransformer):
    """where(C, A, B) as the conditional expression `A if C else B`, so that the piece not taken
    is not evaluated (a later piece may be undefined before its instant: log of a negative)."""

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "where" and len(node.args) == 3:
            return ast.IfExp(test=node.args[0], body=node.args[1], orelse=node.args[2])
        return node


_COMPILED = {}


def _compiled(text):
    if text not in _COMPILED:
        tree = ast.fix_missing_locations(_Lazy().visit(ast.parse(text, mode="eval")))
        _COMPILED[text] = compile(tree, "<exact>", "eval")
    return _COMPILED[text]


class Near(float):
    """A time within a window of a switching instant, on a chosen side of it: `t < s` for an
    instant s of `instants` (to 1e-12 relative) is decided as at s - 0 (side -1) or s + 0
    (side +1), whatever the time's own value, so that the pieces of a `where(...)` on either side
    of the instant are evaluated at the time itself (their one-sided limits continued)."""

    def __new__(cls, value, instant, side):
        self = float.__new__(cls, value)
        self.instant, self.side = instant, side
        return self

    def _at(self, other):
        return abs(float(other) - self.instant) <= 1e-12 * (1 + abs(self.instant))

    def __lt__(self, other):
        return self.side < 0 if self._at(other) else float(self) < other

    def __ge__(self, other):
        return not self.__lt__(other)

    def __gt__(self, other):
        return self.side > 0 if self._at(other) else float(self) > other

    def __le__(self, other):
        return not self.__gt__(other)


def evaluate_exact(text, time):
    """The value of exact_text output at t = time (a float, or a Near for a one-sided value)."""
    return eval(_compiled(text), {"__builtins__": {}},  # noqa: S307
                dict(EXACT_NAMESPACE, t=time))


def number_text(value):
    """A float as the shortest .dae number that reads back to the same double."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text
