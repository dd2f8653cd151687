"""What IREE's other CPU knobs buy on batch-1 GEMMs, next to a tuned spec (issue 4 moonshot).

Deployed robot policies have constant weights, so each model here keeps B in a
`util.global` (IREE packs it once, at initialisation, when data tiling is on).
Per shape and variant the script dumps the dispatch benchmarks IREE makes and
times every per-call dispatch with iree-benchmark-module (one thread,
local-sync), in interleaved rounds, median of rounds; dispatches that encode
the constant weights run once at load time and are left out of the per-call
sum. Variants:
  default       IREE 3.13's llvm-cpu choice (DoubleTilingExpert)
  data-tiling   --iree-opt-data-tiling: pack + linalg.mmt4d (Mmt4dTilingExpert)
  dt+ukernels   the same with --iree-llvmcpu-enable-ukernels=all
  tuned         `iree_dsa_tuner.tune`'s verified spec (pruned, budget 16) on the default path

    python bench/iree_knobs.py [--quick] [--rounds 5] [--json OUT]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import common
from iree_dsa_tuner.compiler import compile_to_vmfb, find_tool, tuning_spec_flags

# (M, N, K, element type); int8 accumulates in i32.
SHAPES = [(1, 1024, 4096, "f32"), (1, 4096, 1024, "f32"), (1, 2048, 2048, "f32"), (1, 2048, 16384, "f32"),
          (1, 2048, 2048, "i8"), (50, 1024, 1024, "i8")]
QUICK = [(1, 512, 512, "f32")]
REPEAT = 50  # dispatches per benchmark call

VARIANTS = {
    "default": (),
    "data-tiling": ("--iree-opt-data-tiling",),
    "dt+ukernels": ("--iree-opt-data-tiling", "--iree-llvmcpu-enable-ukernels=all"),
}


def dispatch_benchmarks(model: Path, flags: tuple[str, ...], out: Path, weights: str) -> list[tuple[str, Path, str]]:
    """(name, vmfb, function) of each per-call dispatch benchmark of `model` compiled with `flags`."""
    dump = out / "dump"
    compile_to_vmfb(model, out / "model.vmfb", extra_flags=(*flags, f"--iree-hal-dump-executable-benchmarks-to={dump}"))
    found = []
    for source in sorted(dump.glob("*.mlir")):
        text = source.read_text()
        function = re.search(r"util\.func public @([\w$]+)", text).group(1)
        if f"encode_{weights}" in function:
            continue  # packs the constant weights: runs once at initialisation
        vmfb = source.with_suffix(".vmfb")
        compile_to_vmfb(source, vmfb, extra_flags=(f"--iree-hal-benchmark-dispatch-repeat-count={REPEAT}",))
        found.append((function.split("_embedded_elf")[0] if "_embedded_elf" in function else function, vmfb, function))
    return found


def time_call(vmfb: Path, function: str) -> float:
    """Microseconds per dispatch (median of 3 repetitions of one batch of REPEAT)."""
    argv = [find_tool("iree-benchmark-module"), f"--module={vmfb}", "--device=local-sync", f"--function={function}",
            "--batch_size=1", "--benchmark_repetitions=3", "--benchmark_format=json"]
    import json

    proc = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=300)
    doc = json.loads(proc.stdout[proc.stdout.index("{"):])
    runs = [b for b in doc["benchmarks"] if b.get("run_type") == "iteration"]
    unit = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
    return common.median(b["real_time"] * unit[b["time_unit"]] for b in runs) / REPEAT


def tuned_spec(model: Path, work: Path, budget: int = 16) -> Path | None:
    """The verified spec `iree_dsa_tuner.tune` finds on the host (pruned); None if none won."""
    from iree_dsa_tuner import TuneOptions, tune

    report = tune(model, "host", TuneOptions(budget=budget, repetitions=3))
    spec = work / "spec.mlir"
    spec.write_text(report.spec_text)
    return spec if report.spec_text else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one small shape, two rounds, tuning budget 4")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args()
    shapes, rounds = (QUICK, 2) if args.quick else (SHAPES, args.rounds)
    machine = common.print_header("IREE CPU knobs vs a tuned spec, batch-1 GEMMs with constant weights")
    rows, document = [], {"machine": machine, "shapes": []}
    with tempfile.TemporaryDirectory(prefix="iree-knobs-") as tmp:
        for m, n, k, t in shapes:
            label = f"{m}x{n}x{k} {t}"
            work = Path(tmp) / f"{m}x{n}x{k}_{t}"
            work.mkdir()
            model = work / "model.mlir"
            model.write_text(common.constant_weight_matmul(m, n, k, t))
            common.progress(f"{label}: tuning, then compiling the variants")
            spec = tuned_spec(model, work, budget=4 if args.quick else 16)
            variants = dict(VARIANTS)
            if spec is not None:
                variants["tuned"] = tuning_spec_flags(spec)
            benches = {}
            for name, flags in variants.items():
                out = work / name
                out.mkdir()
                benches[name] = dispatch_benchmarks(model, flags, out, f"{k}x{n}x{t}")
            samples = {name: [] for name in variants}
            for _ in range(rounds):  # interleaved: every variant once per round
                for name, dispatches in benches.items():
                    samples[name].append(sum(time_call(vmfb, fn) for _, vmfb, fn in dispatches))
            times = {name: common.median(v) for name, v in samples.items()}
            base = times["default"]
            row = [label] + [common.fmt(times.get(v), ".1f") for v in ("default", "data-tiling", "dt+ukernels", "tuned")]
            row += [common.fmt(base / times[v] if v in times else None, ".2f", "x") for v in ("data-tiling", "dt+ukernels", "tuned")]
            rows.append(row)
            document["shapes"].append({"shape": [m, n, k], "type": t, "us_per_call": times, "samples": samples,
                                       "dispatches": {v: [d[0] for d in b] for v, b in benches.items()}})
    common.print_table(["shape", "default us", "data-tiling us", "dt+ukernels us", "tuned us",
                        "dt / default", "dt+uk / default", "tuned / default"], rows,
                       title="per-call dispatch time (speedups are default / variant)")
    common.write_json(args.json, document)
    return 0


if __name__ == "__main__":
    sys.exit(main())
