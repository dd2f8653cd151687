"""Tuning on a Ray cluster: candidates compile anywhere, timings run on identical machines.

    from iree_dsa_tuner.runners.ray_executor import RayExecutor

    with RayExecutor("auto") as cluster:   # or RayExecutor() for a local instance
        tune("model.mlir", "host", TuneOptions(executor=cluster), db="tuning.sqlite")

- A local instance (no address, no `$RAY_ADDRESS`, no cluster started on this machine)
  binds 127.0.0.1 (`start_local_ray`): it serves this machine alone and listens on no
  network interface.
- Compiles (`map`) are Ray tasks of `compile_cpus` CPUs each, on any node. A
  candidate's code does not depend on the node that compiles it: the dispatch
  benchmarks carry the target CPU IREE resolved on the driver. Each task checks
  that its node runs the driver's IREE, and the host runner ships the source as
  text and gets the module back as bytes, so no shared storage is needed.
- Timings (`run_timing`) run on benchmark actors, one per node (placed by node
  affinity), each holding `benchmark_cpus` of its node and running one timing at
  a time (an actor's calls are serial; `time_candidate`'s file lock covers other
  processes of the machine). Before each timing the actor pins itself to one CPU;
  the iree-benchmark-module it starts inherits that CPU and runs the runner's
  own flags (`--device=local-sync`: one thread). The driver never times.
- Every benchmark worker reports its hardware fingerprint (`hardware_identity`:
  CPU model, ISA flags, architecture, IREE version). The reference is the one
  given (the CLI gives the driver's, since the host target describes the
  driver's CPU) or else the first worker's; a worker that differs is refused
  with a one-line reason in `refused`, stopped before it times anything, and
  never asked; a worker lost mid-run hands its timings to the next admitted one.
- Results come back to the driver, which records them in its tuning database
  through the pipeline's usual measure path. When the timing machines are not
  the driver's hardware, `timing_hardware` says so and the records' target key
  includes it, so they never pass for the driver's own timings.

Ray is an optional extra: `pip install 'iree-dsa-tuner[ray]'`; without it,
creating a `RayExecutor` is a one-line `InputError`. Every node needs the same
wheels (iree-base-compiler, iree-base-runtime, this package).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import platform
import signal
import socket
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

from ..core.fingerprint import host_cpu_model, host_isa_flags, iree_version
from ..errors import InputError
from .executor import Executor, ExecutorError

INSTALL_HINT = "pip install 'iree-dsa-tuner[ray]'"
LOOPBACK = "127.0.0.1"
# Seconds a benchmark actor may take to start; one that cannot be placed (its node's
# CPUs are all taken) must fail the run rather than hang it.
WORKER_START_TIMEOUT_S = 60.0


def import_ray():
    """The `ray` module, or a one-line InputError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise InputError(f"the Ray executor needs Ray: {INSTALL_HINT}") from None
    return ray


# The signals a crash arrives as. `ray.init` installs Ray's own handlers for them in the
# driver, which log a fault to Ray's session files and leave stderr silent, and
# `ray.shutdown` resets them to the default: either way a segfault anywhere later in the
# process (pytest's faulthandler, a user's) prints nothing.
CRASH_SIGNALS = tuple(getattr(signal, name) for name in ("SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL", "SIGABRT")
                      if hasattr(signal, name))


@contextmanager
def keeping_crash_handlers():
    """Run the body (`ray.init`, `ray.shutdown`), then put back the process's own handlers of
    CRASH_SIGNALS.

    Each handler is saved and restored whole (`sigaction`, as opaque bytes), so a handler
    written in C (faulthandler's) survives, not just Python-level ones. Without libc's
    `sigaction` (not Linux or macOS) the body runs as it is.
    """
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        sigaction = libc.sigaction
    except (OSError, AttributeError):
        yield
        return
    saved = {}
    for sig in CRASH_SIGNALS:
        old = ctypes.create_string_buffer(512)  # larger than any libc's struct sigaction
        if sigaction(sig, None, old) == 0:
            saved[sig] = old
    try:
        yield
    finally:
        for sig, old in saved.items():
            sigaction(sig, old, None)


def start_local_ray(ray, **options) -> None:
    """`ray.init(**options)` of a new instance of this machine alone, bound to 127.0.0.1.

    Given `_node_ip_address="127.0.0.1"`, Ray (2.60, Linux) swaps it for the machine's
    outward address unless its cluster mode (`ray_constants.ENABLE_RAY_CLUSTER`, from
    `$RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER` at import) is off; so the mode is off while the
    instance starts, and the GCS, the raylet and the workers all listen on loopback.
    """
    try:
        from ray._private import ray_constants
    except ImportError:  # another Ray layout: only the address below is asked for
        ray_constants = None
    saved = getattr(ray_constants, "ENABLE_RAY_CLUSTER", None)
    if saved is not None:
        ray_constants.ENABLE_RAY_CLUSTER = False
    try:
        with keeping_crash_handlers():
            ray.init(**{"address": "local", "_node_ip_address": LOOPBACK, "include_dashboard": False, **options})
    finally:
        if saved is not None:
            ray_constants.ENABLE_RAY_CLUSTER = saved


def _starts_a_local_instance(address: str | None) -> bool:
    """Whether `ray.init(address=address)` would start a new instance rather than join one."""
    if address not in (None, "", "local"):
        return False
    if address == "local":
        return True
    try:
        from ray._private.services import canonicalize_bootstrap_address

        return canonicalize_bootstrap_address(None) is None  # $RAY_ADDRESS, then a `ray start` cluster
    except Exception:  # noqa: BLE001 - a Ray without this helper: let ray.init decide as before
        return False


def hardware_identity() -> dict[str, str]:
    """What a single-thread timing on this machine depends on, as plain fields."""
    flags = host_isa_flags()
    return {
        "cpu": host_cpu_model(),
        "isa": hashlib.sha256(flags.encode()).hexdigest()[:12] if flags else "unknown",
        "machine": platform.machine(),
        "iree": iree_version(),
    }


def fingerprint_of(identity: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]


def hardware_fingerprint() -> str:
    """This machine's hardware fingerprint (`hardware_identity`, hashed)."""
    return fingerprint_of(hardware_identity())


@dataclass(frozen=True)
class WorkerInfo:
    """A benchmark actor as it reported itself."""

    node_id: str
    address: str
    identity: dict
    fingerprint: str
    cpu: int | None  # the CPU it pins timings to


def _difference(identity: dict, reference: dict) -> str:
    keys = sorted(set(identity) | set(reference))
    diffs = [f"{k} {identity.get(k, '?')!r} vs {reference.get(k, '?')!r}" for k in keys
             if identity.get(k) != reference.get(k)]
    return "; ".join(diffs)


def admit_workers(workers: list[WorkerInfo], reference: str | None = None,
                  reference_identity: dict | None = None, reference_name: str = "driver"
                  ) -> tuple[list[WorkerInfo], list[str]]:
    """(workers whose fingerprint matches the reference, a one-line reason per refused one).

    The reference is `reference` when given, else the first worker's fingerprint.
    """
    if not workers:
        return [], []
    if reference is None:
        reference, reference_identity = workers[0].fingerprint, workers[0].identity
        reference_name = f"first benchmark worker ({workers[0].address})"
    admitted, refused = [], []
    for worker in workers:
        if worker.fingerprint == reference:
            admitted.append(worker)
            continue
        what = (_difference(worker.identity, reference_identity) if reference_identity is not None
                else f"fingerprint {worker.fingerprint} vs {reference}")
        refused.append(f"ray: refused the benchmark worker on {worker.address}: its hardware differs from the "
                       f"{reference_name}'s ({what}); its timings would not be comparable")
    return admitted, refused


class BenchmarkWorker:
    """The actor that times on one node (made a Ray actor by `RayExecutor`)."""

    def __init__(self, pin_cpu: int | None = None, fake_identity: dict | None = None):
        self.identity = dict(fake_identity) if fake_identity is not None else hardware_identity()
        self.fingerprint = fingerprint_of(self.identity)
        allowed = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        # The highest CPU by default: CPU 0 takes most interrupts on Linux.
        self.cpu = pin_cpu if pin_cpu in allowed else (allowed[-1] if allowed else None)

    def info(self) -> WorkerInfo:
        import ray

        context = ray.get_runtime_context()
        node_id = context.get_node_id()
        address = next((n["NodeManagerAddress"] for n in ray.nodes() if n["NodeID"] == node_id), node_id[:12])
        return WorkerInfo(node_id, address, self.identity, self.fingerprint, self.cpu)

    def run(self, fn, item):
        """fn(item) with the calling thread pinned to one CPU."""
        if self.cpu is not None:
            # Linux pins the calling thread; the benchmark process it starts inherits the CPU.
            os.sched_setaffinity(0, {self.cpu})
        return fn(item)


def _run_on_matching_iree(fn, item, driver_iree: str):
    """A compile task: only on a node whose IREE is the driver's (otherwise other code)."""
    here = iree_version()
    if here != driver_iree:
        import ray

        node = ray.get_runtime_context().get_node_id()[:12]
        raise ExecutorError(f"ray: node {node} runs IREE {here}, the driver {driver_iree}; "
                            "install the same iree-base-compiler on every node")
    return fn(item)


class RayExecutor(Executor):
    """Compiles on a Ray cluster; times on one pinned benchmark actor per machine.

    - `address`: a cluster to join (`"auto"`, `"ray://host:10001"`, `"host:6379"`); None
      joins `$RAY_ADDRESS` or starts a local instance. An instance this executor started
      is shut down by `close()`; otherwise only its own actors are.
    - `reference_fingerprint`: the hardware every benchmark worker must match (e.g.
      `hardware_fingerprint()` on the driver); None: the first worker's.
    - `compile_cpus`, `benchmark_cpus`: Ray CPUs per compile task and per benchmark actor.
      Give a benchmark actor all of a node's CPUs to keep compiles off the machines that time.
    - `pin_cpu`: the CPU index timings run on (default: each node's highest).
    - `fake_identity`: tests only. Every benchmark worker reports this identity instead
      of its hardware's (how a test makes one machine look like another).
    - `init_options`: extra `ray.init` keywords when this executor starts Ray.
    - `say`: where refusals are reported (one line each), besides `refused`.
    """

    ships_files = True

    def __init__(self, address: str | None = None, *, reference_fingerprint: str | None = None,
                 compile_cpus: float = 1, benchmark_cpus: float = 1, pin_cpu: int | None = None,
                 fake_identity: dict | None = None, init_options: dict | None = None,
                 say: Callable[[str], None] | None = None,
                 start_timeout_s: float = WORKER_START_TIMEOUT_S):
        ray = import_ray()
        self._ray = ray
        if address:
            _check_reachable(address)
        self._owns_ray = not ray.is_initialized()
        if self._owns_ray:
            options = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.WARNING,
                       **(init_options or {})}
            try:
                if _starts_a_local_instance(address):
                    start_local_ray(ray, **options)
                else:
                    with keeping_crash_handlers():
                        ray.init(address=address, **options)
            except (ConnectionError, ValueError, RuntimeError) as e:
                raise InputError(f"ray: cannot join the cluster at {address or '$RAY_ADDRESS'}: "
                                 f"{_one_line(e)}") from None
        self.driver_iree = iree_version()
        self.reference_fingerprint = reference_fingerprint
        self.reference_identity = hardware_identity() if reference_fingerprint == hardware_fingerprint() else None
        self.compile_cpus, self.benchmark_cpus, self.pin_cpu = compile_cpus, benchmark_cpus, pin_cpu
        self.fake_identity, self.say, self.start_timeout_s = fake_identity, say, start_timeout_s
        self.jobs = max(1, int(ray.cluster_resources().get("CPU", 1) // max(compile_cpus, 1e-9)))
        self._compile_task = ray.remote(num_cpus=compile_cpus)(_run_on_matching_iree)
        self._workers: list[tuple[object, WorkerInfo]] | None = None
        self.refused: list[str] = []

    # ---- benchmark workers ------------------------------------------------------------
    def start(self) -> list[WorkerInfo]:
        """Start one benchmark actor per alive node and admit those with the reference hardware.

        Called by the first timing; call it first to fail early. InputError when none is admitted.
        """
        if self._workers is not None:
            return [info for _, info in self._workers]
        ray = self._ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        actor_class = ray.remote(BenchmarkWorker)
        started = []
        for node in ray.nodes():
            if not node.get("Alive") or node.get("Resources", {}).get("CPU", 0) < self.benchmark_cpus:
                continue
            strategy = NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)
            actor = actor_class.options(num_cpus=self.benchmark_cpus, scheduling_strategy=strategy,
                                        max_concurrency=1).remote(self.pin_cpu, self.fake_identity)
            started.append((actor, node["NodeManagerAddress"]))
        reports, failures = [], []
        for actor, address in started:
            try:
                reports.append((actor, ray.get(actor.info.remote(), timeout=self.start_timeout_s)))
            except ray.exceptions.GetTimeoutError:
                ray.kill(actor)
                failures.append(f"ray: no benchmark worker started on {address} within {self.start_timeout_s:g} s "
                                f"(are its CPUs taken?)")
            except ray.exceptions.RayError as e:
                ray.kill(actor)
                failures.append(f"ray: the benchmark worker on {address} failed to start: {_one_line(e)}")
        admitted, refusals = admit_workers([info for _, info in reports], self.reference_fingerprint,
                                           self.reference_identity)
        keep = {id(info) for info in admitted}
        for actor, info in reports:
            if id(info) not in keep:
                ray.kill(actor)
        self._workers = [(actor, info) for actor, info in reports if id(info) in keep]
        self.refused.extend(failures + refusals)
        if not self._workers:
            # One line, as every error: the first reason, and how many more there were.
            reasons = failures + refusals
            why = reasons[0].removeprefix("ray: ") if reasons else "the cluster has no node with a free CPU"
            more = f" (and {len(reasons) - 1} more)" if len(reasons) > 1 else ""
            raise InputError(f"ray: no benchmark worker to time on: {why}{more}")
        for line in failures + refusals:
            self._say(line)
        return admitted

    def _refuse(self, line: str) -> None:
        self.refused.append(line)
        self._say(line)

    def _say(self, line: str) -> None:
        if self.say is not None:
            self.say(line)

    @property
    def timing_hardware(self) -> str | None:
        """The workers' fingerprint when it is not the driver's hardware (None when it is)."""
        workers = self.start()
        fingerprint = workers[0].fingerprint
        return None if fingerprint == hardware_fingerprint() else fingerprint

    # ---- the executor seam ----------------------------------------------------------------
    def map(self, fn, items):
        refs = [self._compile_task.remote(fn, item, self.driver_iree) for item in items]
        try:
            return self._ray.get(refs)
        except self._ray.exceptions.RayError as e:
            cause = getattr(e, "cause", None)
            if isinstance(cause, ExecutorError):
                raise ExecutorError(str(cause)) from None
            raise ExecutorError(f"ray: a compile task failed: {_one_line(e)}") from None

    def run_timing(self, fn, item):
        """`fn(item)` on the first admitted benchmark worker; a lost worker hands over to the next."""
        self.start()
        while self._workers:
            actor, info = self._workers[0]
            try:
                result = self._ray.get(actor.run.remote(fn, item))
            except self._ray.exceptions.RayActorError as e:
                self._workers.pop(0)
                self._refuse(f"ray: lost the benchmark worker on {info.address}: {_one_line(e)}")
                continue
            except self._ray.exceptions.RayError as e:
                raise ExecutorError(f"ray: a timing failed on {info.address}: {_one_line(e)}") from None
            if hasattr(result, "details") and isinstance(result.details, dict):
                result.details = {**result.details, "timed_on": info.address}
            return result
        last = f": {self.refused[-1].removeprefix('ray: ')}" if self.refused else ""
        raise ExecutorError(f"ray: no benchmark worker left to time on{last}")

    def close(self) -> None:
        ray = self._ray
        for actor, _ in self._workers or []:
            try:
                ray.kill(actor)
            except Exception:  # already gone with its node
                pass
        self._workers = []
        if self._owns_ray and ray.is_initialized():
            with keeping_crash_handlers():  # shutdown resets them to the default
                ray.shutdown()
            self._owns_ray = False


def _check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """A HOST:PORT (or ray://HOST:PORT) address must answer: Ray retries a dead one for minutes."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return  # "auto" and the like: Ray itself says at once when it finds nothing
    try:
        socket.create_connection((host, int(port)), timeout=timeout_s).close()
    except OSError as e:
        raise InputError(f"ray: nothing answers at {address} ({e.strerror or e})") from None


def _one_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def parse_executor(spec: str) -> str | None:
    """`--executor` value -> None (local) or a Ray address ("" = join $RAY_ADDRESS or start one)."""
    if spec == "local":
        return None
    if spec == "ray":
        return ""
    if spec.startswith("ray:") and spec[4:]:
        return spec[4:]
    raise InputError(f"--executor: expected local, ray or ray:ADDRESS, got {spec!r}")


__all__ = [
    "BenchmarkWorker",
    "INSTALL_HINT",
    "RayExecutor",
    "WorkerInfo",
    "admit_workers",
    "hardware_fingerprint",
    "hardware_identity",
    "import_ray",
    "parse_executor",
    "keeping_crash_handlers",
    "start_local_ray",
]
