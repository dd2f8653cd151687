"""Target descriptions: the numbers a target is, read from data files.

A description file (TOML, or JSON with the same tree) holds everything the
space, the cost model and the simulator need to know about a part: clock,
cores, MAC array, per-type throughput, memory levels, DMA, launch overhead and
the tuning policy (how many tile choices, how hard the funnel prunes). Code
never hard-codes any of these (R9.2); a new chip generation is a new file
(R2.6).

Each kind is described in its own words. A DSA (`kind = "dsa"`) by its MAC
array, scratchpad and DMA (`[compute]`, `[memory]`, `[dma]`, `[space]`); a CPU
(`kind = "cpu"`) by its `[cpu]` table (clock, cores, FMA and load ports, vector
registers, caches, DRAM bandwidth) from which `parse_description` derives the
same internal fields the shared cost-model code reads (MAC array = FMA ports x
f32 lanes x INT8 MACs per lane, "scratchpad" = L2 per core, neutral DMA).

The schema is checked field by field; every error names the file and the
dotted field path, so a user editing a file sees exactly what to fix.
"""

from __future__ import annotations

import json
import math
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .core.candidate import CPU_KNOBS, KNOBS
from .core.problems import element_bits
from .core.reasons import stage_names
from .errors import InputError

SCHEMA_VERSION = "iree-dsa-target/1"

# Relative tolerance between the declared INT8 peak and clock x cores x array;
# the declared number is the marketing figure the seed quotes, the product is
# what the simulator executes, and they must agree or the roofline would lie.
_PEAK_CONSISTENCY_RTOL = 1e-3


class TargetDescriptionError(InputError, ValueError):
    """A description file that does not follow the schema; names file and field."""

    def __init__(self, source: str, field_path: str, message: str):
        self.source = source
        self.field_path = field_path
        super().__init__(f"{source}: field '{field_path}': {message}")


class UnsupportedElementType(KeyError):
    """A root op's type the target has no MAC rate for; the message names both."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unsupported element type"


@dataclass(frozen=True)
class CpuModel:
    """A `kind = "cpu"` target's own numbers: the CPU's (`[cpu]`) and its register-blocking model's
    (`[cpu_model]`). DSA descriptions have none (`TargetDescription.cpu` is None).

    Every field is required: the cost model has no defaults of its own, so the
    shipped file is the one place these numbers live.
    """

    # [cpu]: what the CPU is (a manual's numbers, or the machine's at run time).
    fma_ports: int  # vector FMAs issued per cycle per core
    load_ports: int  # vector loads per cycle
    vector_registers: int  # architectural vector registers (16 ymm with AVX2, 32 zmm with AVX-512)
    vector_register_bytes: int  # 32 with AVX2, 64 with AVX-512
    l1d_bytes: int  # per core
    l2_bytes: int  # per core
    l3_bytes: int  # shared by the cores (0: none)
    # [cpu_model]: the register-blocking model's terms.
    fma_latency_cycles: float  # dependent-chain latency of one FMA
    l2_latency_cycles: float  # load-to-use latency of an L2 hit (a streamed row that misses the L1d)
    loop_overhead_cycles: float  # per innermost vector_reduction iteration
    unroll_budget: float  # vector FMAs in one unrolled step before code size hurts
    remainder_penalty: float  # a vector tile that does not divide its loop
    spill_penalty: float  # accumulators + operands beyond the register file
    stream_overhead_bytes: float  # per contiguous run of a streamed operand
    cache_bytes_per_s: float  # last-level cache streaming bandwidth
    near_cache_bytes_per_s: float  # L1/L2 re-streaming inside a dispatch
    shuffle_ports: int  # vector shuffles (permutes, inserts) per cycle
    prefetch_streams: int  # concurrent sequential streams the hardware prefetcher follows
    attention_efficiency: float  # fraction of f32 peak IREE's CPU attention reaches (sizes benchmark runs)
    attention_qk_cycles_per_mac: float  # attention terms per KV step (host/costmodel.py, fitted)
    attention_pv_cycles_per_mac: float
    attention_rescale_cycles: float
    attention_step_cycles: float


@dataclass(frozen=True)
class TargetDescription:
    """One target in SI units (seconds, bytes, ops/s), derived from its file."""

    name: str
    kind: str  # "dsa" | "cpu"
    summary: str
    source: str
    clock_hz: float
    cores: int
    mac_m: int  # output rows one MAC step covers, per core
    mac_n: int  # output columns (lanes) one MAC step covers, per core
    mac_k: int  # reduction depth of one MAC step at the INT8 rate
    rates: dict[str, float]  # MACs per cycle relative to INT8, per element type
    vector_widths: tuple[int, ...]  # n-lanes of one MAC/vector step (knob values)
    accumulator_bytes: int
    dram_bytes_per_s: float
    scratchpad_bytes: int  # per core
    shared_bytes: int
    dma_engines: int  # per core
    dma_queue_depth: int  # descriptors in flight per engine
    dma_descriptor_s: float  # issue-to-first-byte latency of one descriptor
    dma_port_bytes_per_s: float  # what one core's DMA port can move at most
    min_dma_bytes: int  # below this a DMA step is latency, not bandwidth
    stage_depths: tuple[int, ...]
    launch_s: float
    tile_choices: int
    parallelism_choices: int
    fusion: tuple[int, ...]
    quant_block_sizes: tuple[int, ...]
    scale_bytes: int
    roofline_slack: float
    latency_slack: float
    min_survivors: int  # the latency stage's slack widens until this many survive (R5.6: tens)
    max_vector_elements: int  # llvm-cpu rejects larger vector tiles (IREE fact)
    iree_target_cpu: str  # --iree-llvmcpu-target-cpu of the llvm-cpu path ("host", or a fixed part)
    cpu: CpuModel | None  # kind "cpu" only: the register-blocking model's numbers
    declared_peak_ops_i8: float
    extras: dict[str, Any] = field(default_factory=dict)

    # ---- derived quantities -------------------------------------------------

    @property
    def mac_per_cycle_i8(self) -> int:
        return self.mac_m * self.mac_n * self.mac_k

    @property
    def is_cpu(self) -> bool:
        """Caches and a register file rather than a scratchpad and DMA (a `kind = "cpu"` target)."""
        return self.cpu is not None

    @property
    def knobs(self) -> tuple[str, ...]:
        """The candidate fields this target varies; the others stay at their defaults."""
        return CPU_KNOBS if self.is_cpu else KNOBS

    @property
    def funnel_stages(self) -> tuple[str, ...]:
        """The funnel's stage names in this target's words (a CPU's third stage is its caches)."""
        return stage_names(self.is_cpu)

    def compute_type(self, lhs_type: str, rhs_type: str) -> str:
        """The type the MAC array runs at: the wider operand (W4A8 runs at INT8)."""
        wider = max((lhs_type, rhs_type), key=element_bits)
        if wider in self.rates:
            return wider
        # f8 variants and friends fall back on the rate of their bit width.
        for name in self.rates:
            if element_bits(name) == element_bits(wider) and name[0] == wider[0]:
                return name
        raise UnsupportedElementType(f"{self.name} does not compute in {wider} (it has MAC rates for "
                                     f"{', '.join(sorted(self.rates))})")

    def rate(self, element_type: str) -> float:
        return self.rates[element_type]

    def mac_k_for(self, element_type: str) -> int:
        """Reduction depth of one MAC step at this type's rate (integer by schema)."""
        return max(1, int(round(self.mac_k * self.rates[element_type])))

    def peak_ops(self, element_type: str = "i8") -> float:
        """Ops/s (a MAC is 2 ops) of all cores at the given type's rate."""
        return 2.0 * self.mac_m * self.mac_n * self.mac_k_for(element_type) * self.cores * self.clock_hz

    def ridge(self, element_type: str = "i8") -> float:
        """Arithmetic intensity (op/B) where compute and memory bounds meet."""
        return self.peak_ops(element_type) / self.dram_bytes_per_s

    def parallelism(self) -> tuple[int, ...]:
        """Core counts a candidate may use: cores, cores/2, ... (file says how many)."""
        values = []
        for i in range(self.parallelism_choices):
            p = self.cores >> i
            if p >= 1 and p not in values:
                values.append(p)
        return tuple(values)

    def with_changes(self, **changes) -> "TargetDescription":
        """A copy with some fields replaced (what-if studies and tests)."""
        return replace(self, **changes)

    def _common_json(self) -> dict:
        """What every target's JSON says first: who it is, its clock and cores."""
        return {"name": self.name, "kind": self.kind, "summary": self.summary, "source": self.source,
                "clock_mhz": self.clock_hz / 1e6, "cores": self.cores}

    def _roofline_json(self) -> dict:
        return {"peak_tops": {t: round(self.peak_ops(t) / 1e12, 3) for t in self.rates},
                "dram_bandwidth_gbps": self.dram_bytes_per_s / 1e9,
                "ridge_op_per_byte_i8": round(self.ridge("i8"), 1)}

    def to_json(self) -> dict:
        if self.cpu is not None:
            return self._cpu_json()
        return {
            **self._common_json(),
            "mac_array": [self.mac_m, self.mac_n, self.mac_k],
            **self._roofline_json(),
            "scratchpad_kib_per_core": self.scratchpad_bytes // 1024,
            "shared_sram_kib": self.shared_bytes // 1024,
            "dma": {
                "engines_per_core": self.dma_engines,
                "queue_depth": self.dma_queue_depth,
                "descriptor_latency_ns": self.dma_descriptor_s * 1e9,
                "port_bandwidth_gbps": self.dma_port_bytes_per_s / 1e9,
                "min_useful_bytes": self.min_dma_bytes,
                "stage_depths": list(self.stage_depths),
            },
            "launch_overhead_us": self.launch_s * 1e6,
        }

    def _cpu_json(self) -> dict:
        """A CPU in its own words: ports, lanes, registers, caches (no MAC array, scratchpad or DMA)."""
        cpu = self.cpu
        return {
            **self._common_json(),
            "fma_ports": cpu.fma_ports,
            "load_ports": cpu.load_ports,
            "vector_register_bytes": cpu.vector_register_bytes,
            "f32_lanes": self.mac_n,
            "vector_registers": cpu.vector_registers,
            "int8_macs_per_lane": self.mac_k,
            **self._roofline_json(),
            "l1d_kib": cpu.l1d_bytes // 1024,
            "l2_kib": cpu.l2_bytes // 1024,
            "l3_kib": cpu.l3_bytes // 1024,
            "dispatch_overhead_us": self.launch_s * 1e6,
        }


# ---- schema ------------------------------------------------------------------

class _Reader:
    """Typed access to a nested dict that reports the file and dotted path on error."""

    def __init__(self, data: dict, source: str):
        self.data = data
        self.source = source

    def _get(self, path: str, required: bool = True, default: Any = None) -> Any:
        node: Any = self.data
        walked = []
        for key in path.split("."):
            walked.append(key)
            if not isinstance(node, dict):
                raise TargetDescriptionError(self.source, ".".join(walked[:-1]), "expected a table")
            if key not in node:
                if required:
                    raise TargetDescriptionError(self.source, path, "missing (required)")
                return default
            node = node[key]
        return node

    def error(self, path: str, message: str) -> TargetDescriptionError:
        return TargetDescriptionError(self.source, path, message)

    def string(self, path: str, required: bool = True, default: str = "") -> str:
        value = self._get(path, required, default)
        if not isinstance(value, str) or (required and not value):
            raise self.error(path, f"expected a non-empty string, got {value!r}")
        return value

    def number(self, path: str, required: bool = True, default: float | None = None,
               positive: bool = True, allow_zero: bool = False) -> float:
        value = self._get(path, required, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.error(path, f"expected a number, got {value!r}")
        if positive and (value < 0 or (value == 0 and not allow_zero)):
            raise self.error(path, f"expected a {'non-negative' if allow_zero else 'positive'} number, got {value!r}")
        return float(value)

    def integer(self, path: str, required: bool = True, default: int | None = None,
                allow_zero: bool = False) -> int:
        value = self._get(path, required, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(path, f"expected an integer, got {value!r}")
        if value < 0 or (value == 0 and not allow_zero):
            raise self.error(path, f"expected a {'non-negative' if allow_zero else 'positive'} integer, got {value!r}")
        return value

    def int_list(self, path: str, required: bool = True, default: list | None = None,
                 allow_zero: bool = False) -> tuple[int, ...]:
        value = self._get(path, required, default)
        if not isinstance(value, list) or not value:
            raise self.error(path, f"expected a non-empty list of integers, got {value!r}")
        for i, v in enumerate(value):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0 or (v == 0 and not allow_zero):
                raise self.error(f"{path}[{i}]", f"expected a {'non-negative' if allow_zero else 'positive'} integer, got {v!r}")
        return tuple(value)

    def table(self, path: str) -> dict:
        value = self._get(path)
        if not isinstance(value, dict) or not value:
            raise self.error(path, "expected a non-empty table")
        return value


def _identity(r: "_Reader", kind: str) -> dict:
    """The fields every description starts with: its name, kind, summary and file."""
    return {"name": r.string("target.name"), "kind": kind,
            "summary": r.string("target.summary", required=False, default=""), "source": r.source}


def _is_power_of_two(x: float) -> bool:
    n = int(x)
    return n == x and n > 0 and n & (n - 1) == 0


def parse_description(data: dict, source: str) -> TargetDescription:
    """Check `data` against the schema and build the description; raise with file+field."""
    r = _Reader(data, source)
    schema = r.string("schema")
    if schema != SCHEMA_VERSION:
        raise r.error("schema", f"expected {SCHEMA_VERSION!r}, got {schema!r}")
    kind = r.string("target.kind")
    if kind not in ("dsa", "cpu"):
        raise r.error("target.kind", f"expected 'dsa' or 'cpu', got {kind!r}")
    if kind == "cpu":
        return _parse_cpu(r, data)
    if "cpu_model" in data:
        raise r.error("cpu_model", 'only a kind = "cpu" target has a register-blocking model')

    mac_m = r.integer("compute.mac_array.m")
    mac_n = r.integer("compute.mac_array.n")
    mac_k = r.integer("compute.mac_array.k")
    rates_table = r.table("compute.rate")
    rates: dict[str, float] = {}
    for type_name, value in rates_table.items():
        path = f"compute.rate.{type_name}"
        try:
            element_bits(type_name)
        except ValueError:
            raise r.error(path, f"unknown element type {type_name!r}") from None
        rate = r.number(path)
        if abs(mac_k * rate - round(mac_k * rate)) > 1e-9 or round(mac_k * rate) < 1:
            raise r.error(path, f"mac_array.k x rate must be a whole reduction depth >= 1, got {mac_k} x {rate}")
        rates[type_name] = rate
    if "i8" not in rates or rates["i8"] != 1.0:
        raise r.error("compute.rate.i8", "must be present and equal to 1.0 (rates are relative to INT8)")

    clock_hz = r.number("compute.clock_mhz") * 1e6
    cores = r.integer("compute.cores")
    declared_peak = r.number("compute.peak_tops_i8") * 1e12
    executed_peak = 2.0 * mac_m * mac_n * mac_k * cores * clock_hz
    if abs(executed_peak - declared_peak) > _PEAK_CONSISTENCY_RTOL * declared_peak:
        raise r.error(
            "compute.peak_tops_i8",
            f"declares {declared_peak / 1e12:g} TOPS but 2 x clock x cores x mac_array gives "
            f"{executed_peak / 1e12:g} TOPS",
        )

    stage_depths = r.int_list("dma.stage_depths")
    fusion = r.int_list("space.fusion", allow_zero=True)
    if any(f not in (0, 1) for f in fusion):
        raise r.error("space.fusion", f"values must be 0 (separate consumer) or 1 (fused), got {list(fusion)}")
    quant_blocks = r.int_list("space.quant_block_sizes")
    for i, b in enumerate(quant_blocks):
        if not _is_power_of_two(b):
            raise r.error(f"space.quant_block_sizes[{i}]", f"expected a power of two, got {b}")
    vector_widths = r.int_list("compute.vector_widths")

    extras = {k: v for k, v in data.items() if k not in
              ("schema", "target", "compute", "memory", "dma", "launch", "space", "funnel", "iree", "cpu_model")}
    return TargetDescription(
        **_identity(r, kind),
        clock_hz=clock_hz,
        cores=cores,
        mac_m=mac_m,
        mac_n=mac_n,
        mac_k=mac_k,
        rates=rates,
        vector_widths=vector_widths,
        accumulator_bytes=r.integer("compute.accumulator_bytes"),
        dram_bytes_per_s=r.number("memory.dram_bandwidth_gbps") * 1e9,
        scratchpad_bytes=int(r.number("memory.scratchpad_kib_per_core") * 1024),
        shared_bytes=int(r.number("memory.shared_sram_kib", allow_zero=True) * 1024),
        dma_engines=r.integer("dma.engines_per_core"),
        dma_queue_depth=r.integer("dma.queue_depth"),
        dma_descriptor_s=r.number("dma.descriptor_latency_ns", allow_zero=True) * 1e-9,
        dma_port_bytes_per_s=r.number("dma.port_bandwidth_gbps") * 1e9,
        min_dma_bytes=r.integer("dma.min_useful_bytes", allow_zero=True),
        stage_depths=stage_depths,
        launch_s=r.number("launch.dispatch_overhead_us", allow_zero=True) * 1e-6,
        tile_choices=r.integer("space.tile_choices"),
        parallelism_choices=r.integer("space.parallelism_choices"),
        fusion=fusion,
        quant_block_sizes=quant_blocks,
        scale_bytes=r.integer("space.scale_bytes"),
        roofline_slack=r.number("funnel.roofline_slack"),
        latency_slack=r.number("funnel.latency_slack"),
        min_survivors=r.integer("funnel.min_survivors", required=False, default=1),
        max_vector_elements=r.integer("iree.max_vector_elements"),
        iree_target_cpu=r.string("iree.target_cpu", required=False, default="host") or "host",
        cpu=None,
        declared_peak_ops_i8=declared_peak,
        extras=extras,
    )


# Tables of a DSA description, and what a CPU file has instead (the error a CPU file that
# still has one of them reads).
_DSA_TABLES = {
    "compute": "a CPU has FMA ports and vector lanes, not a MAC array",
    "memory": "a CPU has caches, not a scratchpad",
    "dma": "a CPU has no DMA (caches fetch on demand)",
    "launch": "a CPU's dispatch overhead is cpu.dispatch_overhead_us",
    "space": "a CPU's space is [host_space] (no DMA stages, fusion or INT4 block knobs)",
}
_F32_BYTES = 4
# What a CPU's vector lanes accumulate in: f32 or i32 lanes.
_CPU_ACCUMULATOR_BYTES = 4
_CPU_TABLES = ("schema", "target", "cpu", "funnel", "iree", "cpu_model")


def _parse_cpu(r: _Reader, data: dict) -> TargetDescription:
    """A `kind = "cpu"` description: the `[cpu]` table, and the internal fields derived from it.

    The shared cost-model code counts in a MAC array and a scratchpad; for a CPU they are
    m = FMA ports, n = f32 lanes of a vector register, k = INT8 MACs per lane (4 with VNNI),
    the "scratchpad" is the L2 of a core and the shared memory the L3. A CPU has no DMA: one
    "engine" with no descriptor latency at DRAM bandwidth and one stage, so no DMA term costs
    anything; its space has no fusion, INT4 block or stage knobs.
    """
    for table, instead in _DSA_TABLES.items():
        if table in data:
            raise r.error(table, f"{instead}: CPU targets are described by [cpu] (clock_mhz, cores, fma_ports, "
                                 "load_ports, vector_register_bytes, vector_registers, int8_macs_per_lane, "
                                 "bf16_macs_per_lane, l1d_kib, l2_kib, l3_kib, dram_bandwidth_gbps, "
                                 "dispatch_overhead_us); docs/DSA_TARGET.md")
    r.table("cpu")
    clock_hz = r.number("cpu.clock_mhz") * 1e6
    cores = r.integer("cpu.cores")
    fma_ports = r.integer("cpu.fma_ports")
    vector_bytes = r.integer("cpu.vector_register_bytes")
    if vector_bytes % _F32_BYTES:
        raise r.error("cpu.vector_register_bytes", f"expected whole f32 lanes (a multiple of 4 bytes), got {vector_bytes}")
    lanes = vector_bytes // _F32_BYTES
    int8_k = r.integer("cpu.int8_macs_per_lane")
    bf16_k = r.integer("cpu.bf16_macs_per_lane")
    # MACs per cycle relative to INT8: f32 and f16 (computed in f32) one per lane, bf16 as many
    # as its dot products take; INT4 is widened to INT8 first.
    rates = {"i8": 1.0, "i4": 1.0, "f32": 1.0 / int8_k, "f16": 1.0 / int8_k, "bf16": bf16_k / int8_k}
    multiples = r.int_list("host_space.vector_n_multiples", required=False, default=[1])
    dram = r.number("cpu.dram_bandwidth_gbps") * 1e9
    l1d = int(r.number("cpu.l1d_kib") * 1024)
    l2 = int(r.number("cpu.l2_kib") * 1024)
    l3 = int(r.number("cpu.l3_kib", allow_zero=True) * 1024)
    r.table("cpu_model")
    model = _cpu_model(r, fma_ports=fma_ports, load_ports=r.integer("cpu.load_ports"),
                       vector_registers=r.integer("cpu.vector_registers"), vector_register_bytes=vector_bytes,
                       l1d_bytes=l1d, l2_bytes=l2, l3_bytes=l3)
    return TargetDescription(
        **_identity(r, "cpu"),
        clock_hz=clock_hz,
        cores=cores,
        mac_m=fma_ports,
        mac_n=lanes,
        mac_k=int8_k,
        rates=rates,
        vector_widths=tuple(lanes * m for m in multiples),  # whole vector registers
        accumulator_bytes=_CPU_ACCUMULATOR_BYTES,
        dram_bytes_per_s=dram,
        scratchpad_bytes=l2,
        shared_bytes=l3,
        dma_engines=1,
        dma_queue_depth=1,
        dma_descriptor_s=0.0,
        dma_port_bytes_per_s=dram,
        min_dma_bytes=0,
        stage_depths=(1,),
        launch_s=r.number("cpu.dispatch_overhead_us", allow_zero=True) * 1e-6,
        tile_choices=r.integer("host_space.tile_choices"),
        parallelism_choices=1,  # IREE's threads spread a dispatch; not a knob on a CPU
        fusion=(0,),
        quant_block_sizes=(),
        scale_bytes=0,
        roofline_slack=r.number("funnel.roofline_slack"),
        latency_slack=r.number("funnel.latency_slack"),
        min_survivors=r.integer("funnel.min_survivors", required=False, default=1),
        max_vector_elements=r.integer("iree.max_vector_elements"),
        iree_target_cpu=r.string("iree.target_cpu", required=False, default="host") or "host",
        cpu=model,
        # Derived, never declared: nothing for the user to keep in sync.
        declared_peak_ops_i8=2.0 * fma_ports * lanes * int8_k * cores * clock_hz,
        extras={k: v for k, v in data.items() if k not in _CPU_TABLES},
    )


def _cpu_model(r: _Reader, **cpu) -> CpuModel:
    """`[cpu_model]`'s terms beside the `[cpu]` numbers `cpu` already read."""
    return CpuModel(
        **cpu,
        fma_latency_cycles=r.number("cpu_model.fma_latency_cycles"),
        l2_latency_cycles=r.number("cpu_model.l2_latency_cycles"),
        loop_overhead_cycles=r.number("cpu_model.loop_overhead_cycles", allow_zero=True),
        unroll_budget=r.number("cpu_model.unroll_budget"),
        remainder_penalty=r.number("cpu_model.remainder_penalty"),
        spill_penalty=r.number("cpu_model.spill_penalty"),
        stream_overhead_bytes=r.number("cpu_model.stream_overhead_bytes", allow_zero=True),
        cache_bytes_per_s=r.number("cpu_model.cache_bandwidth_gbps") * 1e9,
        near_cache_bytes_per_s=r.number("cpu_model.near_cache_bandwidth_gbps") * 1e9,
        shuffle_ports=r.integer("cpu_model.shuffle_ports"),
        prefetch_streams=r.integer("cpu_model.prefetch_streams"),
        attention_efficiency=r.number("cpu_model.attention_efficiency"),
        attention_qk_cycles_per_mac=r.number("cpu_model.attention_qk_cycles_per_mac"),
        attention_pv_cycles_per_mac=r.number("cpu_model.attention_pv_cycles_per_mac"),
        attention_rescale_cycles=r.number("cpu_model.attention_rescale_cycles"),
        attention_step_cycles=r.number("cpu_model.attention_step_cycles"),
    )


def read_description_data(path: Path) -> dict:
    """Raw tree of a .toml or .json description; syntax errors name the file."""
    text = path.read_text()
    try:
        if path.suffix == ".json":
            data = json.loads(text)
        else:
            data = tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as e:
        raise TargetDescriptionError(str(path), "<syntax>", str(e)) from None
    if not isinstance(data, dict):
        raise TargetDescriptionError(str(path), "<root>", "expected a table/object at the top level")
    return data


def load_description(path: str | Path) -> TargetDescription:
    path = Path(path)
    return parse_description(read_description_data(path), str(path))


DESCRIPTION_SUFFIXES = (".toml", ".json")


def description_files(directory: str | Path) -> list[Path]:
    """Description files in one directory, sorted for a stable listing."""
    d = Path(directory)
    if not d.is_dir():
        return []
    return sorted(p for p in d.iterdir() if p.suffix in DESCRIPTION_SUFFIXES and p.is_file())
