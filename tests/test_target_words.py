"""Each target in its own words (issue 21): a CPU is described by `[cpu]` (ports, lanes,
caches), shows only the knobs it has and names its funnel's third stage after its caches; a DSA
keeps its MAC array, scratchpad and DMA. Checked on AVX2-like and AVX-512-like descriptions."""

from __future__ import annotations

import copy
import json
import tomllib

import pytest

from conftest import ISAS, cpu_description, cpu_target, pinned_host
from iree_dsa_tuner.core.candidate import CPU_KNOBS, KNOBS, TilingCandidate
from iree_dsa_tuner.core.reasons import CPU_FUNNEL_STAGES, FUNNEL_STAGES, Reason
from iree_dsa_tuner.costmodel import run_funnel
from iree_dsa_tuner.report import plots
from iree_dsa_tuner.space import simple_gemm
from iree_dsa_tuner.targets import TARGET_PATH_ENV, TargetDescriptionError, get_target, parse_description
from iree_dsa_tuner.host.target import HOST_TOML, HostTarget

HOST_DATA = tomllib.loads(HOST_TOML.read_text())
CPU_FIELDS = {"clock_mhz", "cores", "fma_ports", "load_ports", "vector_register_bytes", "vector_registers",
              "int8_macs_per_lane", "bf16_macs_per_lane", "l1d_kib", "l2_kib", "l3_kib", "dram_bandwidth_gbps",
              "dispatch_overhead_us"}
# Words of a scratchpad part that a CPU user must not read.
DSA_WORDS = ("scratchpad", "DMA", "buffer", "descriptor", "stages", "fuse", "qblock", "ksplit", "MAC array")
SHAPES = [simple_gemm(1, 256, 256, "i8"), simple_gemm(50, 1024, 4096, "i8", has_consumer=True),
          simple_gemm(1, 2048, 2048, "i8", "i4", has_consumer=True), simple_gemm(256, 512, 512, "bf16", batch=2),
          simple_gemm(8, 512, 256, "f32")]


@pytest.fixture(autouse=True)
def _fixed_host_bandwidth(monkeypatch):
    monkeypatch.setenv("IREE_DSA_HOST_BANDWIDTH_GBPS", "20")
    monkeypatch.delenv(TARGET_PATH_ENV, raising=False)


def cpu_data(name: str = "my-cpu", **cpu_changes) -> dict:
    """host.toml's tree as a user's CPU file, with some `[cpu]` fields changed (None: removed)."""
    data = copy.deepcopy(HOST_DATA)
    data["target"]["name"] = name
    for key, value in cpu_changes.items():
        if value is None:
            del data["cpu"][key]
        else:
            data["cpu"][key] = value
    return data


# ---- the file ------------------------------------------------------------------------------------

def test_host_toml_describes_the_cpu_in_cpu_words():
    assert set(HOST_DATA["cpu"]) == CPU_FIELDS
    assert not {"compute", "memory", "dma", "launch", "space"} & set(HOST_DATA)
    text = HOST_TOML.read_text()
    for stale in ("scratchpad_kib_per_core", "peak_tops_i8", "mac_array", "stage_depths", "quant_block_sizes"):
        assert stale not in text
    # The CPU tables of before stay where they were.
    assert {"cpu_model", "host_space", "funnel", "iree"} <= set(HOST_DATA)


def test_a_cpu_file_derives_what_the_cost_model_reads():
    data = cpu_data(clock_mhz=3000, cores=4, fma_ports=2, load_ports=3, vector_register_bytes=64, vector_registers=32,
                    int8_macs_per_lane=4, bf16_macs_per_lane=2, l1d_kib=48, l2_kib=2048, l3_kib=0,
                    dram_bandwidth_gbps=50, dispatch_overhead_us=3)
    desc = parse_description(data, "my-cpu.toml")
    assert (desc.kind, desc.clock_hz, desc.cores) == ("cpu", 3e9, 4)
    # The "MAC array": FMA ports x f32 lanes x INT8 MACs per lane; rates per type.
    assert (desc.mac_m, desc.mac_n, desc.mac_k) == (2, 16, 4)
    assert desc.rates == {"i8": 1.0, "i4": 1.0, "f32": 0.25, "f16": 0.25, "bf16": 0.5}
    assert [desc.mac_k_for(t) for t in ("i8", "f32", "bf16")] == [4, 1, 2]
    # The peak is derived, never declared.
    assert desc.peak_ops("i8") == pytest.approx(2 * 2 * 16 * 4 * 4 * 3e9) == desc.declared_peak_ops_i8
    assert desc.vector_widths == tuple(16 * m for m in HOST_DATA["host_space"]["vector_n_multiples"])
    # Caches where the shared code reads memory levels; the CPU's own fields beside them.
    assert (desc.scratchpad_bytes, desc.shared_bytes) == (2048 << 10, 0)
    cpu = desc.cpu
    assert (cpu.fma_ports, cpu.load_ports, cpu.vector_registers, cpu.vector_register_bytes) == (2, 3, 32, 64)
    assert (cpu.l1d_bytes, cpu.l2_bytes, cpu.l3_bytes) == (48 << 10, 2048 << 10, 0)
    # No DMA: one engine, no descriptor latency, DRAM-wide port, one stage; no DSA knobs.
    assert (desc.dma_engines, desc.dma_descriptor_s, desc.min_dma_bytes) == (1, 0.0, 0)
    assert desc.dma_port_bytes_per_s == desc.dram_bytes_per_s == 50e9
    assert (desc.stage_depths, desc.fusion, desc.parallelism_choices) == ((1,), (0,), 1)
    assert desc.launch_s == pytest.approx(3e-6) and desc.accumulator_bytes == 4
    assert desc.tile_choices == HOST_DATA["host_space"]["tile_choices"]
    assert desc.knobs == CPU_KNOBS and desc.funnel_stages == CPU_FUNNEL_STAGES


@pytest.mark.parametrize("changes,field", [
    ({"l2_kib": "big"}, "cpu.l2_kib"),
    ({"l1d_kib": 0}, "cpu.l1d_kib"),
    ({"vector_register_bytes": 30}, "cpu.vector_register_bytes"),
    ({"cores": 0}, "cpu.cores"),
    ({"fma_ports": None}, "cpu.fma_ports"),
    ({"int8_macs_per_lane": 1.5}, "cpu.int8_macs_per_lane"),
])
def test_cpu_file_errors_name_the_file_and_field(tmp_path, changes, field):
    path = tmp_path / "my-cpu.json"
    path.write_text(json.dumps(cpu_data(**changes)))
    with pytest.raises(TargetDescriptionError) as info:
        get_target("my-cpu", [tmp_path])
    assert str(path) in str(info.value) and f"field '{field}'" in str(info.value)


@pytest.mark.parametrize("table", ["dma", "memory", "compute", "space"])
def test_a_cpu_file_with_dsa_tables_is_told_to_use_cpu(table):
    data = cpu_data()
    data[table] = {"engines_per_core": 1} if table == "dma" else {"scratchpad_kib_per_core": 1024}
    with pytest.raises(TargetDescriptionError, match=r"CPU targets are described by \[cpu\]") as info:
        parse_description(data, "old-host.toml")
    assert f"old-host.toml: field '{table}'" in str(info.value)


def test_a_dsa_file_keeps_its_schema_and_has_no_cpu_model():
    e1 = get_target("dsa-e1").describe()
    assert e1.cpu is None and e1.knobs == KNOBS and e1.funnel_stages == FUNNEL_STAGES
    assert set(e1.to_json()["dma"]) >= {"engines_per_core", "stage_depths"}


def test_a_user_cpu_file_is_a_host_target(tmp_path):
    (tmp_path / "my-cpu.json").write_text(json.dumps(cpu_data(vector_register_bytes=32, int8_macs_per_lane=2)))
    target = get_target("my-cpu", [tmp_path])
    assert isinstance(target, HostTarget) and target.knobs == CPU_KNOBS
    result = run_funnel(target.space(SHAPES[0]), target.describe(), estimator=target.estimator)
    assert result.survivor_count > 0 and [s.name for s in result.stages] == list(CPU_FUNNEL_STAGES)


# ---- what users read -----------------------------------------------------------------------------

@pytest.mark.parametrize("isa", ISAS)
def test_cpu_json_speaks_of_ports_lanes_and_caches(isa):
    desc = cpu_description(isa)
    js = desc.to_json()
    lanes = 16 if isa == "avx512" else 8
    assert (js["f32_lanes"], js["fma_ports"], js["vector_register_bytes"]) == (lanes, 2, 4 * lanes)
    assert (js["l1d_kib"], js["l2_kib"], js["l3_kib"]) == (48, 1024, 32768)
    assert js["peak_tops"]["i8"] == pytest.approx(desc.peak_ops("i8") / 1e12, abs=1e-3)
    assert not {"dma", "mac_array", "scratchpad_kib_per_core", "shared_sram_kib"} & set(js)


@pytest.mark.parametrize("isa", ISAS)
def test_the_cpu_funnel_speaks_of_caches_and_shows_only_cpu_knobs(isa):
    target = cpu_target(isa)
    for shape in SHAPES:
        result = run_funnel(target.space(shape), target.describe(), estimator=target.estimator)
        assert [s.name for s in result.stages] == list(CPU_FUNNEL_STAGES)
        text = "\n".join(result.lines(limit=20))
        for word in DSA_WORDS:
            assert word not in text, (shape.label(), word)
        js = result.to_json(limit=5)
        assert [s["stage"] for s in js["stages"]] == list(CPU_FUNNEL_STAGES)
        assert all(set(r["candidate"]) == set(CPU_KNOBS) for r in js["ranked"])
        pruned = [i for i in range(result.size) if result.reason_code[i]][:200]
        assert all(result.stage_of(i) in CPU_FUNNEL_STAGES for i in pruned)
        for i in pruned:
            assert not any(w in result.reason_of(i) for w in DSA_WORDS), result.reason_of(i)


def test_every_reason_has_cpu_text_without_dsa_words():
    for reason in Reason:
        assert not any(w in reason.text_for(cpu=True) for w in ("scratchpad", "DMA", "descriptor")), reason
    assert Reason.SCRATCHPAD_OVERFLOW.text_for(cpu=True) == "operand tiles overflow the L2 cache"
    assert Reason.SCRATCHPAD_OVERFLOW.stage_for(cpu=True) == "cache"
    assert Reason.SCRATCHPAD_OVERFLOW.stage_for(cpu=False) == "scratchpad"


def test_reason_codes_keep_their_order():
    # Codes are stored per candidate: the enum's order is an encoding.
    assert [r.name for r in Reason] == [
        "SURVIVED", "NO_VECTOR_STEP", "VECTOR_WIDER_THAN_TILE", "K_TILE_NOT_QUANT_MULTIPLE", "COMPUTE_UNDERUSED",
        "TOO_FEW_DMA_PORTS", "OPERAND_REREADS", "UNFUSED_ROUND_TRIP", "SCRATCHPAD_OVERFLOW", "DMA_STEP_TOO_SMALL",
        "STAGES_WASTED", "IDLE_CORES", "DESCRIPTOR_LATENCY", "SINGLE_BUFFER", "SECOND_LAUNCH", "SLOWER_THAN_SLACK",
        "DOMINATED", "VECTOR_SIZE_LIMIT", "VECTOR_M_BEYOND_TILE"]


def test_the_dsa_funnel_keeps_its_words_and_knobs():
    e1 = get_target("dsa-e1")
    result = run_funnel(e1.space(SHAPES[2]), e1.describe())
    assert [s.name for s in result.stages] == list(FUNNEL_STAGES)
    assert " stages " in "\n".join(result.lines()) and " fuse " in "\n".join(result.lines())
    assert all(set(r["candidate"]) == set(KNOBS) for r in result.to_json(limit=5)["ranked"])


def test_candidate_text_and_json_follow_the_knobs():
    c = TilingCandidate(1, 512, 2048, 1, 64, 8, parallelism=4, dma_stages=2, fusion=1, quant_block=32, k_split=2)
    assert c.short() == "tile 1x512x2048 vec 1x64x8 par 4 stages 2 fuse 1 qblock 32 stream ksplit 2"
    assert c.short(KNOBS) == c.short()
    assert c.short(CPU_KNOBS) == "tile 1x512x2048 vec 1x64x8 par 4"
    assert set(c.to_json(CPU_KNOBS)) == set(CPU_KNOBS) and c.to_json() == c.to_json(KNOBS)
    # The database's rows: every field (old rows), or a CPU's knobs only; both load.
    assert TilingCandidate.from_json(c.to_json()) == c
    cpu = TilingCandidate.from_json(c.to_json(CPU_KNOBS))
    assert (cpu.dma_stages, cpu.fusion, cpu.quant_block, cpu.k_split) == (1, 0, 0, 0)


def test_funnel_plot_bars_follow_the_target_stages():
    def dispatch(third):
        names = ("legal", "roofline", third, "latency")
        return {"space_size": 100, "measured": 3, "cached": 1,
                "funnel": [{"stage": n, "entered": e, "left": l} for n, e, l in zip(names, (100, 60, 30, 30),
                                                                                   (60, 30, 30, 10))]}
    for third in ("cache", "scratchpad"):
        d = dispatch(third)
        assert plots.funnel_counts(d) == [100, 60, 30, 30, 10, 4]
        assert plots.funnel_bars({"dispatches": [d]}) == ("space", "legal", "roofline", third, "latency", "measured")


# The host's compute words for each pinned CPU and FMA probe answer: a Zen 4-like AVX-512 core
# whose probe finds 1 full-width port reads "1 FMA port", never "1 FMA ports".
@pytest.mark.parametrize("isa, fma_ports, compute", [
    ("avx2", None, "2 FMA ports x 8 f32 lanes"),
    ("avx512", None, "2 FMA ports x 16 f32 lanes"),
    ("avx512", 1, "1 FMA port x 16 f32 lanes"),
])
def test_targets_command_lists_the_host_in_cpu_words(capsys, isa, fma_ports, compute):
    from iree_dsa_tuner.cli import main

    with pinned_host(isa, fma_ports=fma_ports):
        capsys.readouterr()
        assert main(["targets"]) == 0
        out = capsys.readouterr().out
        assert main(["targets", "--json"]) == 0
        js = json.loads(capsys.readouterr().out)
    host = next(line for line in out.splitlines() if line.startswith("host "))
    assert f"  {compute}  L1d 48 KiB, L2 1 MiB/core, L3 32 MiB  " in host
    assert "scratchpad" not in host and "MAC array" not in host
    e1 = next(line for line in out.splitlines() if line.startswith("dsa-e1 "))
    assert "16x32x16 MAC array" in e1 and "scratchpad 512 KiB/core, 4 MiB shared" in e1
    host_json = next(t for t in js["targets"] if t["name"] == "host")
    assert "dma" not in host_json and "l2_kib" in host_json
    assert (host_json["fma_ports"], host_json["f32_lanes"]) == (fma_ports or 2, 16 if isa == "avx512" else 8)
