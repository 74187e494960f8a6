"""The Radau IIA peer of the accuracy benchmark: SciPy's solve_ivp(method='Radau') with the
model's analytic Jacobian on daec's reduced ODE X' = F(X) of the same model, called through the
Python module daec_add_python_module builds (docs/adapters.md); the algebraic variables come from the
model's algebraic(t, x) at the end. No projection onto the invariants: this is what a SciPy user
gets from daec's generated code as it is.

    radau_peer.py MODULE_DIR PROBLEM RTOL ATOL     # prints the result as JSON (for a quick look)
"""
import importlib
import json
import sys
import time

from scipy.integrate import solve_ivp


def load_model(module_dir, problem):
    """The generated model of `problem` (module `problem` in module_dir)."""
    if module_dir not in sys.path:
        sys.path.insert(0, module_dir)
    return importlib.import_module(problem).Model()


def declared_values(model, t, x):
    """Every declared variable's value at state x: states first, then the algebraic unknowns."""
    values = dict(zip(model.state_names, x))
    for name, value in zip(model.algebraic_names, model.algebraic(t, x)):
        values.setdefault(name, value)
    return {name: float(values[name]) for name in model.variable_names}


def run(model, t_start, t_end, rtol, atol):
    """Integrates from the model's consistent start at t_start to t_end; a dict like the IDA
    peer's (values, steps, rhs_evaluations, jacobian_evaluations, lu_decompositions, seconds (wall),
    cpu_seconds),
    or {"error": message}."""
    start, cpu_start = time.perf_counter(), time.process_time()
    try:
        x0 = model.consistent_initialization(t_start, model.initial_state())
        sol = solve_ivp(model.rhs, (t_start, t_end), x0, method="Radau", rtol=rtol, atol=atol,
                        jac=model.rhs_jacobian)
        if sol.status != 0:
            return {"error": f"solve_ivp failed at t = {sol.t[-1]:.6g}: {sol.message}"}
        values = declared_values(model, t_end, sol.y[:, -1])
    except RuntimeError as failure:
        return {"error": str(failure)}
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    return {"form": "daec's reduced ODE X' = F(X), no projection", "t_end": float(sol.t[-1]),
            "values": values, "steps": int(sol.t.size - 1), "rhs_evaluations": int(sol.nfev),
            "jacobian_evaluations": int(sol.njev), "lu_decompositions": int(sol.nlu),
            "seconds": seconds, "cpu_seconds": cpu_seconds}


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    module_dir, problem, rtol, atol = argv[0], argv[1], float(argv[2]), float(argv[3])
    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    import benchlib
    reference = benchlib.Reference(problem)
    result = run(load_model(module_dir, problem), reference.t_start, reference.t_end, rtol, atol)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
