"""lerobot policies: PyTorch eager (recorded at export) beside IREE's default build, and a tuned recipe's.

    python bench/lerobot_vs_pytorch.py DIR [--only NAME ...] [--repetitions 5] [--rounds 1]
                                       [--target-cpu host] [--no-check] [--no-recipe] [--json OUT]
                                       [--torch-python /work/venv-lerobot/bin/python]
                                       [--baseline-recipes DIR]

DIR holds what tools/export_lerobot.py wrote (it runs in a separate torch + lerobot environment):
per model NAME, NAME.mlir (weights externalized, scope "model"), NAME.irpa, NAME.json (PyTorch's
eager time: 1 thread, median) and NAME.in<i>.npy / NAME.out<i>.npy (inputs and PyTorch's outputs).

Per model:
1. IREE's default build: `iree-compile <host flags> NAME.mlir` (llvm-cpu, --iree-llvmcpu-target-cpu
   from --target-cpu, default host: the CPU PyTorch ran on).
2. Numerics (unless --no-check): `iree-run-module --device=local-sync --parameters=model=NAME.irpa
   --function=main --input=@NAME.in<i>.npy ... --output=@...`, each output against PyTorch's:
   the max absolute error and that error over the output's largest magnitude.
3. Timing: `iree-benchmark-module --device=local-sync --parameters=model=NAME.irpa` (one thread),
   one call per repetition, --repetitions repetitions per round, --rounds rounds; the median of all.
   Timing takes the tuner's host-timing lock, so it never overlaps the tuner's own measurements.
4. The recipe hook: if DIR/NAME.recipe.toml exists (what `iree-dsa-tune tune --target host
   NAME.mlir -o DIR/NAME.mlir` writes beside its spec; also DIR/NAME.spec.recipe.toml or
   DIR/NAME/SPEC.recipe.toml), its build (`Recipe.compile_flags()`: its flags and its spec) is
   compiled, checked and timed the same way, interleaved round by round with the default.

5. PyTorch again, side by side (--torch-python PY: the torch + lerobot environment's python): each
   round also runs `PY tools/export_lerobot.py --time-only --only NAME` (the same seeded model,
   eager, one thread), so both sides are timed under the same load; the PyTorch column is then the
   median of those runs, and the time recorded at export is shown beside it.
6. A recipe against another (--baseline-recipes DIR: an earlier set of recipes, found there the same
   way): the other recipe's build is compiled, checked and timed in the same rounds, and the table
   gains its time and baseline / recipe (above 1: the recipe of DIR is slower).

Prints a table: policy, PyTorch ms, IREE default ms, PyTorch / IREE (above 1: IREE is faster), the
recipe's ms and ratio when there is one, the CPU (process) times of each (on a machine shared with
others the wall time is inflated by their load; one thread's CPU time much less), and the largest
output error over the output's largest magnitude, of any build. The PyTorch time was measured when the
model was exported (unless --torch-python), on the same machine, under whatever load it had then.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from iree_dsa_tuner.compiler import HOST_FLAGS, find_tool
from iree_dsa_tuner.recipe import load_recipe
from iree_dsa_tuner.runners.host import exclusive_timing

TIMEOUT_S = 1800
REPO = Path(__file__).resolve().parent.parent


def target_flags(cpu: str) -> tuple[str, ...]:
    return tuple(f for f in HOST_FLAGS if not f.startswith("--iree-llvmcpu-target-cpu=")) + (
        f"--iree-llvmcpu-target-cpu={cpu}",)


def find_recipe(directory: Path, name: str) -> Path | None:
    for candidate in (directory / f"{name}.recipe.toml", directory / f"{name}.spec.recipe.toml",
                      *sorted((directory / name).glob("*.recipe.toml"))):
        if candidate.is_file():
            return candidate
    return None


def compile_model(mlir: Path, out: Path, flags: tuple[str, ...]) -> None:
    argv = [find_tool("iree-compile"), *flags, str(mlir), "-o", str(out)]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"iree-compile failed ({proc.returncode}): {proc.stderr.strip()[-800:]}")


def run_flags(directory: Path, record: dict) -> list[str]:
    flags = ["--device=local-sync", f"--function={record['function']}",
             f"--parameters={record['parameter_scope']}={directory / record['irpa']}"]
    flags += [f"--input=@{directory / i['file']}" for i in record["iree_inputs"]]
    return flags


def check_numerics(vmfb: Path, directory: Path, record: dict, work: Path) -> list[dict]:
    outs = [work / f"{vmfb.stem}.out{i}.npy" for i in range(len(record["iree_outputs"]))]
    argv = [find_tool("iree-run-module"), f"--module={vmfb}", *run_flags(directory, record),
            *[f"--output=@{o}" for o in outs]]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"iree-run-module failed ({proc.returncode}): {proc.stderr.strip()[-800:]}")
    results = []
    for out, ref in zip(outs, record["iree_outputs"], strict=True):
        got, want = np.load(out).astype(np.float64), np.load(directory / ref["file"]).astype(np.float64)
        if got.shape != want.shape:
            raise RuntimeError(f"{out.name}: shape {got.shape}, PyTorch's {want.shape}")
        err = float(np.abs(got - want).max())
        scale = float(np.abs(want).max()) or 1.0
        results.append({"output": ref["file"], "max_abs_err": err, "max_rel_err": err / scale,
                        "ref_abs_max": scale})
    return results


def benchmark_ms(vmfb: Path, directory: Path, record: dict, repetitions: int) -> tuple[list[float], list[float]]:
    """(wall, CPU) milliseconds of each repetition (one call each)."""
    argv = [find_tool("iree-benchmark-module"), f"--module={vmfb}", *run_flags(directory, record),
            "--benchmark_min_time=1x", f"--benchmark_repetitions={repetitions}", "--benchmark_format=json"]
    with exclusive_timing():
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"iree-benchmark-module failed ({proc.returncode}): {proc.stderr.strip()[-800:]}")
    doc = json.loads(proc.stdout[proc.stdout.find("{"):])
    unit = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    reps = [b for b in doc.get("benchmarks", []) if b.get("run_type", "iteration") == "iteration"]
    return ([float(b["real_time"]) * unit[b.get("time_unit", "ns")] for b in reps],
            [float(b["cpu_time"]) * unit[b.get("time_unit", "ns")] for b in reps])


def torch_eager_ms(python: str, record: dict, runs: int) -> tuple[list[float], list[float]]:
    """PyTorch eager, one thread, on the same seeded model, in the torch + lerobot environment."""
    argv = [python, str(REPO / "tools" / "export_lerobot.py"), "--time-only", "--only", record["name"],
            "--runs", str(runs)]
    image = record.get("config", {}).get("defaults_changed", {}).get("input_features", {}).get(
        "observation.images.top")
    if record["name"] == "act" and image:
        argv += ["--act-image", f"{image[1]}x{image[2]}"]
    with exclusive_timing():
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_S, check=False,
                              env={**os.environ, "HF_HUB_OFFLINE": "1"})
    if proc.returncode != 0:
        raise RuntimeError(f"PyTorch timing failed ({proc.returncode}): {proc.stderr.strip()[-800:]}")
    line = [x for x in proc.stdout.splitlines() if x.startswith("{")][-1]
    timing = json.loads(line)
    return timing["times_ms"], timing["cpu_times_ms"]


def bench_model(directory: Path, record: dict, args, work: Path) -> dict:
    name = record["name"]
    mlir = directory / record["mlir"]
    builds = {"default": ()}
    recipe_file = None if args.no_recipe else find_recipe(directory, name)
    row = {"name": name, "policy": record["policy"], "part": record["part"],
           "pytorch_ms": record["pytorch_eager"]["median_ms"], "irpa_mb": record["irpa_bytes"] / 1e6}
    if recipe_file is not None:
        recipe = load_recipe(recipe_file)
        recipe.check_model(mlir)
        if note := recipe.machine_note():  # its timings, and so its choice, are another CPU's
            print(f"[{name}] {note}", file=sys.stderr, flush=True)
        builds["recipe"] = recipe.compile_flags()
        row["recipe_tuned_on"] = recipe.tuned_on.get("cpu", "")
        row["recipe_file"] = str(recipe_file)
        row["recipe_flags"] = list(recipe.compile_flags())
    baseline_file = find_recipe(args.baseline_recipes, name) if args.baseline_recipes else None
    if baseline_file is not None:
        baseline = load_recipe(baseline_file)
        baseline.check_model(mlir)
        builds["baseline"] = baseline.compile_flags()
        row["baseline_file"] = str(baseline_file)
    vmfbs = {}
    for build, extra in builds.items():
        vmfb = work / f"{name}.{build}.vmfb"
        print(f"[{name}] compiling {build} ...", file=sys.stderr, flush=True)
        try:
            compile_model(mlir, vmfb, target_flags(args.target_cpu) + tuple(extra))
            vmfbs[build] = vmfb
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            row[f"{build}_error"] = str(e)
            continue
        if not args.no_check:
            try:
                row[f"{build}_numerics"] = check_numerics(vmfb, directory, record, work)
            except RuntimeError as e:
                row[f"{build}_error"] = str(e)
                vmfbs.pop(build)
    times: dict[str, list[float]] = {b: [] for b in vmfbs}
    cpu: dict[str, list[float]] = {b: [] for b in vmfbs}
    torch_times: list[float] = []
    torch_cpu: list[float] = []
    for _ in range(args.rounds):  # interleaved: a neighbour's load hits every build alike
        if args.torch_python:
            print(f"[{name}] timing PyTorch eager ...", file=sys.stderr, flush=True)
            try:
                wall, cpu_ms = torch_eager_ms(args.torch_python, record, args.repetitions)
                torch_times += wall
                torch_cpu += cpu_ms
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                row["pytorch_error"] = str(e)
        for build, vmfb in vmfbs.items():
            print(f"[{name}] timing {build} ...", file=sys.stderr, flush=True)
            try:
                wall, cpu_ms = benchmark_ms(vmfb, directory, record, args.repetitions)
                times[build] += wall
                cpu[build] += cpu_ms
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                row[f"{build}_error"] = str(e)
    row["pytorch_at_export_ms"] = row["pytorch_ms"]
    row["pytorch_cpu_ms"] = record["pytorch_eager"].get("cpu_median_ms")
    if torch_times:
        row["pytorch_ms"] = statistics.median(torch_times)
        row["pytorch_cpu_ms"] = statistics.median(torch_cpu)
        row["pytorch_times_ms"] = [round(t, 3) for t in torch_times]
    for build, ts in times.items():
        if ts:
            row[f"{build}_ms"] = statistics.median(ts)
            row[f"{build}_cpu_ms"] = statistics.median(cpu[build])
            row[f"{build}_times_ms"] = [round(t, 3) for t in ts]
    return row


def fmt(value, spec=".1f") -> str:
    return "-" if value is None else format(value, spec)


def table(rows: list[dict]) -> str:
    head = ["policy", "PyTorch ms", "(at export)", "IREE default ms", "PyTorch/IREE", "recipe ms",
            "PyTorch/recipe", "CPU ms: PyTorch / IREE / recipe", "max rel err"]
    baselines = any(r.get("baseline_ms") for r in rows)
    if baselines:
        head += ["baseline recipe ms", "baseline/recipe"]
    lines = [head]
    for r in rows:
        d, rc, pt = r.get("default_ms"), r.get("recipe_ms"), r["pytorch_ms"]
        errs = [n["max_rel_err"] for key in ("default_numerics", "recipe_numerics", "baseline_numerics")
                for n in r.get(key, [])]
        cpu = " / ".join(fmt(r.get(k)) for k in ("pytorch_cpu_ms", "default_cpu_ms", "recipe_cpu_ms"))
        lines.append([r["name"], fmt(pt), fmt(r["pytorch_at_export_ms"]),
                      fmt(d) if d else r.get("default_error", "-")[:30], fmt(pt / d if d else None, ".2f"),
                      fmt(rc), fmt(pt / rc if rc else None, ".2f"), cpu,
                      format(max(errs), ".1e") if errs else "-"])
        if baselines:
            b = r.get("baseline_ms")
            lines[-1] += [fmt(b), fmt(b / rc if b and rc else None, ".2f")]
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(head))]
    out = ["| " + " | ".join(str(c).ljust(w) for c, w in zip(line, widths)) + " |" for line in lines]
    out.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(out)


DOCS = REPO / "docs" / "PERFORMANCE.md"
BEGIN, END = "<!-- bench/lerobot_vs_pytorch.py begin -->", "<!-- bench/lerobot_vs_pytorch.py end -->"


def write_docs(text: str, how: str) -> None:
    """The table between the markers in docs/PERFORMANCE.md, replaced whole (the prose around it stays)."""
    doc = DOCS.read_text()
    if BEGIN not in doc or END not in doc:
        raise SystemExit(f"{DOCS}: no {BEGIN} ... {END} markers to write between")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    DOCS.write_text(f"{head}{BEGIN}\n{how}\n\n{text}\n{END}{tail}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("directory", type=Path, help="what tools/export_lerobot.py wrote (--out)")
    ap.add_argument("--only", nargs="*", help="these model names only")
    ap.add_argument("--repetitions", type=int, default=5, help="calls timed per round (one call each)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--target-cpu", default="host")
    ap.add_argument("--no-check", action="store_true", help="skip the numerics against PyTorch")
    ap.add_argument("--no-recipe", action="store_true", help="ignore recipes beside the models")
    ap.add_argument("--json", type=Path, help="write the rows here")
    ap.add_argument("--baseline-recipes", type=Path,
                    help="a directory of other recipes for the same models: time each beside the recipe")
    ap.add_argument("--write-docs", action="store_true",
                    help="replace the table between this bench's markers in docs/PERFORMANCE.md with this run's")
    ap.add_argument("--torch-python", help="the torch + lerobot environment's python: time PyTorch eager again, "
                                           "interleaved with IREE's rounds (default: the time recorded at export)")
    args = ap.parse_args(argv)
    records = []
    for path in sorted(args.directory.glob("*.json")):
        try:
            record = json.loads(path.read_text())
        except json.JSONDecodeError:
            continue
        if not isinstance(record, dict) or "irpa" not in record or "pytorch_eager" not in record:
            continue
        if args.only and record["name"] not in args.only:
            continue
        if not (args.directory / record["mlir"]).is_file() or not (args.directory / record["irpa"]).is_file():
            print(f"[{record['name']}] skipped: {record['mlir']} or {record['irpa']} missing", file=sys.stderr)
            continue
        records.append(record)
    if not records:
        print(f"no exported model in {args.directory}", file=sys.stderr)
        return 2
    rows = []
    with tempfile.TemporaryDirectory(prefix="lerobot-bench-") as tmp:
        for record in records:
            rows.append(bench_model(args.directory, record, args, Path(tmp)))
            r = rows[-1]
            print(f"[{r['name']}] PyTorch {fmt(r['pytorch_ms'])} ms, IREE default {fmt(r.get('default_ms'))} ms"
                  + (f", recipe {fmt(r.get('recipe_ms'))} ms" if "recipe_flags" in r else ""),
                  file=sys.stderr, flush=True)
    when = "timed in this run, interleaved with IREE" if args.torch_python else "recorded at export"
    print(f"1 thread each (PyTorch: torch.set_num_threads(1), {when}; IREE: local-sync, "
          f"--iree-llvmcpu-target-cpu={args.target_cpu}); medians; ratio above 1 = IREE faster")
    text = table(rows)
    recipes = [r["pytorch_ms"] / r["recipe_ms"] for r in rows if r.get("recipe_ms")]
    if recipes:
        text += (f"\n\nPyTorch / recipe over the {len(recipes)} policies with a recipe: geomean "
                 f"{statistics.geometric_mean(recipes):.2f}, min {min(recipes):.2f}, max {max(recipes):.2f}")
    print(text)
    if args.write_docs:
        write_docs(text, f"1 thread each (PyTorch: torch.set_num_threads(1), {when}; IREE: local-sync, "
                         f"--iree-llvmcpu-target-cpu={args.target_cpu}); medians of {args.rounds} x "
                         f"{args.repetitions} calls; ratio above 1 = IREE faster.")
    for r in rows:
        for key in ("default_error", "recipe_error", "baseline_error"):
            if key in r:
                print(f"{r['name']} {key}: {r[key]}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
