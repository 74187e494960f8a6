#!/usr/bin/env python3
"""Writes the N-pendulum of bench/high_index.sh as a .dae model: a pendulum in Cartesian
coordinates (index 3) and N - 1 pendulums in angles, each one's angle tied to the force of the one
before (phi_i = c * mu_{i-1}, mu_1 = lam): determining mu_i takes two more differentiations than
mu_{i-1}, so the index is 2N + 1. Released from rest at x = 0.6 (fixed: the angles and their
rates are found from it; left free, consistent initialization is drawn to the horizontal position,
where the hidden constraints lose rank).

usage: n_pendulum.py N > model.dae
"""
import sys


def model(n):
    lines = [
        f'model n_pendulum "{n} pendulums, each angle tied to the force of the one before: '
        f'index {2 * n + 1}";',
        "parameter g = 9.81, c = 0.1;",
        "variable x(start = 0.6, fixed = true), y(start = -0.8), lam;",
    ]
    for i in range(2, n + 1):
        lines.append(f"variable phi{i}, mu{i};")
    lines += ["equation", "  x'' = -lam*x;", "  y'' = -lam*y - g;", "  rod: x^2 + y^2 = 1;"]
    force = "lam"
    for i in range(2, n + 1):
        lines.append(f"  phi{i}'' = -g*sin(phi{i}) + mu{i};")
        lines.append(f"  tie{i}: phi{i} = c*{force};")
        force = f"mu{i}"
    lines.append("end n_pendulum;")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit(__doc__)
    sys.stdout.write(model(int(sys.argv[1])))
