"""Shared fixtures: the lit inputs double as pytest models."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from unittest import mock

import pytest

INPUTS = Path(__file__).resolve().parent.parent / "lit_tests" / "inputs"


@pytest.fixture(scope="session", autouse=True)
def artifact_cache(tmp_path_factory):
    """Compiled-model artifacts go to one directory for the whole session, never ~/.cache.

    That directory is $IREE_DSA_CACHE_DIR when it is set (CI exports one for pytest and lit,
    so a model both compile is compiled once per run), else a new one of this session, shared by
    its xdist workers (pyproject.toml runs the suite on two: each compiles a model once). The
    cache is keyed by the model's bytes, the flags and the IREE version, and entries are
    renamed into place whole, so sessions and processes may share it; the tests expect a
    warm cache as much as a cold one (no test counts compiles in the shared cache).
    """
    from iree_dsa_tuner.ir.artifacts import CACHE_ENV

    previous = os.environ.get(CACHE_ENV)
    if not previous:
        base = tmp_path_factory.getbasetemp()
        if os.environ.get("PYTEST_XDIST_WORKER"):
            base = base.parent  # the workers' common directory
        (base / "artifact-cache").mkdir(parents=True, exist_ok=True)
    os.environ[CACHE_ENV] = previous or str(base / "artifact-cache")
    yield Path(os.environ[CACHE_ENV])
    if previous is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = previous


@pytest.fixture
def inputs() -> Path:
    return INPUTS


# ---- CPU descriptions that do not depend on the machine the suite runs on -------------------
# IREE's vector-size limit, the register count and the lanes of a vector follow the CPU, and
# the hosts this suite runs on are AVX-512 one day and AVX2 the next (IREE_NOTES, "Hosts
# differ"). A test about how the tuner uses a CPU description builds one of these instead of
# reading the machine's, and is parametrized over ISAS so every run checks both. Code that
# runs is compiled for haswell (AVX2), which every x86-64 runner here executes.
ISAS = ("avx2", "avx512")
_ISA_FLAGS = {
    # What /proc/cpuinfo reports that `machine_description` reads: a Haswell-class part...
    "avx2": {"fpu", "sse", "sse2", "sse4_1", "sse4_2", "avx", "avx2", "fma", "f16c", "bmi2"},
    # ...and an Ice Lake / Zen 4-class one (VNNI dot products, BF16).
    "avx512": {"fpu", "sse", "sse2", "sse4_1", "sse4_2", "avx", "avx2", "fma", "f16c", "bmi2", "avx512f",
               "avx512bw", "avx512dq", "avx512vl", "avx512cd", "avx512_vnni", "avx512_bf16"},
}
_CACHE_KIB = {1: 48, 2: 1024, 3: 32768}
# The --iree-llvmcpu-target-cpu each description compiles for. Code for cooperlake (AVX-512,
# VNNI, BF16) only compiles everywhere; a test that runs code uses the avx2 description.
TARGET_CPU = {"avx2": "haswell", "avx512": "cooperlake"}


@contextlib.contextmanager
def pinned_machine(isa: str):
    """While it is open, `host.target.machine_description` reads an AVX2-like or AVX-512-like CPU
    (`_ISA_FLAGS[isa]`, a 2 GHz clock, `_CACHE_KIB`, host.toml's DRAM bandwidth) instead of this
    machine's /proc/cpuinfo and sysfs. The FMA probe is left as it is (`cpu_description` pins it
    too); call `machine_description.__wrapped__()`, not the lru_cache'd machine's."""
    from iree_dsa_tuner.host import target as host_module

    env = {k: v for k, v in os.environ.items() if k != host_module.BANDWIDTH_ENV}
    with mock.patch.object(host_module, "_cpuinfo", lambda: (set(_ISA_FLAGS[isa]), 2000.0)), \
            mock.patch.object(host_module, "_max_mhz", lambda: None), \
            mock.patch.object(host_module, "_cache_kib", _CACHE_KIB.get), \
            mock.patch.dict(os.environ, env, clear=True):
        yield


@contextlib.contextmanager
def pinned_host(isa: str, *, fma_ports: int | None = None):
    """While it is open, the registry's `host` target (`get_target("host")`, `targets`, every
    command's `--target host`) is this machine's host target on an AVX2-like or AVX-512-like CPU:
    `pinned_machine(isa)`, with the FMA probe's answer fixed too (`fma_ports`, or host.toml's
    declared ports when None). The lru_cache'd machine is dropped on the way in and out, so the
    code reads the pinned CPU inside and this machine's again after."""
    from iree_dsa_tuner.host import target as host_module
    from iree_dsa_tuner.host.fma_probe import FmaReading

    def reading(flags, declared):
        return FmaReading(fma_ports or declared, None, f"fma_ports {fma_ports} (tests)" if fma_ports else "declared")

    host_module.machine_description.cache_clear()
    try:
        with pinned_machine(isa), mock.patch.object(host_module, "_fma_reading", reading):
            yield
    finally:
        host_module.machine_description.cache_clear()


def cpu_description(isa: str, *, cores: int = 1, target_cpu: str | None = None, **changes):
    """The host target's description for an AVX2-like or AVX-512-like CPU, whatever this machine is.

    Built by the same code as the machine's (`host.target.machine_description`, which writes
    host.toml's `[cpu]` fields) from fixed /proc/cpuinfo flags, a 2 GHz clock, 48 KiB L1d, 1 MiB
    L2 and 32 MiB L3, host.toml's DRAM bandwidth and `cores` cores. `target_cpu` is its
    `--iree-llvmcpu-target-cpu` (default `TARGET_CPU[isa]`), so that IREE's limits agree with the
    description's.
    """
    from iree_dsa_tuner.host import target as host_module
    from iree_dsa_tuner.host.fma_probe import FmaReading

    with pinned_machine(isa), \
            mock.patch.object(host_module, "_fma_reading", lambda flags, declared: FmaReading(declared, None, "declared")):
        desc = host_module.machine_description.__wrapped__()  # not the lru_cache'd machine's
    peak = 2.0 * desc.mac_m * desc.mac_n * desc.mac_k * cores * desc.clock_hz
    return desc.with_changes(cores=cores, declared_peak_ops_i8=peak, iree_target_cpu=target_cpu or TARGET_CPU[isa],
                             source=f"tests/conftest.py: {isa}-like CPU", **changes)


def cpu_target(isa: str, **kwargs):
    """A HostTarget on `cpu_description(isa, **kwargs)`; its compile flags pin `target_cpu`."""
    from iree_dsa_tuner.host.target import HostTarget

    return HostTarget(cpu_description(isa, **kwargs))


def cli_on(target, monkeypatch, capsys, *args) -> tuple[int, str, str]:
    """`iree-dsa-tune *args` run in this process with `--target host` meaning `target` (a pinned
    `cpu_target`, not this machine's CPU): its exit status, stdout and stderr."""
    import iree_dsa_tuner.targets as targets
    from iree_dsa_tuner.cli import main

    real = targets.get_target
    monkeypatch.setattr(targets, "get_target",
                        lambda name, *a, **kw: target if name == "host" else real(name, *a, **kw))
    capsys.readouterr()  # what the test printed before is not the command's
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def write_model(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


MATMUL_TEMPLATE = """\
func.func @{name}(%a: tensor<{m}x{k}x{t}>, %b: tensor<{k}x{n}x{t}>) -> tensor<{m}x{n}x{acc}> {{
  %c0 = arith.constant 0{zero} : {acc}
  %e = tensor.empty() : tensor<{m}x{n}x{acc}>
  %f = linalg.fill ins(%c0 : {acc}) outs(%e : tensor<{m}x{n}x{acc}>) -> tensor<{m}x{n}x{acc}>
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}x{t}>, tensor<{k}x{n}x{t}>) outs(%f : tensor<{m}x{n}x{acc}>) -> tensor<{m}x{n}x{acc}>
  return %r : tensor<{m}x{n}x{acc}>
}}
"""


def matmul_model(m: int, n: int, k: int, t: str = "f32", acc: str | None = None, name: str = "mm") -> str:
    acc = acc or t
    return MATMUL_TEMPLATE.format(name=name, m=m, n=n, k=k, t=t, acc=acc, zero=".0" if acc.startswith("f") else "")


# A linear layer as iree-turbine exports it: a batch-1 batch_matmul (the unbatch route's input).
BATCH1_LINEAR = """
func.func @main(%a: tensor<1x8x64xf32>, %b: tensor<1x64x32xf32>) -> tensor<1x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x8x64xf32>, tensor<1x64x32xf32>) outs(%f : tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  return %r : tensor<1x8x32xf32>
}
"""


# The same, any shape (`.format(m=, k=, n=)`).
BATCH1_LINEAR_TEMPLATE = """
func.func @main(%a: tensor<1x{m}x{k}xf32>, %b: tensor<1x{k}x{n}xf32>) -> tensor<1x{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x{m}x{n}xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x{m}x{n}xf32>) -> tensor<1x{m}x{n}xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x{m}x{k}xf32>, tensor<1x{k}x{n}xf32>) outs(%f : tensor<1x{m}x{n}xf32>) -> tensor<1x{m}x{n}xf32>
  return %r : tensor<1x{m}x{n}xf32>
}}
"""


class _PresetsReached(Exception):
    pass


def presets_a_host_tune_times(model: Path, monkeypatch, target=None, **kwargs) -> tuple[dict, list[str]]:
    """The flag presets `tune` (whole model, host) reaches on `model`, where it is stopped, and its
    progress lines; an empty dict: `tune_recipe`'s own `FLAG_PRESETS` (no route added any)."""
    import iree_dsa_tuner.host.recipe as host_recipe
    from iree_dsa_tuner.model_tuning import tune_model
    from iree_dsa_tuner.search.options import TuneOptions
    from iree_dsa_tuner.targets.registry import get_target

    seen: dict = {}
    said: list[str] = []

    def capture(*args, presets=None, **_):
        seen.update(presets or {})
        raise _PresetsReached

    monkeypatch.setattr(host_recipe, "tune_recipe", capture)
    try:
        tune_model(model, target or get_target("host"), TuneOptions(), progress=said.append, **kwargs)
    except _PresetsReached:
        return seen, said
    raise AssertionError("the tune did not reach its presets")


def load_tool(name: str):
    """A script of tools/ (not a package) imported as a module, e.g. `load_tool("gen_int4_models")`."""
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
