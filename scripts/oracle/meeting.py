"""The oracle's kinds where features meet: promoted unknowns beside written starts, resets, exact
sensitivities, initial equations, conditions on algebraic unknowns.

Each kind combines small blocks whose exact solution is known in closed form (pieces between
exactly known instants: a crossing time from a formula, or a root computed to 50 digits), built
in sympy with hybrid.Hybrid and verified by hybrid.verify on the written file (the equations
vanish on every piece, the resets and switches happen where and as the exact solution says, the
index and the start conditions are those the model claims), never by agreement with daec.

- `promoted`: algebraic unknowns entering nonlinearly (`v + v^3/3 = ...`, `sinh(v) = ...`, an
  exponential diode `i = a*(exp(v/b) - 1)`), which daec makes states, beside differential
  variables whose starts are WRITTEN and not fixed (header `written:`): spec 1.2 keeps them, and
  solves the promoted unknowns, which have no start or a wrong one, for them.
- `reset`: `when`/`reinit`: a decaying state kicked up at a threshold (periodically; with a
  promoted unknown of it, recomputed at each kick), a sawtooth, a bouncing ball or a bouncing
  oscillator (`reinit(h', -e*h')`), a clock toggling a state `m` that selects the branch of
  `i = if m > 1/2 then F else 0` with `T' = i^2` (i promoted), and a state reset once when
  another crosses a level. Continuing states driven by the reset ones must keep their values
  across every instant (spec 1.3).
- `sensitivity`: parameters on which the exact solution depends in closed form: a start
  `x(start = x0)`, a dependent parameter `e = 1/tau`, an initial equation `q = 3*p`, a reset
  `reinit(y, e*y + a2)` at a time or at a crossing that moves with the parameters, an algebraic
  unknown, a promoted unknown and an output; header `sensitivities:` and the exact `d(v)/d(p)`
  of every variable and output (spec 4.2).
- `initial`: a point on a circle (index 3) started by a fixed position or a combination and a
  speed `x'^2 + y'^2 = V^2`, an angular momentum or a velocity, from guesses that are not the
  solution, among them a stationary one (both velocities 0: the two directions are then equally
  near, and the header gives the other one as `alternative`); beside it a first-order block
  started by `x1' = value` and a combination or a quadratic.
- `algebraic_switch`: an ideal diode in curve-parameter form (`v = if s < 0 then s else Ron*s`,
  `i = if s < 0 then Goff*s else s`, spec 1.4) between a sine source and an RC load, and a
  threshold on an algebraic unknown (`p = if z > c then a*(z - c) else 0`); the switching
  instants are roots computed to 50 digits, the pieces in closed form.
"""
import math
import random

import mpmath
import sympy

import hybrid as hy
from hybrid import Hybrid, pieces
from jets import jet, t
from random_terms import Draw

KINDS = {  # kind: (weight among the meeting kinds, what it builds)
    "promoted": (20, "nonlinear algebraic unknowns (promoted) beside written starts (index 1)"),
    "reset": (25, "when/reinit: kicks, sawtooth, bounces, branch switches, crossings (0 or 1)"),
    "sensitivity": (20, "parameters in starts, bindings, initial equations, resets (0 or 1)"),
    "initial": (15, "initial equations: speeds, velocities, combinations, stationary guess (3)"),
    "algebraic_switch": (20, "conditions on algebraic unknowns: ideal diode, threshold (index 1)"),
}


Rejected = hy.Rejected


def r2(x):
    """A number rounded to a two-decimal Rational."""
    return sympy.Rational(round(float(x) * 100), 100)


def particular(alpha, forcing):
    """A particular solution of y' = alpha*y + forcing(t) (numeric alpha)."""
    sigma = sympy.Symbol("sigma", real=True)
    F = sympy.integrate(sympy.exp(-alpha * sigma) * forcing.subs(t, sigma), sigma)
    return sympy.expand(sympy.exp(alpha * t) * F.subs(sigma, t))


def linear_piece(alpha, forcing, start, value):
    """y with y' = alpha*y + forcing(t) from y(start) = value."""
    p = particular(alpha, forcing)
    return p + (value - p.subs(t, start)) * sympy.exp(alpha * (t - start))


def start_mode(draw, written_share=0.6):
    return "written" if draw.chance(written_share) else "fixed"


def cardano(x):
    """The real z with z + z^3/3 = x."""
    w = (3 * x / 2 + sympy.sqrt(9 * x**2 / 4 + 1)) ** sympy.Rational(1, 3)
    return w - 1 / w


# -- promoted -------------------------------------------------------------------------------------

def kind_promoted(draw, h):
    nu, nv = draw.integer(1, 3), draw.integer(1, 2)
    us = [h.variable("u", 1, start_mode(draw, 0.5)) for _ in range(nu)]
    for k in range(min(nu, nv)):  # a state a promoted unknown is solved from: written, free
        h.variables[k].start = "written"
    exact = {u: draw.trajectory() for u in us}
    feedback = {u: [] for u in us}  # terms of the promoted unknowns in u's equation
    forms = []
    for j in range(nv):
        u = us[j % nu]
        form = draw.choice(["cubic", "sinh", "atan", "diode", "diode"])
        v = h.variable("v" if form != "diode" else "vd", 0)
        exact[v] = draw.trajectory(sympy.Rational(1, 2) if form == "diode" else
                                   sympy.Rational(4, 5))
        c = draw.coefficient(0.5, 1.5)
        V = jet(v)
        if form == "diode":
            i = h.variable("i", 0)
            a, b = draw.coefficient(0.1, 0.5), draw.coefficient(0.4, 1.0)
            R = draw.coefficient(0.5, 2.0)
            exact[i] = a * (sympy.exp(exact[v] / b) - 1)
            h.equations.append((jet(i), a * (sympy.exp(V / b) - 1)))
            source = exact[u] - R * exact[i] - exact[v]
            h.equations.append((jet(u), R * jet(i) + V + source))
            feedback[u].append(-draw.coefficient(0.5, 1.5) * jet(i))
            forms.append(f"{v}, {i}: an exponential diode on {u}")
        else:
            F = {"cubic": V + V**3 / 3, "sinh": sympy.sinh(V),
                 "atan": V + c * sympy.atan(V)}[form]
            source = F.subs(V, exact[v]) - c * exact[u]
            h.equations.append((F, c * jet(u) + source))
            feedback[u].append(-draw.coefficient(0.3, 1.2) * V)
            forms.append(f"{v}: {form} of {u}")
        if draw.chance(0.5):
            h.variables[-1 if form != "diode" else -2].start = "none"
        else:  # a wrong guess: 0, or one off by 0.5 to 1
            var = h.variables[-1 if form != "diode" else -2]
            var.start = "guess"
            x0 = float(exact[v].subs(t, h.t0))
            var.guess = 0.0 if draw.chance(0.5) else round(x0 + draw.choice([-1, 1]) *
                                                           draw.rng.uniform(0.5, 1.0), 2)
            if abs(var.guess - x0) > 1e-3:
                h.perturbed.append(var.name)
    for k, u in enumerate(us):
        rate = draw.coefficient(0.2, 1.2)
        rhs = -rate * jet(u) + sum(feedback[u])
        if nu > 1 and draw.chance(0.5):
            other = us[(k + 1) % nu]
            rhs += draw.coefficient(0.2, 0.8, signed=True) * jet(other)
        values = {jet(n): e for n, e in exact.items()}
        source = sympy.diff(exact[u], t) - rhs.xreplace(values)
        mass = draw.coefficient(0.5, 2.0) if draw.chance(0.3) else 1
        h.equations.append((mass * jet(u, 1), mass * (rhs + source)))
    h.exact.update(exact)
    h.index = 1
    h.description.append(f"{nu} differential variables with written starts "
                         f"({', '.join(v.name + ' ' + v.start for v in h.variables[:nu])}); "
                         "promoted: " + "; ".join(forms))


# -- reset blocks ----------------------------------------------------------------------------------

class Instants:
    """The instants of a reset model: (value, clause number or None) from every block."""

    def __init__(self):
        self.items = []

    def add(self, value, clause):
        self.items.append((value, clause))


END_MARGIN = 0.02  # no instant this near the end (the last row would be on either side)


def _past_end(s, t1):
    """Whether the instant s is after the interval, refusing one too near its end."""
    if abs(float(s) - float(t1)) <= END_MARGIN:
        raise Rejected("an instant at the end of the interval")
    return float(s) > float(t1)


def _periodic(first, period, t1, limit=8):
    times, s = [], first
    while not _past_end(s, t1):
        times.append(s)
        s = s + period
        if len(times) > limit:
            raise Rejected("too many instants")
    return times


def block_kick(draw, h, instants):
    """x' = -a*x kicked up at x < theta: periodic resets; y driven by x continues; z promoted."""
    L = h.t1 - h.t0
    a, X0 = draw.coefficient(0.6, 2.0), draw.coefficient(1.0, 2.0)
    theta = r2(X0 * math.exp(-float(a) * draw.rng.uniform(0.15, 0.5) * float(L)))
    if theta < sympy.Rational(5, 100) or theta >= X0:
        raise Rejected("threshold")
    if draw.chance(0.5):
        J = draw.coefficient(0.3, 1.0)
        after, value_text = theta + J, None
        x = h.variable("x", 1, start_mode(draw))
        value = jet(x) + J
    else:
        r, J = draw.coefficient(0.5, 1.5), draw.coefficient(0.3, 1.0)
        after = r * theta + J
        x = h.variable("x", 1, start_mode(draw))
        value = r * jet(x) + J
        value_text = "scaled"
    if after < theta * sympy.Rational(6, 5):
        raise Rejected("kick too small")
    first = h.t0 + sympy.log(X0 / theta) / a
    period = sympy.log(after / theta) / a
    times = _periodic(first, period, h.t1)
    if not times or float(period) < 0.05:
        raise Rejected("no kick")
    clause = len(h.whens)
    h.whens.append((sympy.StrictLessThan(jet(x), theta), [(x, 0, value)]))
    for s in times:
        instants.add(s, clause)
    xs = [X0 * sympy.exp(-a * (t - h.t0))] + [after * sympy.exp(-a * (t - s)) for s in times]
    h.exact[x] = pieces(times, xs)
    h.equations.append((jet(x, 1), -a * jet(x)))
    described = [f"{x}' = -{a}*{x} kicked at {x} < {theta} ({value_text or 'x + J'}), "
                 f"{len(times)} kicks"]
    if draw.chance(0.7):
        y = h.variable("y", 1, start_mode(draw))
        c, d = draw.coefficient(0.3, 1.5), draw.coefficient(0.3, 1.5, signed=True)
        if c == a:
            c += sympy.Rational(1, 10)
        Y0 = draw.coefficient(-1, 1)
        ys, starts = [], [h.t0] + times
        value = Y0
        for k, xk in enumerate(xs):
            piece = linear_piece(-c, d * xk, starts[k], value)
            ys.append(piece)
            if k + 1 < len(starts):
                value = piece.subs(t, starts[k + 1])
        h.exact[y] = pieces(times, ys)
        h.equations.append((jet(y, 1), -c * jet(y) + d * jet(x)))
        described.append(f"{y} driven by {x} continues")
    if draw.chance(0.5):
        form = draw.choice(["sinh", "cubic", "log"])
        z = h.variable("z", 0, draw.choice(["none", "guess"]), guess=0.0)
        Z = jet(z)
        if form == "sinh":
            h.equations.append((sympy.sinh(Z), jet(x)))
            h.exact[z] = pieces(times, [sympy.asinh(e) for e in xs])
        elif form == "cubic":
            h.equations.append((Z + Z**3 / 3, jet(x)))
            h.exact[z] = pieces(times, [cardano(e) for e in xs])
        else:
            h.equations.append((sympy.exp(Z) - 1, jet(x)))
            h.exact[z] = pieces(times, [sympy.log(1 + e) for e in xs])
        h.index = max(h.index, 1)
        described.append(f"{z} promoted ({form} of {x}), recomputed at every kick")
    return "; ".join(described)


def block_sawtooth(draw, h, instants):
    """x' = r, reset to 0 (or by -Ls) at x > Ls; y' = -c*y + d*x continues."""
    r, Ls = draw.coefficient(0.8, 2.0), draw.coefficient(0.5, 1.2)
    period = Ls / r
    if not 0.25 <= period <= 0.9:
        raise Rejected("period")
    X0 = r2(Ls * draw.rng.uniform(0.0, 0.8))
    first = h.t0 + (Ls - X0) / r
    times = _periodic(first, period, h.t1)
    if not times:
        raise Rejected("no tooth")
    x = h.variable("x", 1, start_mode(draw))
    clause = len(h.whens)
    value = sympy.Integer(0) if draw.chance(0.5) else jet(x) - Ls
    h.whens.append((sympy.StrictGreaterThan(jet(x), Ls), [(x, 0, value)]))
    for s in times:
        instants.add(s, clause)
    xs = [X0 + r * (t - h.t0)] + [r * (t - s) for s in times]
    h.exact[x] = pieces(times, xs)
    h.equations.append((jet(x, 1), r))
    y = h.variable("y", 1, start_mode(draw))
    c, d = draw.coefficient(0.3, 1.5), draw.coefficient(0.3, 1.5, signed=True)
    Y0 = draw.coefficient(-1, 1)
    ys, starts, v = [], [h.t0] + times, Y0
    for k, xk in enumerate(xs):
        piece = linear_piece(-c, d * xk, starts[k], v)
        ys.append(piece)
        if k + 1 < len(starts):
            v = piece.subs(t, starts[k + 1])
    h.exact[y] = pieces(times, ys)
    h.equations.append((jet(y, 1), -c * jet(y) + d * jet(x)))
    return f"sawtooth {x}' = {r} reset at {x} > {Ls} ({len(times)} resets), {y} driven by it"


def block_bounce(draw, h, instants):
    """h'' = -g (a ball) or h'' = -w^2*h (a spring), reinit(h', -e*h') at h < 0."""
    variant = draw.choice(["ball", "spring"])
    e = draw.coefficient(0.5, 0.85)
    H0, v0 = draw.coefficient(0.3, 1.0), draw.coefficient(0.1, 1.0, signed=True)
    hh = h.variable("h", 2, start_mode(draw))
    times, hs = [], []
    if variant == "ball":
        g = draw.coefficient(4, 12)
        impact = sympy.sqrt(v0**2 + 2 * g * H0)
        s = h.t0 + (v0 + impact) / g
        hs.append(H0 + v0 * (t - h.t0) - g * (t - h.t0) ** 2 / 2)
        V = impact
        while not _past_end(s, h.t1):
            times.append(s)
            V = e * V
            hs.append(V * (t - s) - g * (t - s) ** 2 / 2)
            flight = 2 * V / g
            if float(flight) < 0.05 or len(times) > 8:
                raise Rejected("bounces accumulate")
            s = s + flight
        h.equations.append((jet(hh, 2), -g))
        text = f"a ball {hh}'' = -{g}"
    else:
        w = draw.coefficient(2, 5)
        R = sympy.sqrt(H0**2 + (v0 / w) ** 2)
        phi = sympy.atan(v0 / (w * H0))
        s = h.t0 + (sympy.pi / 2 + phi) / w
        hs.append(H0 * sympy.cos(w * (t - h.t0)) + v0 / w * sympy.sin(w * (t - h.t0)))
        amplitude = R
        while not _past_end(s, h.t1):
            times.append(s)
            amplitude = e * amplitude
            hs.append(amplitude * sympy.sin(w * (t - s)))
            if len(times) > 8:
                raise Rejected("too many bounces")
            s = s + sympy.pi / w
        h.equations.append((jet(hh, 2), -w**2 * jet(hh)))
        text = f"a spring {hh}'' = -{w**2}*{hh}"
    if not times:
        raise Rejected("no bounce")
    clause = len(h.whens)
    h.whens.append((sympy.StrictLessThan(jet(hh), 0), [(hh, 1, -e * jet(hh, 1))]))
    for s in times:
        instants.add(s, clause)
    h.exact[hh] = pieces(times, hs)
    h.initial.append((jet(hh, 1), v0))
    described = f"{text} bouncing at {hh} < 0 with reinit({hh}', -{e}*{hh}') ({len(times)} " \
                f"bounces); {hh}' = {v0} by an initial equation"
    if draw.chance(0.6):
        y = h.variable("y", 1, start_mode(draw))
        c, d = draw.coefficient(0.3, 1.5), draw.coefficient(0.3, 1.5, signed=True)
        ys, starts, v = [], [h.t0] + times, draw.coefficient(-1, 1)
        for k, hk in enumerate(hs):
            piece = linear_piece(-c, d * hk, starts[k], v)
            ys.append(piece)
            if k + 1 < len(starts):
                v = piece.subs(t, starts[k + 1])
        h.exact[y] = pieces(times, ys)
        h.equations.append((jet(y, 1), -c * jet(y) + d * jet(hh)))
        described += f"; {y} driven by {hh} continues"
    return described


def block_mode(draw, h, instants):
    """A clock x' = r reset at x > Lc toggles m (m' = 0): i = if m > 1/2 then F else 0, T' = i^2."""
    r, Lc = draw.coefficient(0.8, 2.0), draw.coefficient(0.4, 1.0)
    period = Lc / r
    if not 0.25 <= period <= 0.9:
        raise Rejected("period")
    X0 = r2(Lc * draw.rng.uniform(0.0, 0.8))
    times = _periodic(h.t0 + (Lc - X0) / r, period, h.t1)
    if not times:
        raise Rejected("no toggle")
    x = h.variable("clock", 1, start_mode(draw))
    m = h.variable("m", 1, start_mode(draw))
    T = h.variable("T", 1, start_mode(draw))
    i = h.variable("i", 0, "none")
    M0 = draw.choice([0, 1])
    clause = len(h.whens)
    h.whens.append((sympy.StrictGreaterThan(jet(x), Lc), [(x, 0, sympy.Integer(0)),
                                                         (m, 0, 1 - jet(m))]))
    for s in times:
        instants.add(s, clause)
    starts = [h.t0] + times
    h.exact[x] = pieces(times, [X0 + r * (t - h.t0)] + [r * (t - s) for s in times])
    h.exact[m] = pieces(times, [sympy.Integer((M0 + k) % 2) for k in range(len(starts))])
    form = draw.choice(["cos", "linear", "exp"])
    a = draw.coefficient(0.4, 1.0)
    Tv = jet(T)
    Ts = draw.coefficient(0.1, 0.8)
    Ts_list, is_list = [], []
    if form == "cos":
        w = draw.coefficient(1, 3)
        F = a * sympy.cos(w * t)
    elif form == "linear":
        b = draw.coefficient(1.5, 2.5)
        F = a * (b - Tv)
    else:
        F = a * sympy.exp(-Tv / 2)
    for k, s in enumerate(starts):
        on = (M0 + k) % 2 == 1
        if not on:
            piece = Ts + 0 * t
        elif form == "cos":
            piece = Ts + a**2 * ((t - s) / 2 + (sympy.sin(2 * w * t) - sympy.sin(2 * w * s)) /
                                 (4 * w))
        elif form == "linear":
            piece = b - (b - Ts) / (1 + a**2 * (b - Ts) * (t - s))
        else:
            piece = sympy.log(sympy.exp(Ts) + a**2 * (t - s))
        Ts_list.append(piece)
        is_list.append(F.subs(Tv, piece) if on else sympy.Integer(0))
        if k + 1 < len(starts):
            Ts = piece.subs(t, starts[k + 1])
    h.exact[T] = pieces(times, Ts_list)
    h.exact[i] = pieces(times, is_list)
    h.equations.append((jet(x, 1), r))
    h.equations.append((jet(m, 1), sympy.Integer(0)))
    h.equations.append((jet(T, 1), jet(i) ** 2))
    h.equations.append((jet(i), sympy.Piecewise((F, sympy.StrictGreaterThan(
        jet(m), sympy.Rational(1, 2))), (0, True))))
    h.index = max(h.index, 1)
    return (f"clock {x}' = {r} reset at {x} > {Lc} toggles {m} ({len(times)} toggles); "
            f"{i} = if {m} > 1/2 then {F} else 0 (promoted: {T}' = {i}^2)")


def block_crossing(draw, h, instants):
    """x' = -r; c reset once (reinit(c, c + J)) where x crosses theta; x continues."""
    L = h.t1 - h.t0
    r, X0 = draw.coefficient(0.5, 1.5), draw.coefficient(0.8, 1.5)
    theta = r2(X0 - r * draw.rng.uniform(0.2, 0.8) * float(L))
    s = h.t0 + (X0 - theta) / r
    if not float(h.t0) + 0.05 < float(s) < float(h.t1) - 0.05:
        raise Rejected("crossing outside")
    x = h.variable("x", 1, start_mode(draw))
    c = h.variable("c", 1, start_mode(draw))
    k = draw.choice([0, draw.coefficient(0.2, 1.0)])
    C0, J = draw.coefficient(-1, 1), draw.coefficient(0.5, 1.5, signed=True)
    clause = len(h.whens)
    h.whens.append((sympy.StrictLessThan(jet(x), theta), [(c, 0, jet(c) + J)]))
    instants.add(s, clause)
    h.exact[x] = X0 - r * (t - h.t0)
    before = C0 * sympy.exp(-k * (t - h.t0))
    h.exact[c] = pieces([s], [before, (before.subs(t, s) + J) * sympy.exp(-k * (t - s))])
    h.equations.append((jet(x, 1), -r))
    h.equations.append((jet(c, 1), -k * jet(c)))
    return f"{c} reset by {J} once where {x} (x' = -{r}) crosses {theta}; {x} continues"


RESET_BLOCKS = {"kick": block_kick, "sawtooth": block_sawtooth, "bounce": block_bounce,
                "mode": block_mode, "crossing": block_crossing}


def kind_reset(draw, h):
    h.index = 0
    names = draw.sample(sorted(RESET_BLOCKS), draw.choice([1, 2, 2, 3]))
    instants = Instants()
    for name in names:
        h.description.append(RESET_BLOCKS[name](draw, h, instants))
    _place_instants(h, instants)


def _place_instants(h, instants):
    items = sorted(instants.items, key=lambda item: float(item[0]))
    for (a, _), (b, _) in zip(items, items[1:]):
        if float(b) - float(a) < 0.005:
            raise Rejected("two instants too close")
    if not items:
        raise Rejected("no instant")
    h.instants = [s for s, _ in items]
    h.firings = {(n, c) for n, (_, c) in enumerate(items) if c is not None}


# -- sensitivity ---------------------------------------------------------------------------------

def kind_sensitivity(draw, h):
    L = h.t1 - h.t0
    h.index = 0
    chosen = []  # parameters to differentiate
    k = h.parameter("k", draw.coefficient(0.3, 1.2))
    x0 = h.parameter("x0", draw.coefficient(0.8, 2.0))
    x = h.variable("x", 1, start_mode(draw))
    h.exact[x] = x0 * sympy.exp(-k * (t - h.t0))
    h.equations.append((jet(x, 1), -k * jet(x)))
    chosen += [k, x0]
    described = [f"{x}' = -k*{x} from the start x0 ({h.variables[-1].start})"]
    y = None
    parts = set(draw.sample(["dependent", "initial", "algebraic", "promoted"],
                            draw.integer(2, 3)))
    if draw.chance(0.6):
        parts |= {"dependent", "reset"}
    if "dependent" in parts:
        tau = h.parameter("tau", draw.coefficient(0.5, 3.0))
        e = h.parameter("e", 1 / tau)
        a = h.parameter("a", draw.coefficient(0.3, 1.5))
        w = draw.coefficient(1.0, 3.0)
        y = h.variable("y", 1, start_mode(draw))
        y0 = draw.coefficient(-1, 1)
        A, B = a * e / (w**2 + e**2), -a * w / (w**2 + e**2)

        def yp(time):
            return A * sympy.sin(w * time) + B * sympy.cos(w * time)

        first = yp(t) + (y0 - yp(h.t0)) * sympy.exp(-e * (t - h.t0))
        h.equations.append((jet(y, 1), -e * jet(y) + a * sympy.sin(w * t)))
        chosen += [tau, a]
        text = f"{y}' = -e*{y} + a*sin({w}*t) with e = 1/tau"
        if "reset" in parts:
            a2 = h.parameter("a2", draw.coefficient(0.2, 1.0))
            chosen.append(a2)
            frac = draw.rng.uniform(0.25, 0.75)
            if draw.chance(0.5):
                ts = h.parameter("ts", r2(float(h.t0) + frac * float(L)))
                s = ts
                relation = sympy.StrictGreaterThan(t, ts)
                chosen.append(ts)
                where = "t > ts"
            else:
                theta = h.parameter("theta", r2(float(x0.subs(h.values())) * math.exp(
                    -float(k.subs(h.values())) * frac * float(L))))
                s = h.t0 + sympy.log(x0 / theta) / k
                relation = sympy.StrictLessThan(jet(x), theta)
                chosen.append(theta)
                where = f"{x} < theta"
            value = e * jet(y) + a2
            Ys = e * first.subs(t, s) + a2
            second = yp(t) + (Ys - yp(s)) * sympy.exp(-e * (t - s))
            h.whens.append((relation, [(y, 0, value)]))
            h.instants = [s]
            h.firings = {(0, 0)}
            h.exact[y] = pieces([s], [first, second])
            text += f"; reinit({y}, e*{y} + a2) when {where}"
        else:
            h.exact[y] = first
        described.append(text)
    if "initial" in parts:
        p = h.parameter("p", draw.coefficient(0.2, 1.0))
        c = h.parameter("c", draw.coefficient(0.3, 1.5))
        b = draw.coefficient(0.2, 1.0)
        m = draw.choice([2, 3])
        q = h.variable("q", 1, "none")
        h.exact[q] = b / c + (m * p - b / c) * sympy.exp(-c * (t - h.t0))
        h.equations.append((jet(q, 1), -c * jet(q) + b))
        h.initial.append((jet(q), m * p))
        chosen += [p, c]
        described.append(f"{q}' = -c*{q} + {b} started by the initial equation {q} = {m}*p")
    if "algebraic" in parts:
        a3 = h.parameter("a3", draw.coefficient(0.3, 1.5, signed=True))
        z = h.variable("z", 0, "none")
        other = jet(y) if y else jet(x) ** 2
        h.exact[z] = a3 * h.exact[x] + (h.exact[y] if y else h.exact[x] ** 2)
        h.equations.append((jet(z), a3 * jet(x) + other))
        chosen.append(a3)
        h.index = max(h.index, 1)
        if draw.chance(0.7):
            total = h.name("total")
            h.outputs.append((total, jet(x) ** 2 + jet(z)))
            h.exact[total] = h.exact[x] ** 2 + h.exact[z]
        described.append(f"algebraic {z} = a3*{x} + {'y' if y else 'x^2'}")
    if "promoted" in parts:
        wv = h.variable("w", 0, "none")
        h.equations.append((sympy.sinh(jet(wv)), jet(x)))
        h.exact[wv] = sympy.asinh(h.exact[x])
        h.index = max(h.index, 1)
        described.append(f"promoted {wv}: sinh({wv}) = {x}")
    if not h.outputs and draw.chance(0.5):
        power = h.name("power")
        h.outputs.append((power, jet(x) * (jet(y) if y else 2 * jet(x))))
        h.exact[power] = h.exact[x] * (h.exact[y] if y else 2 * h.exact[x])
    names = [s.name for s in chosen]
    if len(names) > 4:  # keep those of starts, resets and initial equations
        must = [n for n in names if n in ("x0", "p", "a2", "ts", "theta", "tau")]
        rest = [n for n in names if n not in must]
        names = must + draw.sample(rest, max(0, 4 - len(must)))
    h.sensitivities = [n for n in (s.name for s, _ in h.parameters) if n in names]
    h.description += described


# -- initial -------------------------------------------------------------------------------------

def kind_initial(draw, h):
    h.index = 3
    Lr = draw.coefficient(0.6, 1.5)
    omega = draw.coefficient(0.8, 2.5)
    sign = draw.choice([1, -1])
    phi0 = draw.coefficient(0.4, 1.17) + draw.choice([0, 1, 2, 3]) * sympy.pi / 2
    mass = draw.choice([1, 1, draw.coefficient(0.5, 2.0)])
    position = draw.choice(["fixed", "combination"])
    velocity = draw.choice(["speed", "speed", "angular", "velocity"])
    stationary = velocity == "speed" and draw.chance(0.5)
    x = h.variable("x", 2, "fixed" if position == "fixed" else "guess")
    y = h.variable("y", 2, "guess")
    lam = h.variable("lam", 0, "none")

    def solution(s):
        angle = phi0 + s * omega * (t - h.t0)
        return {x: Lr * sympy.cos(angle), y: Lr * sympy.sin(angle), lam: mass * omega**2}

    exact = solution(sign)
    h.exact.update(exact)
    h.equations += [(mass * jet(x, 2), -jet(lam) * jet(x)), (mass * jet(y, 2), -jet(lam) * jet(y)),
                    (jet(x) ** 2 + jet(y) ** 2, Lr**2)]
    at0 = {n: e.subs(t, h.t0) for n, e in exact.items()}
    rate0 = {n: sympy.diff(e, t).subs(t, h.t0) for n, e in exact.items()}
    described = [f"a point on a circle of radius {Lr} turning at {sign * omega} rad/s (index 3)"]
    for v in h.variables:
        if v.start == "guess":
            exact0 = float(at0[v.name])
            v.guess = round(exact0 * (1 + draw.choice([-1, 1]) * draw.rng.uniform(0.05, 0.12)),
                            4)
            h.perturbed.append(v.name)
    if position == "combination":
        cx, cy = 1, draw.choice([2, -2, 3, sympy.Rational(1, 2)])
        h.initial.append((cx * jet(x) + cy * jet(y), cx * at0[x] + cy * at0[y]))
        described.append(f"start: {x} + {cy}*{y} = value (initial equation)")
    else:
        described.append(f"start: {x} fixed")
    if velocity == "speed":
        h.initial.append((jet(x, 1) ** 2 + jet(y, 1) ** 2, (Lr * omega) ** 2))
        described.append(f"{x}'^2 + {y}'^2 = {(Lr * omega) ** 2} (initial equation)")
    elif velocity == "angular":
        h.initial.append((jet(x) * jet(y, 1) - jet(y) * jet(x, 1), sign * Lr**2 * omega))
        described.append(f"{x}*{y}' - {y}*{x}' = value (initial equation)")
    else:
        h.initial.append((jet(x, 1), rate0[x]))
        described.append(f"{x}' = value (initial equation)")
    if stationary:
        guesses = {x: 0.0, y: 0.0}
        alternative = solution(-sign)
        h.alternative.update({n: e for n, e in alternative.items() if e != exact[n]})
        described.append("stationary guess: both velocities 0 (either direction is a solution)")
    else:
        guesses = {n: round(float(rate0[n]) * (1 + draw.choice([-1, 1]) *
                                              draw.rng.uniform(0.1, 0.3)), 4) for n in (x, y)}
        h.perturbed += [f"{x}_dot", f"{y}_dot"]
    h.sets += [f"--set {n}_dot={guesses[n]!r}" for n in (x, y)]
    if draw.chance(0.5):
        z = h.variable("zc", 1, start_mode(draw))
        kz, cz, Z0 = draw.coefficient(0.3, 1.5), draw.coefficient(0.3, 1.0), draw.coefficient(-1, 1)
        h.equations.append((jet(z, 1), -kz * jet(z) + cz * jet(x)))
        h.exact[z] = linear_piece(-kz, cz * exact[x], h.t0, Z0)
        if stationary:
            h.alternative[z] = linear_piece(-kz, cz * h.alternative[x], h.t0, Z0)
        described.append(f"{z} driven by {x}")
    if draw.chance(0.5):
        described.append(first_order_initial(draw, h))
    h.description += described


def first_order_initial(draw, h):
    """x1' = -k1*x1 + c1*z + s1(t), x2' = -k2*x2 + c2*x1 + s2(t), a relation for z; started by two
    initial equations (a derivative, a combination or a quadratic) from perturbed guesses."""
    x1, x2 = h.variable("x", 1, "guess"), h.variable("x", 1, "guess")
    z = h.variable("z", 0, "none")
    exact = {x1: draw.trajectory(), x2: draw.trajectory(),
             z: draw.trajectory(sympy.Rational(3, 5))}
    values = {jet(n): e for n, e in exact.items()}
    k1, k2 = draw.coefficient(0.3, 1.2), draw.coefficient(0.3, 1.2)
    c1, c2 = draw.coefficient(0.3, 1.0), draw.coefficient(0.3, 1.0, signed=True)
    Z = jet(z)
    relation = Z + Z**3 / 3 if draw.chance(0.5) else 2 * Z
    rhs1 = -k1 * jet(x1) - c1 * Z
    rhs2 = -k2 * jet(x2) + c2 * jet(x1)
    h.equations.append((jet(x1, 1), rhs1 + sympy.diff(exact[x1], t) - rhs1.xreplace(values)))
    h.equations.append((jet(x2, 1), rhs2 + sympy.diff(exact[x2], t) - rhs2.xreplace(values)))
    h.equations.append((relation, jet(x1) - jet(x2) +
                        relation.xreplace(values) - (exact[x1] - exact[x2])))
    h.exact.update(exact)
    forms = draw.sample(["derivative", "combination", "quadratic"], 2)
    at0 = {n: e.subs(t, h.t0) for n, e in exact.items()}
    texts = []
    for form in forms:
        if form == "derivative":
            n = draw.choice([x1, x2])
            h.initial.append((jet(n, 1), sympy.diff(exact[n], t).subs(t, h.t0)))
            texts.append(f"{n}' = value")
        elif form == "combination":
            f = draw.choice([2, -2, 3, sympy.Rational(1, 2)])
            h.initial.append((jet(x1) + f * jet(x2), at0[x1] + f * at0[x2]))
            texts.append(f"{x1} + {f}*{x2} = value")
        else:
            h.initial.append((jet(x1) ** 2 + jet(x2), at0[x1] ** 2 + at0[x2]))
            texts.append(f"{x1}^2 + {x2} = value")
    for v in h.variables[-3:-1]:
        exact0 = float(at0[v.name])
        v.guess = round(exact0 + draw.choice([-1, 1]) * (0.05 + 0.1 * abs(exact0)), 4)
        h.perturbed.append(v.name)
    return (f"first-order {x1}, {x2} (relation for {z}) started by " + " and ".join(texts) +
            " from perturbed guesses")


# -- algebraic switch ----------------------------------------------------------------------------

def _switching_pieces(h, modes, start_mode_on, Y0, switch):
    """Pieces of y' = alpha_m*y + f_m(t) switching mode where switch(t, y) changes sign:
    modes = {True: (alpha, f), False: (alpha, f)}; switch(y_expr) -> expression in t whose sign
    is the mode (positive: True). Returns (instants, pieces of y, modes of the pieces)."""
    mpmath.mp.dps = 50
    times, ys, ms = [], [], []
    S, Y, on = sympy.sympify(h.t0), Y0, start_mode_on
    t1 = float(h.t1)
    while True:
        alpha, forcing = modes[on]
        y = linear_piece(alpha, forcing, S, Y)
        ys.append(y)
        ms.append(on)
        g = switch(y)
        f = sympy.lambdify(t, g, "mpmath")
        fd = sympy.lambdify(t, sympy.diff(g, t), "mpmath")
        step = 0.002
        a = float(S) + 1e-6
        root = None
        previous = f(mpmath.mpf(a))
        if (previous > 0) != on:
            raise Rejected("the mode does not hold at the start of its piece")
        values = [previous]
        while a < t1:
            b = min(a + step, t1)
            value = f(mpmath.mpf(b))
            if (value > 0) != (previous > 0):
                root = mpmath.findroot(f, (mpmath.mpf(a), mpmath.mpf(b)), solver="illinois",
                                       tol=mpmath.mpf(10) ** -45)
                break
            values.append(value)
            a, previous = b, value
        # A near graze (the function comes within 0.01 of 0 and turns back) is no place for a
        # test of switching: the simulator's error could decide it.
        for u, v, w in zip(values, values[1:], values[2:]):
            if abs(v) < 0.01 and abs(u) > abs(v) < abs(w):
                raise Rejected("the switching function grazes 0")
        if root is None:
            break
        if abs(fd(root)) < 0.05 or root - S < 0.02 or t1 - root < 0.02:
            raise Rejected("a switch grazes, or comes too soon")
        if len(times) >= 10:
            raise Rejected("too many switches")
        root = sympy.Float(root, 50)
        times.append(root)
        Y = y.subs(t, root)
        S, on = root, not on
    return times, ys, ms


def block_diode(draw, h, instants):
    R, Ron, Goff = (draw.coefficient(0.5, 2.0), draw.coefficient(0.01, 0.1),
                    draw.coefficient(0.01, 0.1))
    C, Rl = draw.coefficient(0.2, 1.0), draw.coefficient(0.5, 3.0)
    A, w, phase = draw.coefficient(0.8, 2.0), draw.coefficient(2.0, 6.0), draw.coefficient(0, 3)
    U0 = draw.coefficient(-0.5, 0.5, signed=True)
    source = A * sympy.sin(w * t + phase)
    if abs(float((source - U0).subs(t, h.t0))) < 0.1:
        raise Rejected("the diode starts at its switch")
    modes = {True: (-(1 / (R + Ron) + 1 / Rl) / C, source / ((R + Ron) * C)),
             False: (-(Goff / (1 + R * Goff) + 1 / Rl) / C, Goff * source / ((1 + R * Goff) * C))}
    times, us, ms = _switching_pieces(h, modes, float((source - U0).subs(t, h.t0)) > 0, U0,
                                      lambda u: source - u)
    if not times:
        raise Rejected("no switch")
    u = h.variable("u", 1, start_mode(draw))
    s, v, i = h.variable("s", 0), h.variable("vd", 0), h.variable("i", 0)
    h.exact[u] = pieces(times, us)
    ss = [(source - uk) / (R + Ron) if on else (source - uk) / (1 + R * Goff)
          for uk, on in zip(us, ms)]
    h.exact[s] = pieces(times, ss)
    h.exact[v] = pieces(times, [Ron * sk if on else sk for sk, on in zip(ss, ms)])
    h.exact[i] = pieces(times, [sk if on else Goff * sk for sk, on in zip(ss, ms)])
    S = jet(s)
    off = sympy.StrictLessThan(S, 0)
    h.equations += [(C * jet(u, 1), jet(i) - jet(u) / Rl),
                    (source - jet(u), R * jet(i) + jet(v)),
                    (jet(v), sympy.Piecewise((S, off), (Ron * S, True))),
                    (jet(i), sympy.Piecewise((Goff * S, off), (S, True)))]
    for time in times:
        instants.add(time, None)
    return (f"an ideal diode ({s} < 0: off) from {A}*sin({w}*t + {phase}) into C = {C}, "
            f"Rl = {Rl}: {len(times)} switches")


def block_threshold(draw, h, instants):
    k = draw.coefficient(1.0, 2.0)
    a = r2(k * sympy.Rational(round(draw.rng.uniform(0.3, 0.9) * 100), 100))
    b, w = draw.coefficient(0.5, 1.5), draw.coefficient(1.5, 4.0)
    c, d = draw.coefficient(0.2, 0.8), draw.coefficient(0.0, 0.5, signed=True)
    X0 = draw.coefficient(-0.5, 0.5, signed=True)
    wave = b * sympy.sin(w * t)
    z0 = float((X0 + wave - c).subs(t, h.t0))
    if abs(z0) < 0.1:
        raise Rejected("the threshold starts at its switch")
    modes = {True: (a - k, a * wave - a * c + d), False: (-k, d + 0 * t)}
    times, xs, ms = _switching_pieces(h, modes, z0 > 0, X0, lambda x: x + wave - c)
    if not times:
        raise Rejected("no switch")
    x = h.variable("x", 1, start_mode(draw))
    z, p = h.variable("z", 0), h.variable("p", 0)
    h.exact[x] = pieces(times, xs)
    h.exact[z] = pieces(times, [xk + wave for xk in xs])
    h.exact[p] = pieces(times, [a * (xk + wave - c) if on else sympy.Integer(0)
                                for xk, on in zip(xs, ms)])
    h.equations += [(jet(x, 1), -k * jet(x) + jet(p) + d),
                    (jet(z), jet(x) + wave),
                    (jet(p), sympy.Piecewise((a * (jet(z) - c), sympy.StrictGreaterThan(
                        jet(z), c)), (0, True)))]
    for time in times:
        instants.add(time, None)
    return f"{p} = if {z} > {c} then {a}*({z} - {c}) else 0 on algebraic {z}: " \
           f"{len(times)} switches"


def kind_algebraic_switch(draw, h):
    h.index = 1
    names = draw.choice([["diode"], ["diode"], ["threshold"], ["diode", "threshold"]])
    instants = Instants()
    for name in names:
        block = block_diode if name == "diode" else block_threshold
        h.description.append(block(draw, h, instants))
    _place_instants(h, instants)


BUILDERS = {"promoted": kind_promoted, "reset": kind_reset, "sensitivity": kind_sensitivity,
            "initial": kind_initial, "algebraic_switch": kind_algebraic_switch}


def attempt(seed, kind, number):
    """The text of one try at model `seed` of `kind`, or None if the draw is rejected."""
    draw = Draw(random.Random(f"{seed}:{kind}:{number}"))
    h = Hybrid()
    h.t0 = sympy.sympify(draw.choice([0, 0, 0, sympy.Rational(1, 2), 1]))
    lengths = [sympy.Rational(3, 2), 2, 3] if kind in ("reset", "algebraic_switch") else \
        [1, sympy.Rational(3, 2), 2]
    h.t1 = h.t0 + draw.choice(lengths)
    try:
        BUILDERS[kind](draw, h)
    except Rejected:
        return None
    style = draw.rng.choices(["prime", "der"], weights=[7, 3])[0]
    name = f"oracle_{seed}"
    file = h.file(name, kind, seed, style)
    starts = {v.name: v.start for v in h.variables}
    file.structure += "; start: " + ", ".join(
        f"{n} {s}" for n, s in starts.items() if s in ("fixed", "written")) + (
        f"; initial equations: {len(h.initial)}" if h.initial else "")
    text = __import__("model_file").write(file)
    try:
        hy.verify(h, text)
    except hy.Rejected:
        return None
    return text


def generate(seed, kind):
    for number in range(100):
        text = attempt(seed, kind, number)
        if text is not None:
            return text
    raise hy.HybridError(f"seed {seed}: no usable {kind} model in 100 draws")
