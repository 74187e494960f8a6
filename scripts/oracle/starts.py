"""The start of an oracle model: which conditions determine it, and how the model file states them.

The manifold of consistent initial values has dimension d (index_analysis.StartManifold). The
model gives exactly d conditions that determine its start locally, all at the exact solution's
values at t0 and all kept exactly by consistent initialization (docs/language.md):

- a start declared `fixed = true` for a differential variable (or, where the others leave freedom,
  an algebraic one), and
- an initial equation `q' = value` for the velocity of a second-order variable, which has no
  declaration of its own.

A third of the models (chosen from the seed) then replace one or two of these conditions by
initial equations of other forms, each replacement kept only if the d conditions still determine
the start (their rows along the tangent space stay independent):

- a derivative, `x' = value` (first-order variable) or `q'' = value` (second-order variable);
- a combination of two start values, `x1 + 2*x2 = value` (velocities `q'` too);
- a fixed algebraic variable, `z(start = value, fixed = true)`.

Every other start value is a guess (the exact value, or moved off it by 1 % in half the models
whose conditions determine everything), and so is every velocity that no initial equation gives
alone (`--set q_dot=...` in the header's simulate line).
"""
from dataclasses import dataclass

import sympy

from jets import jet, t
from printing import dae_text, number_text

#: The share of models whose start uses initial equations of other forms than velocities.
VARIED_SHARE = 1 / 3
#: The smallest singular value (rows of length 1) a varied set of conditions must keep.
INDEPENDENT = 0.05


@dataclass
class Condition:
    gradient: dict  # {(name, order): sympy coefficient}: the condition is sum(c * name^(order))
    kind: str  # fixed, velocity, derivative, combination, algebraic
    label: str = ""

    def expression(self):
        return sympy.Add(*[c * jet(n, o) for (n, o), c in self.gradient.items()])

    def fixed_name(self):
        """The variable this condition declares fixed, or None (an initial equation)."""
        if self.kind in ("fixed", "algebraic"):
            return next(iter(self.gradient))[0]
        return None

    def describe(self, style="prime"):
        return dae_text(self.expression(), style)


def plain(manifold, orders):
    """d conditions (fewer if no choice determines the start): fixed differential variables, then
    the velocities of second-order variables, then fixed algebraic variables, chosen for the best
    conditioning."""
    positions = [(n, 0) for n in orders if orders[n] >= 1]
    velocities = [(n, 1) for n in orders if orders[n] == 2]
    algebraic = [(n, 0) for n in orders if orders[n] == 0]
    chosen = manifold.choose([positions, velocities, algebraic])
    kinds = {**{c: "fixed" for c in positions}, **{c: "velocity" for c in velocities},
             **{c: "algebraic" for c in algebraic}}
    return [Condition({c: sympy.Integer(1)}, kinds[c]) for c in chosen]


def _replacement(rng, manifold, orders, conditions, index):
    """A condition of another form in place of conditions[index], or None."""
    replaced = conditions[index]
    form = rng.choice(["derivative", "combination", "algebraic"])
    if form == "derivative":
        columns = [(n, orders[n]) for n in orders if orders[n] >= 1]
        return Condition({rng.choice(columns): sympy.Integer(1)}, "derivative") if columns else None
    if form == "combination":
        (column, _), = replaced.gradient.items()
        others = [(n, o) for n in orders for o in range(orders[n])
                  if (n, o) != column and orders[n] >= 1]
        if not others:
            return None
        factor = sympy.Rational(rng.choice([2, -2, 3, -3, 1, -1]), rng.choice([1, 1, 2]))
        return Condition({rng.choice(others): sympy.Integer(1), column: factor}, "combination")
    algebraic = [(n, 0) for n in orders if orders[n] == 0]
    used = {c for condition in conditions for c in condition.gradient}
    algebraic = [c for c in algebraic if c not in used]
    return Condition({rng.choice(algebraic): sympy.Integer(1)}, "algebraic") if algebraic else None


def vary(rng, manifold, orders, conditions):
    """conditions with one or two of them replaced by conditions of other forms (each only if the
    start stays determined, as well conditioned as INDEPENDENT asks)."""
    conditions = list(conditions)
    if len(conditions) != manifold.d or not conditions:
        return conditions
    for _ in range(min(len(conditions), rng.choice([1, 1, 2]))):
        for _ in range(20):
            index = rng.randrange(len(conditions))
            if len(conditions[index].gradient) != 1 or conditions[index].kind not in (
                    "fixed", "velocity"):
                continue
            new = _replacement(rng, manifold, orders, conditions, index)
            if new is None or any(new.gradient == c.gradient for c in conditions):
                continue
            trial = conditions[:index] + [new] + conditions[index + 1:]
            if manifold.smallest_singular_value([c.gradient for c in trial]) >= INDEPENDENT:
                conditions = trial
                break
    return conditions


def value_at(condition, exact, t0):
    """The condition's value on the exact solution at t0 (a float)."""
    values = {}
    for (name, order) in condition.gradient:
        values[jet(name, order)] = sympy.diff(exact[name], t, order).subs(t, t0)
    return float(condition.expression().xreplace(values).evalf(30))


def initial_equations(conditions, exact, t0, style, rng):
    """[(label, lhs text, rhs text)] of the conditions that are initial equations."""
    equations = []
    words = rng.sample(["init", "start", "given", "spin", "go"], 5)
    for k, c in enumerate(c for c in conditions if c.fixed_name() is None):
        label = f"{words[k % 5]}{k + 1}" if rng.random() < 0.3 else ""
        written = style if style != "mixed" else rng.choice(["prime", "der"])
        equations.append((label, c.describe(written), number_text(value_at(c, exact, t0))))
    return equations


def summary(conditions):
    """What determines the start, for the header's structure line."""
    fixed = [c.fixed_name() + (" (algebraic)" if c.kind == "algebraic" else "")
             for c in conditions if c.fixed_name()]
    equations = [f"{c.describe()} ({c.kind})" for c in conditions if c.fixed_name() is None]
    parts = []
    if fixed:
        parts.append("fixed " + ", ".join(fixed))
    if equations:
        parts.append("initial equations " + ", ".join(equations))
    return "start: " + ("; ".join(parts) if parts else "no condition (nothing free)")
