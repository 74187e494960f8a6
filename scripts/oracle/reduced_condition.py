#!/usr/bin/env python3
"""How well conditioned daec's index-1 system of an oracle model is along its exact solution.

    reduced_condition.py MODEL.dae [--daec PATH] [--points N]

A diagnostic for failures: compiles the code daec generates for the model with a small harness,
evaluates at N times (default 201) of the model's interval, at the exact state, the matrix A of
daec's algebraic equations A(X, t) Z = b(X, t) and the invariants h(X, t), and prints the worst
condition number of A and the largest invariant residual, with their times. The generator checks
that the *model* is regular along its exact solution; a huge condition number here therefore
points to daec's reduction (for example a null-space combination whose coefficients vanish on
the solution), a large invariant residual to a wrong hidden constraint.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import sympy

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import model_file  # noqa: E402
from jets import t  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

HARNESS = r"""
#include <cstdio>
#include <vector>
#include "model.h"
using Model = oracle_harness::Model;
int main() {
  const int n = Model::num_states, m = Model::num_algebraic, k = Model::num_invariants;
  std::printf("%d", m);
  for (int i = 0; i < n; ++i) std::printf(" %s", Model::state_names[i]);
  std::printf("\n");
  Model model;
  std::vector<double> x(n), xdot(n + 1), z(m + 1), dx((n + m) * n + 1), dxdot((n + m) * n + 1),
      dz((n + m) * m + 1), h(k + 1);
  double t;
  while (std::scanf("%lf", &t) == 1) {
    for (double& v : x) std::scanf("%lf", &v);
    int status = model.rhs(t, x.data(), xdot.data(), z.data());
    model.residual_jacobian(t, x.data(), xdot.data(), z.data(), dx.data(), dxdot.data(), dz.data());
    model.invariants(t, x.data(), h.data());
    std::printf("%d", status);
    for (int i = n; i < n + m; ++i)
      for (int j = 0; j < m; ++j) std::printf(" %.17g", dz[i * m + j]);
    for (int i = 0; i < k; ++i) std::printf(" %.17g", h[i]);
    std::printf("\n");
  }
}
"""


def state_value(name, exact, time):
    """The exact value of daec state `name`: a variable, or one of its derivatives as daec names
    them (NAME_dot, NAME_dot_dot, NAME_d3, ...)."""
    base, order = name, 0
    while base not in exact:
        if base.endswith("_dot"):
            base, order = base[: -len("_dot")], order + 1
        elif re.search(r"_d[0-9]+$", base):
            stem, digits = base.rsplit("_d", 1)
            base, order = stem, order + int(digits)
        else:
            raise KeyError(name)
    return float(sympy.diff(exact[base], t, order).subs(t, time))


def profile(model_path, daec, points):
    with open(model_path) as f:
        model = model_file.read(f.read())
    exact = model_file.exact_expressions(model)
    with tempfile.TemporaryDirectory() as work:
        subprocess.run([daec, os.path.abspath(model_path), "--namespace", "oracle_harness", "-o",
                        "model.cpp", "--header", "model.h"], cwd=work, check=True,
                       capture_output=True)
        with open(os.path.join(work, "harness.cpp"), "w") as f:
            f.write(HARNESS)
        subprocess.run(["g++", "-std=c++17", "-O1", "harness.cpp", "model.cpp", "-o", "harness"],
                       cwd=work, check=True)
        header = subprocess.run(["./harness"], cwd=work, input="", capture_output=True,
                                text=True).stdout.split()
        m, names = int(header[0]), header[1:]
        times = np.linspace(model.t0, model.t1, points)
        lines = [" ".join([repr(float(time))] + [repr(state_value(n, exact, time)) for n in names])
                 for time in times]
        output = subprocess.run(["./harness"], cwd=work, input="\n".join(lines) + "\n",
                                capture_output=True, text=True, check=True).stdout.splitlines()[1:]
    worst_condition, worst_residual = (0.0, None), (0.0, None)
    for time, line in zip(times, output):
        values = [float(v) for v in line.split()]
        status, rest = int(values[0]), values[1:]
        A = np.array(rest[: m * m]).reshape(m, m)
        h = np.array(rest[m * m:])
        condition = np.inf if status else (np.linalg.cond(A) if m else 1.0)
        if not condition <= worst_condition[0]:
            worst_condition = (condition, time)
        residual = float(np.max(np.abs(h))) if h.size else 0.0
        if residual > worst_residual[0]:
            worst_residual = (residual, time)
    return worst_condition, worst_residual


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("--daec", default=os.path.join(ROOT, "build", "daec"))
    parser.add_argument("--points", type=int, default=201)
    args = parser.parse_args()
    (condition, at), (residual, where) = profile(args.model, args.daec, args.points)
    print(f"condition number of A: at most {condition:.3g} (at t = {at:.6g})")
    print(f"largest invariant residual on the exact solution: {residual:.3g}"
          + (f" (at t = {where:.6g})" if where is not None else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
