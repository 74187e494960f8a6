"""The worked example of docs/sensitivities.md: three parameters of the double pendulum
(models/double_pendulum.dae, index 3) fitted to noisy positions with scipy.optimize.least_squares,
once with the forward sensitivities as the Jacobian (Model.simulate(..., sensitivities=...)) and
once by finite differences, compared: iterations, simulations, time, final error. Every claim it
prints is checked (assert).

    /usr/bin/python3 fit_double_pendulum.py DIR      # DIR holds the module double_pendulum_py

The test suite runs this file (tests/e2e/parameters_test.cpp).
"""
import sys
import time

import numpy as np
from scipy.optimize import least_squares

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".")

import double_pendulum_py  # noqa: E402  (after the path)

NAMES = ["m2", "L2", "g"]           # the parameters fitted
OBSERVED = ["x1", "y1", "x2", "y2"]  # the positions measured
TRUTH = [1.5, 0.8, 9.81]            # what made the data
GUESS = [1.0, 1.0, 9.0]             # where the fits start
NOISE = 1e-3                        # standard deviation of each measured position [m]
TOLERANCE = 1e-8                    # rtol = atol of every simulation of the fits

model = double_pendulum_py.Model()
t = np.linspace(0.0, 2.0, 41)
exact = model.simulate(t, set=dict(zip(NAMES, TRUTH)), rtol=1e-11, atol=1e-11)
rng = np.random.default_rng(20261205)
data = np.column_stack([exact[n] for n in OBSERVED]) + NOISE * rng.standard_normal((t.size, 4))


class Fit:
    """The residuals of one fit, and their Jacobian from the same simulation where it has one."""

    def __init__(self, sensitivities):
        self.sensitivities = sensitivities
        self.simulations = 0
        self.last = None  # (p, residuals, Jacobian or None)

    def simulate(self, p):
        self.simulations += 1
        extra = {"sensitivities": NAMES} if self.sensitivities else {}
        r = model.simulate(t, set=dict(zip(NAMES, p)), rtol=TOLERANCE, atol=TOLERANCE, **extra)
        residuals = (np.column_stack([r[n] for n in OBSERVED]) - data).ravel()
        jacobian = None
        if self.sensitivities:
            jacobian = np.column_stack([
                np.column_stack([r[f"d({n})/d({q})"] for n in OBSERVED]).ravel() for q in NAMES])
        self.last = (np.array(p, dtype=float), residuals, jacobian)

    def residuals(self, p):
        if self.last is None or not np.array_equal(self.last[0], p):
            self.simulate(p)
        return self.last[1]

    def jacobian(self, p):
        if self.last is None or not np.array_equal(self.last[0], p):
            self.simulate(p)
        return self.last[2]


fits = {}
for label, sensitivities in [("sensitivities", True), ("finite differences", False)]:
    fit = Fit(sensitivities)
    started = time.process_time()
    result = least_squares(fit.residuals, GUESS, x_scale="jac",
                           jac=fit.jacobian if sensitivities else "2-point")
    seconds = time.process_time() - started
    # The standard errors of the estimate from the Jacobian at the solution and the noise.
    errors = NOISE * np.sqrt(np.diag(np.linalg.inv(result.jac.T @ result.jac)))
    fits[label] = (result, fit.simulations)
    print(f"{label}: {result.nfev} iterations, {fit.simulations} simulations, "
          f"{seconds:.2f} s CPU")
    for name, value, truth, error in zip(NAMES, result.x, TRUTH, errors):
        print(f"  {name} = {value:.5f} (true {truth}, standard error {error:.1e})")
        assert abs(value - truth) < 4 * error, (name, value, truth, error)
    rms = np.sqrt(np.mean(result.fun ** 2))
    print(f"  rms residual {rms:.2e} m (noise {NOISE:g} m)")
    assert 0.8 * NOISE < rms < 1.2 * NOISE

by_sensitivities, by_differences = fits["sensitivities"], fits["finite differences"]
assert np.allclose(by_sensitivities[0].x, by_differences[0].x, rtol=1e-5)
assert by_sensitivities[1] < by_differences[1]
print(f"the same estimate from {by_sensitivities[1]} simulations instead of {by_differences[1]}")
