"""The pendulum in Python: daec's module (daec_add_python_module) integrated with SciPy's Radau,
projected onto the hidden constraints, compared with the published solution and plotted.

    /usr/bin/python3 scipy_pendulum.py [BUILD_DIR] [PLOT.png]

Run it with the interpreter the module was built for, the one the CMake configuration names
("daec: Python modules are built for ..."): on Debian /usr/bin/python3, which has NumPy, SciPy
and matplotlib (python3-numpy, python3-scipy, python3-matplotlib); a python3 of pyenv or of a
virtual environment may come first on PATH without them.

BUILD_DIR holds the module pendulum_py (default: the current directory). With g = 1, x(1) is
compared with the published value of Cash's pendul3.f test problem.
"""
import sys

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".")

try:
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt
    import numpy as np
    from scipy.integrate import solve_ivp
except ImportError as missing:
    sys.exit(f"{sys.argv[0]}: {missing} in {sys.executable}: this example needs NumPy, SciPy and "
             "matplotlib; run it with the interpreter the module was built for (on Debian "
             "/usr/bin/python3, with python3-numpy python3-scipy python3-matplotlib)")

import pendulum_py

m = pendulum_py.Model()
m.set_parameter("g", 1.0)
x0 = m.consistent_initialization(0.0, m.initial_state())

solution = solve_ivp(m.rhs, (0.0, 1.0), x0, method="Radau", rtol=1e-10, atol=1e-12,
                     jac=m.rhs_jacobian, dense_output=True)
x1 = m.project(1.0, solution.y[:, -1])
error = abs(x1[m.state_names.index("x")] - 0.867348640604551746)  # x(1), Cash's pendul3.f
print(f"Radau: x(1) = {x1[0]:.12f} in {solution.t.size - 1} steps, error {error:.1e}")
print("lambda(1) =", m.algebraic(1.0, x1)[m.algebraic_names.index("lambda")])
print("largest invariant residual:", max(abs(m.invariants(1.0, x1))))

try:
    m.rhs(0.0, np.full(m.num_states, np.nan))
except RuntimeError as failure:
    print("RuntimeError:", failure)

if len(sys.argv) > 2:
    t = np.linspace(0.0, 1.0, 101)
    states = np.array([m.project(s, solution.sol(s)) for s in t])
    for name in ("x", "y"):
        plt.plot(t, states[:, m.state_names.index(name)], label=name)
    plt.xlabel("t")
    plt.ylabel("position [m]")
    plt.legend()
    plt.title("pendulum (g = 1) with SciPy's Radau")
    plt.savefig(sys.argv[2], dpi=80)
    print("wrote", sys.argv[2])

sys.exit(0 if error < 1e-8 else 1)
