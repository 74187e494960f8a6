#!/usr/bin/env python3
"""The N-pendulum of n_pendulum.py solved independently of daec, for checking its simulations.

The Cartesian pendulum is the angle theta with theta'' = -g sin(theta) (x = sin(theta),
y = -cos(theta), unit rod), released from rest at x = 0.6, y = -0.8. Everything else follows from
theta and omega = theta' by the model's equations: lam = omega^2 + g cos(theta) (from the rod's
second derivative), phi_2 = c lam, mu_i = phi_i'' + g sin(phi_i), phi_{i+1} = c mu_i, where each
time derivative is taken symbolically along the flow (d/dt = omega d/dtheta - g sin(theta)
d/domega). theta(t) comes from SciPy's DOP853 at rtol 1e-13.

usage: reference.py N T1 [T2 ...]   prints a CSV: t, x, y, lam, phi2, mu2, ..., phiN, muN
(mu_N is left out: no equation ties it to the next one, and it takes two more derivatives).
"""
import sys

import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp

G, C = 9.81, 0.1


def expressions(n):
    theta, omega = sp.symbols("theta omega")

    def d(e):  # the time derivative along theta' = omega, omega' = -g sin(theta)
        return sp.diff(e, theta) * omega + sp.diff(e, omega) * (-G * sp.sin(theta))

    names = ["x", "y", "lam"]
    lam = omega**2 + G * sp.cos(theta)
    values = [sp.sin(theta), -sp.cos(theta), lam]
    force = lam
    for i in range(2, n + 1):
        phi = C * force
        names.append(f"phi{i}")
        values.append(phi)
        if i == n:
            break
        mu = d(d(phi)) + G * sp.sin(phi)
        names.append(f"mu{i}")
        values.append(mu)
        force = mu
    return names, sp.lambdify((theta, omega), values, "numpy")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    n = int(sys.argv[1])
    times = sorted(float(t) for t in sys.argv[2:])
    names, evaluate = expressions(n)
    theta0 = np.arcsin(0.6)
    solution = solve_ivp(lambda t, s: [s[1], -G * np.sin(s[0])], (0.0, times[-1]), [theta0, 0.0],
                         method="DOP853", rtol=1e-13, atol=1e-13, t_eval=times)
    print(",".join(["t"] + names))
    for k, t in enumerate(solution.t):
        row = evaluate(solution.y[0][k], solution.y[1][k])
        print(",".join([repr(t)] + [repr(float(v)) for v in row]))


if __name__ == "__main__":
    main()
