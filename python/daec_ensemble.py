"""Run one daec model over many parameter sets: a local process pool, or a Dask cluster.

    import numpy as np
    import tank_py, daec_ensemble
    sets = [{"q": q} for q in np.linspace(0.1, 0.9, 100)]
    ensemble = daec_ensemble.run_ensemble(tank_py, sets, np.linspace(0, 40, 401))
    ensemble[0].result["h"]            # what Model.simulate returns, in input order
    print(ensemble.summary())          # the members that failed, with their parameters

Each member is one call of the module's ``Model.simulate(t_eval, set=parameters, ...)``
(docs/python.md) in a worker process; the results come back in the order of the parameter sets.
A member that fails (``SimulationError``, a name the model does not have, any exception) is a
``Member`` holding its parameters and the message; the other members go on. With a
``distributed.Client`` (Debian ``python3-distributed``) the same work runs on its cluster.

A pybind11 ``Model`` cannot be pickled, so the workers import the model's module by name from
the directory it was loaded from: every worker must be able to import it (and this file, which
``daec_add_python_module`` puts beside the module). docs/ensembles.md is the manual.
"""

import concurrent.futures
import importlib
import math
import os
import sys
import threading
from collections.abc import Mapping, Sequence

import numpy as np

__all__ = ["Member", "Ensemble", "SimulationRecord", "run_ensemble"]

# Chunks per worker when the chunk size is not given: enough that a slow chunk at the end does
# not leave the other workers idle for long, few enough that each task carries many short
# simulations (bench/ensemble/RESULTS.md measures the overhead per task).
CHUNKS_PER_WORKER = 4


class SimulationRecord:
    """What ``Model.simulate`` returned, as plain Python and NumPy values that pickle.

    The module's ``SimulationResult`` cannot cross a process boundary, so a worker copies its
    attributes here: ``t``, ``y``, ``names``, ``events``, ``statistics``, ``moved_starts``,
    ``success``, ``message``; ``record["h"]`` is the column named ``h``, as on the original.
    """

    def __init__(self, result):
        self.t = np.array(result.t)
        self.y = np.array(result.y)
        self.names = list(result.names)
        self.events = list(result.events)
        self.statistics = dict(result.statistics)
        self.moved_starts = list(result.moved_starts)
        self.success = bool(result.success)
        self.message = str(result.message)

    def __getitem__(self, name):
        try:
            return self.y[:, self.names.index(name)]
        except ValueError:
            raise KeyError(f"no column named {name!r}; the columns are "
                           f"{', '.join(self.names)}") from None

    def __len__(self):
        return len(self.t)

    def __repr__(self):
        return (f"SimulationRecord({len(self.t)} rows x {len(self.names)} columns, "
                f"success={self.success})")


class Member:
    """One parameter set's outcome: ``ok``, ``index``, ``parameters``, ``result`` or ``error``.

    ``result`` is what ``Model.simulate`` returned (a ``SimulationRecord``, or the
    ``pandas.DataFrame`` of ``as_frame=True``) and ``error`` is ``None``; for a failed member
    ``result`` is ``None``, ``error`` the message (``str(exception)``, as the simulator words it)
    and ``error_type`` the exception's class name (``"SimulationError"``, ``"KeyError"``...).
    """

    __slots__ = ("index", "parameters", "result", "error", "error_type")

    def __init__(self, index, parameters, result=None, error=None, error_type=None):
        self.index = index
        self.parameters = parameters
        self.result = result
        self.error = error
        self.error_type = error_type

    @property
    def ok(self):
        return self.error is None

    def __repr__(self):
        if self.ok:
            return f"Member({self.index}, {self.parameters!r}, ok)"
        return f"Member({self.index}, {self.parameters!r}, {self.error_type}: {self.error})"


class Ensemble(Sequence):
    """The members of one run, in the order of the parameter sets (a sequence of ``Member``)."""

    def __init__(self, members):
        self.members = list(members)

    def __getitem__(self, index):
        return self.members[index]

    def __len__(self):
        return len(self.members)

    @property
    def failures(self):
        """The members that failed, in input order."""
        return [member for member in self.members if not member.ok]

    @property
    def results(self):
        """Each member's result, ``None`` where it failed, in input order."""
        return [member.result for member in self.members]

    def summary(self):
        """One line for the run, then one per failed member: index, parameters, error."""
        failed = self.failures
        lines = [f"{len(self) - len(failed)} of {len(self)} simulations succeeded, "
                 f"{len(failed)} failed"]
        lines += [f"  [{m.index}] {m.parameters!r}: {m.error_type}: {m.error}" for m in failed]
        return "\n".join(lines)

    def __repr__(self):
        return f"Ensemble({len(self)} members, {len(self.failures)} failed)"


def run_ensemble(model, parameter_sets, t_eval, client=None, processes=None, chunk_size=None,
                 **simulate_arguments):
    """Simulate ``model`` once per parameter set; an ``Ensemble`` of the members in input order.

    model           the daec-built module (``import tank_py``: pass ``tank_py``) or its name;
                    workers import it by name from the directory it was loaded from
    parameter_sets  an iterable of dicts ``{name: value}``, each given to
                    ``simulate(set=...)`` (parameters and start guesses, docs/python.md)
    t_eval          the output times, as for ``Model.simulate``
    client          a ``distributed.Client``: the members run on its cluster
    processes       without a client: the size of the local process pool (default
                    ``os.cpu_count()``); ``0`` runs every member here, one after another
    chunk_size      members per task (default: the members spread over 4 tasks per worker)
    **simulate_arguments  the rest of ``simulate``'s arguments (``method``, ``rtol``, ``fix``,
                    ``as_frame``...); a ``set`` here is common to all, each member's overrides it
    """
    name, directory = _locate_module(model)
    if processes is not None and (not isinstance(processes, int) or processes < 0):
        raise ValueError(f"processes must be a non-negative integer or None, got {processes!r}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size < 1):
        raise ValueError(f"chunk_size must be a positive integer or None, got {chunk_size!r}")
    members, pending = _prepare_members(parameter_sets)
    job = (name, directory, np.asarray(t_eval, dtype=float), simulate_arguments)
    chunks, outcomes = _dispatch(job, pending, client, processes, chunk_size)
    for chunk, (done, error) in zip(chunks, outcomes):
        for position, (index, parameters) in enumerate(chunk):
            if done is not None:
                members[index] = Member(index, parameters, *done[position])
            else:
                members[index] = Member(index, parameters, None, *error)
    return Ensemble(members)


def _dispatch(job, pending, client, processes, chunk_size):
    """The chunks of ``pending`` and, per chunk, (done, error) from wherever they ran."""
    if client is not None:
        workers = max(1, sum(client.nthreads().values()))
        chunks = _chunks(pending, chunk_size, workers)
        return chunks, _run_on_client(client, job, chunks)
    if processes == 0:
        return [pending], [_outcome_of(lambda: run_chunk(job, pending))]
    workers = processes or os.cpu_count() or 1
    chunks = _chunks(pending, chunk_size, workers)
    return chunks, _run_in_pool(workers, job, chunks)


def _locate_module(model):
    """The module's name and the directory it was loaded from (``None``: found on sys.path)."""
    if isinstance(model, str):
        model = importlib.import_module(model)
    name, path = getattr(model, "__name__", None), getattr(model, "__file__", None)
    if name is None or not hasattr(model, "Model"):
        raise TypeError(f"model must be a daec-built Python module or its name, got {model!r}")
    directory = os.path.dirname(os.path.abspath(path)) if path else None
    return name, directory


def _prepare_members(parameter_sets):
    """A slot per set, and (index, dict) for those to run; a set that is no mapping fails here."""
    members, pending = [], []
    for index, parameters in enumerate(parameter_sets):
        if isinstance(parameters, Mapping):
            members.append(None)
            pending.append((index, dict(parameters)))
        else:
            members.append(Member(index, parameters, None, "a parameter set must be a dict "
                                  f"{{name: value}}, got {type(parameters).__name__}",
                                  "TypeError"))
    return members, pending


def _chunks(pending, chunk_size, workers):
    """``pending`` cut into consecutive chunks, CHUNKS_PER_WORKER per worker by default."""
    if not pending:
        return []
    size = chunk_size or max(1, math.ceil(len(pending) / (workers * CHUNKS_PER_WORKER)))
    return [pending[k:k + size] for k in range(0, len(pending), size)]


def _outcome_of(call):
    """(what call returned, None), or (None, (message, type)) where it raised."""
    try:
        return call(), None
    except Exception as failure:  # reported on every member of the chunk
        return None, _describe(failure)


def _run_in_pool(workers, job, chunks):
    """The chunks on a local process pool; those whose worker process died run again, alone."""
    outcomes = _pool_outcomes(workers, job, chunks)
    for k, (_, error) in enumerate(outcomes):
        if error is not None and error[1] == "BrokenProcessPool":
            outcomes[k] = _isolate(job, chunks[k])
    return outcomes


def _pool_outcomes(workers, job, chunks):
    """(done, error) per chunk; when a worker process dies, every unfinished chunk is broken."""
    with concurrent.futures.ProcessPoolExecutor(max_workers=min(workers, len(chunks) or 1)) as pool:
        futures = [pool.submit(run_chunk, job, chunk) for chunk in chunks]
        return [_outcome_of(future.result) for future in futures]


def _isolate(job, chunk):
    """A broken chunk's members, each in a fresh process: only a member whose process dies fails.

    A process that dies (a crash, the out-of-memory killer) breaks the whole pool, including the
    chunks that merely waited; running each of their members alone tells which one it was.
    """
    done = []
    for member in chunk:
        result, error = _pool_outcomes(1, job, [[member]])[0]
        if result is not None:
            done.append(result[0])
        else:
            done.append((None, f"the worker process running this member ended abruptly "
                               f"(a crash, or killed): {error[0]}", error[1]))
    return done, None


def _run_on_client(client, job, chunks):
    """The chunks as tasks of a Dask cluster; a task that failed (its worker died) fails alone."""
    futures = [client.submit(run_chunk, job, chunk, pure=False) for chunk in chunks]
    try:
        return [_outcome_of(future.result) for future in futures]
    finally:
        client.cancel(futures)


def _describe(failure):
    """(message, class name) of an exception; a KeyError's message without repr's quotes."""
    if isinstance(failure, KeyError) and len(failure.args) == 1:
        message = str(failure.args[0])
    else:
        message = str(failure) or repr(failure)
    return message, type(failure).__name__


# One Model per worker thread and module: simulate(set=...) leaves the model's parameters as they
# were (docs/python.md), so consecutive members can share it; a thread of its own keeps a Dask
# worker with several threads from running two simulations on one Model at once.
_local = threading.local()


def _model(name, directory):
    """This thread's Model of module ``name``, imported from ``directory`` the first time."""
    models = _local.__dict__.setdefault("models", {})
    key = (name, directory)
    if key not in models:
        if directory is not None and directory not in sys.path:
            sys.path.insert(0, directory)
        try:
            module = importlib.import_module(name)
        except ImportError as failure:
            raise ImportError(f"this worker cannot import the model module {name!r} "
                              f"(from {directory}): {failure}; docs/ensembles.md says how to make "
                              "it importable on every worker") from failure
        models[key] = module.Model()
    return models[key]


def run_chunk(job, chunk):
    """In a worker: [(result, None, None) or (None, message, type)] per (index, parameters)."""
    name, directory, t_eval, simulate_arguments = job
    model = _model(name, directory)
    common = dict(simulate_arguments.get("set", {}))
    arguments = {key: value for key, value in simulate_arguments.items() if key != "set"}
    done = []
    for _, parameters in chunk:
        try:
            result = model.simulate(t_eval, set={**common, **parameters}, **arguments)
        except Exception as failure:  # the member fails; the chunk goes on
            done.append((None, *_describe(failure)))
        else:
            record = result if arguments.get("as_frame") else SimulationRecord(result)
            done.append((record, None, None))
    return done
