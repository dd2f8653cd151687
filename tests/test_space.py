"""Candidate spaces: sizes, laziness, problem kinds."""

from __future__ import annotations

import math

import pytest

from iree_dsa_tuner.core.problems import AttentionProblem, ConvolutionProblem, ContractionProblem, OperandInfo
from iree_dsa_tuner.space import (
    KNOBS,
    TilingCandidate,
    UnsupportedProblem,
    candidates_to_columns,
    gemm_shape,
    simple_gemm,
    tile_ladder,
)
from iree_dsa_tuner.core.shape import parse_shape
from iree_dsa_tuner.targets import get_target


@pytest.fixture(scope="module")
def e1():
    return get_target("dsa-e1")


def test_tile_ladder():
    assert tile_ladder(256, 8) == (2, 4, 8, 16, 32, 64, 128, 256)
    assert tile_ladder(4096, 8) == (32, 64, 128, 256, 512, 1024, 2048, 4096)
    assert tile_ladder(50, 8) == (1, 2, 4, 8, 16, 32, 50)
    assert tile_ladder(1, 8) == (1,)


def test_r56_space_factors(e1):
    # The seed's R5.6: tile M/N/K 8 choices each, 4 parallelism, 3 vector widths,
    # 3 DMA depths, 2 fusion. Note 8*8*8*4*3*3*2 is 36864; the seed's "13824" is
    # 8*8*8*3*3*3, so its product does not match its own factors.
    # Those are the output-stationary product's; the weight-streaming products follow it.
    space = e1.space(simple_gemm(256, 2048, 2048, "i8", has_consumer=True))
    dims = {k: len(v) for k, v in space.products[0].items()}
    assert [dims[k] for k in ("tile_m", "tile_n", "tile_k", "parallelism", "vec_n", "dma_stages", "fusion")] == \
        [8, 8, 8, 4, 3, 3, 2]
    assert math.prod(dims.values()) == 8 * 8 * 8 * 4 * 3 * 3 * 2 == 36864
    assert space.size == 36864 + 11520
    # A batch-1 INT4 GEMM trades the (trivial) M tile for the quant block: exactly 13824.
    int4 = e1.space(simple_gemm(1, 2048, 2048, "i8", "i4", has_consumer=True))
    assert math.prod(len(v) for v in int4.products[0].values()) == 13824 and int4.dimensions()["quant_block"] == 3


def test_space_is_lazy_and_consistent(e1):
    space = e1.space(simple_gemm(1, 256, 256, "i8"))
    cols = space.columns()
    listed = list(space)
    assert len(listed) == space.size == len(cols["tile_n"])
    again = candidates_to_columns(listed)
    for k in KNOBS:
        assert (again[k] == cols[k]).all()
    first = next(iter(space))
    assert isinstance(first, TilingCandidate) and first.vec_m == 1  # derived: min(tile_m, array rows)
    chunks = list(space.chunks(1000))
    assert sum(len(c["tile_m"]) for c in chunks) == space.size


def test_vector_step_respects_llvm_cpu_limit(e1):
    desc = e1.describe()
    cols = e1.space(simple_gemm(256, 2048, 2048, "i8")).columns()
    import numpy as np
    vec = cols["vec_m"] * np.minimum(cols["vec_n"], cols["tile_n"]) * cols["vec_k"]
    assert (vec < desc.max_vector_elements).all() and (cols["vec_k"] >= 1).all()


def _operand(*shape, t="i8"):
    return OperandInfo(tuple(shape), t)


def test_attention_has_a_dsa_space_and_is_refused_clearly_as_a_gemm(e1):
    att = AttentionProblem("main$async_dispatch_7_attention", "iree_linalg_ext.attention", (8, 50, 256, 256, 50),
                           ("parallel",) * 5, {"batch": (0,), "m": (1,), "k1": (2,), "k2": (3,), "n": (4,)}, (),
                           (_operand(8, 50, 256, t="f32"),) * 3, _operand(8, 50, 256, t="f32"))
    # dsa-e1 searches attention in its own space; a target that reads it as a GEMM gets one clear line.
    assert e1.space(att).size > 0
    with pytest.raises(UnsupportedProblem, match="attention.*no attention space"):
        gemm_shape(att)


def test_contraction_problem_mapping(e1):
    # batch_matmul 1x50x4096x1024 as torch exports it: loops b, m, n, k.
    p = ContractionProblem("d0", "linalg.batch_matmul", (1, 50, 4096, 1024),
                           ("parallel", "parallel", "parallel", "reduction"),
                           {"batch": (0,), "m": (1,), "n": (2,), "k": (3,)}, (),
                           (_operand(1, 50, 1024), _operand(1, 1024, 4096)), _operand(1, 50, 4096, t="i32"))
    shape = gemm_shape(p)
    assert (shape.batch, shape.m, shape.n, shape.k) == (1, 50, 4096, 1024)
    config = e1.to_config(p, next(iter(e1.space(p))))
    assert config.distribution[0] == 1 and config.distribution[3] == 0 and config.vector_reduction[3] >= 1


def test_convolution_as_implicit_gemm(e1):
    # NHWC conv, batch 2: loops n, oh, ow, oc, fh, fw, ic.
    p = ConvolutionProblem("conv", "linalg.conv_2d_nhwc_hwcf", (2, 16, 16, 64, 3, 3, 32),
                           ("parallel",) * 4 + ("reduction",) * 3,
                           {"batch": (0,), "output_image": (1, 2), "output_channel": (3,),
                            "filter_loop": (4, 5), "input_channel": (6,)}, (),
                           (_operand(2, 18, 18, 32), _operand(3, 3, 32, 64)), _operand(2, 16, 16, 64, t="i32"))
    shape = gemm_shape(p)
    assert (shape.m, shape.n, shape.k) == (2 * 16 * 16, 64, 9 * 32)
    assert shape.inner("m") == 16 and shape.inner("k") == 32
    space = e1.space(p)
    # Within one output row (OW = 16), then whole rows (2..16 of OH), then both images.
    assert space.choices["tile_m"] == (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
    config = e1.to_config(p, next(iter(space)))
    assert config.pipeline == "ConvTileAndDecomposeExpert"
    assert config.vector_reduction[4] == config.vector_reduction[5] == 1
    assert shape.split_tile("m", 8) == (1, 1, 8) and shape.split_tile("m", 64) == (1, 4, 16)
    assert shape.split_tile("m", 512) == (2, 16, 16)
    assert shape.block("m", 64) == 64 and shape.tile_count("m", 64) == 2 * 4 and shape.tile_count("m", 8) == 2 * 16 * 2


def test_parse_shape():
    s = parse_shape("1x256x256", "i8")
    assert (s.m, s.n, s.k, s.out_type) == (1, 256, 256, "i32")
    q = parse_shape("2x1x64x128", "i8xi4")
    assert q.batch == 2 and q.rhs_type == "i4" and q.out_type == "f32"
    with pytest.raises(ValueError, match="MxNxK"):
        parse_shape("12", "i8")
    # The W4A8 shape as the simulator and L0 read it: 2 x (1 x 64 x 128) MACs, the i4 weight packed.
    assert (q.m, q.n, q.k, q.macs, q.quantised) == (1, 64, 128, 2 * 1 * 64 * 128, True)
    assert q.operand_bytes() == {"lhs": 2 * 1 * 128 * 1, "rhs": 2 * 128 * 64 * 0.5, "out": 2 * 1 * 64 * 4}


# ---- core.shape and targets.mapping by hand: the simulator and L0 both read these, so their
# agreement tests cannot see a bug here.

def _batched_two_row_matmul() -> ContractionProblem:
    """out[b, i, j, n] = sum_k lhs[b, i, j, k] * rhs[b, n, k]: batch 4, an m group of two loops
    (2 x 8), n 64, k 32, B transposed (its contiguous dimension is k)."""
    return ContractionProblem(
        dispatch="d", op_name="linalg.generic", loop_sizes=(4, 2, 8, 64, 32),
        loop_types=("parallel",) * 4 + ("reduction",),
        dim_groups={"batch": (0,), "m": (1, 2), "n": (3,), "k": (4,)},
        indexing_maps=("affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>",
                       "affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>",
                       "affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>"),
        inputs=(OperandInfo((4, 2, 8, 32), "f32"), OperandInfo((4, 64, 32), "f32")),
        output=OperandInfo((4, 2, 8, 64), "f32"))


def test_gemm_shape_of_a_known_problem_by_hand():
    s = gemm_shape(_batched_two_row_matmul())
    assert (s.batch, s.m, s.n, s.k) == (4, 16, 64, 32)
    assert (s.lhs_type, s.rhs_type, s.out_type, s.kind) == ("f32", "f32", "f32", "contraction")
    assert s.loop_roles == ("batch", "m", "m", "n", "k")
    assert s.loop_is_inner == (True, False, True, True, True)  # the m group's innermost loop is d2
    assert (s.lhs_inner_role, s.rhs_inner_role) == ("k", "k")  # B transposed: k is contiguous in both
    assert s.group_sizes("m") == (2, 8)
    assert s.macs == 4 * 16 * 64 * 32 == 131072
    assert s.operand_bytes() == {"lhs": 4 * 16 * 32 * 4, "rhs": 4 * 32 * 64 * 4, "out": 4 * 16 * 64 * 4}
    assert s.compulsory_bytes == 8192 + 32768 + 16384
    # An m block of 16 rows covers both loops whole; 4 rows fit in the inner loop.
    assert s.split_tile("m", 16) == (2, 8) and s.split_tile("m", 4) == (1, 4)
    assert s.tile_count("m", 4) == 2 * 2 and s.tile_count("n", 32) == 2


def test_mapping_round_trip_with_hand_written_tile_lists():
    from iree_dsa_tuner.core.config import CompilationConfig
    from iree_dsa_tuner.targets.mapping import group_tiles, loop_types, tile_lists

    s = gemm_shape(_batched_two_row_matmul())
    lists = tile_lists(s, tile_m=16, tile_n=32, vec_m=4, vec_n=16, vec_k=8)
    # (b, i, j, n, k): batch 1; the 16-row block is both m loops whole, the 4-row vector in j;
    # n by 32 and 16; k not distributed, stepped by 8.
    assert lists == ((1, 2, 8, 32, 0), (1, 1, 4, 16, 0), (0, 0, 0, 0, 8))
    assert loop_types(s) == ("parallel", "parallel", "parallel", "parallel", "reduction")
    config = CompilationConfig(pipeline="DoubleTilingExpert", distribution=(1, 2, 8, 32, 0),
                               vector_common_parallel=(1, 1, 4, 16, 0), vector_reduction=(0, 0, 0, 0, 8))
    assert group_tiles(s, config) == {"tile_m": 16, "tile_n": 32, "vec_m": 4, "vec_n": 16, "vec_k": 8}
    # IREE's "not tiled" (0) reads as the whole loop: n 64 and the m group 2 x 8.
    untiled = CompilationConfig(pipeline="DoubleTilingExpert", distribution=(1, 0, 0, 0, 0),
                                vector_common_parallel=(1, 1, 8, 16, 0), vector_reduction=(0, 0, 0, 0, 4))
    assert group_tiles(s, untiled) == {"tile_m": 16, "tile_n": 64, "vec_m": 8, "vec_n": 16, "vec_k": 4}


def _conv2d_b2():
    # conv2d_patch's 7-loop op: n 2, oh 4, ow 4, oc 128, kh 14, kw 14, ic 3.
    return ConvolutionProblem("patch", "linalg.generic", (2, 4, 4, 128, 14, 14, 3),
                              ("parallel",) * 4 + ("reduction",) * 3,
                              {"batch": (0,), "output_image": (1, 2), "output_channel": (3,),
                               "filter_loop": (4, 5), "input_channel": (6,)}, (),
                              (_operand(2, 56, 56, 3, t="f32"), _operand(14, 14, 3, 128, t="f32")),
                              _operand(2, 4, 4, 128, t="f32"))


def _conv1d_b2():
    # A Diffusion-Policy temporal conv: n 2, ow 12, oc 64, kw 5, ic 64.
    return ConvolutionProblem("temporal", "linalg.generic", (2, 12, 64, 5, 64),
                              ("parallel",) * 3 + ("reduction",) * 2,
                              {"batch": (0,), "output_image": (1,), "output_channel": (2,),
                               "filter_loop": (3,), "input_channel": (4,)}, (),
                              (_operand(2, 16, 64, t="f32"), _operand(5, 64, 64, t="f32")),
                              _operand(2, 12, 64, t="f32"))


@pytest.mark.parametrize("target_name", ["host-avx2", "host-avx512", "dsa-e1"])
@pytest.mark.parametrize("make", [_conv2d_b2, _conv1d_b2])
def test_conv_row_blocks_map_and_round_trip(target_name, make):
    """Every m tile of a conv's ladder becomes per-loop blocks llvm-cpu takes (whole inner
    rows, the outer loop the rest), and every config reads back to itself. The host is an AVX2
    and an AVX-512 part (conftest.cpu_target), whatever this machine is."""
    from iree_dsa_tuner.core.config import CompilationConfig
    from conftest import cpu_target

    host = target_name.startswith("host")
    target = cpu_target(target_name.removeprefix("host-")) if host else get_target(target_name)
    problem = make()
    space = target.space(problem)
    shape = space.shape
    m_loops = [i for i, r in enumerate(shape.loop_roles) if r == "m"]
    inner = shape.inner("m")
    assert max(space.choices["tile_m"]) == shape.m  # the whole output (both images)
    seen_rows = False
    for candidate in list(space)[::7]:
        if target.check_knobs(candidate) or candidate.vec_k < 1:
            continue
        config = target.to_config(problem, candidate)
        blocks = [config.distribution[i] for i in m_loops]
        assert math.prod(blocks) == candidate.tile_m
        if candidate.tile_m > inner:  # whole rows: the inner loop whole, the rest outside
            assert candidate.tile_m % inner == 0 and blocks[-1] == inner
            assert math.prod(blocks[:-1]) == candidate.tile_m // inner
            seen_rows = seen_rows or blocks[-2] > 1
        else:
            assert blocks[-1] == candidate.tile_m and all(b == 1 for b in blocks[:-1])
        vec = [config.vector_common_parallel[i] for i in m_loops]
        assert all(v <= b for v, b in zip(vec, blocks))
        again = CompilationConfig.from_json(config.to_json())
        assert target.to_config(problem, target.from_config(problem, again)) == config
        if host:  # register rows stay within one output row
            assert all(v == 1 for v in vec[:-1])
    assert seen_rows
