#!/usr/bin/env python3
"""Generates random DAE models with known exact solutions and known differentiation index.

    generate.py --seed S [--kind KIND] -o FILE.dae      one model
    generate.py --seed S --count N --out DIR            seeds S ... S+N-1: DIR/oracle_<seed>.dae
    generate.py --list-kinds

A model is built in four steps (see the module of each):
1. structured.py: a Hessenberg-like DAE (ODE, index 1, 2, 3, chains, combinations) with chosen
   smooth exact trajectories and the source terms that make them exact;
2. conditioning.py: regular (closure matrix well conditioned) and a well-conditioned
   initial-value problem on the interval, else another draw;
3. disguise.py: a random invertible nonlinear coordinate change and mixing of the equations;
4. rendering.py / model_file.py: the .dae text with a header giving the seed, the index, the
   interval, the simulator arguments and the exact solution of every variable.
The file is then read back and verified: every equation vanishes on the exact solution, and the
derivative array (index_analysis.py) gives the intended index. The same seed gives the same file.
"""
import argparse
import os
import random
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mpmath  # noqa: E402
import sympy  # noqa: E402

import conditioning  # noqa: E402
import hybrid  # noqa: E402
import index_analysis  # noqa: E402
import meeting  # noqa: E402
import model_file  # noqa: E402
import starts  # noqa: E402
import structured as blocks  # noqa: E402
from disguise import disguise  # noqa: E402
from jets import jet, t  # noqa: E402
from printing import evaluate_exact  # noqa: E402
from random_terms import Draw  # noqa: E402
from rendering import equation_text  # noqa: E402

CLASSIC = {  # kind: (weight, what it builds)
    "ode": (15, "explicit or implicit ODE, first and second order (index 0)"),
    "index1": (25, "x' = f(x, z), 0 = g(x, z); z linear, nonlinear or mixed (index 1)"),
    "index2": (20, "Hessenberg index 2, optionally with an index-1 variable (index 2)"),
    "index3": (25, "constrained mechanical system, first- or second-order form (index 3)"),
    "chain": (5, "index-2 or index-3 chain with a coupled ODE block"),
    "combined": (10, "a high-index block driving an index-1 or ODE block"),
}
#: The share of models of the kinds where features meet (meeting.py), the rest classic.
MEETING_SHARE = 0.35
KINDS = {**CLASSIC, **meeting.KINDS}
#: Groups of kinds --kind takes besides a kind's name (and comma-separated lists).
GROUPS = {"all": list(KINDS), "classic": list(CLASSIC), "meeting": list(meeting.KINDS)}


class GeneratorError(Exception):
    """The generator contradicts itself (a bug in the generator, not in daec)."""


def share(kind):
    """The share of `kind` among the models of a run of every kind (percent)."""
    if kind in CLASSIC:
        return CLASSIC[kind][0] * (1 - MEETING_SHARE)
    return meeting.KINDS[kind][0] * MEETING_SHARE


def kinds_of(selection):
    """The kinds a --kind selection names (a kind, a group, or a comma-separated list)."""
    if not selection:
        return list(KINDS)
    kinds = []
    for word in selection.split(","):
        word = word.strip()
        if word in GROUPS:
            kinds += GROUPS[word]
        elif word in KINDS:
            kinds.append(word)
        else:
            raise ValueError(f"unknown kind '{word}' (kinds: {', '.join(KINDS)}; groups: "
                             f"{', '.join(GROUPS)})")
    return list(dict.fromkeys(kinds))


def choose_kind(seed, kinds=None):
    """The kind of model `seed` among `kinds` (default all). The classic kinds are drawn as they
    always were (so that a seed whose kind is classic gives the model it gave before the meeting
    kinds existed); a draw of its own then gives MEETING_SHARE of the seeds a meeting kind."""
    kinds = kinds or list(KINDS)
    classic = [k for k in CLASSIC if k in kinds]
    new = [k for k in meeting.KINDS if k in kinds]
    draw = Draw(random.Random(f"{seed}:kind"))
    kind = draw.rng.choices(classic, weights=[CLASSIC[k][0] for k in classic])[0] if classic \
        else None
    if new:
        other = random.Random(f"{seed}:meeting kind")
        if kind is None or other.random() < MEETING_SHARE:
            kind = other.choices(new, weights=[meeting.KINDS[k][0] for k in new])[0]
    return kind


def build(draw, kind):
    """The structured DAE of `kind`."""
    b = blocks.Builder(draw)
    if kind == "ode":
        blocks.ode_block(b, draw.integer(2, 8), draw.chance(0.4))
    elif kind == "index1":
        if draw.chance(0.3):
            blocks.ode_block(b, draw.integer(2, 3), False)
        blocks.index1_block(b, draw.integer(1, 5), draw.integer(1, 4),
                            draw.choice(["linear", "nonlinear", "mixed"]))
    elif kind == "index2":
        m = draw.integer(1, 3)
        blocks.index2_block(b, draw.integer(m + 1, 6), m, draw.chance(0.35),
                            draw.choice([None, None, "linear", "nonlinear"]))
    elif kind == "index3":
        nq = draw.integer(2, 4)
        blocks.mechanical_block(b, nq, draw.integer(1, nq - 1), draw.chance(0.4),
                                draw.chance(0.25))
    elif kind == "chain":
        blocks.chain_block(b, draw.integer(2, 3))
        blocks.ode_block(b, draw.integer(2, 3), False)
    else:
        first = draw.choice(["mechanical", "index2", "chain"])
        if first == "mechanical":
            blocks.mechanical_block(b, draw.integer(2, 3), 1, draw.chance(0.4), draw.chance(0.25))
        elif first == "index2":
            blocks.index2_block(b, 3, 1, draw.chance(0.35), None)
        else:
            blocks.chain_block(b, 3)
        if draw.chance(0.5):
            blocks.index1_block(b, 2, draw.integer(1, 2), draw.choice(["linear", "nonlinear"]))
        else:
            blocks.ode_block(b, draw.integer(2, 3), draw.chance(0.3))
    if b.dae.index <= 1 and draw.chance(0.15):  # an equation nonlinear in its derivative
        candidates = [d for d in b.dae.dynamics if d.order == 1 and d.mass == 1]
        if candidates:
            dynamic = draw.choice(candidates)
            dynamic.cubic = draw.coefficient(0.1, 0.3)
            b.dae.description.append(f"{dynamic.name}' also enters cubically")
    return b.dae


def labels(draw, count):
    """Labels for some of `count` equations ('' for unlabelled ones)."""
    words = draw.shuffled(["balance", "link", "force", "con", "law", "rel"])
    return [f"{words[i % len(words)]}{i + 1}" if draw.chance(0.3) else "" for i in range(count)]


def verify_residuals(residuals, exact, t0, t1):
    """Every residual vanishes on the exact solution (40 digits, 11 times in [t0, t1])."""
    mpmath.mp.dps = 40
    names = list(exact)
    values = {}
    for name in names:
        expr = exact[name]
        for order in range(3):
            values[jet(name, order)] = expr
            expr = sympy.diff(expr, t)
    for i, residual in enumerate(residuals):
        f = sympy.lambdify(t, residual.xreplace(values), "mpmath")
        for k in range(11):
            time = mpmath.mpf(t0) + (mpmath.mpf(t1) - t0) * k / 10
            value = f(time)
            if abs(value) > mpmath.mpf(10) ** -25:
                raise GeneratorError(f"equation {i + 1} is {value} at t = {time} on the exact "
                                     "solution")


def verify_exact_text(model, exact):
    """The header's C text of every exact solution evaluates to the sympy expression."""
    for name, text in model.exact.items():
        for k in range(11):
            time = model.t0 + (model.t1 - model.t0) * k / 10
            a, b = evaluate_exact(text, time), float(exact[name].subs(t, time))
            if abs(a - b) > 1e-12 * (1 + abs(b)):
                raise GeneratorError(f"exact text of {name} gives {a}, not {b}, at t = {time}")


def verify_initial_equations(model, exact, t0):
    """Every initial equation, as read back from the file, holds on the exact solution at t0 (to
    the rounding of its written value)."""
    values = {}
    for name, expr in exact.items():
        for order in range(3):
            values[jet(name, order)] = sympy.diff(expr, t, order).subs(t, t0)
    for residual, (_, lhs, rhs) in zip(model_file.initial_residuals(model),
                                       model.initial_equations):
        value = float(residual.xreplace(values).subs(t, t0).evalf(30))
        if abs(value) > 1e-14 * (1 + abs(float(rhs))):
            raise GeneratorError(f"initial equation {lhs} = {rhs} is off by {value} at t0")


def start_values(draw, exact, t0, orders, conditions, perturb):
    """(variables [(name, start, fixed)], velocity guesses as --set arguments, perturbed names):
    the fixed starts at the exact solution, every other start value a guess, on the exact
    solution or (perturb) off it by 1 %. A velocity that an initial equation gives alone needs no
    guess."""
    fixed = {c.fixed_name() for c in conditions} - {None}
    given_velocities = {next(iter(c.gradient))[0] for c in conditions
                        if c.kind == "velocity"}
    variables, sets, perturbed = [], [], []
    for name, expr in exact.items():
        start = float(expr.subs(t, t0))
        if perturb and name not in fixed:
            start += 0.01 * (1 + abs(start)) * draw.choice([-1, 1])
            perturbed.append(name)
        variables.append((name, start, name in fixed))
        if orders[name] == 2 and name not in given_velocities:
            velocity = float(sympy.diff(expr, t).subs(t, t0))
            if perturb:
                velocity += 0.01 * (1 + abs(velocity)) * draw.choice([-1, 1])
                perturbed.append(f"{name}_dot")
            sets.append(f"--set {name}_dot={velocity!r}")
    return variables, sets, perturbed


def attempt(seed, kind, number):
    """One try at the model of `seed`; None if the draw is rejected (ill conditioned)."""
    draw = Draw(random.Random(f"{seed}:{number}"))
    t0 = draw.choice([0, 0, 0, 0.5, 1])
    t1 = t0 + draw.choice([1, 1.5, 2])
    dae = build(draw, kind)
    sourced = blocks.with_sources(dae)
    try:
        conditioning.check(dae, sourced, t0, t1)
    except conditioning.IllConditioned:
        return None
    coordinates = draw.rng.choices(["identity", "within", "cross"], weights=[3, 5, 2])[0]
    mixing = draw.rng.choices(["none", "dynamic", "all"], weights=[40, 40, 20])[0]
    model = disguise(draw, dae, sourced, coordinates, mixing)
    style = draw.rng.choices(["prime", "der", "mixed"], weights=[6, 2, 2])[0]
    parameters = set(model.parameters)
    name = f"oracle_{seed}"
    text_of = [equation_text(e, draw, style, parameters) for e in model.equations]
    file = model_file.ModelFile(
        name, kind, str(seed), "; ".join(model.description) + f"; coordinates: {coordinates}; "
        f"equations mixed: {mixing}", model.index, t0, t1,
        exact=model_file.exact_header(model.exact()),
        parameters=[(p.name, v) for p, v in model.parameters.items()],
        variables=[(n, 0.0, False) for n in model.names()],
        equations=[(label, lhs, rhs) for label, (lhs, rhs) in
                   zip(labels(draw, len(text_of)), text_of)])
    residuals = model_file.residuals(model_file.read(model_file.write(file)))
    exact = model.exact()
    verify_residuals(residuals, exact, t0, t1)
    verify_exact_text(file, exact)
    orders = model.orders()
    try:
        at_start = index_analysis.DerivativeArray(residuals, exact, orders, t0)
        index = index_analysis.differentiation_index(at_start)
    except index_analysis.RankUndecided:
        return None
    if index != model.index:
        raise GeneratorError(f"seed {seed}: built for index {model.index}, the derivative array "
                             f"gives {index}")
    manifold = index_analysis.StartManifold(at_start, model.index)
    conditions = starts.plain(manifold, orders)
    rng = random.Random(f"{seed}:starts")  # apart from the model's draws
    if rng.random() < starts.VARIED_SHARE:
        conditions = starts.vary(rng, manifold, orders, conditions)
    if manifold.smallest_singular_value([c.gradient for c in conditions]) == 0 and \
            len(conditions) == manifold.d:
        raise GeneratorError(f"seed {seed}: the start conditions do not determine the start")
    perturb = len(conditions) == manifold.d and draw.chance(0.5)
    file.variables, sets, file.perturbed = start_values(draw, exact, t0, orders, conditions,
                                                        perturb)
    file.initial_equations = starts.initial_equations(conditions, exact, t0, style, rng)
    file.structure += "; " + starts.summary(conditions)
    file.fixed = [name for name, _, fixed in file.variables if fixed]
    file.simulate = " ".join([f"--t-start {t0!r} --t-end {t1!r}"] + sets)
    written = model_file.write(file)
    verify_initial_equations(model_file.read(written), exact, t0)
    return written


def generate(seed, kind=None):
    """The text of oracle model `seed` (of `kind`, default: the seed's own choice; a group or a
    list of kinds: the seed's choice among them)."""
    if not kind or kind not in KINDS:
        kind = choose_kind(seed, kinds_of(kind))
    if kind in meeting.KINDS:
        try:
            return meeting.generate(seed, kind)
        except hybrid.HybridError as e:
            raise GeneratorError(str(e)) from e
    for number in range(100):
        text = attempt(seed, kind, number)
        if text is not None:
            return text
    raise GeneratorError(f"seed {seed}: no well-conditioned {kind} model in 100 draws")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int)
    parser.add_argument("--kind", help="a kind, a group (all, classic, meeting) or a "
                        "comma-separated list; default: the seed's choice among all")
    parser.add_argument("-o", "--output", help="the model file ('-': standard output)")
    parser.add_argument("--count", type=int, help="write COUNT models, seeds SEED ... into --out")
    parser.add_argument("--out", help="the directory for --count")
    parser.add_argument("--list-kinds", action="store_true")
    args = parser.parse_args()
    if args.list_kinds:
        for kind, (_, text) in KINDS.items():
            print(f"{kind:16} {share(kind):5.2f}%  {text}")
        return 0
    if args.kind:
        try:
            kinds_of(args.kind)
        except ValueError as e:
            parser.error(str(e))
    if args.seed is None or (args.count is None) == (args.output is None):
        parser.error("give --seed and either -o FILE or --count N --out DIR")
    if args.count is not None:
        if not args.out:
            parser.error("--count needs --out DIR")
        os.makedirs(args.out, exist_ok=True)
        for seed in range(args.seed, args.seed + args.count):
            with open(os.path.join(args.out, f"oracle_{seed}.dae"), "w") as out:
                out.write(generate(seed, args.kind))
        return 0
    text = generate(args.seed, args.kind)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as out:
            out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
