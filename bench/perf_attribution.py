"""Where a whole lerobot export spends its time, per dispatch, sampled with Linux `perf` in the model.

    python bench/perf_attribution.py DIR NAME [--no-recipe] [--repetitions 3] [--frequency 999] [--top 15]
                                     [--target-cpu host] [--json OUT]

`iree-dsa-tune profile` times each dispatch alone from the build's dispatch benchmarks. Their
buffers are never written, so a dispatch that reads a large operand many times looks faster
alone than in the model (pi0's prefix FFN GEMMs: 0.36 s alone, about 1.1 s in the model;
docs/DATA_TILING.md 7). This bench samples the model itself instead:

1. Build NAME.mlir (from DIR, as tools/export_lerobot.py wrote it) with the recipe beside it (or
   IREE's defaults with --no-recipe), plus `--iree-llvmcpu-link-embedded=false` (dispatches in a
   system library, which perf sees) and `--iree-hal-dump-executable-binaries-to` (its symbols).
2. `perf record -F F` one `iree-benchmark-module` run: load (parameters read, initializers), then
   --repetitions calls of the function on the saved inputs with the real .irpa, one thread.
3. Attribute each sample to the dispatch function whose code holds it (`nm` of the dumped library;
   IREE loads it from memory, so perf itself has no symbols), or to the runtime / kernel.

A dispatch's ms per call = its samples / F / repetitions. Dispatches of initializers run once, at
load: their samples are shown and left out of the per-call sum. The per-call sum beside the
measured median call says how much time is outside dispatch code (runtime, page faults).
Needs `perf` (linux-perf) allowed to sample this process; estimates carry sampling noise
(about 1/sqrt(samples)).
"""

from __future__ import annotations

import argparse
import bisect
import collections
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lerobot_vs_pytorch import TIMEOUT_S, compile_model, find_recipe, run_flags, target_flags  # noqa: E402

from iree_dsa_tuner.compiler import find_tool  # noqa: E402
from iree_dsa_tuner.recipe import load_recipe  # noqa: E402

# perf's name for a library IREE loaded from memory (iree_dylib_XXXXXX_mem_.so).
_MEMORY_LIBRARY = re.compile(r"iree_dylib_\w+_mem_\.so")
_REPORT_LINE = re.compile(r"^\s*([0-9.]+)%\s+(\d+)\s+(\S+)\s+\[(.)\]\s+(\S+)")


def dispatch_symbols(binaries: Path) -> list[tuple[int, str]]:
    """(offset, function) of every dispatch function in the dumped system library, sorted."""
    libraries = sorted(binaries.glob("*.so"))
    if len(libraries) != 1:
        raise RuntimeError(f"expected one linked library in {binaries}, found {len(libraries)}: "
                           "samples could not be told apart")
    out = subprocess.run(["nm", "-n", "--defined-only", str(libraries[0])], capture_output=True, text=True,
                         check=True).stdout
    symbols = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tT":
            symbols.append((int(parts[0], 16), parts[2]))
    return symbols


def attribute(report: str, symbols: list[tuple[int, str]]) -> collections.Counter:
    """Samples per dispatch function (or `[kernel]`, or the runtime's DSO) from `perf report -n`."""
    offsets = [o for o, _ in symbols]
    counts: collections.Counter = collections.Counter()
    for line in report.splitlines():
        m = _REPORT_LINE.match(line)
        if not m:
            continue
        samples, dso, symbol = int(m.group(2)), m.group(3), m.group(5)
        if _MEMORY_LIBRARY.fullmatch(dso) and symbol.startswith("0x"):
            i = bisect.bisect_right(offsets, int(symbol, 16)) - 1
            counts[symbols[i][1] if i >= 0 else "<dispatch code>"] += samples
        elif dso == "[kernel.kallsyms]":
            counts["[kernel]"] += samples
        else:
            counts[f"[{dso}]"] += samples
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("directory", type=Path, help="what tools/export_lerobot.py wrote (--out)")
    ap.add_argument("name", help="the export's name (NAME.mlir, NAME.json, NAME.irpa)")
    ap.add_argument("--no-recipe", action="store_true", help="IREE's defaults, not the recipe beside the model")
    ap.add_argument("--repetitions", type=int, default=3, help="calls sampled (one per repetition)")
    ap.add_argument("--frequency", type=int, default=999, help="perf samples per second")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--target-cpu", default="host")
    ap.add_argument("--json", type=Path, help="write every row here")
    args = ap.parse_args()
    if shutil.which("perf") is None:
        print("perf_attribution: needs Linux perf (apt install linux-perf)", file=sys.stderr)
        return 2
    record = json.loads((args.directory / f"{args.name}.json").read_text())
    mlir = args.directory / record["mlir"]
    extra: tuple[str, ...] = ()
    build = "IREE defaults"
    if not args.no_recipe:
        recipe_file = find_recipe(args.directory, args.name)
        if recipe_file is None:
            print(f"perf_attribution: no recipe beside {mlir} (--no-recipe for IREE's defaults)", file=sys.stderr)
            return 2
        recipe = load_recipe(recipe_file)
        recipe.check_model(mlir)
        extra, build = recipe.compile_flags(), f"recipe {recipe_file}"
    with tempfile.TemporaryDirectory(prefix="perf-attribution-") as tmp:
        work = Path(tmp)
        vmfb, binaries = work / "model.vmfb", work / "binaries"
        print(f"[{args.name}] compiling ({build}) ...", file=sys.stderr, flush=True)
        compile_model(mlir, vmfb, target_flags(args.target_cpu) + extra + (
            "--iree-llvmcpu-link-embedded=false", f"--iree-hal-dump-executable-binaries-to={binaries}"))
        data = work / "perf.data"
        argv = ["perf", "record", "-q", "-F", str(args.frequency), "-o", str(data), "--",
                find_tool("iree-benchmark-module"), f"--module={vmfb}", *run_flags(args.directory, record),
                "--benchmark_min_time=1x", f"--benchmark_repetitions={args.repetitions}",
                "--benchmark_format=json"]
        print(f"[{args.name}] sampling {args.repetitions} calls ...", file=sys.stderr, flush=True)
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
        if proc.returncode != 0:
            print(f"perf_attribution: {proc.stderr.strip()[-600:]}", file=sys.stderr)
            return 1
        doc = json.loads(proc.stdout[proc.stdout.find("{"):])
        unit = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
        calls_ms = [float(b["real_time"]) * unit[b.get("time_unit", "ns")] for b in doc.get("benchmarks", [])
                    if b.get("run_type", "iteration") == "iteration"]
        report = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--sort", "dso,sym",
                                 "-g", "none", "-n", "--stdio"], capture_output=True, text=True, check=True).stdout
        counts = attribute(report, dispatch_symbols(binaries))
    per_call = {k: v for k, v in counts.items() if not k.startswith(("_initializer_", "["))}
    at_load = {k: v for k, v in counts.items() if k.startswith("_initializer_")}
    scale = 1e3 / args.frequency / args.repetitions  # samples -> ms per call
    median = statistics.median(calls_ms)
    in_dispatches = sum(per_call.values()) * scale
    rows = [{"dispatch": k, "samples": v, "ms_per_call": round(v * scale, 3),
             "share_of_call": round(v * scale / median, 4)} for k, v in per_call.items()]
    rows.sort(key=lambda r: (-r["samples"], r["dispatch"]))
    print(f"{args.name}: {build}; {args.repetitions} calls, median {median:.1f} ms; {args.frequency} samples/s")
    print(f"{'dispatch':<70} {'ms/call':>9} {'share':>7}")
    for r in rows[:args.top]:
        print(f"{r['dispatch']:<70} {r['ms_per_call']:>9.1f} {r['share_of_call']:>7.1%}")
    other = collections.Counter({k: v for k, v in counts.items() if k.startswith("[")})
    print(f"\nin dispatch code: {in_dispatches:.1f} ms per call of {median:.1f} ms measured "
          f"({len(per_call)} dispatches; {len(rows) - min(len(rows), args.top)} more in --json)")
    print("outside dispatch code, the whole run (load included): "
          + (", ".join(f"{k} {v * 1e3 / args.frequency:.0f} ms" for k, v in other.most_common(4)) or "nothing"))
    if at_load:
        print(f"initializers (once, at load): {sum(at_load.values()) * 1e3 / args.frequency:.0f} ms")
    if args.json:
        args.json.write_text(json.dumps({"name": args.name, "build": build, "repetitions": args.repetitions,
                                         "frequency": args.frequency, "calls_ms": calls_ms, "median_ms": median,
                                         "in_dispatches_ms": in_dispatches, "dispatches": rows,
                                         "at_load_samples": at_load, "outside_samples": dict(other)}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
