"""iree-dsa-sim: run a dispatch under a config on the DSA's functional model and event simulator."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from iree_dsa_tuner.costmodel import run_funnel
from iree_dsa_tuner.core.candidate import TilingCandidate
from iree_dsa_tuner.core.shape import UnsupportedProblem, attention_shape, gemm_shape, parse_shape
from iree_dsa_tuner.core.config import CompilationConfig, ConfigError
from iree_dsa_tuner.targets import TargetDescriptionError, UnknownTarget, get_target

from .functional import (
    FunctionalError,
    ScratchpadOverflow,
    compare,
    im2col,
    random_operands,
    reference,
    run_contraction,
    run_convolution,
)
from .eventsim import simulate
from .trace import write_chrome_trace


class SimInputError(Exception):
    """Bad input: printed as one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="iree-dsa-sim",
        description="Execute one dispatch under one configuration on the DSA models: the functional "
        "model (per-core tiles, DMA into capacity-checked scratchpads, MAC steps) checked against numpy, "
        "and the event-level simulator (compute, DMA, exposed stall, launch, utilisation, DRAM efficiency, "
        "roofline bound); --trace FILE writes its per-core timeline as a Chrome trace (Perfetto, chrome://tracing).",
        epilog="CONFIG.json is either a compilation config ({pipeline, distribution, "
        "vector_common_parallel, vector_reduction, extra: {iree_dsa.*}}) or a candidate "
        "({tile_m, tile_n, tile_k, vec_m, vec_n, vec_k, parallelism, dma_stages, fusion, quant_block}); "
        "--config funnel uses the funnel's best survivor.\n"
        "example: iree-dsa-sim --shape 1x256x256 --dtype i8 --target dsa-e1 --config funnel",
    )
    p.add_argument("mlir", nargs="?", metavar="DISPATCH_OR_MODEL.mlir")
    p.add_argument("--target", default="dsa-e1", metavar="NAME")
    p.add_argument("--target-path", action="append", default=[], metavar="DIR")
    p.add_argument("--config", required=True, metavar="CONFIG.json|funnel")
    p.add_argument("--dispatch", metavar="SYM", help="dispatch whose symbol contains SYM (default: the first tunable)")
    p.add_argument("--shape", metavar="MxNxK", help="a single GEMM instead of an MLIR file")
    p.add_argument("--dtype", default="i8", metavar="TYPE", help="for --shape: i8, bf16, f32, i8xi4 ...")
    p.add_argument("--fused", action="store_true", help="for --shape: an elementwise consumer follows")
    p.add_argument("--seed", type=int, default=0, help="seed of the random operands")
    p.add_argument("--no-functional", action="store_true", help="timing only (large shapes)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--trace", metavar="FILE", help="write the simulated per-core timeline as Chrome trace JSON "
                   "(one process per core; threads launch, dma, mac, drain)")
    return p


def _problem(args):
    if args.shape:
        try:
            return parse_shape(args.shape, args.dtype, args.fused)
        except ValueError as e:
            raise SimInputError(str(e)) from None
    if not args.mlir:
        raise SimInputError("give DISPATCH_OR_MODEL.mlir or --shape MxNxK")
    if not Path(args.mlir).is_file():
        raise SimInputError(f"{args.mlir}: no such file")
    from iree_dsa_tuner.core.problems import tunable
    from iree_dsa_tuner.ir import load_problems

    problems = tunable(load_problems(args.mlir))
    if args.dispatch:
        problems = [p for p in problems if args.dispatch in p.dispatch]
    if not problems:
        raise SimInputError(f"{args.mlir}: no tunable dispatch{' matches ' + repr(args.dispatch) if args.dispatch else ''}")
    return problems[0]


def _candidate(args, target, problem) -> TilingCandidate:
    if args.config == "funnel":
        result = run_funnel(target.space(problem), target.describe(), estimator=target.estimator)
        if not result.survivor_count:
            raise SimInputError("the funnel left no survivor for this problem")
        return result.survivors(1)[0].candidate
    try:
        obj = json.loads(Path(args.config).read_text())
    except OSError as e:
        raise SimInputError(f"{args.config}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise SimInputError(f"{args.config}: not JSON ({e})") from None
    if isinstance(obj, dict) and "distribution" in obj:
        return target.from_config(problem, CompilationConfig.from_json(obj))
    if not isinstance(obj, dict):
        raise SimInputError(f"{args.config}: expected a JSON object")
    return TilingCandidate.from_json(obj)


def _conv_operands(problem, seed: int):
    """Seeded input and filter in the problem's own shapes and types."""
    import numpy as np

    rng = np.random.default_rng(seed)

    def make(operand):
        if operand.element_type.startswith("i"):
            return rng.integers(-128, 128, operand.shape).astype(np.int8)
        return rng.standard_normal(operand.shape).astype(np.float32)

    return make(problem.inputs[0]), make(problem.inputs[1])


def _attention_functional(desc, problem, shape, candidate, seed: int, report: dict) -> str:
    """The DSA's tiled online-softmax attention vs a float64 softmax attention, on seeded
    standard-normal Q, K, V (scale 1/sqrt(head)); fills report["functional"], returns the line."""
    import numpy as np

    from .attention import reference_attention, run_attention

    rng = np.random.default_rng(seed)
    b, m, head, keys, n = shape.batch, shape.m, shape.head_dim, shape.k, shape.n
    q, k, v = (rng.standard_normal(dims).astype(np.float32) for dims in ((b, m, head), (b, keys, head), (b, keys, n)))
    scale = 1.0 / math.sqrt(head)
    result, stats = run_attention(desc, problem, candidate, q, k, v, scale)
    expected = reference_attention(q, k, v, scale)
    # Low-precision inputs round P to the compute type before P V: allow for it.
    tol = 1e-4 if shape.lhs_type == "f32" else 2e-2
    err = float(np.abs(result - expected).max()) / (float(np.abs(expected).max()) or 1.0)
    ok = err <= tol
    report["functional"] = {"match": ok, "detail": f"max |diff| / max |ref| = {err:.2e} (tolerance {tol:g})",
                            "tiles": stats.tiles, "dma_in_bytes": stats.dma_in_bytes,
                            "dma_out_bytes": stats.dma_out_bytes, "mac_steps": stats.mac_steps,
                            "scratchpad_bytes_per_core": max(stats.scratchpad_peak_bytes)}
    return (f"functional  {'PASS' if ok else 'FAIL'} vs numpy softmax attention: "
            f"{report['functional']['detail']}; {stats.tiles} tiles, {stats.mac_steps} KV steps, "
            f"scratchpad {max(stats.scratchpad_peak_bytes)} of {desc.scratchpad_bytes} B per core")


def run(args) -> int:
    target = get_target(args.target, args.target_path)
    problem = _problem(args)
    attention = getattr(problem, "kind", "") == "attention"
    shape = attention_shape(problem) if attention else gemm_shape(problem)
    desc = target.describe()
    candidate = _candidate(args, target, problem)
    report = {"target": desc.name, "problem": shape.label(), "candidate": candidate.to_json()}
    lines = [f"target      {desc.name} ({desc.source})", f"problem     {shape.label()}",
             f"candidate   {candidate.short()}"]
    if target.kind == "dsa":
        lines.append(f"config      {target.to_config(problem, candidate).compilation_info_text()}")
    if args.no_functional:
        lines.append("functional  skipped (--no-functional)")
    elif attention:
        lines.append(_attention_functional(desc, problem, shape, candidate, args.seed, report))
        if not report["functional"]["match"]:
            report["exit"] = 1
    elif shape.kind != "contraction" and not hasattr(problem, "strides"):
        lines.append("functional  skipped: a convolution given by --shape has no layout; pass the model")
    else:
        if shape.kind == "contraction":
            a, b, scales = random_operands(shape, args.seed, candidate.quant_block)
            result, stats = run_contraction(desc, shape, candidate, a, b, scales)
            expected = reference(shape, a, b, scales, candidate.quant_block)
        else:
            # A convolution runs as an implicit GEMM: check it against the GEMM of its patches.
            x, w = _conv_operands(problem, args.seed)
            result, stats = run_convolution(desc, problem, candidate, x, w)
            a, b = im2col(problem, x, w)
            expected = reference(shape, a, b).reshape(result.shape)
        ok, detail = compare(shape, result, expected)
        report["functional"] = {"match": ok, "detail": detail, "tiles": stats.tiles,
                                "dma_in_bytes": stats.dma_in_bytes, "dma_out_bytes": stats.dma_out_bytes,
                                "mac_steps": stats.mac_steps,
                                "scratchpad_bytes_per_core": max(stats.scratchpad_peak_bytes)}
        lines.append(f"functional  {'PASS' if ok else 'FAIL'} vs numpy: {detail}; {stats.tiles} tiles, "
                     f"{stats.mac_steps} MAC steps, DMA in {stats.dma_in_bytes} B / out {stats.dma_out_bytes} B, "
                     f"scratchpad {max(stats.scratchpad_peak_bytes)} of {desc.scratchpad_bytes} B per core")
        if not ok:
            report["exit"] = 1
    timing = simulate(desc, shape, candidate, record=bool(args.trace))
    report["timing"] = timing.to_json()
    lines += timing.lines()
    if args.trace:
        try:
            count = write_chrome_trace(args.trace, timing, desc.clock_hz, shape.label())
        except OSError as e:
            raise SimInputError(f"{args.trace}: cannot write: {e.strerror}") from None
        report["trace"] = args.trace
        lines.append(f"trace       {args.trace} ({count} events; open in https://ui.perfetto.dev)")
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print("\n".join(lines))
    return int(report.get("exit", 0))


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except ScratchpadOverflow as e:
        print(f"iree-dsa-sim: error: {e}", file=sys.stderr)
        return 2
    except (SimInputError, UnknownTarget, TargetDescriptionError, ConfigError, FunctionalError,
            UnsupportedProblem, ValueError) as e:
        print(f"iree-dsa-sim: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except Exception as e:  # IREE input errors from discovery carry their own message
        if type(e).__name__ in ("InputError", "CompileError", "CompileTimeout"):
            print(f"iree-dsa-sim: error: {e}", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    sys.exit(main())
