"""The DSA functional model runs convolutions as implicit GEMMs, exactly."""

from __future__ import annotations

import numpy as np
import pytest

from iree_dsa_tuner.ir import load_problems
from iree_dsa_tuner.space import TilingCandidate
from iree_dsa_tuner.targets import get_target
from iree_dsa_plugin.functional import run_convolution

from conftest import INPUTS


def direct_conv(x, w, strides, dilations):
    """Textbook channels-last convolution, loop over taps (the reference)."""
    rank = w.ndim - 2
    taps = w.shape[:rank]
    out_image = [(x.shape[1 + i] - dilations[i] * (taps[i] - 1) - 1) // strides[i] + 1 for i in range(rank)]
    out = np.zeros((x.shape[0], *out_image, w.shape[-1]), dtype=np.int64)
    for tap in np.ndindex(*taps):
        window = tuple(slice(t * d, t * d + (o - 1) * s + 1, s) for t, d, o, s in zip(tap, dilations, out_image, strides))
        out += np.einsum("b...c,cf->b...f", x[(slice(None), *window, slice(None))].astype(np.int64),
                         w[tap].astype(np.int64))
    return out


@pytest.mark.parametrize("name", ["temporal_conv1d.mlir", "conv2d_patch.mlir"])
def test_conv_as_implicit_gemm_is_exact(name):
    (problem,) = load_problems(INPUTS / name)
    desc = get_target("dsa-e1").describe()
    rng = np.random.default_rng(3)
    sizes = problem.sizes()
    x = rng.integers(-4, 4, problem.inputs[0].shape).astype(np.float32)
    w = rng.integers(-4, 4, problem.inputs[1].shape).astype(np.float32)
    # Small integers in f32: every partial sum is exact, so tiling cannot change it.
    candidate = TilingCandidate(8, 32, 64, 8, 32, 16, parallelism=4, dma_stages=2)
    out, stats = run_convolution(desc, problem, candidate, x, w)
    expected = direct_conv(x, w, problem.strides, problem.dilations)
    assert out.shape == problem.output.shape
    assert np.array_equal(out.astype(np.int64), expected)
    assert stats.tiles > 1 and stats.mac_steps > 0
    assert sizes["output_channel"] == [out.shape[-1]]


@pytest.mark.parametrize("name,tile_m,blocks", [
    # conv2d_patch: m loops (batch 2, OH 4, OW 4). 8 = two whole rows, 32 = both images.
    ("conv2d_patch.mlir", 8, (1, 2, 4)),
    ("conv2d_patch.mlir", 32, (2, 4, 4)),
    ("conv2d_patch.mlir", 2, (1, 1, 2)),
    # temporal: m loops (batch 2, OW 12). 24 = both sequences; 8 leaves a 4-wide edge tile per row.
    ("temporal_conv1d.mlir", 24, (2, 12)),
    ("temporal_conv1d.mlir", 8, (1, 8)),
])
def test_conv_output_blocks_over_rows_are_exact(name, tile_m, blocks):
    """An M tile of whole output rows (OH tile > 1) computes the direct conv exactly, and
    the cores see exactly the blocks the mapping gives llvm-cpu."""
    (problem,) = load_problems(INPUTS / name)
    target = get_target("dsa-e1")
    desc = target.describe()
    shape = target.space(problem).shape
    assert shape.split_tile("m", tile_m) == blocks
    rng = np.random.default_rng(5)
    x = rng.integers(-4, 4, problem.inputs[0].shape).astype(np.float32)
    w = rng.integers(-4, 4, problem.inputs[1].shape).astype(np.float32)
    # A register block llvm-cpu can take: whole rows when wider than one (OW 12: 12, not 16).
    vec_m = int(shape.block("m", min(tile_m, 16)))
    candidate = TilingCandidate(tile_m, 32, 42, vec_m, 32, 1, parallelism=4, dma_stages=2)
    out, stats = run_convolution(desc, problem, candidate, x, w)
    assert np.array_equal(out.astype(np.int64), direct_conv(x, w, problem.strides, problem.dilations))
    m_tiles = int(np.prod([-(-s // b) for s, b in zip(shape.group_sizes("m"), blocks)]))
    assert stats.tiles == m_tiles * -(-shape.n // 32) == shape.tile_count("m", tile_m) * -(-shape.n // 32)
    # llvm-cpu gets the same block: the m loops' distribution tiles are `blocks`.
    config = target.to_config(problem, candidate)
    m_loops = [i for i, r in enumerate(shape.loop_roles) if r == "m"]
    assert tuple(config.distribution[i] for i in m_loops) == blocks
    assert target.from_config(problem, config) == candidate
    assert target.to_config(problem, target.from_config(problem, config)) == config
