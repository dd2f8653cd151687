"""Root-op problems: what one dispatch asks the tuner to solve.

A problem is read from the dispatch IR that IREE itself produces (after unit
dims are collapsed), so its loop order and sizes are exactly the ones a tile
list in `#iree_codegen.compilation_info` is written against.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

# Bits per element for the element types a root op may carry.
_ELEMENT_BITS = {
    "i1": 1, "i4": 4, "i8": 8, "i16": 16, "i32": 32, "i64": 64,
    "f8E4M3FNUZ": 8, "f8E5M2FNUZ": 8, "f8E4M3FN": 8, "f8E5M2": 8,
    "f16": 16, "bf16": 16, "f32": 32, "f64": 64,
}


def element_bits(element_type: str) -> int:
    """Width in bits of an MLIR element type spelled as text ("bf16", "i8")."""
    if element_type in _ELEMENT_BITS:
        return _ELEMENT_BITS[element_type]
    if element_type.startswith(("i", "si", "ui")) and element_type.lstrip("isu").isdigit():
        return int(element_type.lstrip("isu"))
    raise ValueError(f"unknown element type {element_type!r}")


@dataclass(frozen=True)
class OperandInfo:
    """One operand of the root op: its shape and element type."""

    shape: tuple[int, ...]
    element_type: str

    @property
    def type_str(self) -> str:
        return "tensor<" + "x".join(str(d) for d in self.shape) + ("x" if self.shape else "") + self.element_type + ">"

    @property
    def num_bytes(self) -> int:
        return math.prod(self.shape) * element_bits(self.element_type) // 8


@dataclass(frozen=True)
class WeightQuantisation:
    """A root-op input that is a quantiser's sub-byte weight, dequantised on its way in.

    The pattern: `ext{s,u}i` / `{s,u}itofp` of an i4 tensor, an optional zero
    point subtracted, a multiply by a scale shared by `group_size` consecutive
    K elements. `form` says where IREE put the dequantisation: "fused" (in the
    root op's dispatch, so the dispatch reads the packed weight), "split" (a
    producer dispatch writes the f32 weight that this dispatch reads back, every
    call) or "hoisted" (a constant weight dequantised once, at load, by an
    initializer dispatch; every call reads the f32 result).
    """

    operand: int  # which input of the root op carries the dequantised weight
    element_type: str  # as stored ("i4", "ui4")
    group_size: int  # K elements per scale (the quantiser's block)
    scale_type: str  # "f32", "f16", ...
    zero_point: bool
    form: str = "fused"  # "fused" | "split" | "hoisted"
    producer: str = ""  # split / hoisted: the dispatch that dequantises
    # split: traffic the dequantisation adds outside this dispatch (packed weight,
    # scales and zero points read, the float weight written); this dispatch's own
    # read of the float weight is already in its operand bytes.
    dequantise_bytes: int = 0

    def to_json(self) -> dict:
        return {
            "operand": self.operand, "type": self.element_type, "group_size": self.group_size,
            "scale_type": self.scale_type, "zero_point": self.zero_point, "form": self.form,
            "producer": self.producer, "dequantise_bytes": self.dequantise_bytes,
        }


@dataclass(frozen=True)
class RootOpProblem:
    """A tunable root op of one dispatch.

    `loop_sizes[i]` is the static trip count of loop `i` of the op's iteration
    space; `dim_groups` maps each MLIR dimension-group name (`m`, `n`, `k`,
    `batch` for contractions, `output_image`, ... for convolutions) to the loop
    indices in that group, in the order MLIR's inference reports them.
    """

    dispatch: str
    op_name: str
    loop_sizes: tuple[int, ...]
    loop_types: tuple[str, ...]  # "parallel" | "reduction", per loop
    dim_groups: dict[str, tuple[int, ...]]
    indexing_maps: tuple[str, ...]
    inputs: tuple[OperandInfo, ...]
    output: OperandInfo
    fused_ops: tuple[str, ...] = ()
    # Set when an input is a dequantised sub-byte weight (None: plain operands).
    # (Keyword-only, so subclasses' positional fields keep their places.)
    weight_quant: WeightQuantisation | None = field(default=None, kw_only=True)
    # The HAL binding each input is loaded from (-1: not a direct load): how a
    # split dequantisation's output is found among this dispatch's inputs.
    input_bindings: tuple[int, ...] = field(default=(), kw_only=True)

    kind = "unknown"

    @property
    def lhs_type(self) -> str:
        return self.inputs[0].element_type

    @property
    def rhs_type(self) -> str:
        return self.inputs[1].element_type

    @property
    def out_type(self) -> str:
        return self.output.element_type

    def sizes(self) -> dict[str, list[int]]:
        """Sizes per dimension group, MLIR's vocabulary."""
        return {name: [self.loop_sizes[i] for i in loops] for name, loops in self.dim_groups.items()}

    @property
    def num_loops(self) -> int:
        return len(self.loop_sizes)

    @property
    def flops(self) -> int:
        """Multiply-adds count twice: 2 * product of all loop trip counts."""
        return 2 * math.prod(self.loop_sizes)

    @property
    def bytes(self) -> int:
        """Compulsory traffic: every operand read once, the result written once.

        A fused dequantised weight is read as stored (packed, plus its scales),
        not as the float tensor the root op sees; a split one adds the
        producer dispatch's traffic to this dispatch's own float read.
        """
        q = self.weight_quant
        total = sum(o.num_bytes for i, o in enumerate(self.inputs) if q is None or i != q.operand or q.form != "fused")
        if q is not None:
            total += self.stored_weight_bytes() if q.form == "fused" else q.dequantise_bytes
        return total + self.output.num_bytes

    def stored_weight_bytes(self) -> int:
        """The quantised weight as it sits in memory: packed values, scales and zero points."""
        q = self.weight_quant
        if q is None:
            return 0
        count = math.prod(self.inputs[q.operand].shape)
        groups = count // q.group_size if q.group_size else 0
        per_group = element_bits(q.scale_type) // 8 * (2 if q.zero_point else 1)
        return math.ceil(count * element_bits(q.element_type) / 8) + groups * per_group

    @property
    def intensity(self) -> float:
        return self.flops / self.bytes if self.bytes else 0.0

    def to_json(self) -> dict:
        return {
            "dispatch": self.dispatch,
            "kind": self.kind,
            "op": self.op_name,
            "sizes": self.sizes(),
            "loop_sizes": list(self.loop_sizes),
            "loop_types": list(self.loop_types),
            "lhs_type": self.inputs[0].type_str,
            "rhs_type": self.inputs[1].type_str if len(self.inputs) > 1 else None,
            "out_type": self.output.type_str,
            "indexing_maps": list(self.indexing_maps),
            "fused_ops": list(self.fused_ops),
            **({"weight_quant": self.weight_quant.to_json()} if self.weight_quant is not None else {}),
            "flops": self.flops,
            "bytes": self.bytes,
            "intensity": round(self.intensity, 4),
        }


# Data tiling's packed GEMMs: loops (B,) M1, N1, K1, M0, N0, K0. Only IREE's global data-tiling
# path puts them in a dispatch's source, where a spec can set their distribution.
MMT4D_OPS = ("linalg.mmt4d", "linalg.batch_mmt4d")


@dataclass(frozen=True)
class ContractionProblem(RootOpProblem):
    """A contraction: groups `batch`, `m`, `n`, `k` (lists; `[]` where absent).

    `dag_text` is set for a contraction that is not one to MLIR's contraction interface: the
    quantiser's w4a8 generic, which multiplies INT8 activations by 4-bit codes times their
    group's integer scale in i32 (docs/QUANT.md). Its spec matcher holds that op alone
    (`cast_compatible_dag_from_root`), as for an elementwise root.
    """

    kind = "contraction"
    dag_text: str = field(default="", kw_only=True)

    @property
    def is_mmt4d(self) -> bool:
        return self.op_name in MMT4D_OPS

    def _group_size(self, name: str) -> int:
        return math.prod(self.loop_sizes[i] for i in self.dim_groups.get(name, ()))

    @property
    def M(self) -> int:
        return self._group_size("m")

    @property
    def N(self) -> int:
        return self._group_size("n")

    @property
    def K(self) -> int:
        return self._group_size("k")

    @property
    def B(self) -> int:
        return self._group_size("batch")


@dataclass(frozen=True)
class InnerTiledProblem(ContractionProblem):
    """A data-tiled GEMM as `iree_codegen.inner_tiled` (`--iree-llvmcpu-enable-inner-tiled` on the
    global data-tiling path, docs/DATA_TILING.md 11): loops M1, N1, K1 (groups `m`, `n`, `k`) over
    inner tiles of `inner_tile` = (M0, N0, K0) elements, which the operand types carry (the A tile
    stacks `intrinsics_m` of the CPU's intrinsic; on AVX-512 f32, 29 x 16 x 1). Its config has one
    entry per outer loop; the host searches its distribution as an mmt4d's (`host.target`)."""

    inner_tile: tuple[int, int, int] = (1, 1, 1)

    @property
    def is_mmt4d(self) -> bool:
        return True

    @property
    def flops(self) -> int:
        return 2 * math.prod(self.loop_sizes) * math.prod(self.inner_tile)


@dataclass(frozen=True)
class ConvolutionProblem(RootOpProblem):
    """A convolution: groups as `linalg.infer_convolution_dimensions` names them."""

    kind = "convolution"
    strides: tuple[int, ...] = ()
    dilations: tuple[int, ...] = ()


@dataclass(frozen=True)
class AttentionProblem(RootOpProblem):
    """`iree_linalg_ext.attention`: Q K^T, an online softmax and P V in one op.

    Tuned on targets whose space covers it (the host, and the DSA targets' flash-attention
    space); a target without an attention space leaves it at IREE's default and says so.
    """

    kind = "attention"
    # The additive (or boolean) mask, read through the fifth map; None: unmasked.
    mask: OperandInfo | None = field(default=None, kw_only=True)

    @property
    def flops(self) -> int:
        # S = Q @ K^T costs 2*b*m*k2*k1; O = P @ V costs 2*b*m*k2*n.
        s = {k: math.prod(v) for k, v in self.sizes().items()}
        return 2 * s.get("batch", 1) * s.get("m", 1) * s.get("k2", 1) * (s.get("k1", 1) + s.get("n", 1))


@dataclass(frozen=True)
class SoftmaxProblem(RootOpProblem):
    """`linalg.softmax` over one dimension of a static tensor (docs/SOFTMAX.md).

    Loops are the softmax operand's dimensions: the softmax `dimension` is the one
    reduction loop, the others are parallel (groups `parallel` and `reduction`). IREE
    decomposes the op before it configures it: a row max (one input), the sum of
    exp(x - max) (two inputs: x and the max; the root op, which carries the config) and
    the normalisation. The tile lists are written against that root's loops, which are
    the operand's. `indexing_maps` are the root generic's (x, the max, the sum);
    `inputs` holds x alone and `output` the softmax result.
    """

    kind = "softmax"
    dimension: int = 0

    @property
    def rhs_type(self) -> str:
        # One operand: its type stands for both (what a target computes in).
        return self.inputs[0].element_type

    @property
    def rows(self) -> int:
        """Rows the softmax normalises: the product of the parallel loops."""
        return math.prod(self.loop_sizes) // self.loop_sizes[self.dimension]

    @property
    def flops(self) -> int:
        # Per element: max, subtract, exp, add (the sum), subtract, exp and divide again.
        return 7 * math.prod(self.loop_sizes)


@dataclass(frozen=True)
class ElementwiseProblem(RootOpProblem):
    """An all-parallel `linalg.generic` that IREE configures as a dispatch's root when it has no
    contraction, convolution, attention or softmax: a copy, a gather (im2col's), an elementwise
    body, possibly with a pack or other consumers fused after it.

    Not searched (not in TUNABLE_KINDS): its config is repaired by a rule
    (`search.estimated.divisible_elementwise_configs`, docs/ELEMENTWISE.md) and the whole model
    confirms it. `dag_text` is the op alone as a function of its operands (printed with the
    bindings), what a spec's `cast_compatible_dag_from_root` matcher holds; it pins the body,
    maps and shapes.
    """

    kind = "elementwise"
    dag_text: str = ""
    # Per loop, the inner tile of a `linalg.unpack` fused before it that makes an input read through
    # the identity map (1: untiled; empty: none), the layout its data arrives in
    # (`search.estimated.unpacked_vector_configs`).
    unpacked_tiles: tuple[int, ...] = ()

    @property
    def captures_constants(self) -> bool:
        """Whether the body uses constants defined outside it (`dag_text` defines them first: a
        GELU's `math.fpowi` exponent). IREE 3.13's DAG matcher does not match such a body, so its
        spec matches the op by name and operand types instead."""
        head, _, _ = self.dag_text.partition("linalg.generic")
        return "arith.constant" in head

    @property
    def match_key(self) -> str:
        """What the spec's matcher tells this op apart by: its DAG, or its operand types."""
        if not self.captures_constants:
            return self.dag_text
        return ", ".join(o.type_str for o in (*self.inputs, self.output))

    @property
    def rhs_type(self) -> str:
        return self.inputs[-1].element_type if self.inputs else self.output.element_type

    @property
    def lhs_type(self) -> str:
        return self.inputs[0].element_type if self.inputs else self.output.element_type

    @property
    def flops(self) -> int:
        return math.prod(self.loop_sizes)


@dataclass(frozen=True)
class UntunableDispatch:
    """A dispatch with no root op the tuner handles, and why."""

    dispatch: str
    reason: str
    op_name: str = ""
    # A dispatch that only dequantises a sub-byte weight (IREE's split form): what it
    # produces, so discovery can attach it to the dispatch that reads its result.
    dequantises: WeightQuantisation | None = None
    kind = "none"

    def to_json(self) -> dict:
        return {
            "dispatch": self.dispatch,
            "kind": "none",
            "op": self.op_name,
            "reason": self.reason,
            "sizes": {},
            "lhs_type": None,
            "rhs_type": None,
            "out_type": None,
            "flops": 0,
            "bytes": 0,
            "intensity": 0.0,
        }


Problem = RootOpProblem | UntunableDispatch


@dataclass(frozen=True)
class DispatchTraffic:
    """What one call of a dispatch moves and computes, read from its bindings (every dispatch has one).

    `reads`/`writes` are (HAL binding, bytes) per tensor the dispatch loads or stores: the bytes
    it really moves, where the host's binding ranges may span a whole packed resource.
    `vector_ops` counts the element operations of its ops other than a contraction,
    convolution or attention root (elementwise bodies, reductions, softmax, copies): what a
    vector unit executes.
    """

    reads: tuple[tuple[int, int], ...] = ()
    writes: tuple[tuple[int, int], ...] = ()
    vector_ops: int = 0

    @property
    def read_bytes(self) -> int:
        return sum(n for _, n in self.reads)

    @property
    def written_bytes(self) -> int:
        return sum(n for _, n in self.writes)

    def read_bytes_of(self, bindings) -> int:
        """Bytes read from these bindings (e.g. the ones bound to the model's constants)."""
        wanted = set(bindings)
        return sum(n for b, n in self.reads if b in wanted)

    def to_json(self) -> dict:
        return {"read_bytes": self.read_bytes, "written_bytes": self.written_bytes, "vector_ops": self.vector_ops}

def with_types(problem: RootOpProblem, lhs: str, rhs: str, out: str) -> RootOpProblem:
    """The same root op computed in other element types (a quantisation scheme on a target).

    Operand 0 is the activation, operand 1 the weight; shapes, loops and maps stay.
    """
    if len(problem.inputs) == 1:  # one operand (softmax): the activation's type
        inputs = (OperandInfo(problem.inputs[0].shape, lhs),)
    else:
        inputs = (OperandInfo(problem.inputs[0].shape, lhs), OperandInfo(problem.inputs[1].shape, rhs),
                  *problem.inputs[2:])
    return replace(problem, inputs=inputs, output=OperandInfo(problem.output.shape, out))


# The root-op kinds the tuner has a space for (attention on targets that model it; softmax on
# the host, refused by name by targets without a softmax space).
TUNABLE_KINDS = ("contraction", "convolution", "attention", "softmax")


def is_tunable(problem) -> bool:
    """The one place that decides whether a dispatch gets a search."""
    return isinstance(problem, RootOpProblem) and problem.kind in TUNABLE_KINDS


def tunable(problems) -> list[RootOpProblem]:
    return [p for p in problems if is_tunable(p)]


__all__ = [
    "TUNABLE_KINDS",
    "AttentionProblem",
    "ContractionProblem",
    "InnerTiledProblem",
    "ConvolutionProblem",
    "DispatchTraffic",
    "ElementwiseProblem",
    "OperandInfo",
    "Problem",
    "RootOpProblem",
    "SoftmaxProblem",
    "UntunableDispatch",
    "WeightQuantisation",
    "element_bits",
    "is_tunable",
    "tunable",
    "with_types",
]
