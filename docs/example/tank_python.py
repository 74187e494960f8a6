"""The worked example of docs/python.md, on the tank of tank.dae (a pump switches on when the level
falls to h_on): daec's simulator in process (Model.simulate) against the exact solution, a sweep
over the pump's inflow, SciPy's solve_ivp on the vectorized right-hand side with the switch as
an event, and a run that fails. Every claim it prints is checked (assert).

    /usr/bin/python3 tank_python.py DIR      # DIR holds the module tank_py

Debian's /usr/bin/python3 is the interpreter with python3-numpy and python3-scipy, the one the
module is built for; the test suite runs this file (tests/e2e/python_test.cpp).
"""
import sys

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".")

import numpy as np
from scipy.integrate import solve_ivp

import tank_py

m = tank_py.Model()
t = np.linspace(0.0, 4.0, 41)
r = m.simulate(t)  # daec's simulator: its default method, events, rtol 1e-8
print(r.names, r.statistics["method"], r.y.shape)
for time, condition, value in r.events:
    print(f"event at t = {time:.10f}: {condition} -> {value}")

# Until the pump starts at t* = sqrt(2), h = (sqrt(2) - t/2)^2; then t(s) for s = sqrt(h) is
# t* + 2 (s* - s) + 2 q log((q - s*) / (q - s)) (A = 1, s* = sqrt(h_on)).
t_switch, s_switch, q = np.sqrt(2.0), np.sqrt(0.5), 0.5
assert abs(r.events[0][0] - t_switch) < 1e-9
draining = t < t_switch
assert np.allclose(r["h"][draining], (t_switch - t[draining] / 2) ** 2, rtol=1e-8, atol=1e-10)
s = np.sqrt(r["h"][~draining])
exact_t = t_switch + 2 * (s_switch - s) + 2 * q * np.log((q - s_switch) / (q - s))
assert np.allclose(exact_t, t[~draining], atol=1e-6)
print("h(t) matches the exact solution on both sides of the switch")
assert np.allclose(r["outflow"], np.sqrt(r["h"]))  # the algebraic unknown, A*sqrt(h)

# A parameter sweep: the level settles at (q/A)^2 below h_on.
print("q    level at t = 40")
for inflow in (0.1, 0.3, 0.5, 0.7):
    m.parameters = {"q": inflow}
    level = m.simulate([0.0, 40.0])["h"][-1]
    assert abs(level - inflow**2) < 1e-6
    print(f"{inflow:.1f}  {level:.6f}")

# SciPy on the same model: vectorized right-hand side, the switch as a terminal event (up to
# t = 2: a longer first step would try h < 0, where sqrt(h) fails, before it sees the event).
m.parameters = {"q": 0.5}
x0 = m.consistent_initialization(0.0, m.initial_state())
m.set_modes(0.0, x0)  # the pump's relation held at its start value until the event


def pump_starts(time, x):
    return m.conditions(time, x)[0]  # h - h_on


pump_starts.terminal = True
leg = solve_ivp(m.rhs, (0.0, 2.0), x0, method="Radau", jac=m.rhs_jacobian, vectorized=True,
                events=pump_starts, rtol=1e-10, atol=1e-12)
assert abs(leg.t_events[0][0] - r.events[0][0]) < 1e-8
print(f"solve_ivp: the pump starts at t = {leg.t_events[0][0]:.8f}")

# Without the pump the tank runs dry at t = 2 sqrt(2), where sqrt(h) fails.
m.parameters = {"q": 0.0}
try:
    m.simulate(t)
except tank_py.SimulationError as failure:  # a RuntimeError
    print(f"SimulationError: {failure}")
    print(f"{len(failure.result.t)} rows before it, the last at t = {failure.result.t[-1]}")
else:
    raise AssertionError("the dry tank did not fail")
