#!/usr/bin/env python3
"""An L2 proposer for llvm-cpu DoubleTilingExpert: register-blocking rules + local moves.

Protocol (iree-dsa-tune tune --proposer CMD; see python/iree_dsa_tuner/search/proposer.py):
one JSON request on stdin {"problem", "target", "history", "budget", "amdahl_share"},
a JSON list of CompilationConfig objects on stdout. Standard library only, so any
python3 runs it.

Where the rules come from (docs IREE_NOTES "A hand grid", measured on this kind of CPU):
- matvecs (M = 1): the vector n tile dominates; 64-128 lanes wide beat IREE's 16 by 2-4x,
  and this tuner's own host runs went further (1x2048x2048: n 1024 x k 2 took 92 us,
  n 64 x k 8 266 us), so wide n with a short k comes first, down to 64;
- M > 1: register tiles holding ~16-32 accumulators (m x n / vector lanes), the m tile
  dividing M (m tiles that do not divide M ran 2-7x slower; m = 1 with M > 1 was slow);
- small reduction tiles (k = 1..16) for M > 1;
- vector m x n x k must stay under the target's max_vector_elements (llvm-cpu refuses);
- distribution tiles are multiples of the vector tiles.
Then moves around the best config measured so far (history): one knob doubled or halved.
For a DSA target only the local moves are proposed (they keep its `extra` knobs).
"""

from __future__ import annotations

import json
import sys

# Accumulator registers a register tile should fill (the grid's winners held 16-32).
ACCUMULATORS = (16, 32)
# Vector n tile for M = 1 in vector-register widths (64..1024 f32 lanes on AVX-512), widest first.
MATVEC_N_REGISTERS = (64, 32, 16, 8, 4)
REDUCTION_TILES = (1, 2, 4, 8, 16)
MATVEC_REDUCTION_TILES = (2, 4, 8, 1)  # short k: the wide n tile already fills the vector budget
# Distribution n tile in vector tiles: enough per-thread work without a huge tile.
DISTRIBUTION_N_STEPS = (4, 1, 8)
MAX_DISTRIBUTION_M = 64

# Dimension groups -> GEMM role (convolutions are implicit GEMMs, as in the tuner's space).
ROLES = {"batch": "batch", "m": "m", "n": "n", "k": "k", "output_image": "m", "output_channel": "n",
         "input_channel": "k", "filter_loop": "k", "depth": "batch"}


def loop_roles(problem: dict) -> list[str]:
    """Role per loop (batch / m / n / k), from dim_groups, else from loop_types + sizes."""
    n = len(problem["loop_sizes"])
    roles = ["batch"] * n
    groups = problem.get("dim_groups")
    if groups:
        for group, loops in groups.items():
            for i in loops:
                roles[i] = ROLES.get(group, "batch")
        return roles
    # Without indices: reductions are k; parallel loops follow the group order batch, m, n.
    sizes = problem.get("sizes", {})
    parallel_roles = (["batch"] * len(sizes.get("batch", [])) + ["m"] * len(sizes.get("m", []))
                      + ["n"] * len(sizes.get("n", [])))
    it = iter(parallel_roles)
    for i, kind in enumerate(problem["loop_types"]):
        roles[i] = "k" if kind == "reduction" else next(it, "n")
    return roles


def inner_loops(roles: list[str]) -> dict[str, int]:
    """The innermost loop of each role: the one a group tile lands on (outer ones get 1)."""
    return {role: i for i, role in enumerate(roles)}


def tile_lists(problem: dict, roles: list[str], dist_m: int, dist_n: int, vec_m: int, vec_n: int,
               vec_k: int) -> dict:
    inner = inner_loops(roles)
    distribution, parallel, reduction = [], [], []
    for i, role in enumerate(roles):
        if role == "k":
            distribution.append(0)
            parallel.append(0)
            reduction.append(vec_k if inner["k"] == i else 1)
        elif role == "batch" or inner[role] != i:
            distribution.append(1)
            parallel.append(1)
            reduction.append(0)
        else:
            dist, vec = (dist_m, vec_m) if role == "m" else (dist_n, vec_n)
            distribution.append(dist)
            parallel.append(min(vec, dist))
            reduction.append(0)
    return {"pipeline": "DoubleTilingExpert", "distribution": distribution,
            "vector_common_parallel": parallel, "vector_reduction": reduction}


def divisors(x: int) -> list[int]:
    return [d for d in range(1, x + 1) if x % d == 0]


def extent(problem: dict, roles: list[str], role: str) -> int:
    inner = inner_loops(roles)
    return problem["loop_sizes"][inner[role]] if role in inner else 1


def distribution_m(m_extent: int, vec_m: int) -> int:
    """The largest multiple of vec_m dividing M, at most MAX_DISTRIBUTION_M (M itself if small)."""
    if m_extent <= MAX_DISTRIBUTION_M:
        return m_extent
    options = [d for d in divisors(m_extent) if d % vec_m == 0 and d <= MAX_DISTRIBUTION_M]
    return max(options) if options else vec_m


def distribution_n(n_extent: int, vec_n: int, steps: int) -> int:
    return max(vec_n, min(n_extent, vec_n * steps))


def rule_proposals(problem: dict, target: dict, roles: list[str]) -> list[tuple[dict, str]]:
    """Register-blocking configs, most promising first."""
    # A CPU description names its lanes (`f32_lanes`); older requests carry them as the MAC array's n.
    lanes = int(target.get("f32_lanes") or target.get("mac_array", [1, 16, 1])[1]) or 16
    limit = int(target.get("max_vector_elements", 8192))
    m, n_ext = extent(problem, roles, "m"), extent(problem, roles, "n")
    out = []
    if m == 1:
        for vec_k in MATVEC_REDUCTION_TILES:
            vec_k = min(vec_k, extent(problem, roles, "k"))
            for width in MATVEC_N_REGISTERS:
                vec_n = min(lanes * width, n_ext)
                if vec_n * vec_k >= limit:
                    continue
                for steps in (1, 2):
                    out.append((tile_lists(problem, roles, 1, distribution_n(n_ext, vec_n, steps), 1, vec_n, vec_k),
                                f"matvec: vector n {vec_n} ({vec_n // lanes} registers wide), k {vec_k}"))
        return out
    blocks = []
    for vec_m in divisors(m):
        if vec_m == 1 or vec_m > 16:
            continue  # m = 1 with M > 1 ran slowly; more rows than 16 spill the register file
        for vec_n in (lanes * w for w in (1, 2, 4, 8, 16)):
            if vec_n > n_ext:
                continue
            accumulators = vec_m * vec_n // lanes
            if ACCUMULATORS[0] <= accumulators <= ACCUMULATORS[1]:
                blocks.append((vec_m, vec_n, accumulators))
    # Wider n first (the dominant knob), then fuller register files.
    blocks.sort(key=lambda b: (not 64 <= b[1] <= 128, -b[2], -b[1]))
    for vec_k in (8, 4, 16, 2, 1):
        for vec_m, vec_n, acc in blocks:
            vec_k_ok = min(vec_k, extent(problem, roles, "k"))
            if vec_m * vec_n * vec_k_ok >= limit:
                continue
            out.append((tile_lists(problem, roles, distribution_m(m, vec_m), distribution_n(n_ext, vec_n, 1),
                                   vec_m, vec_n, vec_k_ok),
                        f"register tile {vec_m}x{vec_n} ({acc} accumulators), k {vec_k_ok}"))
    return out


def local_moves(best: dict, problem: dict, roles: list[str], target: dict) -> list[tuple[dict, str]]:
    """One knob doubled or halved around the best measured config (DSA extras kept)."""
    inner = inner_loops(roles)
    limit = int(target.get("max_vector_elements", 8192))
    out = []

    def moved(level: str, role: str, factor: float, why: str, also_distribution: bool = False):
        if role not in inner:
            return
        i = inner[role]
        config = json.loads(json.dumps(best))
        value = config[level][i] * factor
        if value < 1 or value != int(value) or value > problem["loop_sizes"][i]:
            return
        config[level][i] = int(value)
        if level == "vector_common_parallel":
            config["distribution"][i] = max(config["distribution"][i], int(value))
            if also_distribution and "extra" in config and "iree_dsa.vector_width" in config["extra"]:
                config["extra"]["iree_dsa.vector_width"] = int(value)
        m_tile = config["vector_common_parallel"][inner["m"]] if "m" in inner else 1
        n_tile = config["vector_common_parallel"][inner["n"]] if "n" in inner else 1
        k_tile = config["vector_reduction"][inner["k"]] if "k" in inner else 1
        if m_tile * n_tile * k_tile >= limit:
            return
        out.append((config, why))

    for factor in (2, 0.5):
        moved("vector_common_parallel", "n", factor, f"best so far, vector n x{factor:g}", also_distribution=True)
        moved("vector_reduction", "k", factor, f"best so far, vector k x{factor:g}")
        moved("distribution", "n", factor, f"best so far, distribution n x{factor:g}")
    extra = best.get("extra") or {}
    for key in ("iree_dsa.tile_k",):
        for factor in (2, 0.5):
            if key in extra and int(extra[key] * factor) >= 1 and extra[key] * factor <= extent(problem, roles, "k"):
                config = json.loads(json.dumps(best))
                config["extra"][key] = int(extra[key] * factor)
                out.append((config, f"best so far, {key} x{factor:g}"))
    return out


def propose(request: dict) -> list[dict]:
    problem, target = request["problem"], request.get("target", {})
    budget = max(1, int(request.get("budget") or 1))
    roles = loop_roles(problem)
    history = request.get("history", [])
    measured = [h for h in history if h.get("time_us") is not None and h.get("config")]
    seen = {json.dumps(h["config"], sort_keys=True) for h in history if h.get("config")}
    best = min(measured, key=lambda h: h["time_us"])["config"] if measured else None

    rules = rule_proposals(problem, target, roles) if target.get("kind") != "dsa" else []
    moves = local_moves(best, problem, roles, target) if best else []
    # Alternate: the rules explore what the search may not reach, the moves refine what it found.
    ordered = []
    for pair in zip(rules, moves):
        ordered.extend(pair)
    longer = rules if len(rules) > len(moves) else moves
    ordered.extend(longer[min(len(rules), len(moves)):])

    out = []
    for config, why in ordered:
        key = json.dumps(config, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        out.append({**config, "rationale": why})
        if len(out) >= budget:
            break
    return out


def main() -> int:
    try:
        request = json.load(sys.stdin)
    except json.JSONDecodeError as e:
        print(f"register_blocking: the request is not JSON: {e}", file=sys.stderr)
        return 2
    json.dump(propose(request), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
