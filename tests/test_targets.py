"""Targets: registry, description schema, user description files, IREE mapping."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest

from conftest import ISAS, cpu_description, cpu_target, matmul_model, pinned_host, write_model
from iree_dsa_tuner import compile_model
from iree_dsa_tuner.core.problems import tunable
from iree_dsa_tuner.core.status import Status
from iree_dsa_tuner.costmodel import run_funnel
from iree_dsa_tuner.runners.host import HostBenchRunner
from iree_dsa_tuner.space import simple_gemm
from iree_dsa_tuner.core.config import CompilationConfig
from iree_dsa_tuner.targets import (
    TARGET_PATH_ENV,
    TargetDescriptionError,
    UnknownTarget,
    get_target,
    list_targets,
    load_catalog,
    load_description,
)
from iree_dsa_tuner.targets.mapping import loop_types
from iree_dsa_plugin.target import builtin_description_files
from iree_dsa_plugin.eventsim import simulate


@pytest.fixture(autouse=True)
def _fixed_host_bandwidth(monkeypatch):
    # The host target would otherwise read its bandwidth from config or a probe.
    monkeypatch.setenv("IREE_DSA_HOST_BANDWIDTH_GBPS", "20")
    monkeypatch.delenv(TARGET_PATH_ENV, raising=False)


def _write_variant(tmp_path, name, **replacements):
    """A copy of dsa-e1.toml with some `key = value` lines replaced."""
    text = next(p for p in builtin_description_files() if p.stem == "dsa-e1").read_text()
    text = text.replace('name = "dsa-e1"', f'name = "{name}"')
    for key, value in replacements.items():
        text, n = re.subn(rf"(?m)^{key} = [^#\n]*", f"{key} = {value} ", text)
        assert n == 1, key
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


def test_builtin_targets_listed_with_seed_numbers():
    names = {t.name: t for t in list_targets()}
    assert {"dsa-e1", "dsa-c1", "host"} <= set(names)
    e1 = names["dsa-e1"].describe()
    assert e1.peak_ops("i8") == pytest.approx(256e12)
    assert e1.dram_bytes_per_s == 68e9
    assert e1.ridge("i8") == pytest.approx(3764.7, abs=0.1)
    c1 = names["dsa-c1"].describe()
    assert c1.peak_ops("i8") > 10 * e1.peak_ops("i8")
    assert c1.dram_bytes_per_s > 10 * e1.dram_bytes_per_s
    assert c1.scratchpad_bytes > e1.scratchpad_bytes
    assert names["dsa-e1"].runner_names == ("dsa-sim",)


# What the host description reads off the vector ISA, checked for both ISAs on any machine.
ISA_FACTS = {  # f32 lanes, INT8 MACs per lane (VNNI: 4), registers, IREE's vector limit (elements), widths
    "avx2": (8, 2, 16, 4096, (8, 16, 32, 64, 128, 256, 512)),
    "avx512": (16, 4, 32, 8192, (16, 32, 64, 128, 256, 512, 1024)),
}


@pytest.mark.parametrize("isa", ISAS)
def test_host_target_is_derived_from_machine(isa):
    """The registry's `host` is the machine's description: on an AVX2-like and an AVX-512-like
    /proc/cpuinfo (conftest's, whatever this machine is), its lanes, registers and caches."""
    lanes, mac_k, registers, limit, _ = ISA_FACTS[isa]
    with pinned_host(isa):
        os.environ["IREE_DSA_HOST_BANDWIDTH_GBPS"] = "20"  # pinned_machine clears it; restored on exit
        host = get_target("host").describe()
    assert host.kind == "cpu"
    assert host.cores >= 1 and host.clock_hz == 2e9  # the pinned clock
    assert host.dram_bytes_per_s == 20e9  # from the env var
    assert (host.mac_n, host.mac_k, host.cpu.vector_registers) == (lanes, mac_k, registers)  # f32 lanes of a register
    assert host.max_vector_elements == limit
    assert (host.cpu.l1d_bytes, host.cpu.l2_bytes) == (48 << 10, 1 << 20)
    assert "/proc/cpuinfo" in host.source and "$IREE_DSA_HOST_BANDWIDTH_GBPS" in host.source


@pytest.mark.parametrize("isa", ISAS)
def test_the_host_description_follows_the_vector_isa(isa):
    desc = cpu_description(isa)
    lanes, mac_k, registers, limit, widths = ISA_FACTS[isa]
    assert (desc.mac_n, desc.mac_k, desc.cpu.vector_registers) == (lanes, mac_k, registers)
    assert desc.max_vector_elements == limit and desc.vector_widths == widths
    assert desc.peak_ops("f32") == pytest.approx(2 * 2 * lanes * 2e9)  # two FMA ports, one core at 2 GHz
    assert desc.source.startswith("tests/") and "/proc/cpuinfo" not in desc.source
    # The probe wrote the [cpu] fields: register bytes, caches from sysfs (conftest's).
    cpu = desc.cpu
    assert (cpu.vector_register_bytes, cpu.fma_ports) == (4 * lanes, 2)
    assert (cpu.l1d_bytes, cpu.l2_bytes, cpu.l3_bytes) == (48 << 10, 1 << 20, 32 << 20)
    assert (desc.scratchpad_bytes, desc.shared_bytes) == (cpu.l2_bytes, cpu.l3_bytes)  # what the cost model reads


@pytest.mark.parametrize("isa", ISAS)
def test_the_vector_limit_of_each_description_is_iree_s_for_its_cpu(tmp_path, isa):
    """A vector tile under the description's limit compiles for its CPU; one at the limit is IREE's
    "large vector sizes" error. Compiled only (never run), so both ISAs are checked on any x86-64."""
    target = cpu_target(isa)  # AVX2: haswell; AVX-512: cooperlake
    limit = target.describe().max_vector_elements
    model = write_model(tmp_path, "mm.mlir", matmul_model(64, 256, 64))
    artifacts = compile_model(model, target.compile_flags)
    (problem,) = tunable(artifacts.problems())

    def rows(vec_m):  # vec_m x 64 x 8 vector elements
        return {"distribution": [64, 64, 0], "vector_common_parallel": [vec_m, 64, 0], "vector_reduction": [0, 0, 8]}

    with HostBenchRunner(artifacts, target.describe()) as runner:
        under = runner.compiled(problem, rows(limit // 2 // 512))
        at = runner.compiled(problem, rows(limit // 512))
    assert under.failure is None and under.lowering_config
    assert at.failure is not None and at.failure.status == Status.COMPILE_ERROR
    assert f"large vector sizes ({4 * limit} bytes)" in at.failure.reason, at.failure.reason


def test_user_target_file_is_listed_and_moves_estimates(tmp_path, monkeypatch):
    _write_variant(tmp_path, "dsa-e2", dram_bandwidth_gbps=136, port_bandwidth_gbps=32)
    names = {t.name: t for t in list_targets([tmp_path])}
    assert "dsa-e2" in names and str(tmp_path) in names["dsa-e2"].source
    # The env var works the same way, with no code change.
    monkeypatch.setenv(TARGET_PATH_ENV, str(tmp_path))
    e2 = get_target("dsa-e2")
    e1 = get_target("dsa-e1")
    assert e2.describe().dram_bytes_per_s == 2 * e1.describe().dram_bytes_per_s
    shape = simple_gemm(1, 1024, 4096, "i8", has_consumer=True)  # memory-bound
    best_e1 = run_funnel(e1.space(shape), e1.describe()).survivors(1)[0]
    best_e2 = run_funnel(e2.space(shape), e2.describe()).survivors(1)[0]
    assert best_e2.estimate_s < best_e1.estimate_s
    # Twice the bandwidth: the DMA-bound part halves, launch stays.
    assert best_e2.memory_s == pytest.approx(best_e1.memory_s / 2, rel=0.05)
    sim1 = simulate(e1.describe(), shape, best_e1.candidate)
    sim2 = simulate(e2.describe(), shape, best_e1.candidate)
    assert sim2.cycles < sim1.cycles


def test_targets_command_lists_user_file(tmp_path):
    _write_variant(tmp_path, "dsa-e2", dram_bandwidth_gbps=136)
    out = subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", "targets", "--target-path", str(tmp_path)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert re.search(r"dsa-e2\s+dsa\s+256\.00 TOPS\s+136\.0 GB/s", out.stdout)


@pytest.mark.parametrize("field,value,expect", [
    ("dram_bandwidth_gbps", '"fast"', "memory.dram_bandwidth_gbps"),
    ("cores", "0", "compute.cores"),
    ("peak_tops_i8", "300", "compute.peak_tops_i8"),
    ("stage_depths", "[]", "dma.stage_depths"),
    ("quant_block_sizes", "[32, 48]", "space.quant_block_sizes[1]"),
])
def test_malformed_file_error_names_file_and_field(tmp_path, field, value, expect):
    path = _write_variant(tmp_path, "dsa-bad", **{field: value})
    with pytest.raises(TargetDescriptionError) as info:
        load_description(path)
    message = str(info.value)
    assert str(path) in message and f"'{expect}'" in message
    # The registry reports it for that name instead of "unknown target".
    with pytest.raises(TargetDescriptionError, match=re.escape(expect)):
        get_target("dsa-bad", [tmp_path])
    catalog = load_catalog([tmp_path])
    assert "dsa-e1" in catalog.targets and any(str(path) in str(e) for e in catalog.errors)


def test_missing_field_and_syntax_error(tmp_path):
    path = _write_variant(tmp_path, "dsa-bad")
    path.write_text(path.read_text().replace("descriptor_latency_ns = 250", ""))
    with pytest.raises(TargetDescriptionError, match=r"dsa-bad\.toml: field 'dma\.descriptor_latency_ns': missing"):
        load_description(path)
    broken = tmp_path / "broken.toml"
    broken.write_text("schema = \n")
    with pytest.raises(TargetDescriptionError, match="broken.toml"):
        get_target("broken", [tmp_path])
    out = subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", "targets", "--target-path", str(tmp_path)],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "broken.toml" in out.stderr  # an input error: exit 2, as the README says


def test_unknown_target():
    with pytest.raises(UnknownTarget, match="dsa-e1"):
        get_target("no-such-part")


@pytest.mark.parametrize("name", ["dsa-e1", "dsa-c1", "host", "host-avx2", "host-avx512"])
def test_configs_are_legal_for_llvm_cpu_and_round_trip(name):
    # host: this machine's CPU; host-avx2 / host-avx512: both ISAs, whatever this machine is.
    target = cpu_target(name.removeprefix("host-")) if name.startswith("host-") else get_target(name)
    desc = target.describe()
    for shape in [simple_gemm(1, 256, 256, "i8"), simple_gemm(50, 1024, 4096, "i8", has_consumer=True),
                  simple_gemm(1, 2048, 2048, "i8", "i4", has_consumer=True), simple_gemm(256, 512, 512, "bf16", batch=2)]:
        result = run_funnel(target.space(shape), desc, estimator=target.estimator)
        assert result.survivor_count > 0
        for survivor in result.survivors(25):
            config = target.to_config(shape, survivor.candidate)
            config.check_against(loop_types(shape))
            assert config.pipeline == "DoubleTilingExpert"
            m, n, k = [i for i, r in enumerate(shape.loop_roles) if r in "mnk"][-3:]
            vec = config.vector_common_parallel[m] * config.vector_common_parallel[n] * config.vector_reduction[k]
            assert vec < desc.max_vector_elements
            # Through JSON (as in a plan file) and back: the same config, and for the
            # DSA (whose knobs all travel in the config) the same candidate.
            again = CompilationConfig.from_json(config.to_json())
            assert target.to_config(shape, target.from_config(shape, again)) == config
            if target.kind == "dsa":
                assert target.from_config(shape, again) == survivor.candidate
            if target.kind == "dsa":
                text = config.translation_info_text()
                assert "iree_dsa.dma_stages" in text and "iree_dsa.tile_k" in text


def test_dsa_config_carries_knobs_in_translation_info():
    target = get_target("dsa-e1")
    shape = simple_gemm(1, 2048, 2048, "i8", "i4", has_consumer=True)
    best = run_funnel(target.space(shape), target.describe()).survivors(1)[0].candidate
    text = target.to_config(shape, best).compilation_info_text()
    assert f"iree_dsa.quant_block = {best.quant_block} : i64" in text
    assert "#iree_cpu.pipeline<DoubleTilingExpert>" in text
    assert np.all([k.startswith("iree_dsa.") for k, _ in target.to_config(shape, best).extra])


def test_only_the_host_tunes_the_whole_model_and_a_dsa_asked_to_says_why():
    """`model_tuning.tune_model` asks a target whose `tunes_whole_model` is set to tune the whole
    model; any other target is tuned dispatch by dispatch, and asking it anyway is a clear error."""
    from iree_dsa_tuner.search.options import TuneOptions

    assert get_target("host").tunes_whole_model
    dsa = get_target("dsa-e1")
    assert not dsa.tunes_whole_model
    with pytest.raises(NotImplementedError, match="target 'dsa-e1' tunes dispatch by dispatch, not the whole model"):
        dsa.tune_whole_model("model.mlir", TuneOptions())
