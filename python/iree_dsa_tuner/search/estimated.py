"""The cost model's own pick for each mmt4d (or inner_tiled) dispatch, for a spec the whole model
confirms; and for each softmax, set while the flag presets are compared.

Why: the search measures a dispatch alone, looping over the same buffers, so the weights it reads
stay in the cache from one call to the next. In the model each weight is read once per call, cold.
The mmt4d distribution decides how often the weight is streamed: IREE's default gives each
workgroup one row tile and one column tile, and workgroups run column tiles fastest, so an 82-row
GEMM streams its whole weight once per 16-row tile. ACT's FFN down projection (82 x 3200 -> 512)
took 4.2 ms alone and 6.85 ms a call in the model (`bench/perf_attribution.py`). The host estimate
(`host.target.mmt4d_estimate`) models those re-reads, so its best distribution keeps the rows of a
column panel together; alone it measured within 2% of IREE's, on the model ACT ran 190 -> 155 ms
with every mmt4d dispatch given all its row tiles per workgroup (2026-12-02,
`bench/lerobot_vs_pytorch.py --baseline-recipes`). Such a spec is one more candidate the whole
model confirms (`host.recipe`); nothing here is kept on the estimate's word alone.
"""

from __future__ import annotations

from dataclasses import replace

from ..core.config import CompilationConfig
from ..costmodel.funnel import run_funnel


def estimated_configs(problems, target, defaults: dict[str, CompilationConfig], select,
                      wanted: set[str] | None = None) -> dict[str, CompilationConfig]:
    """dispatch -> the estimate's best config, for each problem `select` accepts (of `wanted`,
    when given) whose estimate-best differs from IREE's default config (`defaults`)."""
    out: dict[str, CompilationConfig] = {}
    desc = target.describe()
    for p in problems:
        if not select(p) or (wanted is not None and p.dispatch not in wanted):
            continue
        survivors = run_funnel(target.space(p), desc, estimator=target.estimator).survivors(1)
        if not survivors:
            continue
        config = target.to_config(p, survivors[0].candidate)
        if defaults.get(p.dispatch) != config:
            out[p.dispatch] = config
    return out


def estimated_mmt4d_configs(problems, target, defaults: dict[str, CompilationConfig],
                            wanted: set[str] | None = None) -> dict[str, CompilationConfig]:
    """The estimate's distribution for each mmt4d or inner_tiled dispatch (see the module's doc)."""
    return estimated_configs(problems, target, defaults, lambda p: getattr(p, "is_mmt4d", False), wanted)


def estimated_softmax_configs(problems, target, defaults: dict[str, CompilationConfig],
                              wanted: set[str] | None = None) -> dict[str, CompilationConfig]:
    """The estimate's config for each softmax dispatch: a dispatch no flag preset changes, whose
    IREE default is 20-40x slower than the estimate's pick (docs/SOFTMAX.md), so the presets are
    compared with it set (`host.recipe.tune_recipe`)."""
    return estimated_configs(problems, target, defaults, lambda p: getattr(p, "kind", "") == "softmax", wanted)


def divisible_distribution(size: int, tile: int, vector: int) -> int:
    """A distribution tile for a loop of `size` that divides it: `tile` when it does (0, or a tile
    at least the loop, is the whole loop), else the largest divisor of `size` below `tile` that is a
    multiple of the loop's vector tile, else `tile` (left to IREE: the whole loop as one tile ran
    pi0's prefix and SigLIP no faster, 0.97-0.99x, docs/ELEMENTWISE.md)."""
    if tile <= 0 or tile >= size or size % tile == 0:
        return tile
    step = max(vector, 1)
    for d in range(tile - 1, 0, -1):
        if size % d == 0 and d % step == 0:
            return d
    return tile


def divisible_elementwise_configs(problems, defaults: dict[str, CompilationConfig],
                                  wanted: set[str] | None = None) -> dict[str, CompilationConfig]:
    """dispatch -> IREE's own config with every distribution tile that does not divide its loop
    replaced by `divisible_distribution`'s, for each elementwise root (of `wanted`) whose default
    has such a tile. A rule, not a search (docs/ELEMENTWISE.md): a workgroup tile that does not
    divide its loop has a dynamic size, and IREE 3.13's CPU codegen then copies the whole tile
    element by element (ACT's first im2col gather, 80 output columns in tiles of 32: 13 ms of a
    121 ms call; tiles of 16, 3.3x faster alone, ACT 115 -> 107 ms). The vector tiles stay; the
    whole model confirms the result like any estimate (`host.recipe`)."""
    out: dict[str, CompilationConfig] = {}
    for p in _configurable_elementwise(problems, defaults, wanted):
        default = defaults.get(p.dispatch)
        if p.captures_constants or default is None or len(default.distribution) != len(p.loop_sizes):
            continue
        vectors = default.vector_common_parallel or (0,) * len(p.loop_sizes)
        tiles = tuple(divisible_distribution(s, t, v)
                      for s, t, v in zip(p.loop_sizes, default.distribution, vectors))
        if tiles != default.distribution:
            out[p.dispatch] = replace(default, distribution=tiles)
    return out


def _configurable_elementwise(problems, defaults: dict[str, CompilationConfig], wanted: set[str] | None) -> list:
    """The elementwise roots (of `wanted`) a rule may configure. The spec matches the op, not the
    dispatch: every dispatch holding the same op gets the config, so an op IREE configures
    differently in two dispatches (fused with a pack in one) is left alone. (One whose body captures
    a constant is matched by its operand types, `ElementwiseProblem.match_key`; only the unpack
    rule configures those.)"""
    by_op: dict[str, set] = {}
    for p in problems:
        if getattr(p, "kind", "") == "elementwise":
            by_op.setdefault(p.match_key, set()).add(defaults.get(p.dispatch))
    return [p for p in problems if getattr(p, "kind", "") == "elementwise"
            and (wanted is None or p.dispatch in wanted) and len(by_op[p.match_key]) == 1]


def unpacked_vector_configs(problems, defaults: dict[str, CompilationConfig],
                            wanted: set[str] | None = None) -> dict[str, CompilationConfig]:
    """dispatch -> IREE's own config with its vector tiles widened to the inner tiles its input is
    unpacked from (`ElementwiseProblem.unpacked_tiles`), for each elementwise root (of `wanted`)
    whose default vectors are narrower and whose distribution tiles those divide. A rule, not a
    search (docs/ELEMENTWISE.md): where the register-tiled route's fc1 output (6 x 16 tiles) is
    unpacked, biased, GELU'd and packed into fc2's 6 x 1 left-hand tiles in one dispatch, IREE
    vectorises along the pack's 6 x 1 (6 of 8 lanes, each element gathered); in the unpack's 6 x 16
    it computes whole registers and transposes them (SigLIP's AVX2 layer 1.08x faster whole,
    docs/PERFORMANCE.md 4v). The whole model confirms the result like any estimate."""
    out: dict[str, CompilationConfig] = {}
    for p in _configurable_elementwise(problems, defaults, wanted):
        default, tiles = defaults.get(p.dispatch), p.unpacked_tiles
        if default is None or not tiles or not (len(tiles) == len(default.distribution)
                                                == len(default.vector_common_parallel)):
            continue
        vectors = tuple(max(v, t) if t > 1 else v for v, t in zip(default.vector_common_parallel, tiles))
        if vectors != default.vector_common_parallel and all(d % v == 0 for d, v in zip(default.distribution, vectors) if d and v):
            out[p.dispatch] = replace(default, vector_common_parallel=vectors)
    return out


def elementwise_configs(problems, defaults: dict[str, CompilationConfig],
                        wanted: set[str] | None = None) -> dict[str, CompilationConfig]:
    """Both rules for elementwise roots: `divisible_elementwise_configs`'s distribution, then
    `unpacked_vector_configs`'s vectors on it."""
    out = divisible_elementwise_configs(problems, defaults, wanted)
    out.update(unpacked_vector_configs(problems, {**defaults, **out}, wanted))
    return out


__all__ = ["divisible_distribution", "divisible_elementwise_configs", "elementwise_configs", "estimated_configs",
           "estimated_mmt4d_configs", "estimated_softmax_configs", "unpacked_vector_configs"]
