"""Target descriptions: the numbers a target is, read from data files.

A description file (TOML, or JSON with the same tree) holds everything the
space, the cost model and the simulator need to know about a part: clock,
cores, MAC array, per-type throughput, memory levels, DMA, launch overhead and
the tuning policy (how many tile choices, how hard the funnel prunes). Code
never hard-codes any of these (R9.2); a new chip generation is a new file
(R2.6).

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

from .core.problems import element_bits
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
    """`[cpu_model]` of a `kind = "cpu"` description: what the register-blocking model needs.

    Every field is required: the cost model has no defaults of its own, so the
    shipped file is the one place these numbers live.
    """

    vector_registers: int  # architectural vector registers (16 ymm with AVX2, 32 zmm with AVX-512)
    load_ports: int  # vector loads per cycle
    fma_latency_cycles: float  # dependent-chain latency of one FMA
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
    attention_qk_cycles_per_mac: float  # attention terms per KV step (costmodel/cpu.py, fitted)
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

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "kind": self.kind,
            "summary": self.summary,
            "source": self.source,
            "clock_mhz": self.clock_hz / 1e6,
            "cores": self.cores,
            "mac_array": [self.mac_m, self.mac_n, self.mac_k],
            "peak_tops": {t: round(self.peak_ops(t) / 1e12, 3) for t in self.rates},
            "dram_bandwidth_gbps": self.dram_bytes_per_s / 1e9,
            "ridge_op_per_byte_i8": round(self.ridge("i8"), 1),
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

    # A part described by its caches and register file (a CPU) carries the register-blocking
    # model's numbers; a scratchpad part does not.
    cpu = _cpu_model(r) if "cpu_model" in data else None
    extras = {k: v for k, v in data.items() if k not in
              ("schema", "target", "compute", "memory", "dma", "launch", "space", "funnel", "iree", "cpu_model")}
    return TargetDescription(
        name=r.string("target.name"),
        kind=kind,
        summary=r.string("target.summary", required=False, default=""),
        source=source,
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
        cpu=cpu,
        declared_peak_ops_i8=declared_peak,
        extras=extras,
    )


def _cpu_model(r: _Reader) -> CpuModel:
    return CpuModel(
        vector_registers=r.integer("cpu_model.vector_registers"),
        load_ports=r.integer("cpu_model.load_ports"),
        fma_latency_cycles=r.number("cpu_model.fma_latency_cycles"),
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
