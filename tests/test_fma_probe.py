"""The host's FMA probe: full-width FMA ports and the vector clock, measured once per CPU.

A core that runs its widest FMA as two halves (Zen 4's AVX-512) issues half the declared ports'
worth at full width, and the host description's peak must say so (it said twice the measured
peak there). These tests hold the arithmetic, the cache that keeps a machine's description (and
so its specs) the same run to run, the fallback without a C compiler, and the real probe on
this machine, whatever its ISA.
"""

from __future__ import annotations

import json

import pytest

from iree_dsa_tuner.core.cache_dir import CACHE_ENV
from iree_dsa_tuner.targets import fma_probe, host as host_module
from iree_dsa_tuner.targets.fma_probe import FMA_PORTS_ENV, FmaProbe, read_fma


@pytest.mark.parametrize("wide_per_s, ports", [(3.6e9, 1), (3.9e9, 1), (6.4e9, 2), (7.2e9, 2)])
def test_full_width_ports_are_the_declared_ones_scaled_by_the_rate_ratio(wide_per_s, ports):
    probe = FmaProbe("zmm", "ymm", wide_per_s=wide_per_s, narrow_per_s=7.2e9)
    assert probe.ports(2) == ports
    # Two half-width FMAs per cycle at 7.2 G/s: the core runs vector code at 3.6 GHz.
    assert probe.clock_mhz(2) == 3600.0
    assert f"-> {ports} full-width FMA port(s) at 3600 MHz" in probe.describe(2)


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


def test_without_a_c_compiler_the_declared_ports_and_clock_stand(cache, monkeypatch):
    monkeypatch.setattr(fma_probe, "c_compiler", lambda: None)
    reading = read_fma({"avx512f", "fma"}, "Some CPU", 2)
    assert (reading.fma_ports, reading.clock_mhz) == (2, None) and "declared" in reading.source
    assert not cache.exists()  # nothing measured, nothing cached: a later run with cc probes
    desc = host_module.machine_description.__wrapped__()
    assert desc.cpu.fma_ports == 2 and "fma_ports declared" in desc.source


def test_the_description_s_peak_is_the_probed_ports_at_the_probed_clock(monkeypatch):
    monkeypatch.setattr(host_module, "_fma_reading",
                        lambda flags, declared: fma_probe.FmaReading(1, 3600.0, "FMA probe (test)"))
    desc = host_module.machine_description.__wrapped__()
    assert desc.cpu.fma_ports == 1 and desc.clock_hz == 3.6e9
    assert desc.peak_ops("f32") == pytest.approx(2 * 1 * desc.mac_n * 3.6e9 * desc.cores)
    assert "FMA probe (test)" in desc.source


def test_this_machine_s_probe_measures_ports_and_a_clock(cache):
    """The real loop, built with this machine's C compiler at its widest and half width."""
    flags, _ = host_module._cpuinfo()
    probe = fma_probe.measure(flags)
    assert probe is not None, "no probe: no C compiler, or neither AVX2+FMA nor AVX-512 in /proc/cpuinfo"
    assert probe.wide in ("zmm", "ymm") and probe.wide_per_s > 0 and probe.narrow_per_s > 0
    assert probe.ports(2) in (1, 2)
    assert 500 <= probe.clock_mhz(2) <= 7000  # a plausible core clock, whatever the load
