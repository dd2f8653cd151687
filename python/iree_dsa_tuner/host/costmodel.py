"""Analytic time of llvm-cpu's DoubleTilingExpert schedules (the host's L0 model).

A CPU has no scratchpad or DMA: what decides speed is how one vector step
(vec_m x vec_n x vec_k of `vector_common_parallel` / `vector_reduction`)
maps onto the register file and the FMA/load ports, and how the operands
stream from the cache hierarchy. Per candidate, vectorised:

- compute: steps x cycles per reduction element / clock, where a step is one
  vec_m x vec_n register tile and
    cycles = max(accumulators / FMA ports, loads / load ports, FMA latency)
  (accumulators = vec_m * ceil(vec_n / lanes); loads = B vectors + A
  broadcasts; the latency floor is the dependent chain on each accumulator,
  plus an L2 hit when [K,N] weights stream a K x vec_n slab too big for the L1d),
  times a spill penalty when accumulators + operands exceed the registers,
  a remainder penalty when the vector tile does not divide its loop, and an
  unroll penalty when one step's FMAs exceed the I-cache friendly budget;
- loop overhead: a fixed cost per innermost vector_reduction iteration;
- memory: bytes streamed from the cache (B once per vec_m rows, A once per
  vec_n columns) over the cache or DRAM bandwidth, slowed by short contiguous
  runs of the streamed weights ([K, N] weights stream vec_n elements per row);
- launch: one dispatch.
The inputs come from the target description (`[cpu_model]`, typed as
`description.CpuModel`), never from code.
"""

from __future__ import annotations

import numpy as np

from ..core.shape import GemmShape
from ..costmodel.estimate import Estimate
from ..costmodel.geometry import ceil_div
from ..description import TargetDescription

_F32 = 4
_CACHE_LINE_BYTES = 64  # every x86-64 part


def _transposed_b_cycles(vm, vn, vk, accumulators, lanes, fma_ports, load_ports, shuffle_ports, latency):
    """Cycles per reduction element, and live registers, when B is [N, K] (K contiguous).

    llvm-cpu loads a vector_n x vector_k block of B row by row (K runs along the
    lanes) and transposes it in registers before the outer products: a full
    lanes x lanes block costs log2(lanes) shuffles per row, a block narrower than
    a register (vector_k < lanes) is assembled element by element (one insert per
    element, a gather when vector_k is 1). The whole block is live at once.
    """
    vk_regs = ceil_div(vk, lanes)
    shuffles = np.where(vk >= lanes, vn * vk_regs * np.log2(lanes), vn * vk)
    loads = vn * vk_regs + vm * vk
    fmas = accumulators * vk
    step = np.maximum.reduce([fmas / fma_ports, loads / load_ports, shuffles / shuffle_ports,
                              np.full(accumulators.shape, latency)])
    return step / vk, accumulators + vn * vk_regs + 1


def cpu_estimate(shape: GemmShape, desc: TargetDescription, cols: dict[str, np.ndarray], geo=None) -> Estimate:
    """`geo` (the tile geometry) is unused: a CPU's cost is its register blocking."""
    model = desc.cpu
    if model is None:
        raise ValueError(f"target {desc.name} has no [cpu_model]: the CPU cost model needs one")
    if shape.kind == "attention":
        return _attention_estimate(shape, desc, cols)
    registers = float(model.vector_registers)
    load_ports = float(model.load_ports)
    latency = model.fma_latency_cycles
    loop_cycles = model.loop_overhead_cycles
    unroll_budget = model.unroll_budget
    remainder_penalty = model.remainder_penalty
    spill_penalty = model.spill_penalty
    stream_overhead = model.stream_overhead_bytes
    cache_bw = model.cache_bytes_per_s
    near_bw = model.near_cache_bytes_per_s

    m_in, n_in, k_in = shape.inner("m"), shape.inner("n"), shape.inner("k")
    rows = shape.batch * shape.outer("m") * shape.outer("n") * shape.outer("k")
    lanes = desc.mac_n  # 32-bit accumulator lanes per vector register
    fma_ports = desc.mac_m
    vm = np.minimum(cols["vec_m"], m_in)
    vn = np.minimum(cols["vec_n"], n_in)
    vk = np.minimum(np.maximum(cols["vec_k"], 1), k_in)
    tm = np.minimum(cols["tile_m"], m_in)
    tn = np.minimum(cols["tile_n"], n_in)

    vn_regs = ceil_div(vn, lanes)
    accumulators = vm * vn_regs
    if shape.rhs_inner_role == "k":
        cycles_per_k, live = _transposed_b_cycles(vm, vn, vk, accumulators, lanes, fma_ports, load_ports,
                                                  model.shuffle_ports, latency)
        # The transposed block spills wholesale: every doubling of the live set past
        # the register file costs another spill_penalty's worth of reloads.
        spill = 1.0 + (spill_penalty - 1.0) * np.log2(np.maximum(live / registers, 1.0))
    else:
        loads = vn_regs + vm
        # [K,N]: a step reads one row of B's K x vector_n slab (and vector_m elements of A's
        # rows). When slab and rows do not fit the L1d together the row is an L2 hit, and one
        # accumulator's chain waits for it on every step: only enough independent accumulators
        # hide it (few-row, few-register tiles do not).
        slab_bytes = k_in * (vn * shape.rhs_bytes + vm * shape.lhs_bytes)
        chain = np.where(slab_bytes > model.l1d_bytes, latency + model.l2_latency_cycles, latency)
        cycles_per_k = np.maximum.reduce([accumulators / fma_ports, loads / load_ports, chain])
        spill = np.where(accumulators + vn_regs + 1 > registers, spill_penalty, 1.0)
    cycles_per_k = cycles_per_k * spill
    # Remainders anywhere (vector tile in the distribution tile, distribution
    # tile's last piece) mean peeled or masked code on the hot path.
    divides = ((tm % vm) == 0) & (((m_in % tm) % vm) == 0) & ((tn % vn) == 0) & (((n_in % tn) % vn) == 0)
    cycles_per_k = cycles_per_k * np.where(divides, 1.0, remainder_penalty)
    unrolled = accumulators * vk
    cycles_per_k = cycles_per_k * np.maximum(1.0, unrolled / unroll_budget)
    # Wider element types than the accumulator's 32 bits are not on the table;
    # narrower ones (i8 with dot-product instructions) do more MACs per lane.
    macs_per_lane = max(1, desc.mac_k_for(desc.compute_type(shape.lhs_type, shape.rhs_type)))
    steps = rows * ceil_div(m_in, vm) * ceil_div(n_in, vn)
    compute_s = steps * k_in * cycles_per_k / macs_per_lane / desc.clock_hz
    overhead_s = steps * ceil_div(k_in, vk) * loop_cycles / desc.clock_hz

    ops = shape.operand_bytes()
    # Compulsory traffic from the last-level cache (or DRAM when it does not
    # fit), slowed by short contiguous runs of the streamed weights.
    if shape.rhs_inner_role == "n":
        run_bytes = vn * shape.rhs_bytes
    else:
        # [N,K]: vector_n rows of B stream side by side; past the prefetcher's stream
        # count every cache line is a demand miss of its own.
        run_bytes = np.where(vn > model.prefetch_streams, _CACHE_LINE_BYTES, k_in * shape.rhs_bytes)
    stream_efficiency = run_bytes / (run_bytes + stream_overhead)
    bandwidth_scalar = cache_bw if shape.compulsory_bytes <= desc.shared_bytes else desc.dram_bytes_per_s
    bandwidth = np.full(len(vm), bandwidth_scalar, dtype=float)
    outer_s = shape.compulsory_bytes / (bandwidth * stream_efficiency)
    # Reuse traffic from the near cache: B is re-streamed once per vec_m rows
    # and A once per vec_n columns, so few accumulator rows make a GEMM bound
    # by cache bandwidth rather than by FMAs.
    reuse = ops["rhs"] * ceil_div(m_in, vm) + ops["lhs"] * ceil_div(n_in, vn) + ops["out"]
    inner_s = reuse / near_bw
    memory_s = np.maximum(outer_s, inner_s)
    launch_s = np.full(len(vm), desc.launch_s)
    total = np.maximum(compute_s, memory_s) + overhead_s + launch_s
    return Estimate(compute_s=compute_s, memory_s=memory_s, latency_s=overhead_s, launch_s=launch_s,
                    roofline_s=np.maximum(compute_s, memory_s), total_s=total,
                    busy_cores=np.ones(len(vm), dtype=np.int64), bandwidth=bandwidth)


def _attention_estimate(shape: GemmShape, desc: TargetDescription, cols: dict[str, np.ndarray]) -> Estimate:
    """online_attention under LinalgExtTileAndVectorize: cycles per KV step, from measured terms.

    IREE 3.13's CPU attention runs far below the FMA peak, so a register-blocking model
    says little; what decides its time was measured (bench/host_cost_model_fidelity.py
    --attention) and fitted as four terms per KV step of one (query rows vm) register
    tile, each weighted by a `[cpu_model]` number:
    - Q K^T: vm x vk x head MACs (`attention_qk_cycles_per_mac`);
    - P V: vm x vk x tile_n MACs, slower when the value lanes vn are fewer than a
      register's (`attention_pv_cycles_per_mac`);
    - the online-softmax rescale of the vm x tile_n output (`attention_rescale_cycles`);
    - a fixed cost per step (`attention_step_cycles`): max, exp, sum and loop control.
    Q K^T and the softmax are recomputed for every value-width tile (tile_n < value
    width), which the step count carries.
    """
    model = desc.cpu
    lanes = desc.mac_n
    m_in, n_in, keys, head = shape.inner("m"), shape.inner("n"), shape.inner("k"), max(shape.head_dim, 1)
    batch = shape.batch * shape.outer("m") * shape.outer("n")
    tm = np.minimum(cols["tile_m"], m_in)
    tn = np.minimum(cols["tile_n"], n_in)
    vm = np.minimum(cols["vec_m"], tm)
    vn = np.minimum(cols["vec_n"], tn)
    vk = np.minimum(np.maximum(cols["vec_k"], 1), keys)
    per_step = (model.attention_qk_cycles_per_mac * vm * vk * head
                + model.attention_pv_cycles_per_mac * vm * vk * tn * np.maximum(1.0, lanes / vn)
                + model.attention_rescale_cycles * vm * tn
                + model.attention_step_cycles)
    steps = batch * ceil_div(m_in, tm) * ceil_div(n_in, tn) * ceil_div(tm, vm) * ceil_div(keys, vk)
    compute_s = steps * per_step / desc.clock_hz
    overhead_s = np.zeros(len(vm))

    ops = shape.operand_bytes()
    streamed = ops["lhs"] + ops["out"] + ops["rhs"] * ceil_div(m_in, tm) * ceil_div(n_in, tn)
    bandwidth_scalar = (model.cache_bytes_per_s if shape.compulsory_bytes <= desc.shared_bytes
                        else desc.dram_bytes_per_s)
    bandwidth = np.full(len(vm), bandwidth_scalar, dtype=float)
    memory_s = streamed / bandwidth
    launch_s = np.full(len(vm), desc.launch_s)
    total = np.maximum(compute_s, memory_s) + overhead_s + launch_s
    return Estimate(compute_s=compute_s, memory_s=memory_s, latency_s=overhead_s, launch_s=launch_s,
                    roofline_s=np.maximum(compute_s, memory_s), total_s=total,
                    busy_cores=np.ones(len(vm), dtype=np.int64), bandwidth=bandwidth)
