"""Root-op problems read from IREE's own dispatch IR, for every op kind we meet."""

from __future__ import annotations

import pytest

from iree_dsa_tuner.errors import CompileError, InputError
from iree_dsa_tuner.core.problems import AttentionProblem, ContractionProblem, ConvolutionProblem, UntunableDispatch
from iree_dsa_tuner.ir import load_problems

from conftest import matmul_model, write_model


def by_kind(problems, kind):
    return [p for p in problems if p.kind == kind]


def test_matmul_sizes_types_and_roofline_numbers(tmp_path):
    model = write_model(tmp_path, "mm.mlir", matmul_model(50, 1024, 1024))
    (p,) = load_problems(model)
    assert isinstance(p, ContractionProblem)
    assert p.sizes() == {"batch": [], "m": [50], "n": [1024], "k": [1024]}
    assert p.loop_types == ("parallel", "parallel", "reduction")
    assert (p.lhs_type, p.rhs_type, p.out_type) == ("f32", "f32", "f32")
    assert p.flops == 2 * 50 * 1024 * 1024
    assert p.bytes == 4 * (50 * 1024 + 1024 * 1024 + 50 * 1024)
    assert p.to_json()["lhs_type"] == "tensor<50x1024xf32>"


def test_int8_gemm_accumulates_in_i32(inputs):
    (p,) = load_problems(inputs / "int8_gemm.mlir")
    assert (p.lhs_type, p.rhs_type, p.out_type) == ("i8", "i8", "i32")
    assert p.sizes()["m"] == [16]
    # i8 operands are one byte, the i32 result four.
    assert p.bytes == 16 * 256 + 256 * 256 + 4 * 16 * 256


def test_batch_matmul_has_a_batch_group(inputs):
    (p,) = load_problems(inputs / "batch_matmul.mlir")
    assert p.sizes() == {"batch": [4], "m": [64], "n": [128], "k": [32]}


def test_transposed_b_generics_collapsed_to_matvec_keep_empty_m(inputs):
    problems = load_problems(inputs / "gemma_mlp_b1.mlir")
    contractions = by_kind(problems, "contraction")
    assert len(contractions) == 3
    for p in contractions:
        # IREE drops the unit M dim of a generic: the problem must say m = [].
        assert p.sizes()["m"] == []
        assert p.op_name == "linalg.generic"
    # The SiLU gate is fused into one of the projection dispatches.
    assert any(p.fused_ops for p in contractions)


def test_temporal_conv_becomes_a_convolution_with_window_dims(inputs):
    (p,) = load_problems(inputs / "temporal_conv1d.mlir")
    assert isinstance(p, ConvolutionProblem)
    sizes = p.sizes()
    assert sizes["batch"] == [2] and sizes["filter_loop"] == [5]
    assert sizes["output_image"] == [12] and sizes["input_channel"] == [64]
    assert any("d1 + d3" in m for m in p.indexing_maps)


def test_attention_is_recognised_not_tuned(inputs):
    (p,) = load_problems(inputs / "attention.mlir")
    assert isinstance(p, AttentionProblem)
    assert set(p.sizes()) == {"batch", "m", "k1", "k2", "n"}


def test_dynamic_and_elementwise_dispatches_say_why(inputs):
    (dyn,) = load_problems(inputs / "dynamic.mlir")
    assert isinstance(dyn, UntunableDispatch) and "dynamic" in dyn.reason
    (ew,) = load_problems(inputs / "elementwise_only.mlir")
    assert isinstance(ew, UntunableDispatch) and "no contraction" in ew.reason


@pytest.mark.parametrize(
    "name, expected",
    [
        ("not_mlir.txt", "not_mlir.txt:1:1: error:"),
        ("malformed.mlir", "malformed.mlir:"),
        ("unknown_op.mlir", "unknown op 'foo.bar'"),
    ],
)
def test_bad_inputs_give_one_line_errors(inputs, name, expected):
    with pytest.raises((InputError, CompileError)) as info:
        load_problems(inputs / name)
    message = str(info.value)
    assert expected in message
    assert "\n" not in message


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_problems(tmp_path / "absent.mlir")


# ---- a split INT4 dequantisation is linked to the dispatch that reads what it wrote -----------

def _reader(symbol: str, bindings: tuple[int, ...]) -> ContractionProblem:
    from iree_dsa_tuner.core.problems import OperandInfo

    return ContractionProblem(
        dispatch=symbol, op_name="linalg.matmul", loop_sizes=(1, 64, 128),
        loop_types=("parallel", "parallel", "reduction"), dim_groups={"batch": (), "m": (0,), "n": (1,), "k": (2,)},
        indexing_maps=(), inputs=(OperandInfo((1, 128), "f32"), OperandInfo((128, 64), "f32")),
        output=OperandInfo((1, 64), "f32"), input_bindings=bindings)


def _dequantiser(symbol: str) -> UntunableDispatch:
    from iree_dsa_tuner.core.problems import WeightQuantisation

    q = WeightQuantisation(operand=-1, element_type="i4", group_size=32, scale_type="f16", zero_point=False,
                           form="split", producer=symbol, dequantise_bytes=1000)
    return UntunableDispatch(symbol, "dequantises", "linalg.generic", dequantises=q)


# Two layers sharing one transient buffer at the same range (IREE reuses it), the
# second reading its weight from binding 0 into its input 0 (W x, the weight on the left).
TWO_LAYERS_HOST = """\
  util.func public @main(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %c0 = arith.constant 0 : index
    %c32768 = arith.constant 32768 : index
    %c512 = arith.constant 512 : index
    %5 = stream.cmd.execute on(#hal.device.affinity<@__device_0>) await(%4) => with(%1 as %arg4: !stream.resource<external>{%c512}, %t as %arg9: !stream.resource<transient>{%c32768}, %x as %arg7: !stream.resource<external>{%c512}, %y as %arg8: !stream.resource<external>{%c512}) {
      stream.cmd.dispatch @e::@v::@dq_a {
        ro %arg4[%c0 for %c512] : !stream.resource<external>{%c512},
        wo %arg9[%c0 for %c32768] : !stream.resource<transient>{%c32768}
      }
      stream.cmd.dispatch @e::@v::@mm_a {
        ro %arg7[%c0 for %c512] : !stream.resource<external>{%c512},
        ro %arg9[%c0 for %c32768] : !stream.resource<transient>{%c32768},
        wo %arg8[%c0 for %c512] : !stream.resource<external>{%c512}
      }
      stream.cmd.dispatch @e::@v::@dq_b {
        ro %arg4[%c0 for %c512] : !stream.resource<external>{%c512},
        wo %arg9[%c0 for %c32768] : !stream.resource<transient>{%c32768}
      }
      stream.cmd.dispatch @e::@v::@mm_b {
        ro %arg9[%c0 for %c32768] : !stream.resource<transient>{%c32768},
        ro %arg8[%c0 for %c512] : !stream.resource<external>{%c512},
        wo %arg7[%c0 for %c512] : !stream.resource<external>{%c512}
      }
    } => !stream.timepoint
    util.return %r : !hal.buffer_view
  }
"""


def test_each_matmul_is_linked_to_the_last_dequantisation_of_the_range_it_reads():
    from iree_dsa_tuner.ir.dequantisation import link_split_dequantisation

    problems = [_dequantiser("dq_a"), _reader("mm_a", (0, 1)), _dequantiser("dq_b"), _reader("mm_b", (0, 1))]
    linked = {p.dispatch: p for p in link_split_dequantisation(problems, TWO_LAYERS_HOST)}
    assert (linked["mm_a"].weight_quant.producer, linked["mm_a"].weight_quant.operand) == ("dq_a", 1)
    assert (linked["mm_b"].weight_quant.producer, linked["mm_b"].weight_quant.operand) == ("dq_b", 0)
    assert linked["mm_a"].weight_quant.form == "split" and linked["mm_a"].bytes == 4 * (128 + 128 * 64 + 64) + 1000
    assert "for mm_b;" in linked["dq_b"].reason
    # Nothing to link in a program without dequantisations: the problems come back as they were.
    plain = [_reader("mm_a", (0, 1))]
    assert link_split_dequantisation(plain, TWO_LAYERS_HOST) == plain
