"""The GEMM view of a root op: what the space and the cost model reason about.

Contractions map directly (batch, M, N, K groups). Convolutions are treated
as implicit GEMM: M = batch x output image, N = output channels, K = input
channels x filter window. Attention (`attention_shape`) is two GEMMs sharing a
KV block: batch = batch x heads, M = queries, K = keys (k2, the KV loop),
N = value width, plus the head width (k1) Q K^T reduces over.
"""

from __future__ import annotations

from dataclasses import dataclass

from .problems import (
    AttentionProblem,
    ContractionProblem,
    InnerTiledProblem,
    ConvolutionProblem,
    RootOpProblem,
    UntunableDispatch,
    element_bits,
)


class UnsupportedProblem(ValueError):
    """A problem kind the space cannot (yet) describe; says which and why."""


# Which GEMM role each MLIR dimension group plays.
_CONTRACTION_ROLES = {"batch": "batch", "m": "m", "n": "n", "k": "k"}
_CONVOLUTION_ROLES = {
    "batch": "m",
    "output_image": "m",
    "output_channel": "n",
    "input_channel": "k",
    "filter_loop": "k",
    "depth": "batch",
}


@dataclass(frozen=True)
class GemmShape:
    """Sizes, element types and the loop-role map of one root op."""

    batch: int
    m: int
    n: int
    k: int
    lhs_type: str
    rhs_type: str
    out_type: str
    has_consumer: bool = False
    # Per loop of the root op (in IREE's loop order): role and whether the loop
    # is the innermost of its group (the one a group tile is applied to).
    loop_roles: tuple[str, ...] = ()
    loop_is_inner: tuple[bool, ...] = ()
    loop_sizes: tuple[int, ...] = ()
    kind: str = "contraction"
    # Role of the loop that indexes each operand's contiguous (last) dimension:
    # [K, N] weights stream along n, PyTorch's [N, K] along k.
    lhs_inner_role: str = "k"
    rhs_inner_role: str = "n"
    # A real model's sub-byte weight: K elements per scale, fixed by its quantiser
    # (0: not fixed; the synthetic `--dtype i8xi4` problem lets any quant block through).
    quant_group: int = 0
    # Bytes moved outside this dispatch on its behalf each run: a split dequantisation's
    # packed read and float write (docs/INT4.md); the same for every candidate.
    external_bytes: float = 0.0

    # Attention only: the head width (k1) that Q K^T reduces over; 0 for a GEMM.
    head_dim: int = 0

    def inner(self, role: str) -> int:
        """Size of the innermost loop of a role: the loop a group tile lands on.

        When a group has several loops (a conv's output image H, W) a tile up to
        this extent stays in one row; a conv's larger m tiles cover whole rows
        (`split_tile`).
        """
        for r, is_inner, size in zip(self.loop_roles, self.loop_is_inner, self.loop_sizes):
            if r == role and is_inner:
                return size
        return 1

    def outer(self, role: str) -> int:
        """Product of the outer loops of a role (each becomes its own tile row)."""
        total = {"batch": self.batch, "m": self.m, "n": self.n, "k": self.k}[role]
        return total // self.inner(role) if self.inner(role) else total

    def group_sizes(self, role: str) -> tuple[int, ...]:
        """Sizes of a role's loops, outer to inner (a conv's m: batch, OH, OW)."""
        return tuple(size for r, size in zip(self.loop_roles, self.loop_sizes) if r == role)

    def split_tile(self, role: str, tile):
        """Per-loop tiles (outer to inner) of one group tile: see `split_group_tile`."""
        return split_group_tile(self.group_sizes(role) or (1,), tile)

    def block(self, role: str, tile):
        """Elements of the group one tile covers (the tile, clamped to the group)."""
        out = 1
        for t in self.split_tile(role, tile):
            out = out * t
        return out

    def tile_count(self, role: str, tile):
        """Tiles the group's loops are cut into (edge tiles included)."""
        out = 1
        for size, t in zip(self.group_sizes(role) or (1,), self.split_tile(role, tile)):
            out = out * (-(-size // t))
        return out

    @property
    def lhs_bytes(self) -> float:
        return element_bits(self.lhs_type) / 8

    @property
    def rhs_bytes(self) -> float:
        return element_bits(self.rhs_type) / 8

    @property
    def out_bytes(self) -> float:
        return element_bits(self.out_type) / 8

    @property
    def macs(self) -> int:
        if self.kind == "attention":  # S = Q K^T (k1 deep) and O = P V (k2 deep), both per key
            return self.batch * self.m * self.k * (self.head_dim + self.n)
        return self.batch * self.m * self.n * self.k

    @property
    def ops(self) -> int:
        return 2 * self.macs

    def operand_bytes(self) -> dict[str, float]:
        """Compulsory traffic per operand: each read once, the result written once."""
        if self.kind == "attention":  # lhs = Q, rhs = K and V, out = O
            return {
                "lhs": self.batch * self.m * self.head_dim * self.lhs_bytes,
                "rhs": self.batch * self.k * (self.head_dim + self.n) * self.rhs_bytes,
                "out": self.batch * self.m * self.n * self.out_bytes,
            }
        return {
            "lhs": self.batch * self.m * self.k * self.lhs_bytes,
            "rhs": self.batch * self.k * self.n * self.rhs_bytes,
            "out": self.batch * self.m * self.n * self.out_bytes,
        }

    @property
    def compulsory_bytes(self) -> float:
        return sum(self.operand_bytes().values())

    @property
    def quantised(self) -> bool:
        return element_bits(self.rhs_type) == 4

    def label(self) -> str:
        b = f"{self.batch}x" if self.batch > 1 else ""
        return f"{b}{self.m}x{self.n}x{self.k} {self.lhs_type}x{self.rhs_type}->{self.out_type}"


def split_group_tile(sizes: tuple[int, ...], tile):
    """A group tile as per-loop tiles, outer to inner (ints or numpy arrays alike).

    A tile up to the innermost extent lands on the innermost loop (outer loops 1);
    a larger one takes the innermost loop whole and carries tile // extent to the next
    loop out, and so on: for a conv's output image (OH, OW) a tile of OW * r is r
    whole rows. The ladders offer only such tiles (`space.group_ladder`); any other
    value is rounded down to whole inner blocks, and the outermost loop is clamped.
    """
    out = []
    rest = tile
    for size in reversed(sizes):
        big = (rest > size) * 1  # 1 where the tile spans this loop whole
        out.append(rest - big * (rest - size))
        rest = big * (rest // size) + (1 - big)
    return tuple(reversed(out))


def simple_gemm(m: int, n: int, k: int, lhs_type: str = "i8", rhs_type: str | None = None,
                out_type: str | None = None, has_consumer: bool = False, batch: int = 1) -> GemmShape:
    """A plain C[M,N] = A[M,K] @ B[K,N] (loops m, n, k; batch loop first if > 1)."""
    rhs_type = rhs_type or lhs_type
    if out_type is None:
        # Integer products accumulate in i32; INT4 block-scaled weights give f32.
        integer = lhs_type.startswith("i") and element_bits(rhs_type) != 4
        out_type = "i32" if integer else "f32"
    roles = (("batch",) if batch > 1 else ()) + ("m", "n", "k")
    sizes = ((batch,) if batch > 1 else ()) + (m, n, k)
    return GemmShape(batch, m, n, k, lhs_type, rhs_type, out_type, has_consumer,
                     roles, (True,) * len(roles), sizes)


def _inner_role(problem, operand: int, roles: list[str]) -> str:
    """Role of the loop indexing operand `operand`'s last dimension ("" if not a bare loop)."""
    import re

    if operand >= len(problem.indexing_maps):
        return ""
    results = problem.indexing_maps[operand].split("->")[-1]
    last = results.strip().rstrip(">").strip().strip("()").split(",")[-1].strip()
    m = re.fullmatch(r"d(\d+)", last)
    return roles[int(m.group(1))] if m and int(m.group(1)) < len(roles) else ""


def gemm_shape(problem) -> GemmShape:
    """The GEMM view of a problem; attention and untunable dispatches are refused."""
    if isinstance(problem, GemmShape):
        return problem
    if isinstance(problem, UntunableDispatch):
        raise UnsupportedProblem(f"dispatch {problem.dispatch} has no tunable root op: {problem.reason}")
    if isinstance(problem, AttentionProblem):
        raise UnsupportedProblem(
            f"dispatch {problem.dispatch}: attention ({problem.op_name}) is not a GEMM; this target has no "
            "attention space (query tile, KV block) yet, so it keeps IREE's default config"
        )
    if isinstance(problem, InnerTiledProblem):
        raise UnsupportedProblem(
            f"dispatch {problem.dispatch}: a data-tiled {problem.op_name} GEMM (its inner tile in its operand "
            "types) is searched by the host target only, as an mmt4d")
    if isinstance(problem, ContractionProblem):
        roles_map, kind = _CONTRACTION_ROLES, "contraction"
    elif isinstance(problem, ConvolutionProblem):
        roles_map, kind = _CONVOLUTION_ROLES, "convolution"
    elif isinstance(problem, RootOpProblem):
        raise UnsupportedProblem(f"dispatch {problem.dispatch}: root op kind {problem.kind!r} has no space")
    else:
        raise UnsupportedProblem(f"not a problem: {type(problem).__name__}")

    roles = ["batch"] * problem.num_loops
    inner = [False] * problem.num_loops
    group_size = {"batch": 1, "m": 1, "n": 1, "k": 1}
    last_of_role: dict[str, int] = {}
    for group, loops in problem.dim_groups.items():
        if group not in roles_map:
            raise UnsupportedProblem(f"dispatch {problem.dispatch}: unknown dimension group {group!r}")
        role = roles_map[group]
        for i in loops:
            roles[i] = role
            group_size[role] *= problem.loop_sizes[i]
            # IREE's loop order is outer to inner, so the highest index is innermost.
            last_of_role[role] = max(last_of_role.get(role, -1), i)
    for role, i in last_of_role.items():
        inner[i] = True
    lhs_type, rhs_type, quant_group, external_bytes = problem.lhs_type, problem.rhs_type, 0, 0.0
    q = getattr(problem, "weight_quant", None)
    if q is not None and q.form == "fused" and q.operand == 1:
        # The dispatch streams the packed weight and dequantises it in registers.
        rhs_type, quant_group = q.element_type, q.group_size
    elif q is not None and q.form == "fused" and q.operand == 0:
        # A matvec's weight is its first operand (y = W x): it streams packed all the same. Its
        # scales, one per group of a row, are a few percent of it and left out.
        lhs_type = q.element_type
    elif q is not None and q.form == "split":
        external_bytes = float(q.dequantise_bytes)
    return GemmShape(
        batch=group_size["batch"],
        m=group_size["m"],
        n=group_size["n"],
        k=group_size["k"],
        lhs_type=lhs_type,
        rhs_type=rhs_type,
        out_type=problem.out_type,
        has_consumer=bool(problem.fused_ops),
        loop_roles=tuple(roles),
        loop_is_inner=tuple(inner),
        loop_sizes=tuple(problem.loop_sizes),
        kind=kind,
        lhs_inner_role=_inner_role(problem, 0, roles),
        rhs_inner_role=_inner_role(problem, 1, roles),
        quant_group=quant_group,
        external_bytes=external_bytes,
    )



# Roles of attention's loop groups: the KV loop (k2) is the reduction the search blocks.
_ATTENTION_ROLES = {"batch": "batch", "m": "m", "k1": "k1", "k2": "k", "n": "n"}


def attention_shape(problem) -> GemmShape:
    """The tiling view of an attention problem (`kind = "attention"`, `head_dim` = k1)."""
    if isinstance(problem, GemmShape) and problem.kind == "attention":
        return problem
    if not isinstance(problem, AttentionProblem):
        raise UnsupportedProblem(f"dispatch {getattr(problem, 'dispatch', problem)}: not an attention op")
    roles = ["batch"] * problem.num_loops
    inner = [False] * problem.num_loops
    size = {"batch": 1, "m": 1, "k1": 1, "k": 1, "n": 1}
    last: dict[str, int] = {}
    for group, loops in problem.dim_groups.items():
        role = _ATTENTION_ROLES.get(group)
        if role is None:
            raise UnsupportedProblem(f"dispatch {problem.dispatch}: unknown attention dimension group {group!r}")
        for i in loops:
            roles[i] = role
            size[role] *= problem.loop_sizes[i]
            last[role] = max(last.get(role, -1), i)
    for i in last.values():
        inner[i] = True
    return GemmShape(
        batch=size["batch"], m=size["m"], n=size["n"], k=size["k"],
        lhs_type=problem.lhs_type, rhs_type=problem.rhs_type, out_type=problem.out_type,
        has_consumer=bool(problem.fused_ops), loop_roles=tuple(roles), loop_is_inner=tuple(inner),
        loop_sizes=tuple(problem.loop_sizes), kind="attention",
        # K is [keys, head] (head contiguous), V is [keys, value] (value contiguous).
        lhs_inner_role="k1", rhs_inner_role="k1", head_dim=size["k1"],
    )


def parse_shape(text: str, dtype: str = "i8", has_consumer: bool = False) -> GemmShape:
    """`MxNxK` or `BxMxNxK` plus `i8`, `bf16` or `LHSxRHS` like `i8xi4` -> a GemmShape."""
    try:
        dims = [int(v) for v in text.lower().split("x")]
    except ValueError:
        raise ValueError(f"--shape {text!r}: expected MxNxK or BxMxNxK with integer sizes") from None
    if len(dims) not in (3, 4) or any(d < 1 for d in dims):
        raise ValueError(f"--shape {text!r}: expected MxNxK or BxMxNxK with positive sizes")
    types = dtype.split("x")
    if len(types) > 2:
        raise ValueError(f"--dtype {dtype!r}: expected TYPE or LHSxRHS (e.g. i8, bf16, i8xi4)")
    for t in types:
        try:
            element_bits(t)
        except ValueError:
            raise ValueError(f"--dtype {dtype!r}: unknown element type {t!r}") from None
    batch = dims[0] if len(dims) == 4 else 1
    m, n, k = dims[-3:]
    return simple_gemm(m, n, k, types[0], types[-1], has_consumer=has_consumer, batch=batch)
