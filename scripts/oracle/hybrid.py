"""Models whose features meet: the representation of the kinds of meeting.py, their .dae text and
the verification of their exact solutions.

A `Hybrid` holds everything in sympy: parameters as symbols (a dependent one bound to earlier
ones), equations in the jet symbols of jets.py (an `if` is a Piecewise whose conditions compare
variables), `when` clauses with their `reinit`s, initial equations, outputs, and the exact
solution of every variable and output as a function of t and of the parameter symbols, a
Piecewise in t (`t < s1`, `t < s2`, ...) where it jumps or kinks at the instants s_k. The exact
sensitivities are the derivatives of that function with respect to the parameters.

`verify` reads the written file back and checks it independently of how the solution was built:
- every equation vanishes (at 40 digits) on every piece of the exact solution, at points inside
  each piece, and so does every output's expression against the output's exact solution;
- the fixed and written starts and the initial equations hold on it at t0;
- every `when` clause fires exactly at its instants: its condition goes from false to true along
  the exact solution there and nowhere else (its switching function vanishes at the instant from
  the left), the target of each `reinit` takes the value of its expression at the left limits,
  and every differential variable (and velocity of an `x''`) not reset is continuous there;
- every `if` condition keeps its value inside each piece: the solution switches branches only at
  the listed instants;
- the derivative array (index_analysis.py) gives the model's index on the first piece, and the
  start conditions (fixed and written starts, initial equations) determine the consistent start
  (d independent conditions on the start manifold);
- all of this again with the parameters moved (twice, by up to 2 %), so that the exact solution
  is right as a function of the parameters, which the exact sensitivities need;
- an alternative solution (where the start conditions admit two) satisfies all of it too.
"""
import random
from dataclasses import dataclass, field

import mpmath
import sympy

import index_analysis
import model_file
from jets import jet, split_jet, t
from printing import dae_text, evaluate_exact, exact_text, number_text


class HybridError(Exception):
    """The generator contradicts itself (a bug in the generator, not in daec)."""


class Rejected(Exception):
    """A draw that gives no usable model (its start conditions hardly determine the start, a
    switch grazes, ...): another is drawn from the same seed."""


@dataclass
class Variable:
    name: str
    order: int  # highest derivative in the equations: 0 algebraic, 1, 2
    start: str = "none"  # fixed, written, guess (a start that may move), none (no start)
    guess: object = None  # the guess's value (a number) for start == "guess"


@dataclass
class Hybrid:
    t0: object = 0
    t1: object = 1
    index: int = 1
    parameters: list = field(default_factory=list)  # [(Symbol, value expr)] in order
    variables: list = field(default_factory=list)  # [Variable]
    equations: list = field(default_factory=list)  # [(lhs, rhs)]
    whens: list = field(default_factory=list)  # [(relation, [(name, order, value expr)])]
    initial: list = field(default_factory=list)  # [(lhs, rhs)]
    outputs: list = field(default_factory=list)  # [(name, expr)]
    exact: dict = field(default_factory=dict)  # name (variables, outputs) -> expr in t, params
    alternative: dict = field(default_factory=dict)  # name -> expr (a second exact solution)
    instants: list = field(default_factory=list)  # [expr in params]: jumps and kinks
    firings: set = field(default_factory=set)  # {(instant number, clause number)}
    sensitivities: list = field(default_factory=list)  # parameter names
    sets: list = field(default_factory=list)  # simulator arguments (velocity guesses)
    perturbed: list = field(default_factory=list)
    description: list = field(default_factory=list)
    names_taken: set = field(default_factory=set)

    # -- building ---------------------------------------------------------------------------
    def name(self, base):
        """A fresh name: base, or base2, base3, ..."""
        name, k = base, 1
        while name in self.names_taken:
            k += 1
            name = f"{base}{k}"
        self.names_taken.add(name)
        return name

    def parameter(self, base, value):
        symbol = sympy.Symbol(self.name(base), real=True)
        self.parameters.append((symbol, sympy.sympify(value)))
        return symbol

    def variable(self, base, order, start="none", guess=None):
        v = Variable(self.name(base), order, start, guess)
        self.variables.append(v)
        return v.name

    def values(self, moved=None, digits=None):
        """{parameter symbol: value} with the bindings followed; `moved` replaces the values of
        independent parameters; `digits`: as Floats of that precision (an exact solution with
        rational parameters substituted can grow huge integers, as (a/b)^(c/d) does)."""
        values = {}
        for symbol, value in self.parameters:
            if moved and symbol in moved:
                values[symbol] = moved[symbol]
            else:
                values[symbol] = value.xreplace(values)
        if digits:
            values = {s: sympy.Float(sympy.N(v, digits), digits) for s, v in values.items()}
        return values

    def independent(self):
        return [s for s, v in self.parameters if not (v.free_symbols & self.symbols())]

    def symbols(self):
        return {s for s, _ in self.parameters}

    def bound(self, expr):
        """expr with every dependent parameter replaced by its binding (so that a derivative with
        respect to an independent parameter goes through the bindings, as spec 4.2 asks)."""
        bindings = {s: v for s, v in self.parameters if v.free_symbols & self.symbols()}
        for _ in range(len(bindings) + 1):
            expr = expr.xreplace(bindings)
        return expr

    def instant_values(self, values=None):
        values = values or self.values()
        return [sympy.N(s.xreplace(values), 50) for s in self.instants]

    # -- writing ----------------------------------------------------------------------------
    def file(self, name, kind, seed, style="prime"):
        """The model_file.ModelFile of this model."""
        values = self.values(digits=60)
        fixed = [v.name for v in self.variables if v.start == "fixed"]
        written = [v.name for v in self.variables if v.start == "written"]

        def text(expr):
            return dae_text(expr, style)

        variables = []
        for v in self.variables:
            if v.start in ("fixed", "written"):
                start = self.start_expression(v.name)
                start = text(start) if start.free_symbols else number_text(sympy.N(start, 30))
                variables.append((v.name, start, v.start == "fixed"))
            elif v.start == "guess":
                variables.append((v.name, float(v.guess), False))
            else:
                variables.append((v.name, None, False))
        whens = []
        for relation, reinits in self.whens:
            whens.append((text(relation), [(name + "'" * order, text(value))
                                           for name, order, value in reinits]))
        instants = self.instant_values(values)
        exact = {n: exact_text(numeric(e.xreplace(values))) for n, e in self.exact.items()}
        sensitivity = {}
        for p in self.sensitivities:
            symbol = next(s for s, _ in self.parameters if s.name == p)
            for n, e in self.exact.items():
                derivative = sympy.diff(self.bound(e), symbol).xreplace(values)
                sensitivity[f"d({n})/d({p})"] = exact_text(numeric(derivative))
        return model_file.ModelFile(
            name, kind, str(seed), "; ".join(self.description), self.index,
            float(self.t0), float(self.t1),
            simulate=" ".join([f"--t-start {float(self.t0)!r} --t-end {float(self.t1)!r}"] +
                              self.sets),
            fixed=fixed, perturbed=list(self.perturbed),
            exact=exact,
            parameters=[(s.name, text(v)) for s, v in self.parameters],
            variables=variables,
            equations=[("", text(lhs), text(rhs)) for lhs, rhs in self.equations],
            initial_equations=[("", text(lhs), text(rhs)) for lhs, rhs in self.initial],
            written=written,
            instants=[repr(float(s)) for s in instants],
            sensitivities=list(self.sensitivities),
            sensitivity=sensitivity,
            alternative={n: exact_text(numeric(e.xreplace(values)))
                         for n, e in self.alternative.items()},
            outputs=[(n, text(e)) for n, e in self.outputs],
            whens=whens)

    def start_expression(self, name):
        """The written start of `name`: its exact value at t0 in the parameters (a parameter
        expression where the exact solution's start is one, else a number)."""
        expr = self.exact[name]
        if isinstance(expr, sympy.Piecewise):
            expr = expr.args[0][0]  # every instant is after t0: the first piece is the start's
        return expr.xreplace({t: sympy.sympify(self.t0)})


def numeric(expr):
    """expr with its numbers evaluated to 30 digits (compact header text), one Piecewise of t."""
    expr = sympy.piecewise_fold(expr)
    if isinstance(expr, sympy.Piecewise):
        args = []
        for e, c in expr.args:
            if c != sympy.true:
                s = c.rhs if c.lhs == t else c.lhs
                c = sympy.StrictLessThan(t, sympy.Float(sympy.N(s, 30), 30), evaluate=False)
            args.append((numeric(e), c))
        return sympy.Piecewise(*args)
    return expr.evalf(30)


def pieces(breaks, values):
    """The function that is values[k] between breaks[k-1] and breaks[k] (t < s conditions)."""
    assert len(values) == len(breaks) + 1
    if not breaks:
        return values[0]
    return sympy.Piecewise(*[(v, sympy.StrictLessThan(t, s, evaluate=False))
                             for v, s in zip(values, breaks)], (values[-1], True))


def piece_at(expr, time, side):
    """The branch of a Piecewise (in t, or in conditions on t alone) active at `time` on `side`
    (-1 just before, +1 at and after)."""
    if not isinstance(expr, sympy.Piecewise):
        return expr
    for value, condition in expr.args:
        if condition == sympy.true:
            return piece_at(value, time, side)
        holds = _holds(condition, time, side)
        if holds:
            return piece_at(value, time, side)
    raise HybridError(f"no branch of {expr} at t = {time}")


def _holds(condition, time, side):
    if isinstance(condition, sympy.StrictLessThan) and condition.lhs == t:
        s = sympy.N(condition.rhs, 50)
        return time < s or (time == s and side < 0)
    if isinstance(condition, sympy.StrictGreaterThan) and condition.rhs == t:
        s = sympy.N(condition.lhs, 50)
        return time < s or (time == s and side < 0)
    raise HybridError(f"an exact piece ends at {condition}, not t < s")


# -- verification -----------------------------------------------------------------------------

def _mp(x):
    return mpmath.mpf(sympy.N(x, 50)) if not isinstance(x, mpmath.mpf) else x


class _Checker:
    """Everything verify checks, at one set of parameter values."""

    def __init__(self, hybrid, read, values, exact, overrides=None):
        self.h, self.read, self.values = hybrid, read, values
        self.names = [name for name, _, _ in read.variables]
        self.orders = {}
        parameters = {}  # as the file binds them, the independent ones overridden
        for name, value in read.parameters:
            parameters[name] = (overrides or {}).get(name, None)
            if parameters[name] is None:
                parameters[name] = model_file.to_sympy(value, [], parameters)
        for symbol, value in values.items():
            if abs(sympy.N(parameters[symbol.name] - value, 50)) > 1e-40 * (1 + abs(value)):
                raise HybridError(f"parameter {symbol.name} is {parameters[symbol.name]} in the "
                                  f"file, {value} in the model")
        self.residuals = [model_file.to_sympy(lhs, self.names, parameters) -
                          model_file.to_sympy(rhs, self.names, parameters)
                          for _, lhs, rhs in read.equations]
        for r in self.residuals:
            for symbol in r.free_symbols:
                name, order = split_jet(symbol)
                if name in self.names:
                    self.orders[name] = max(self.orders.get(name, 0), order)
        for name in self.names:
            self.orders.setdefault(name, 0)
        self.initial = [model_file.to_sympy(lhs, self.names, parameters) -
                        model_file.to_sympy(rhs, self.names, parameters)
                        for _, lhs, rhs in read.initial_equations]
        self.outputs = [(n, model_file.to_sympy(e, self.names, parameters))
                        for n, e in read.outputs]
        self.whens = []
        for condition, reinits in read.whens:
            relation = model_file.to_sympy(condition, self.names, parameters)
            targets = []
            for target, value in reinits:
                name = target.rstrip("'")
                targets.append((name, len(target) - len(name),
                                model_file.to_sympy(value, self.names, parameters)))
            self.whens.append((relation, targets))
        self.starts = {}
        for name, start, fixed in read.variables:
            if fixed or name in read.written:
                self.starts[name] = (model_file.to_sympy(start, [], parameters)
                                     if isinstance(start, str) else sympy.Float(start, 30))
        self.exact = {n: sympy.piecewise_fold(e) for n, e in exact.items()}  # in t, numbers
        self.instants = sorted(hybrid.instant_values(values))
        self.t0, self.t1 = sympy.N(hybrid.t0, 50), sympy.N(hybrid.t1, 50)
        mpmath.mp.dps = 50
        self._functions = {}
        self._compiled = {}

    # values of jets along the exact solution, one piece at a time
    def jet_function(self, name, order, piece):
        key = (name, order, piece)
        if key not in self._functions:
            expr = self.piece_expr(name, piece)
            self._functions[key] = sympy.lambdify(t, sympy.diff(expr, t, order), "mpmath")
        return self._functions[key]

    def piece_expr(self, name, piece):
        """The exact solution of `name` on piece number `piece` (0 before the first instant)."""
        expr = self.exact[name]
        if piece == 0:
            time, side = self.t0, 1
        else:
            time, side = self.instants[piece - 1], 1
        return piece_at(expr, time, side)

    def piece_of(self, time):
        return sum(1 for s in self.instants if s <= time)

    def jets_at(self, time, piece, symbols=None):
        values = {t: _mp(time)}
        for name in self.names:
            for order in range(self.orders[name] + 2):
                symbol = jet(name, order)
                if symbols is None and order > self.orders[name]:
                    continue
                if symbols is None or symbol in symbols:
                    values[symbol] = self.jet_function(name, order, piece)(_mp(time))
        return values

    def evaluate(self, expr, time, piece):
        if expr not in self._compiled:
            arguments = sorted(expr.free_symbols, key=str)
            self._compiled[expr] = (arguments, sympy.lambdify(arguments, expr, "mpmath"))
        arguments, f = self._compiled[expr]
        values = self.jets_at(time, piece, set(arguments))
        return f(*[values[s] for s in arguments])

    def samples(self):
        """(time, piece) inside every piece."""
        bounds = [self.t0] + self.instants + [self.t1]
        result = []
        for k in range(len(bounds) - 1):
            a, b = bounds[k], bounds[k + 1]
            for f in ("1e-7", "0.13", "0.37", "0.5", "0.71", "0.93", "0.9999999"):
                result.append((a + (b - a) * sympy.Float(f, 50), k))
        return result

    def check(self, label):
        tiny = mpmath.mpf(10) ** -25
        for time, piece in self.samples():
            for i, r in enumerate(self.residuals):
                value = self.evaluate(r, time, piece)
                if abs(value) > tiny:
                    raise HybridError(f"{label}: equation {i + 1} is {mpmath.nstr(value, 5)} at "
                                      f"t = {mpmath.nstr(_mp(time), 12)} on the exact solution")
            for name, expr in self.outputs:
                value = self.evaluate(expr, time, piece)
                exact = self.jet_function(name, 0, piece)(_mp(time))
                if abs(value - exact) > tiny * (1 + abs(exact)):
                    raise HybridError(f"{label}: output {name} is {value}, exact {exact}")
        at_start = self.jets_at(self.t0, 0)
        for name, start in self.starts.items():
            value = _mp(start)
            if abs(value - at_start[jet(name)]) > mpmath.mpf(10) ** -15 * (1 + abs(value)):
                raise HybridError(f"{label}: the start of {name}, {value}, is not the exact "
                                  f"{at_start[jet(name)]}")
        for i, r in enumerate(self.initial):
            value = self.evaluate(r, self.t0, 0)
            if abs(value) > mpmath.mpf(10) ** -14:
                raise HybridError(f"{label}: initial equation {i + 1} is off by {value}")
        self.check_conditions(label)

    def switching(self, relation, time, piece):
        """(g, truth) of a relation a < b (a - b) along piece `piece` at time."""
        g = self.evaluate(relation.lhs - relation.rhs, time, piece)
        if isinstance(relation, (sympy.StrictLessThan, sympy.LessThan)):
            return g, g < 0
        return g, g > 0

    def check_conditions(self, label):
        bounds = [self.t0] + self.instants + [self.t1]
        relations = set()
        for r in self.residuals:
            for p in r.atoms(sympy.Piecewise):
                for _, c in p.args:
                    if c != sympy.true:
                        relations.add(c)
        tiny = mpmath.mpf(10) ** -25
        # Inside every piece: no `when` condition turns true, no `if` condition changes.
        for k in range(len(bounds) - 1):
            a, b = bounds[k], bounds[k + 1]
            grid = [a + (b - a) * sympy.Rational(j, 120) for j in range(1, 120)]
            for c, (relation, _) in enumerate(self.whens):
                truths = [self.switching(relation, time, k)[1] for time in grid]
                for j in range(1, len(truths)):
                    if truths[j] and not truths[j - 1]:
                        raise HybridError(f"{label}: when clause {c + 1} turns true at "
                                          f"t = {float(grid[j])} inside piece {k}")
                if k == 0 and truths[0]:
                    g0, _ = self.switching(relation, self.t0, 0)
                    if abs(g0) < 1e-6:
                        raise HybridError(f"{label}: when clause {c + 1} starts on its switch")
            for relation in relations:
                truths = {self.switching(relation, time, k)[1] for time in grid}
                if len(truths) > 1:
                    raise HybridError(f"{label}: condition {relation} changes inside piece {k}")
        # At every instant: the clauses that fire, their resets, continuity of the rest.
        for n, s in enumerate(self.instants):
            left, right = n, n + 1
            reset = set()
            for c, (relation, reinits) in enumerate(self.whens):
                g, _ = self.switching(relation, s, left)
                before = self.switching(relation, s - (s - bounds[n]) / 10 ** 12, left)[1]
                after = self.switching(relation, s + (bounds[n + 2] - s) / 10 ** 12, left)[1]
                fires = abs(g) < tiny and not before and after
                if fires != ((n, c) in self.h.firings):
                    verb = "fires" if fires else "does not fire"
                    raise HybridError(f"{label}: when clause {c + 1} {verb} at instant "
                                      f"{float(s)}, against the model's plan")
                if not fires:
                    continue
                for name, order, value in reinits:
                    reset.add((name, order))
                    expected = self.evaluate(value, s, left)
                    got = self.jet_function(name, order, right)(_mp(s))
                    if abs(expected - got) > tiny * (1 + abs(got)):
                        raise HybridError(f"{label}: reinit({name}{chr(39) * order}) at "
                                          f"{float(s)} gives {got}, not {expected}")
            for c, (relation, _) in enumerate(self.whens):
                if (n, c) not in self.h.firings:
                    before = self.switching(relation, s, left)[1]
                    after = self.switching(relation, s, right)[1]
                    if after and not before:
                        raise HybridError(f"{label}: when clause {c + 1} turns true across the "
                                          f"instant {float(s)}")
            for name in self.names:
                for order in range(self.orders[name]):
                    if (name, order) in reset:
                        continue
                    a = self.jet_function(name, order, left)(_mp(s))
                    b = self.jet_function(name, order, right)(_mp(s))
                    if abs(a - b) > tiny * (1 + abs(a)):
                        raise HybridError(f"{label}: {name}{chr(39) * order} jumps at {float(s)} "
                                          f"from {a} to {b} without a reinit")
            if not any(cn == n for cn, _ in self.h.firings):
                changed = any(self.switching(r, s, left)[1] != self.switching(r, s, right)[1]
                              or abs(self.switching(r, s, left)[0]) < tiny for r in relations)
                if not changed:
                    raise HybridError(f"{label}: nothing switches at the instant {float(s)}")

    def index_and_start(self, label):
        """The derivative array's index on the first piece, and the start conditions."""
        time = self.t0
        branch_values = self.jets_at(time + (self.instants[0] - time if self.instants else
                                             self.t1 - time) / 1000, 0)

        def resolve(expr):
            def pick(p):
                for value, condition in p.args:
                    if condition == sympy.true or bool(condition.xreplace(branch_values)):
                        return value
                raise HybridError("no branch")
            while expr.has(sympy.Piecewise):
                expr = expr.replace(lambda e: isinstance(e, sympy.Piecewise), pick)
            return expr

        residuals = [resolve(r) for r in self.residuals]
        exact = {n: self.piece_expr(n, 0) for n in self.names}
        orders = {n: self.orders[n] for n in self.names}
        try:
            array = index_analysis.DerivativeArray(residuals, exact, orders, float(time))
            index = index_analysis.differentiation_index(array)
        except index_analysis.RankUndecided as e:
            raise HybridError(f"{label}: the derivative array gives no index: {e}") from e
        if index != self.h.index:
            raise HybridError(f"{label}: built for index {self.h.index}, the derivative array "
                              f"gives {index}")
        manifold = index_analysis.StartManifold(array, index)
        gradients = [{(name, 0): 1} for name in self.starts]
        at_start = {s: float(v) for s, v in self.jets_at(time, 0).items()}
        for r in self.initial:
            gradient = {}
            for symbol in r.free_symbols - {t}:
                name, order = split_jet(symbol)
                gradient[(name, order)] = float(sympy.diff(r, symbol).xreplace(at_start))
            gradients.append(gradient)
        if len(gradients) != manifold.d:
            raise HybridError(f"{label}: {len(gradients)} start conditions for a start manifold "
                              f"of dimension {manifold.d}")
        if manifold.smallest_singular_value(gradients) < 0.05:
            raise Rejected(f"{label}: the start conditions hardly determine the start")


def verify(hybrid, text, moves=2):
    """Checks the written model `text` against `hybrid` (see the module's docstring)."""
    read = model_file.read(text)
    values = hybrid.values(digits=60)
    for label, exact in [("exact", hybrid.exact)] + (
            [("alternative", {**hybrid.exact, **hybrid.alternative})] if hybrid.alternative
            else []):
        numbers = {n: e.xreplace(values) for n, e in exact.items()}
        checker = _Checker(hybrid, read, values, numbers)
        checker.check(label)
        checker.index_and_start(label)
    # The header's text of every exact solution evaluates to it.
    read_exact = dict(read.exact)
    for name, expr in hybrid.exact.items():
        f = sympy.lambdify(t, expr.xreplace(values), "mpmath")
        for k in range(1, 10):
            time = float(hybrid.t0) + (float(hybrid.t1) - float(hybrid.t0)) * k / 10
            if any(abs(time - float(s)) < 1e-6 for s in checker.instants):
                continue
            a, b = evaluate_exact(read_exact[name], time), float(f(mpmath.mpf(time)))
            if abs(a - b) > 1e-12 * (1 + abs(b)):
                raise HybridError(f"exact text of {name} gives {a}, not {b}, at t = {time}")
    # The parametric exact solution: the same checks with the parameters moved.
    rng = random.Random(text)
    independent = hybrid.independent()
    for m in range(moves if hybrid.sensitivities else 0):
        moved = {s: hybrid.values()[s] * (1 + sympy.Rational(rng.choice([-2, -1, 1, 2]), 100))
                 for s in independent}
        values = hybrid.values(moved, digits=60)
        numbers = {n: e.xreplace(values) for n, e in hybrid.exact.items()}
        _Checker(hybrid, read, values, numbers, {s.name: moved[s] for s in independent}).check(
            f"parameters moved ({m + 1})")
