"""The measurements of bench/ensemble/run.sh: daec_ensemble's throughput, serial, on a process
pool and on a Dask LocalCluster, side by side in one run; prints RESULTS.md.

    /usr/bin/python3 bench/ensemble/bench.py DIR     # DIR holds pendulum_py and daec_ensemble.py

MEMBERS (default 1000) simulations of models/pendulum.dae, g from 5 to 15 m/s2, t from 0 to 2 s
(41 rows); REPEATS (default 3) runs per row, the least wall time counts. Every run must give the
serial members bit for bit (numpy.array_equal), or the benchmark stops.
"""
import datetime
import functools
import os
import platform
import subprocess
import sys
import time

sys.path.insert(0, sys.argv[1])

import numpy as np
from distributed import Client, LocalCluster

import daec_ensemble
import pendulum_py

MEMBERS = int(os.environ.get("MEMBERS", "1000"))
REPEATS = int(os.environ.get("REPEATS", "3"))
T_EVAL = np.linspace(0.0, 2.0, 41)  # two swings of the unit pendulum, 41 output rows


def children_cpu():
    """CPU seconds of this process's finished children (a pool's workers, once it shut down)."""
    times = os.times()
    return times.children_user + times.children_system


def check(reference, ensemble, label):
    """The same members as the serial run, in input order, every number equal."""
    assert len(ensemble) == len(reference) and not ensemble.failures, (label, ensemble.summary())
    for a, b in zip(reference, ensemble):
        same = a.parameters == b.parameters and np.array_equal(a.result.y, b.result.y)
        assert same, (label, a.index)


def start_cluster(workers):
    """A LocalCluster of `workers` processes with its client, and the seconds it took to start."""
    start = time.perf_counter()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           host="127.0.0.1", dashboard_address=None)
    client = Client(cluster)
    client.wait_for_workers(workers)
    return cluster, client, time.perf_counter() - start


def configurations(sets, clients):
    """(how, chunks, run, workers' CPU so far) of every row, the serial one first."""
    def pool_cpu():  # a pool's workers, counted once it shut down at the end of its call
        times = os.times()
        return times.children_user + times.children_system
    rows = [("serial, in this process (processes=0)", "-", lambda: daec_ensemble.run_ensemble(
        pendulum_py, sets, T_EVAL, processes=0), lambda: 0.0)]
    for chunk_size, chunks in ((None, "default"), (1, "1 member per task")):
        for processes in (1, 2):
            rows.append((f"process pool, {processes} worker{'s' * (processes > 1)}", chunks,
                         functools.partial(daec_ensemble.run_ensemble, pendulum_py, sets, T_EVAL,
                                           processes=processes, chunk_size=chunk_size),
                         pool_cpu))
        for workers, client in clients.items():
            rows.append((f"Dask LocalCluster, {workers} worker{'s' * (workers > 1)}", chunks,
                         functools.partial(daec_ensemble.run_ensemble, pendulum_py, sets, T_EVAL,
                                           client=client, chunk_size=chunk_size),
                         functools.partial(cluster_cpu, client)))
    return rows


def cluster_cpu(client):
    """The CPU seconds of the cluster's worker processes so far (their event loops and tasks)."""
    return sum(client.run(time.process_time).values())


def measure(rows):
    """Least wall and least CPU seconds (caller and workers) per row over REPEATS rounds, each
    round running every row in turn, so that a change of the machine's load hits all alike."""
    wall, cpu, reference = [float("inf")] * len(rows), [float("inf")] * len(rows), None
    for _ in range(REPEATS):
        for k, (label, _, run, workers_cpu) in enumerate(rows):
            start, here, there = time.perf_counter(), time.process_time(), workers_cpu()
            ensemble = run()
            wall[k] = min(wall[k], time.perf_counter() - start)
            cpu[k] = min(cpu[k], time.process_time() - here + workers_cpu() - there)
            reference = reference or ensemble
            check(reference, ensemble, label)
    return [(label, chunks, wall[k], cpu[k]) for k, (label, chunks, _, _) in enumerate(rows)]


def machine():
    """The processor, the cores and the load when the run started."""
    model = "unknown"
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{model}, {os.cpu_count()} cores (shared; load average {load} at the start), "
            f"{platform.system()} {platform.release()}, Python {platform.python_version()}")


def commit():
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip() or "unknown"


def main():
    sets = [{"g": g} for g in np.linspace(5.0, 15.0, MEMBERS)]
    header = machine()
    steps = pendulum_py.Model().simulate(T_EVAL).statistics["steps"]
    clusters, clients, startups = [], {}, {}
    try:
        for workers in (1, 2):
            cluster, clients[workers], startups[workers] = start_cluster(workers)
            clusters.append(cluster)
        rows = measure(configurations(sets, clients))
    finally:
        for client in clients.values():
            client.close()
        for cluster in clusters:
            cluster.close()
    report(rows, startups, header, steps)


def report(rows, startups, header, steps):
    serial_wall, serial_cpu = rows[0][2], rows[0][3]
    print("# daec_ensemble throughput\n")
    print("Written by `bench/ensemble/run.sh` (the measurements: `bench/ensemble/bench.py`); "
          "see [README.md](README.md).\n")
    print(f"- command: `bench/ensemble/run.sh` (MEMBERS={MEMBERS}, REPEATS={REPEATS})")
    print(f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")
    print(f"- commit: {commit()}")
    print(f"- machine: {header}")
    print(f"- work: {MEMBERS} simulations of `models/pendulum.dae` (g from 5 to 15 m/s2), "
          f"t from 0 to 2 s, 41 output rows, the default method ({steps} steps at g = 9.81); "
          "every run gives the serial numbers bit for bit\n")
    print("Per row, one `run_ensemble` call, the least of the repeats: its wall time, and the CPU "
          "time of the calling process and of the workers together (a pool is started by each "
          "call, so its start is in its row; both clusters are started once, before the rows, "
          "and stay up throughout). The repeats are rounds of every row in turn, so that a "
          "change of the shared machine's load hits every row alike; the wall time gains from "
          "the workers only as far as the cores are free.\n")
    print("| how | chunks | wall time [s] | simulations per second | speed-up over serial "
          "| CPU [s] | CPU over serial |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for label, chunks, wall, cpu in rows:
        print(f"| {label} | {chunks} | {wall:.3f} | {MEMBERS / wall:,.0f} | "
              f"{serial_wall / wall:.2f} | {cpu:.2f} | {cpu / serial_cpu:.2f} |")
    print()
    print("Starting the LocalClusters (not in the rows above): "
          + ", ".join(f"{workers} worker{'s' * (workers > 1)} {seconds:.2f} s"
                      for workers, seconds in startups.items()) + ".")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\nLoad average at the end: {load}.")


if __name__ == "__main__":  # the LocalCluster's worker processes import this file too
    main()
