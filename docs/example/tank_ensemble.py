"""The worked example of docs/ensembles.md: the tank of tank.dae over six parameter sets with
daec_ensemble, on a local process pool, then on a Dask cluster, in input order; one set lets the
tank run dry and one misspells a parameter, and both are reported without stopping the others.
Every claim it prints is checked (assert).

    /usr/bin/python3 tank_ensemble.py DIR              # a LocalCluster of two worker processes
    /usr/bin/python3 tank_ensemble.py DIR tcp://scheduler:8786   # a running cluster instead

DIR holds the module tank_py and daec_ensemble.py (daec_add_python_module puts it beside the
module). The test suite runs this file (tests/e2e/ensemble_test.cpp) and checks that it prints
what docs/ensembles.md shows.
"""
import sys

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".")

import numpy as np
from distributed import Client, LocalCluster

import daec_ensemble
import tank_py


def same(first, second):
    """The same members in the same order: parameters, errors and every number equal."""
    assert len(first) == len(second)
    for a, b in zip(first, second):
        assert (a.index, a.parameters, a.error) == (b.index, b.parameters, b.error), (a, b)
        assert a.ok == b.ok and (not a.ok or np.array_equal(a.result.y, b.result.y)), (a, b)


def main():
    t = np.linspace(0.0, 40.0, 401)
    sets = [{"q": 0.1}, {"q": 0.3}, {"q": 0.0}, {"q": 0.5}, {"Q": 0.6}, {"q": 0.7}]

    ensemble = daec_ensemble.run_ensemble(tank_py, sets, t)  # a process pool, all cores
    for member in ensemble:
        if member.ok:
            print(f"{member.index}  q = {member.parameters['q']:.1f}  "
                  f"level at t = 40: {member.result['h'][-1]:.6f}")
    print(ensemble.summary())
    assert [m.ok for m in ensemble] == [True, True, False, True, False, True]
    for member in ensemble:  # the level settles at (q/A)^2
        assert not member.ok or abs(member.result["h"][-1] - member.parameters["q"]**2) < 1e-6

    serial = daec_ensemble.run_ensemble(tank_py, sets, t, processes=0)  # here, one by one
    same(serial, ensemble)

    # The same call on a Dask cluster: a scheduler's address, or two local worker processes.
    cluster = None
    if len(sys.argv) > 2:
        scheduler = sys.argv[2]
    else:
        scheduler = cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           host="127.0.0.1", dashboard_address=None)
    with Client(scheduler) as client:
        on_cluster = daec_ensemble.run_ensemble(tank_py, sets, t, client=client)
        workers = len(client.nthreads())
    if cluster is not None:
        cluster.close()
    same(serial, on_cluster)
    print(f"the same {len(on_cluster)} members, in the same order, from {workers} Dask workers")


if __name__ == "__main__":  # Dask's worker processes import this file too
    main()
