"""IREE's default vs a tuned spec on a softmax model, the whole function (docs/SOFTMAX.md).

IREE 3.13 decomposes `linalg.softmax` into a row max, a sum of exp (the root, which carries the
config) and the normalisation, and its default config vectorises 8 rows x 16 (AVX-512) of the
sum at once; one row at a time is many times faster. This script tunes the model on this host
(`iree_dsa_tuner.tune`, target host, budget 8; or takes `--spec`), compiles the model with and
without the spec, and times the whole entry function with iree-benchmark-module (one thread,
local-sync) in interleaved rounds: median of rounds, each round's time the median of 3
repetitions.

    python bench/host_softmax.py [--model lit_tests/inputs/masked_softmax.mlir] [--spec SPEC]
                                 [--rounds 7] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import common
from iree_dsa_tuner.compiler import compile_to_vmfb, find_tool, tuning_spec_flags

DEFAULT_MODEL = common.REPO / "lit_tests" / "inputs" / "masked_softmax.mlir"


def signature(model: Path) -> tuple[str, list[str]]:
    """The first public function and its argument types (`8x51x867xf32`), read with the bindings."""
    from iree.compiler import ir

    with ir.Context():
        module = ir.Module.parse(model.read_text())
        for op in module.body.operations:
            if op.operation.name == "func.func":
                name = ir.StringAttr(op.attributes["sym_name"]).value
                ftype = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
                args = []
                for t in ftype.inputs:
                    rt = ir.RankedTensorType(t)
                    args.append("x".join(str(d) for d in rt.shape) + f"x{rt.element_type}")
                return name, args
    raise SystemExit(f"{model}: no func.func")


def time_function(vmfb: Path, function: str, args: list[str]) -> float:
    """Milliseconds per call: median of 3 repetitions."""
    argv = [find_tool("iree-benchmark-module"), f"--module={vmfb}", "--device=local-sync", f"--function={function}",
            *[f"--input={a}=0.25" for a in args], "--benchmark_repetitions=3", "--benchmark_format=json"]
    proc = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=600)
    doc = json.loads(proc.stdout[proc.stdout.index("{"):])
    runs = [b for b in doc["benchmarks"] if b.get("run_type") == "iteration"]
    unit = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    return common.median(b["real_time"] * unit[b["time_unit"]] for b in runs)


def tuned_spec(model: Path, work: Path, budget: int) -> tuple[Path | None, str]:
    from iree_dsa_tuner import TuneOptions, tune

    report = tune(model, "host", TuneOptions(budget=budget, repetitions=3))
    configs = "; ".join(f"{d.dispatch}: {d.best_config.lowering_config_text()}" for d in report.dispatches
                        if d.chosen == "tuned" and d.best_config is not None)
    if not report.spec_text:
        return None, configs
    spec = work / "spec.mlir"
    spec.write_text(report.spec_text)
    return spec, configs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--spec", type=Path, help="a tuning spec to time (default: tune the model now, budget 8)")
    parser.add_argument("--budget", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args()
    machine = common.print_header("IREE default vs a tuned spec on a softmax model (whole function)")
    function, inputs = signature(args.model)
    with tempfile.TemporaryDirectory(prefix="host-softmax-") as tmp:
        work = Path(tmp)
        spec, configs = (args.spec, "given") if args.spec else tuned_spec(args.model, work, args.budget)
        if spec is None:
            print("the tuner wrote no spec (nothing beat IREE's default)")
            return 1
        print(f"spec: {spec if args.spec else 'tuned now'} ({configs})")
        default_vmfb, tuned_vmfb = work / "default.vmfb", work / "tuned.vmfb"
        compile_to_vmfb(args.model, default_vmfb)
        compile_to_vmfb(args.model, tuned_vmfb, extra_flags=tuple(tuning_spec_flags(spec)))
        times: dict[str, list[float]] = {"default": [], "tuned": []}
        for r in range(args.rounds):  # interleaved: both variants see the same machine state
            for name, vmfb in (("default", default_vmfb), ("tuned", tuned_vmfb)):
                times[name].append(time_function(vmfb, function, inputs))
            print(f"round {r + 1}/{args.rounds}: default {times['default'][-1]:.3f} ms, "
                  f"tuned {times['tuned'][-1]:.3f} ms", flush=True)
    default_ms, tuned_ms = common.median(times["default"]), common.median(times["tuned"])
    print(f"\n{args.model.name} @{function}: IREE default {default_ms:.3f} ms, tuned {tuned_ms:.3f} ms, "
          f"{default_ms / tuned_ms:.1f}x (median of {args.rounds} interleaved rounds, 1 thread)")
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine, "model": str(args.model), "function": function,
                                               "default_ms": times["default"], "tuned_ms": times["tuned"],
                                               "ratio": default_ms / tuned_ms, "configs": configs}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
