"""The host's FMA probe: full-width FMA ports and the vector clock, measured once per CPU.

A core that runs its widest FMA as two halves (Zen 4's AVX-512) issues half the declared ports'
worth at full width, and the host description's peak must say so (it said twice the measured
peak there). These tests hold the arithmetic, the cache that keeps a machine's description (and
so its specs) the same run to run, the fallback without a C compiler, the probe's choice of
widths and its best-of runs on recorded rates, and that the real loop builds and runs (its
speed is bench/fma_peak.py's business).
"""

from __future__ import annotations

import json

import pytest

from iree_dsa_tuner.core.cache_dir import CACHE_ENV
from iree_dsa_tuner.host import fma_probe, target as host_module
from iree_dsa_tuner.host.fma_probe import FMA_PORTS_ENV, FmaProbe, read_fma

from conftest import pinned_machine


@pytest.mark.parametrize("wide_per_s, ports", [(3.6e9, 1), (3.9e9, 1), (6.4e9, 2), (7.2e9, 2)])
def test_full_width_ports_are_the_declared_ones_scaled_by_the_rate_ratio(wide_per_s, ports):
    probe = FmaProbe("zmm", "ymm", wide_per_s=wide_per_s, narrow_per_s=7.2e9)
    assert probe.ports(2) == ports
    # Two half-width FMAs per cycle at 7.2 G/s: the core runs vector code at 3.6 GHz.
    assert probe.clock_mhz(2) == 3600.0
    assert f"-> {ports} full-width FMA {'port' if ports == 1 else 'ports'} at 3600 MHz" in probe.describe(2)


def test_a_probe_never_reports_less_than_one_port():
    assert FmaProbe("ymm", "xmm", wide_per_s=1e9, narrow_per_s=8e9).ports(2) == 1


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    monkeypatch.delenv(FMA_PORTS_ENV, raising=False)
    return tmp_path / "host-fma-probe.json"


def test_the_reading_is_measured_once_per_cpu_and_cached(cache, monkeypatch):
    calls = []

    def fake_measure(flags):
        calls.append(sorted(flags))
        return FmaProbe("zmm", "ymm", 3.5e9, 7.0e9)

    monkeypatch.setattr(fma_probe, "measure", fake_measure)
    first = read_fma({"avx512f", "fma"}, "Some CPU", 2)
    again = read_fma({"avx512f", "fma"}, "Some CPU", 2)
    assert first == again and (first.fma_ports, first.clock_mhz) == (1, 3500.0)
    assert len(calls) == 1  # the second process reads the cache
    read_fma({"avx2", "fma"}, "Other CPU", 2)
    assert len(calls) == 2 and len(json.loads(cache.read_text())) == 2  # one entry per CPU


def test_the_environment_overrides_the_probe(cache, monkeypatch):
    monkeypatch.setattr(fma_probe, "measure", lambda flags: pytest.fail("probed despite the override"))
    monkeypatch.setenv(FMA_PORTS_ENV, "2")
    reading = read_fma({"avx512f", "fma"}, "Some CPU", 2)
    assert (reading.fma_ports, reading.clock_mhz) == (2, None) and FMA_PORTS_ENV in reading.source


def test_a_malformed_override_is_one_clear_error(cache, monkeypatch):
    from iree_dsa_tuner.errors import InputError

    monkeypatch.setenv(FMA_PORTS_ENV, "two")
    with pytest.raises(InputError, match=r"IREE_DSA_HOST_FMA_PORTS='two': expected a whole number"):
        read_fma({"avx512f", "fma"}, "Some CPU", 2)


# f32 lanes of a vector register on each pinned CPU (conftest.pinned_machine).
LANES = {"avx2": 8, "avx512": 16}


@pytest.mark.parametrize("isa", sorted(LANES))
def test_without_a_c_compiler_the_declared_ports_and_clock_stand(cache, monkeypatch, isa):
    monkeypatch.setattr(fma_probe, "c_compiler", lambda: None)
    reading = read_fma({"avx512f", "fma"}, "Some CPU", 2)
    assert (reading.fma_ports, reading.clock_mhz) == (2, None) and "declared" in reading.source
    assert not cache.exists()  # nothing measured, nothing cached: a later run with cc probes
    with pinned_machine(isa):  # its flags, 2 GHz, whatever this machine is
        desc = host_module.machine_description.__wrapped__()
    assert desc.cpu.fma_ports == 2 and "fma_ports declared" in desc.source
    assert desc.clock_hz == 2.0e9  # no probed clock: /proc/cpuinfo's MHz stands


@pytest.mark.parametrize("isa", sorted(LANES))
def test_the_description_s_peak_is_the_probed_ports_at_the_probed_clock(monkeypatch, isa):
    monkeypatch.setattr(host_module, "_fma_reading",
                        lambda flags, declared: fma_probe.FmaReading(1, 3600.0, "FMA probe (test)"))
    with pinned_machine(isa):
        desc = host_module.machine_description.__wrapped__()
    assert desc.cpu.fma_ports == 1 and desc.clock_hz == 3.6e9 and desc.mac_n == LANES[isa]
    assert desc.peak_ops("f32") == pytest.approx(2 * 1 * LANES[isa] * 3.6e9 * desc.cores)
    assert "FMA probe (test)" in desc.source


# The probe's logic on recorded rates (a timed loop's numbers belong to bench/fma_peak.py, not to a
# test): which widths it times for a CPU's flags, in which order, and what it keeps.
PROBED = {"avx512": ("zmm", "ymm"), "avx2": ("ymm", "xmm")}  # pinned flags -> (widest width, its half)
FLAGS = {"avx512": {"sse2", "avx", "avx2", "fma", "avx512f"}, "avx2": {"sse2", "avx", "avx2", "fma"},
         "sse": {"sse2", "avx"}}


def _no_probe(*args, **kwargs):
    pytest.fail("probed a CPU with neither AVX2+FMA nor AVX-512")


def test_a_cpu_without_avx2_fma_is_not_probed(monkeypatch):
    monkeypatch.setattr(fma_probe, "c_compiler", lambda: "/usr/bin/cc")
    monkeypatch.setattr(fma_probe, "build_fma_loop", _no_probe)
    monkeypatch.setattr(fma_probe, "fma_rate", _no_probe)
    assert fma_probe.measure(FLAGS["sse"]) is None


@pytest.mark.parametrize("cpu", sorted(PROBED))
def test_the_probe_times_the_widest_width_and_its_half_interleaved_and_keeps_the_best(monkeypatch, tmp_path, cpu):
    # Recorded rates per run: the second run of each width is the faster (a clock step mid-probe).
    recorded = {"zmm": [3.0e9, 3.5e9], "ymm": [6.0e9, 7.0e9], "xmm": [6.5e9, 7.2e9]}
    built, runs = [], []

    def fake_build(compiler, width, work, steps=fma_probe._STEPS):
        built.append((compiler, width))
        return tmp_path / f"fma_{width}"

    def fake_rate(exe):
        width = exe.name.removeprefix("fma_")
        runs.append(width)
        return recorded[width][runs.count(width) - 1]

    monkeypatch.setattr(fma_probe, "c_compiler", lambda: "/usr/bin/cc")
    monkeypatch.setattr(fma_probe, "build_fma_loop", fake_build)
    monkeypatch.setattr(fma_probe, "fma_rate", fake_rate)
    probe = fma_probe.measure(FLAGS[cpu])
    wide, narrow = PROBED[cpu]
    assert built == [("/usr/bin/cc", narrow), ("/usr/bin/cc", wide)]
    assert runs == [narrow, wide, narrow, wide]
    assert probe == FmaProbe(wide, narrow, recorded[wide][1], recorded[narrow][1])


def test_a_probe_that_cannot_build_or_run_leaves_the_declared_ports(monkeypatch, cache):
    import subprocess

    def broken(compiler, width, work, steps=fma_probe._STEPS):
        raise subprocess.CalledProcessError(1, [compiler])

    monkeypatch.setattr(fma_probe, "c_compiler", lambda: "/usr/bin/cc")
    monkeypatch.setattr(fma_probe, "build_fma_loop", broken)
    assert fma_probe.measure(FLAGS["avx2"]) is None
    reading = read_fma(FLAGS["avx2"], "Some CPU", 2)
    assert (reading.fma_ports, reading.clock_mhz) == (2, None) and "declared" in reading.source


def test_the_fma_loop_builds_and_prints_a_rate(tmp_path):
    """The real C loop at ymm (AVX2 + FMA: every x86-64 runner here executes it), a short run: it
    builds with this machine's C compiler and prints a rate. How fast is not asserted."""
    compiler = fma_probe.c_compiler()
    assert compiler is not None, "no C compiler ($CC, cc or gcc): the probe cannot run here"
    exe = fma_probe.build_fma_loop(compiler, "ymm", tmp_path, steps=12 * 10_000)
    assert exe.exists() and fma_probe.fma_rate(exe) > 0
