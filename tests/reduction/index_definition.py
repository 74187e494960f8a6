#!/usr/bin/env python3
"""daec's differentiation index against the definition, computed independently.

For each model below, the index is computed from the model's equations alone with the derivative
array of scripts/oracle/index_analysis.py (Campbell and Gear's definition: the smallest k for
which the equations and their first k derivatives determine every first derivative), evaluated
along the given trajectory, and compared with the index `daec --check` reports. The models are
linear with constant coefficients, so the derivative array does not depend on the trajectory;
the exact solutions are given anyway.

usage: index_definition.py DAEC   (run by CTest from the source directory)
"""
import os
import re
import subprocess
import sys

import sympy

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "oracle"))
from index_analysis import DerivativeArray, differentiation_index  # noqa: E402
from jets import jet, orders_in, t  # noqa: E402

CASES = [
    # (model, {variable: a trajectory})
    ("tests/data/reissig.dae", {"x1": "exp(-t)", "x2": "exp(-t)", "x3": "sin(t)",
                                "x4": "sin(t)", "x5": "cos(t)"}),
    ("tests/data/capacitors_si.dae", {"u1": "sin(t)/3", "u2": "2*sin(t)/3", "i": "cos(t)",
                                      "w": "cos(t) + 1"}),
]


def parameters(text):
    """{name: value} of the `parameter a = 1, b = 2;` lines (numbers only)."""
    values = {}
    for line in re.findall(r"^\s*parameter\s+(.*?);", text, re.M):
        for name, value in re.findall(r"(\w+)\s*=\s*([-+0-9.eE]+)", line):
            values[name] = sympy.Rational(value)
    return values


def residuals(text, names):
    """The equations `[label:] lhs = rhs;` of the equation section, as sympy expressions."""
    section = text.split("\nequation", 1)[1].rsplit("\nend", 1)[0]
    local = {name: jet(name) for name in names}
    local.update({f"{name}__d{k}": jet(name, k) for name in names for k in (1, 2)})
    local.update(parameters(text))
    local["t"] = t
    out = []
    for statement in section.split(";"):
        statement = re.sub(r"^\s*\w+\s*:", "", statement.strip())
        if not statement:
            continue
        statement = re.sub(r"(\w+)''", r"\1__d2", statement)
        statement = re.sub(r"(\w+)'", r"\1__d1", statement).replace("^", "**")
        lhs, rhs = statement.split("=")
        out.append(sympy.sympify(lhs, locals=local) - sympy.sympify(rhs, locals=local))
    return out


def daec_index(daec, model):
    result = subprocess.run([daec, model, "--check"], capture_output=True, text=True, check=True)
    return int(re.search(r"^reduction: index ([0-9]+)", result.stdout, re.M).group(1))


def main():
    daec = sys.argv[1]
    failures = 0
    for model, trajectory in CASES:
        text = open(model).read()
        names = list(trajectory)
        equations = residuals(text, names)
        orders = {n: 0 for n in names}
        for e in equations:
            for name, order in orders_in(e, names).items():
                orders[name] = max(orders[name], order)
        exact = {n: sympy.sympify(v, locals={"t": t}) for n, v in trajectory.items()}
        expected = differentiation_index(DerivativeArray(equations, exact, orders, 0.3))
        found = daec_index(daec, model)
        verdict = "ok" if found == expected else "DIFFERS"
        print(f"{model}: definition {expected}, daec {found}: {verdict}")
        failures += found != expected
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
