"""The long-K route: a GEMM whose reduction is too long for the L2 split into chunks that
accumulate in order, so IREE's data-tiled kernel works on panels that stay in the cache.

Why (docs/DATA_TILING.md 9): under data tiling IREE 3.13 runs a GEMM as the mmt4d ukernel over
the whole K of each (row tile, column tile) pair; the pipeline (`Mmt4dTilingExpert`) has no
cache-level tile, and no lowering config a spec sets makes it block K. A pair of panels then
takes (M0 + N0) x K x element bytes: 2 MiB for pi0's FFN down projection (K = 16384, 16 x 16
f32 tiles on AVX-512), the whole L2, so every panel is streamed from the L3 again for each tile it
meets. Cut into 2048-wide chunks (eight matmuls, each accumulating into the last one's result),
the same GEMM ran 1494 -> 660 ms on one thread (`bench/gemm_ceiling.py --k-split`), and the whole
prefix layer 2824 -> 2107 ms (`bench/lerobot_vs_pytorch.py --baseline-recipes`; 2026-12-01).

The split is a preprocessing transform script (`--iree-preprocessing-transform-spec-filename`):
each `linalg.matmul` / `linalg.batch_matmul` with one of the long reductions this model has is
tiled along K and the loop unrolled, so every chunk is a dispatch of its own with static shapes.
It changes the whole build, so it is a route: its flags compete as presets in the host recipe
(`model_tuning`), and a spec tuned under it is valid only with them.

Which reductions: those whose panel pair exceeds half the L2 (`cpu.l2_bytes`, read off the
machine). The chunk is the widest divisor of K, a multiple of the vector lanes, whose pair takes
at most an eighth of the L2 (2048 on that machine; 1024 ran as fast, 4096 and 512 slower,
`gemm_ceiling.py --k-chunks`; K = 2048 GEMMs cut further only got slower). M0 and N0 are
taken as the f32 lanes of a vector register (16 with AVX-512, 8 with AVX2), IREE's f32 tiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.problems import ContractionProblem, element_bits
from ..flags import TRANSFORM_FLAG
from .conv_route import ConvRoute, foreach_match_main, script_file, verified_script

WHAT = "long-K split route (docs/DATA_TILING.md 9)"

# Named ops the script matches -> the loop index of their reduction.
_K_LOOP = {"linalg.matmul": 2, "linalg.batch_matmul": 3}

# Of the L2: a pair of panels above this share is split, into chunks whose pair fits this one.
SPLIT_ABOVE = 1 / 2
CHUNK_PAIR_SHARE = 1 / 8


@dataclass(frozen=True)
class KSplit:
    """Contractions with this reduction length are cut into `chunk`-wide pieces."""

    k: int
    chunk: int

    @property
    def pieces(self) -> int:
        return self.k // self.chunk


def panel_pair_bytes(k: int, lanes: int, element_bytes: int) -> int:
    """One row panel and one column panel of a data-tiled GEMM (M0 = N0 = lanes)."""
    return 2 * lanes * k * element_bytes


def split_for(k: int, element_bytes: int, cpu) -> KSplit | None:
    """How a reduction of length `k` over `element_bytes`-wide operands is cut on a CPU described by
    `cpu` (`CpuModel`: its L2 and vector width); None: it is kept whole."""
    lanes = cpu.vector_register_bytes // 4
    if panel_pair_bytes(k, lanes, element_bytes) <= SPLIT_ABOVE * cpu.l2_bytes:
        return None
    fits = [d for d in range(lanes, k // 2 + 1, lanes)
            if k % d == 0 and panel_pair_bytes(d, lanes, element_bytes) <= CHUNK_PAIR_SHARE * cpu.l2_bytes]
    return KSplit(k, max(fits)) if fits else None


def plan_splits(problems, cpu) -> list[KSplit]:
    """The reductions of `problems` worth splitting on a CPU described by `cpu`, one per length."""
    splits: dict[int, KSplit] = {}
    for p in problems:
        # Only the named ops the script matches: a generic contraction would leave the route's
        # build the same as its base preset's, and one of two equal builds winning is chance.
        if not isinstance(p, ContractionProblem) or p.op_name not in _K_LOOP or len(p.dim_groups.get("k", ())) != 1:
            continue
        element_bytes = max(1, max(element_bits(p.lhs_type), element_bits(p.rhs_type)) // 8)
        split = split_for(p.K, element_bytes, cpu) if p.K not in splits else None
        if split is not None:
            splits[p.K] = split
    return [splits[k] for k in sorted(splits)]


def k_split_flags(splits: list[KSplit], directory: Path) -> tuple[str, ...]:
    """The iree-compile flag that applies these splits (the verified script, content-addressed)."""
    text = verified_script(k_split_script_text(splits), "long-K split")
    return (f"{TRANSFORM_FLAG}={script_file(text, directory, 'k-split-')}",)


def k_split_script_text(splits: list[KSplit]) -> str:
    """The preprocessing transform script that cuts these reductions into chunks."""
    lines = ["// Long-K GEMMs -> chunks that accumulate in order (iree-dsa-tune, docs/DATA_TILING.md 9).",
             "// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE ...",
             "module attributes {transform.with_named_sequence} {"]
    pairs = []
    for op, k_loop in _K_LOOP.items():
        short = op.split(".")[1]
        for s in splits:
            name = f"{short}_k{s.k}"
            pairs.append(name)
            tiles = ", ".join(str(s.chunk) if i == k_loop else "0" for i in range(k_loop + 1))
            lines += [
                f"  transform.named_sequence @match_{name}(%op: !transform.any_op {{transform.readonly}}) -> !transform.any_op {{",
                f"    transform.match.operation_name %op [\"{op}\"] : !transform.any_op",
                "    %m = transform.match.structured %op : (!transform.any_op) -> !transform.any_op {",
                "    ^bb0(%s: !transform.any_op):",
                f"      %k = transform.match.structured.dim %s[{k_loop}] : (!transform.any_op) -> !transform.param<i64>",
                f"      %long = transform.param.constant {s.k} : i64 -> !transform.param<i64>",
                "      transform.match.param.cmpi eq %k, %long : !transform.param<i64>",
                "      transform.match.structured.yield %s : !transform.any_op",
                "    }",
                "    transform.yield %m : !transform.any_op",
                "  }",
                f"  transform.named_sequence @split_{name}(%op: !transform.any_op {{transform.consumed}}) {{",
                f"    %chunk, %loop = transform.structured.tile_using_for %op tile_sizes [{tiles}]"
                " : (!transform.any_op) -> (!transform.any_op, !transform.op<\"scf.for\">)",
                # Unrolled: static slices, so each chunk is a dispatch IREE dumps a benchmark for,
                # and a constant weight's slices are packed once at initialisation.
                f"    transform.loop.unroll %loop factor = {s.pieces} : !transform.op<\"scf.for\">",
                "    transform.yield",
                "  }",
            ]
    return "\n".join(lines + foreach_match_main(pairs, "split")) + "\n"


def plan_k_split_route(problems, cpu, directory: Path, taken_flags: tuple[str, ...] = ()) -> ConvRoute:
    """The route for this model's long reductions (empty: none, or none can be split).

    `taken_flags`: flags already in the build (the user's, or another route's); one naming a
    preprocessing transform script blocks this route, since iree-compile takes one script."""
    contractions = [p for p in problems if isinstance(p, ContractionProblem)]
    splits = plan_splits(contractions, cpu) if cpu is not None else []
    route = ConvRoute(what=WHAT, key="k_split_route")
    if not splits:
        return route
    route.dispatches = tuple(p.dispatch for p in contractions if p.K in {s.k for s in splits})
    if any(f.startswith(TRANSFORM_FLAG) for f in taken_flags):
        route.notes.append(f"not taken: it needs {TRANSFORM_FLAG}, which another route or the given flags already set")
        return route
    route.flags = k_split_flags(splits, directory)
    route.notes.append("K " + ", ".join(f"{s.k} in {s.pieces} chunks of {s.chunk}" for s in splits))
    return route


__all__ = ["KSplit", "WHAT", "k_split_flags", "k_split_script_text", "panel_pair_bytes", "plan_k_split_route",
           "plan_splits", "split_for"]
