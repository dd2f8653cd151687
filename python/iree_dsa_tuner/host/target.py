"""The host CPU target: described from this machine, lowered by llvm-cpu.

host.toml's `[cpu]` table, with /proc/cpuinfo's answers (vector ISA -> register
bytes and count, VNNI/BF16 -> INT8/BF16 MACs per lane, MHz -> clock), the FMA
probe's (full-width FMA ports and the clock vector code runs at: fma_probe.py), the
CPU count and sysfs's cache sizes (L1d, L2, L3) written over its (machine) fields;
the peak is derived from them (`description.parse_description`). DRAM bandwidth
from `IREE_DSA_HOST_BANDWIDTH_GBPS`, a short numpy copy probe (when enabled
in host.toml) or host.toml's configured value. Its space is llvm-cpu's
DoubleTilingExpert tiles.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import time
from pathlib import Path

import numpy as np

from ..core.candidate import TilingCandidate
from .costmodel import cpu_estimate
from ..core.shape import GemmShape, attention_shape, gemm_shape
from ..core.problems import element_bits
from ..costmodel.estimate import Estimate
from ..space.space import CandidateSpace, group_ladder, tile_ladder
from ..core.config import CompilationConfig, ConfigError
from ..targets.base import Target
from ..description import TargetDescription, parse_description, read_description_data
from ..targets.mapping import (
    ATTENTION_PIPELINE,
    MMT4D_PIPELINE,
    mmt4d_group_tiles,
    mmt4d_loop_types,
    mmt4d_tile_lists,
    attention_group_tiles,
    attention_loop_types,
    attention_tile_lists,
    group_tiles,
    softmax_group_tiles,
    softmax_tile_lists,
    loop_types,
    tile_lists,
)
from ..targets.registry import files_of_kind, load_files
from .fma_probe import FmaReading, read_fma
from ..core.fingerprint import host_cpu_model
from ..core.host_isa import cap_note, capped_flags, host_target_cpu

HOST_TOML = Path(__file__).with_name("host.toml")
BANDWIDTH_ENV = "IREE_DSA_HOST_BANDWIDTH_GBPS"
PIPELINE = "DoubleTilingExpert"
# llvm-cpu's pipeline per root-op kind: convolutions go through the one that decomposes a
# 2-D conv into 1-D rows and vectorises them (IREE's own choice); DoubleTilingExpert on a
# conv compiled, but ran about 14x slower than IREE's default (2.1-2.2 ms vs 0.154 ms on
# conv2d_patch, 2026-11-30).
PIPELINE_BY_KIND = {"contraction": PIPELINE, "convolution": "ConvTileAndDecomposeExpert"}

# Vector register width in bytes by the widest ISA extension the CPU reports.
_VECTOR_BYTES_BY_FLAG = (("avx512f", 64), ("avx2", 32), ("avx", 32), ("sse2", 16), ("asimd", 16))
_F32_BYTES = 4


def _cpuinfo() -> tuple[set[str], float | None]:
    flags: set[str] = set()
    mhz = None
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return flags, mhz
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key in ("flags", "Features") and not flags:
            flags = capped_flags(set(value.split()))
        elif key == "cpu MHz" and mhz is None:
            try:
                mhz = float(value)
            except ValueError:
                pass
    return flags, mhz


def _max_mhz() -> float | None:
    try:
        return int(Path("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq").read_text()) / 1000
    except (OSError, ValueError):
        return None


def _cache_kib(level: int) -> int | None:
    base = Path("/sys/devices/system/cpu/cpu0/cache")
    for index in sorted(base.glob("index*")):
        try:
            if int((index / "level").read_text()) == level and (index / "type").read_text().strip() in ("Unified", "Data"):
                size = (index / "size").read_text().strip()
                return int(size.rstrip("KM")) * (1024 if size.endswith("M") else 1)
        except (OSError, ValueError):
            continue
    return None


def probe_bandwidth_gbps(megabytes: int = 64, repeats: int = 3) -> float:
    """Copy bandwidth (read + write bytes / s) of a buffer larger than the caches."""
    n = megabytes * (1 << 20) // 8
    src = np.ones(n, dtype=np.float64)
    dst = np.empty_like(src)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        np.copyto(dst, src)
        best = min(best, time.perf_counter() - t0)
    return 2 * src.nbytes / best / 1e9


def _fma_reading(flags: set[str], declared: int) -> FmaReading:
    return read_fma(flags, host_cpu_model(), declared)


@functools.lru_cache(maxsize=1)
def machine_description() -> TargetDescription:
    """host.toml with its (machine) `[cpu]` fields read off this machine; the rest is derived
    from them by `parse_description` (peak, MAC rates, vector widths)."""
    data = read_description_data(HOST_TOML)
    flags, mhz = _cpuinfo()
    knobs = data.get("host_space", {})
    cpu = data["cpu"]
    data["iree"]["target_cpu"] = host_target_cpu()  # `host`, or the level $IREE_DSA_HOST_ISA caps it at

    vector_bytes = next((b for flag, b in _VECTOR_BYTES_BY_FLAG if flag in flags), None)
    if vector_bytes is not None:
        cpu["vector_register_bytes"] = vector_bytes
        # INT8 dot products: 4 MACs per f32 lane with VNNI, 2 with pmaddubsw-style pairs.
        cpu["int8_macs_per_lane"] = 4 if {"avx512_vnni", "avx_vnni"} & flags else 2
        cpu["bf16_macs_per_lane"] = 2 if "avx512_bf16" in flags else 1
        cpu["vector_registers"] = 32 if "avx512f" in flags else 16
        # llvm-cpu refuses vectors of 512 native registers' bytes or more ("large vector
        # sizes": 32768 bytes with AVX-512, 16384 with AVX2); m*n*k counts 4-byte accumulators.
        data["iree"]["max_vector_elements"] = 512 * vector_bytes // _F32_BYTES
    fma = None
    if vector_bytes is not None:
        # Full-width FMAs per cycle (half the declared ports where the widest FMA runs as two
        # halves: Zen 4's AVX-512) and the clock vector code runs at, measured once per CPU.
        fma = _fma_reading(flags, int(cpu["fma_ports"]))
        cpu["fma_ports"] = fma.fma_ports
    clock = (fma.clock_mhz if fma else None) or _max_mhz() or mhz
    if clock:
        cpu["clock_mhz"] = clock
    cpu["cores"] = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    for level, key in ((1, "l1d_kib"), (2, "l2_kib"), (3, "l3_kib")):
        size = _cache_kib(level)
        if size:
            cpu[key] = size
    source = f"{HOST_TOML} + /proc/cpuinfo{cap_note()}" + (f" + {fma.source}" if fma else "")
    if os.environ.get(BANDWIDTH_ENV):
        cpu["dram_bandwidth_gbps"] = float(os.environ[BANDWIDTH_ENV])
        source += f" + ${BANDWIDTH_ENV}"
    elif knobs.get("probe_bandwidth"):
        cpu["dram_bandwidth_gbps"] = round(probe_bandwidth_gbps(), 2)
        source += " + numpy copy probe"
    return parse_description(data, source)


def _is_attention(problem) -> bool:
    return getattr(problem, "kind", "") == "attention"


def attention_space(problem, desc: TargetDescription) -> CandidateSpace:
    """LinalgExtTileAndVectorize on online_attention: query and value-width tiles, the
    register tile (query rows x value lanes), the KV block and the head-width step.

    `vec_k` is the KV block (keys per online-softmax update); `tile_k` is the head width,
    always whole (see below).
    """
    shape = attention_shape(problem)
    knobs = desc.extras.get("host_space", {})
    m_inner, n_inner, keys, head = shape.inner("m"), shape.inner("n"), shape.inner("k"), shape.head_dim
    kv_blocks = tuple(int(v) for v in knobs.get("attention_kv_block", (1, 2, 4, 8, 16, 32, 64)))
    rows = tuple(int(v) for v in knobs.get("vector_m", (1,)))
    choices = {
        "tile_m": tile_ladder(m_inner, desc.tile_choices),
        "tile_n": tile_ladder(n_inner, desc.tile_choices),
        # The head width is never stepped: IREE 3.13's CPU attention computes wrong results
        # when vector_reduction tiles k1 (docs/ATTENTION.md), its own default included.
        "tile_k": (head,),
        "vec_m": tuple(sorted({min(v, m_inner) for v in rows})),
        "vec_n": desc.vector_widths,
        "vec_k": tuple(sorted({min(v, keys) for v in kv_blocks})),
        "parallelism": (desc.cores,),
        "dma_stages": (1,),
        "fusion": (0,),
        "quant_block": (0,),
    }
    return CandidateSpace(shape, desc.name, choices)


# ---- softmax (docs/SOFTMAX.md) ----------------------------------------------------------------


def _is_softmax(problem) -> bool:
    return getattr(problem, "kind", "") == "softmax"


def softmax_shape(problem) -> GemmShape:
    """A softmax as the space and the cost model see it: the parallel loops are the m group
    (rows), the softmax dimension the k loop (a row's reduction); there is no n."""
    roles = tuple("k" if t == "reduction" else "m" for t in problem.loop_types)
    last_m = max((i for i, r in enumerate(roles) if r == "m"), default=-1)
    inner = tuple(r == "k" or i == last_m for i, r in enumerate(roles))
    k = problem.loop_sizes[problem.dimension]
    element = problem.lhs_type
    contiguous = "k" if problem.dimension == len(roles) - 1 else "m"
    return GemmShape(1, problem.rows, 1, k, element, element, problem.out_type, loop_roles=roles,
                     loop_is_inner=inner, loop_sizes=tuple(problem.loop_sizes), kind="softmax",
                     lhs_inner_role=contiguous)


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def softmax_row_tiles(shape: GemmShape, count: int) -> tuple[int, ...]:
    """Distribution tiles over the rows: divisors of the innermost parallel loop (a tile
    never straddles a row boundary) and whole inner extents times divisors of the outer
    rows (tiles covering several of them), at most `count` of each, the largest kept."""
    sizes = shape.group_sizes("m") or (1,)
    inner, outer = sizes[-1], shape.m // sizes[-1]
    within = _divisors(inner)[-count:]
    covering = [inner * d for d in _divisors(outer)[1:]][:count]
    return tuple(sorted(set(within) | set(covering)))


def softmax_space(problem, desc: TargetDescription) -> CandidateSpace:
    """DoubleTilingExpert on the decomposed softmax's root (sum of exp over a row):
    distribution rows (`tile_m`), vector rows (`vec_m`: 1/2/4/8, on the innermost
    parallel loop) and the vector step along the row (`vec_k`: 1-8 native vectors of the
    element type, lanes from the description). The row is never split: `tile_k` carries
    the vector step (derived), so the funnel, which keeps one vector variant per tile,
    keeps one per row tile and step. The funnel drops vec_m x vec_k at or above the
    description's max vector elements."""
    shape = softmax_shape(problem)
    knobs = desc.extras.get("host_space", {})
    k = shape.inner("k")
    # desc.mac_n is the f32 lanes of one vector register; narrower types fit more.
    lanes = max(1, desc.mac_n * 32 // element_bits(shape.lhs_type))
    steps = tuple(lanes * int(v) for v in knobs.get("softmax_vector_registers", (1, 2, 4, 8)))
    rows = tuple(int(v) for v in knobs.get("softmax_vector_rows", (1, 2, 4, 8)))
    choices = {
        "tile_m": softmax_row_tiles(shape, desc.tile_choices),
        "tile_n": (1,),
        "tile_k": (0,),  # derived: = vec_k
        "vec_m": tuple(sorted({min(v, shape.inner("m")) for v in rows})),
        "vec_n": (1,),
        "vec_k": tuple(sorted({min(v, k) for v in steps})),
        "parallelism": (desc.cores,),
        "dma_stages": (1,),
        "fusion": (0,),
        "quant_block": (0,),
    }
    return CandidateSpace(shape, desc.name, choices, derive=_softmax_step)


def _softmax_step(cols: dict[str, np.ndarray]) -> None:
    cols["tile_k"] = cols["vec_k"].copy()


def softmax_estimate(shape: GemmShape, desc: TargetDescription, cols: dict[str, np.ndarray], geo=None) -> Estimate:
    """Three passes over every row (max, sum of exp, normalise), one vector of `vec_k`
    elements of each of `vec_m` rows per step. Rows in one vector tile are `k` elements
    apart: the tile is gathered and reduced across rows, which costs a factor
    1 + `softmax_row_penalty` (`[host_space]`) x (vec_m - 1)^2 (0.2 fits 8x51x867 f32 on an
    AVX-512 EPYC: 2 rows 1.2x, 4 rows 2.4x, 8 rows 35x slower than one, docs/SOFTMAX.md; the
    quadratic understates 8 rows, which still ranks last); a step that does not divide the
    row leaves a remainder (`remainder_penalty`). Bandwidth: the compulsory read and write."""
    model = desc.cpu
    lanes = max(1, desc.mac_n * 32 // element_bits(shape.lhs_type))
    rows, k = shape.m, shape.inner("k")
    row_penalty = float(desc.extras.get("host_space", {}).get("softmax_row_penalty", 0.2))
    vm = np.maximum(np.minimum(cols["vec_m"], shape.inner("m")), 1).astype(float)
    vk = np.maximum(np.minimum(cols["vec_k"], k), 1).astype(float)
    vectors = vm * np.ceil(vk / lanes)  # vector registers one step touches
    steps = rows / vm * np.ceil(k / vk)
    per_step = vectors * (1.0 + row_penalty * (vm - 1) ** 2) + model.loop_overhead_cycles
    per_step = per_step * np.where(k % vk == 0, 1.0, model.remainder_penalty)
    compute_s = 3 * steps * per_step / desc.clock_hz
    n = len(vm)
    moved = rows * k * (shape.lhs_bytes + shape.out_bytes)
    bandwidth_scalar = model.cache_bytes_per_s if moved <= desc.shared_bytes else desc.dram_bytes_per_s
    bandwidth = np.full(n, bandwidth_scalar, dtype=float)
    memory_s = moved / bandwidth
    launch_s = np.full(n, desc.launch_s)
    overhead_s = np.zeros(n)
    roofline = np.maximum(compute_s, memory_s)
    return Estimate(compute_s=compute_s, memory_s=memory_s, latency_s=overhead_s, launch_s=launch_s,
                    roofline_s=roofline, total_s=roofline + launch_s, busy_cores=np.ones(n, dtype=np.int64),
                    bandwidth=bandwidth)


# ---- mmt4d under data tiling (docs/DATA_TILING.md 3, 7) -----------------------------------------

def is_mmt4d(problem) -> bool:
    """A packed GEMM in the dispatch itself (`core.problems.MMT4D_OPS`)."""
    return bool(getattr(problem, "is_mmt4d", False))


def mmt4d_shape(problem) -> GemmShape:
    """An mmt4d as the space and the cost model see it: sizes in elements (M = M1 x M0, ...),
    the outer loops (M1, N1, K1) as roles m, n, k, the inner tile's loops as m0, n0, k0, so a
    tile counts inner tiles (`inner("m")` is M1). An `inner_tiled` GEMM has the outer loops
    only (its inner tile is in its operand types), and so has its config."""
    inner_tile = getattr(problem, "inner_tile", None)
    if inner_tile is not None:
        (m1, n1, k1), (m0, n0, k0) = (problem.sizes()[g][0] for g in ("m", "n", "k")), inner_tile
        roles = tuple(next(g for g in ("m", "n", "k") if i in problem.dim_groups[g])
                      for i in range(len(problem.loop_sizes)))
        return GemmShape(1, m1 * m0, n1 * n0, k1 * k0, problem.lhs_type, problem.rhs_type, problem.out_type,
                         has_consumer=bool(problem.fused_ops), loop_roles=roles, loop_is_inner=(True,) * 3,
                         loop_sizes=tuple(problem.loop_sizes), kind="mmt4d")
    batch = len(problem.loop_sizes) == 7
    names = (("batch",) if batch else ()) + ("m", "n", "k", "m0", "n0", "k0")
    size = dict(zip(names, problem.loop_sizes))
    return GemmShape(size.get("batch", 1), size["m"] * size["m0"], size["n"] * size["n0"], size["k"] * size["k0"],
                     problem.lhs_type, problem.rhs_type, problem.out_type, has_consumer=bool(problem.fused_ops),
                     loop_roles=names, loop_is_inner=tuple(n in ("m", "n", "k") for n in names),
                     loop_sizes=tuple(problem.loop_sizes), kind="mmt4d")


def _inner_tile(shape: GemmShape, role: str) -> int:
    """Elements of one inner tile along `role` ("m0", "n0"): the total over the outer tiles'
    count (an mmt4d's inner loop, or what an inner_tiled op's operand types hold)."""
    outer = role[0]
    return getattr(shape, outer) // max(1, shape.inner(outer))


def mmt4d_space(problem, desc: TargetDescription) -> CandidateSpace:
    """Mmt4dTilingExpert: the workgroup's M1 and N1 tiles, every divisor of each (a tile that
    does not divide leaves a partial workgroup), nothing else (`mapping.mmt4d_tile_lists`)."""
    shape = mmt4d_shape(problem)
    choices = {
        "tile_m": tuple(_divisors(shape.inner("m"))),
        "tile_n": tuple(_divisors(shape.inner("n"))),
        "tile_k": (shape.inner("k"),),
        "vec_m": (1,),
        "vec_n": (1,),
        "vec_k": (1,),
        "parallelism": (desc.cores,),
        "dma_stages": (1,),
        "fusion": (0,),
        "quant_block": (0,),
    }
    return CandidateSpace(shape, desc.name, choices)


# A workgroup's fixed cost in loop iterations' overhead (its setup and tile bookkeeping): it only
# breaks ties between distributions that move the same bytes, toward fewer workgroups.
_WORKGROUP_LOOPS = 100


def mmt4d_estimate(shape: GemmShape, desc: TargetDescription, cols: dict[str, np.ndarray], geo=None) -> Estimate:
    """The ukernel runs every inner tile at the same speed, so candidates differ in what they
    re-read from memory. Workgroups run in order, N1 tiles fastest; within one, for each M1
    row its N1 tiles, each inner tile over the whole K. So:
    - the weight (B) is read once per workgroup row of M1 tiles, and once per M1 row inside a
      workgroup when its N slice and one A row panel do not fit the L2 together;
    - the activations (A) are read once when a workgroup's A and B slices fit the L2 together
      (the next workgroup along N finds its A there), else once per workgroup along N;
    - either is read once when it fits the L2 whole beside the other's slice.
    Re-reads of an operand that fits half of one core's share of the L3 come from the L3; of a
    larger one, from DRAM (pi0's 134 MB FFN weight re-read 51 times cost DRAM time on a
    2-core share of a 300 MB L3, docs/DATA_TILING.md 7). Compute: the FMA peak of one core (one thread
    runs a dispatch here), the same for every candidate, plus a small cost per workgroup."""
    model = desc.cpu
    m1, n1, k = shape.inner("m"), shape.inner("n"), shape.k
    m0, n0 = _inner_tile(shape, "m0"), _inner_tile(shape, "n0")
    tm = np.minimum(np.asarray(cols["tile_m"]), m1).astype(float)
    tn = np.minimum(np.asarray(cols["tile_n"]), n1).astype(float)
    a_panel = m0 * k * shape.lhs_bytes  # one M1 row of A, whole K
    a_slice, b_slice = tm * a_panel, tn * n0 * k * shape.rhs_bytes
    l2 = model.l2_bytes
    ob = shape.operand_bytes()
    rows, cols_ = np.ceil(m1 / tm), np.ceil(n1 / tn)
    b_reads = rows * np.where(b_slice + a_panel <= l2, 1.0, tm)
    a_reads = np.where(a_slice + b_slice <= l2, 1.0, cols_)
    # An operand that fits the L2 whole beside the other's slice is read once, however tiled.
    b_reads = np.where(ob["rhs"] + a_slice <= l2, 1.0, b_reads)
    a_reads = np.where(ob["lhs"] + b_slice <= l2, 1.0, a_reads)
    # The first read of each operand comes from DRAM; a re-read from the L3 when the operand fits
    # half of one core's share of it (the rest is other data and other jobs), else from DRAM.
    l3_share = model.l3_bytes / max(1, desc.cores) / 2

    def reread_bandwidth(nbytes: float) -> float:
        return model.cache_bytes_per_s if nbytes <= l3_share else desc.dram_bytes_per_s

    memory_s = ((ob["lhs"] + ob["rhs"] + ob["out"]) / desc.dram_bytes_per_s
                + ob["lhs"] * (a_reads - 1) / reread_bandwidth(ob["lhs"])
                + ob["rhs"] * (b_reads - 1) / reread_bandwidth(ob["rhs"]))
    moved = ob["lhs"] * a_reads + ob["rhs"] * b_reads + ob["out"]
    bandwidth = moved / memory_s  # effective: DRAM and L3 re-reads together (compulsory bytes > 0)
    per_core = desc.peak_ops(desc.compute_type(shape.lhs_type, shape.rhs_type)) / max(1, desc.cores)
    compute_s = np.full(len(tm), 2.0 * shape.batch * shape.m * shape.n * shape.k / per_core)
    workgroups = shape.batch * rows * cols_
    overhead_s = workgroups * model.loop_overhead_cycles * _WORKGROUP_LOOPS / desc.clock_hz
    launch_s = np.full(len(tm), desc.launch_s)
    roofline = np.maximum(compute_s, memory_s)
    # Not max(compute, memory): every candidate does the same compute, and the ukernel does not
    # hide DRAM stalls (pi0's FFN at IREE's tiles took 1.1 s for 0.41 s of FMAs), so the
    # ranking is by traffic, then by workgroups.
    return Estimate(compute_s=compute_s, memory_s=memory_s, latency_s=overhead_s, launch_s=launch_s,
                    roofline_s=roofline, total_s=compute_s + memory_s + overhead_s + launch_s,
                    busy_cores=np.ones(len(tm), dtype=np.int64), bandwidth=bandwidth)


def host_estimate(shape: GemmShape, desc: TargetDescription, cols: dict[str, np.ndarray], geo=None) -> Estimate:
    """The host's L0 model: the softmax estimate for a softmax, the CPU register-blocking one otherwise."""
    if shape.kind == "softmax":
        return softmax_estimate(shape, desc, cols, geo)
    if shape.kind == "mmt4d":
        return mmt4d_estimate(shape, desc, cols, geo)
    return cpu_estimate(shape, desc, cols, geo)


def host_space(problem, desc: TargetDescription) -> CandidateSpace:
    """llvm-cpu DoubleTilingExpert: distribution M/N, vector M/N, vector reduction K.

    The whole reduction stays in one distribution tile (llvm-cpu does not tile
    reduction loops at that level); threads are IREE's, not a knob here.
    Attention has its own pipeline and space (`attention_space`).
    """
    if _is_attention(problem):
        return attention_space(problem, desc)
    if _is_softmax(problem):
        return softmax_space(problem, desc)
    if is_mmt4d(problem):
        return mmt4d_space(problem, desc)
    shape = gemm_shape(problem)
    host_knobs = desc.extras.get("host_space", {})
    vector_m = tuple(int(v) for v in host_knobs.get("vector_m", (1,)))
    vector_k = tuple(int(v) for v in host_knobs.get("vector_k", (1,)))
    max_divisor_row = int(host_knobs.get("max_divisor_row", 0))
    m_inner, k_inner = shape.inner("m"), shape.inner("k")
    choices = {
        # A convolution's m tiles also cover whole output rows (distribution only: the
        # register rows below stay within one row).
        "tile_m": group_ladder(shape, "m", desc.tile_choices),
        "tile_n": tile_ladder(shape.inner("n"), desc.tile_choices),
        "tile_k": (k_inner,),
        # Register rows that divide M avoid peeled remainder code (IREE_NOTES: m
        # tiles not dividing M ran 2-7x slower), so small divisors join the list.
        "vec_m": tuple(sorted({min(v, m_inner) for v in vector_m}
                              | {d for d in range(1, max_divisor_row + 1) if m_inner % d == 0})),
        "vec_n": desc.vector_widths,
        "vec_k": tuple(sorted({min(v, k_inner) for v in vector_k})),
        "parallelism": (desc.cores,),
        "dma_stages": (1,),
        "fusion": (0,),
        "quant_block": (0,),
    }
    return CandidateSpace(shape, desc.name, choices)


def _check_config(config: CompilationConfig, loop_types: tuple[str, ...], pipeline: str, kind: str) -> None:
    """IREE's legality rules for the op's loops, and the one pipeline the host uses for `kind`."""
    config.check_against(loop_types)
    if config.pipeline != pipeline:
        raise ConfigError(f"host {kind} configs use {pipeline}, got {config.pipeline}")


class HostTarget(Target):
    """llvm-cpu on a CPU; measured for real by iree-benchmark-module."""

    # The whole model is timed for real, so the recipe search decides flags (routes included).
    tunes_whole_model = True
    measures_on_hardware = True
    # Its configs ignore several knobs L2's generic moves change (K tile, DMA stages, K split):
    # L2 proposes each config once (search/proposers.py), not a move's duplicate.
    l2_distinct_configs = True

    def space(self, problem) -> CandidateSpace:
        return host_space(problem, self.describe())

    def to_config(self, problem, candidate: TilingCandidate) -> CompilationConfig:
        if _is_attention(problem):
            shape = attention_shape(problem)
            dist, vec, red = attention_tile_lists(shape, candidate.tile_m, candidate.tile_n, candidate.vec_m,
                                                  candidate.vec_n, candidate.vec_k, candidate.tile_k)
            config = CompilationConfig(ATTENTION_PIPELINE, dist, vec, red)
            config.check_against(attention_loop_types(shape))
            return config
        if _is_softmax(problem):
            dist, vec, red = softmax_tile_lists(softmax_shape(problem), candidate.tile_m, candidate.vec_m,
                                                candidate.vec_k)
            config = CompilationConfig(PIPELINE, dist, vec, red)
            config.check_against(problem.loop_types)
            return config
        if is_mmt4d(problem):
            shape = mmt4d_shape(problem)
            config = CompilationConfig(MMT4D_PIPELINE, *mmt4d_tile_lists(shape, candidate.tile_m, candidate.tile_n))
            config.check_against(mmt4d_loop_types(shape))
            return config
        shape = gemm_shape(problem)
        dist, vec, red = tile_lists(shape, candidate.tile_m, candidate.tile_n,
                                    candidate.vec_m, candidate.vec_n, candidate.vec_k)
        config = CompilationConfig(PIPELINE_BY_KIND.get(shape.kind, PIPELINE), dist, vec, red)
        config.check_against(loop_types(shape))
        return config

    def from_config(self, problem, config: CompilationConfig) -> TilingCandidate:
        if _is_attention(problem):
            shape = attention_shape(problem)
            _check_config(config, attention_loop_types(shape), ATTENTION_PIPELINE, "attention")
            t = attention_group_tiles(shape, config)
            return TilingCandidate(t["tile_m"], t["tile_n"], t["tile_k"], t["vec_m"], t["vec_n"], t["vec_k"],
                                   parallelism=self.describe().cores)
        if _is_softmax(problem):
            shape = softmax_shape(problem)
            _check_config(config, problem.loop_types, PIPELINE, "softmax")
            t = softmax_group_tiles(shape, config)
            return TilingCandidate(t["tile_m"], 1, t["vec_k"], t["vec_m"], 1, t["vec_k"],
                                   parallelism=self.describe().cores)
        if is_mmt4d(problem):
            shape = mmt4d_shape(problem)
            _check_config(config, mmt4d_loop_types(shape), MMT4D_PIPELINE, "mmt4d")
            t = mmt4d_group_tiles(shape, config)
            return TilingCandidate(t["tile_m"], t["tile_n"], shape.inner("k"), 1, 1, 1,
                                   parallelism=self.describe().cores)
        shape = gemm_shape(problem)
        _check_config(config, loop_types(shape), PIPELINE_BY_KIND.get(shape.kind, PIPELINE), shape.kind)
        t = group_tiles(shape, config)
        return TilingCandidate(t["tile_m"], t["tile_n"], shape.inner("k"), t["vec_m"], t["vec_n"], t["vec_k"],
                               parallelism=self.describe().cores)

    def l2_moves(self, problem, start: TilingCandidate) -> list[tuple[str, TilingCandidate]]:
        """L2's host moves beyond the generic ones (search/proposers.py moves tiles, vec_n and
        knobs a CPU ignores: its K tile, DMA stages, parallelism, K split): the register tile's
        rows (vec_m) and its reduction step (vec_k, attention's KV block) doubled or halved,
        within the op's extents; the cost model then ranks them."""
        space = self.space(problem)
        out = []
        for knob, extent in (("vec_m", max(space.choices["vec_m"])), ("vec_k", max(space.choices["vec_k"]))):
            v = getattr(start, knob)
            for moved in (min(extent, v * 2), max(1, v // 2)):
                if moved != v:
                    out.append(("register-tile", dataclasses.replace(start, **{knob: moved})))
        return out

    @property
    def runner_names(self) -> tuple[str, ...]:
        return ("host-bench",)

    def make_runner(self, artifacts, options):
        from ..runners.host import HostBenchRunner

        return HostBenchRunner(artifacts, self.describe(), repetitions=options.repetitions, jobs=options.jobs,
                               timeout_s=options.timeout_s, executor=options.executor)

    @property
    def estimator(self):
        return host_estimate

    def tune_whole_model(self, model, options, *, db=None, routes: bool = True, functions=None, weights=None,
                         rounds: int = 3, parameters=None, progress=None):
        """The host recipe (`host.recipe.tune_recipe`): whole-model flag presets, the compile routes'
        among them (`host.routes`: a batch-1 conv route, the long-K split, ...), then a spec for the
        dispatches the chosen flags leave tunable; each decision confirmed by timing every entry
        function. The report's spec is only one the whole model confirmed."""
        from ..model_tuning import ModelTuning
        from . import recipe
        from .routes import plan_routes

        started = time.perf_counter()  # --time-budget covers the routes' compile too
        # A batch-1 conv is tunable only under the route's flags, a long reduction cut into chunks
        # builds faster, ...: the routes' flags compete as presets.
        taken, presets = plan_routes(model, self, progress) if routes else ([], None)
        extra = {"parameters": parameters} if parameters is not None else {}
        result = recipe.tune_recipe(model, self, options, db=db, rounds=rounds, functions=functions or None,
                                    weights=weights, progress=progress, presets=presets, started=started, **extra)
        report = result.tune_result
        report.spec_text = result.spec_text  # only a spec the whole model confirmed
        if result.spec_numerics:  # the recipe's own estimated spec: what its verification compared
            report.numerics = result.spec_numerics
        return ModelTuning(report, taken, result, tuple(result.recipe.flags))


def provide_targets(search_paths=()) -> list:
    """The machine's CPU, plus any `kind = "cpu"` description in the search paths."""
    provided: list = [HostTarget(machine_description())]
    targets, errors = load_files(files_of_kind(search_paths, "cpu"), HostTarget)
    return provided + targets + errors
