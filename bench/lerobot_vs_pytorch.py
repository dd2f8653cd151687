"""lerobot policies: PyTorch eager and torch.compile beside IREE's default build and a tuned recipe's.

    python bench/lerobot_vs_pytorch.py DIR [--only NAME ...] [--repetitions 5] [--rounds 1]
                                       [--target-cpu host] [--no-check] [--no-recipe] [--json OUT]
                                       [--torch-python TORCH_PYTHON [--torch-compile [MODE ...]]]
                                       [--threads N] [--baseline-recipes DIR] [--neighbour-mb MB] [--write-docs]

DIR holds what tools/export_lerobot.py wrote (it runs in a separate torch + lerobot environment):
per model NAME, NAME.mlir (weights externalized, scope "model"), NAME.irpa, NAME.json (PyTorch's
eager time: 1 thread, median) and NAME.in<i>.npy / NAME.out<i>.npy (inputs and PyTorch's outputs).

Per model:
1. IREE's default build: `iree-compile <host flags> NAME.mlir` (llvm-cpu, --iree-llvmcpu-target-cpu
   from --target-cpu, default host: the CPU PyTorch ran on).
2. Numerics (unless --no-check): `iree-run-module --device=local-sync --parameters=model=NAME.irpa
   --function=main --input=@NAME.in<i>.npy ... --output=@...`, each output against PyTorch's:
   the max absolute error and that error over the output's largest magnitude.
3. Timing: `iree-benchmark-module --parameters=model=NAME.irpa`, one call per repetition,
   --repetitions repetitions per round after one untimed warm-up call (PyTorch's side warms up
   too), --rounds rounds; the median of all. One thread
   (--threads 1, the default) runs on `--device=local-sync`; --threads N on IREE's task device,
   `--device=local-task --task_topology_max_group_count=N`. Timing takes the tuner's host-timing
   lock, so it never overlaps the tuner's own measurements.
4. The recipe hook: if DIR/NAME.recipe.toml exists (what `iree-dsa-tune tune --target host
   NAME.mlir -o DIR/NAME.mlir` writes beside its spec; also DIR/NAME.spec.recipe.toml or
   DIR/NAME/SPEC.recipe.toml), its build (`Recipe.compile_flags()`: its flags and its spec) is
   compiled, checked and timed the same way, interleaved round by round with the default.

5. PyTorch, side by side (--torch-python PY: the torch + lerobot environment's python): each round
   also runs `PY tools/export_lerobot.py --time-only --only NAME --threads N --compile MODE` (the same
   seeded model, torch.set_num_threads(N)) once per torch.compile mode (--torch-compile; default
   both: `default`, inductor's defaults, and `freezing`, inductor's freezing on, which prepacks the
   convolution and linear weights for oneDNN): eager and the compiled module called in turn, so
   every side is timed under the same load. The eager column is the median of all those calls, each
   torch.compile column its mode's (its first call, which compiles, not timed). Without
   --torch-python the eager time is the one recorded at export and there is no torch.compile.
6. A recipe against another (--baseline-recipes DIR: an earlier set of recipes, found there the same
   way): the other recipe's build is compiled, checked and timed in the same rounds, and the table
   gains its time and baseline / recipe (above 1: the recipe of DIR is slower).
7. A neighbour (--neighbour-mb MB): a process copying one MB-sized array into another, pinned to
   the last CPU, for the whole run, as another tenant's job loads a shared machine's memory.

Prints which CPU and vector ISA it ran on, then a table: policy, PyTorch eager ms, each torch.compile
mode's ms, IREE default ms, recipe ms, eager / IREE default and eager / recipe (above 1: IREE is
faster), the faster torch.compile mode / recipe, at one thread the CPU (process) times (on a machine
shared with others the wall time is inflated by their load; one thread's CPU time much less), and
the largest output error over the output's largest magnitude, of any build (torch.compile's against
eager in the same process); then the geomean, min and max of each ratio over the policies, and each policy's eager / recipe
round by round (each round's medians: how far the run's noise moved that row).
--write-docs puts it in docs/PERFORMANCE.md between this bench's markers (one pair per --threads).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from iree_dsa_tuner.compiler import HOST_FLAGS, find_tool
from iree_dsa_tuner.core.words import plural
from iree_dsa_tuner.host.whole_model import device_flags
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


def run_flags(directory: Path, record: dict, threads: int = 1) -> list[str]:
    flags = [*device_flags(threads), f"--function={record['function']}",
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


# Calls made and not timed before a round's timed ones, on both sides: PyTorch's are
# tools/export_lerobot.py --warmup's. The first call after iree-benchmark-module loads the module
# touches the parameters' pages and ran 3-12% slower (pi0's expert 28.6 ms, then 25.5-25.8).
IREE_WARMUP_CALLS = 1


def benchmark_ms(vmfb: Path, directory: Path, record: dict, repetitions: int,
                 threads: int = 1) -> tuple[list[float], list[float]]:
    """(wall, CPU) milliseconds of each timed repetition (one call each), after IREE_WARMUP_CALLS."""
    argv = [find_tool("iree-benchmark-module"), f"--module={vmfb}", *run_flags(directory, record, threads),
            "--benchmark_min_time=1x", f"--benchmark_repetitions={IREE_WARMUP_CALLS + repetitions}",
            "--benchmark_format=json"]
    with exclusive_timing():
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"iree-benchmark-module failed ({proc.returncode}): {proc.stderr.strip()[-800:]}")
    doc = json.loads(proc.stdout[proc.stdout.find("{"):])
    unit = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    reps = [b for b in doc.get("benchmarks", []) if b.get("run_type", "iteration") == "iteration"][IREE_WARMUP_CALLS:]
    return ([float(b["real_time"]) * unit[b.get("time_unit", "ns")] for b in reps],
            [float(b["cpu_time"]) * unit[b.get("time_unit", "ns")] for b in reps])


COMPILE_MODES = ("default", "freezing")  # tools/export_lerobot.py --compile MODE


# PyTorch's own ISA caps, set when $IREE_DSA_HOST_ISA caps IREE's host (core/host_isa.py), so both
# sides run code of one ISA: ATen's kernels and inductor's code (ATEN_CPU_CAPABILITY), oneDNN's
# convolutions and linears (ONEDNN_MAX_CPU_ISA) and MKL's GEMMs (MKL_ENABLE_INSTRUCTIONS).
TORCH_ISA_ENV = {"avx2": {"ATEN_CPU_CAPABILITY": "avx2", "ONEDNN_MAX_CPU_ISA": "AVX2", "MKL_ENABLE_INSTRUCTIONS": "AVX2"}}


def torch_isa_env() -> dict:
    from iree_dsa_tuner.core.host_isa import host_isa_cap

    return TORCH_ISA_ENV.get(host_isa_cap() or "", {})


def torch_ms(python: str, record: dict, runs: int, threads: int = 1, compile_mode: str | None = None) -> dict:
    """PyTorch on the same seeded model, in the torch + lerobot environment, on `threads` threads: eager,
    and with `compile_mode` torch.compile (inductor) in that mode too, their calls interleaved. The
    JSON line tools/export_lerobot.py --time-only prints (eager: times_ms, cpu_times_ms; the compiled
    module under compile[MODE], with its compile_s and max_rel_err against eager)."""
    argv = [python, str(REPO / "tools" / "export_lerobot.py"), "--time-only", "--only", record["name"],
            "--runs", str(runs), "--threads", str(threads)]
    if compile_mode:
        argv += ["--compile", compile_mode]
    image = record.get("config", {}).get("defaults_changed", {}).get("input_features", {}).get(
        "observation.images.top")
    if record["name"] == "act" and image:
        argv += ["--act-image", f"{image[1]}x{image[2]}"]
    with exclusive_timing():
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_S, check=False,
                              env={**os.environ, "HF_HUB_OFFLINE": "1", **torch_isa_env()})
    if proc.returncode != 0:
        raise RuntimeError(f"PyTorch timing failed ({proc.returncode}): {proc.stderr.strip()[-800:]}")
    line = [x for x in proc.stdout.splitlines() if x.startswith("{")][-1]
    return json.loads(line)


# What --neighbour-mb runs on another CPU: a copy of one array into another, forever; it keeps the
# memory bus and the shared L3 busy the way another tenant's job does on a shared machine.
NEIGHBOUR_SCRIPT = ("import sys, numpy as np\n"
                    "a = np.ones(int(sys.argv[1]) * 262144, np.float32); b = np.empty_like(a)\n"
                    "while True: np.copyto(b, a)\n")


@contextlib.contextmanager
def memory_neighbour(megabytes: int):
    """With megabytes > 0, a process streaming two arrays of that size, pinned to the last CPU this
    process may run on, for the life of the block (yields that CPU; None without one)."""
    if megabytes <= 0:
        yield None
        return
    cpu = max(os.sched_getaffinity(0))
    proc = subprocess.Popen([sys.executable, "-c", NEIGHBOUR_SCRIPT, str(megabytes)],
                            preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
    try:
        yield cpu
    finally:
        proc.kill()
        proc.wait()


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
        if recipe.threads != args.threads:  # its presets and spec were the fastest on another thread count
            print(f"[{name}] note: {recipe_file} was tuned on {recipe.threads} thread(s), this run uses "
                  f"{args.threads}", file=sys.stderr, flush=True)
        builds["recipe"] = recipe.compile_flags()
        row["recipe_tuned_on"] = recipe.tuned_on.get("cpu", "")
        row["recipe_threads"] = recipe.threads
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
    compiled: dict[str, dict] = {m: {"times": [], "cpu": [], "compile_s": [], "err": []} for m in args.torch_compile}
    by_round: list[float] = []  # each round's eager median / recipe median: the spread between rounds
    for _ in range(args.rounds):  # interleaved: a neighbour's load hits every build alike
        round_torch, round_recipe = len(torch_times), len(times.get("recipe", []))
        # PyTorch: one process per torch.compile mode (eager timed in each, beside the compiled calls).
        for mode in (args.torch_compile or [None]) if args.torch_python else []:
            print(f"[{name}] timing PyTorch eager{f' and torch.compile ({mode})' if mode else ''} ...",
                  file=sys.stderr, flush=True)
            try:
                timing = torch_ms(args.torch_python, record, args.repetitions, args.threads, mode)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                # Per mode: one mode's crash (inductor's default mode aborted on every policy in
                # some runs) is said under the table, not lost with the column.
                row[f"compile_{mode}_error" if mode else "pytorch_error"] = str(e)
                continue
            torch_times += timing["times_ms"]
            torch_cpu += timing["cpu_times_ms"]
            row["pytorch_cpu_capability"] = timing.get("cpu_capability")
            if mode:
                c = timing["compile"][mode]
                compiled[mode]["times"] += c["times_ms"]
                compiled[mode]["cpu"] += c["cpu_times_ms"]
                compiled[mode]["compile_s"].append(c["compile_s"])
                compiled[mode]["err"].append(c["max_rel_err"])
        for build, vmfb in vmfbs.items():
            print(f"[{name}] timing {build} ...", file=sys.stderr, flush=True)
            try:
                wall, cpu_ms = benchmark_ms(vmfb, directory, record, args.repetitions, args.threads)
                times[build] += wall
                cpu[build] += cpu_ms
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                row[f"{build}_error"] = str(e)
        if ratio := round_ratio(torch_times[round_torch:], times.get("recipe", [])[round_recipe:]):
            by_round.append(ratio)
    if by_round:
        row["eager_recipe_by_round"] = by_round
    row["pytorch_at_export_ms"] = row["pytorch_ms"]
    row["pytorch_cpu_ms"] = record["pytorch_eager"].get("cpu_median_ms")
    if torch_times:
        row["pytorch_ms"] = statistics.median(torch_times)
        row["pytorch_cpu_ms"] = statistics.median(torch_cpu)
        row["pytorch_times_ms"] = [round(t, 3) for t in torch_times]
    for mode, c in compiled.items():
        if c["times"]:
            row[f"compile_{mode}_ms"] = statistics.median(c["times"])
            row[f"compile_{mode}_cpu_ms"] = statistics.median(c["cpu"])
            row[f"compile_{mode}_times_ms"] = [round(t, 3) for t in c["times"]]
            row[f"compile_{mode}_s"] = c["compile_s"]  # the first call, each round (inductor caches on disk)
            row[f"compile_{mode}_max_rel_err"] = max(c["err"])
    for build, ts in times.items():
        if ts:
            row[f"{build}_ms"] = statistics.median(ts)
            row[f"{build}_cpu_ms"] = statistics.median(cpu[build])
            row[f"{build}_times_ms"] = [round(t, 3) for t in ts]
    return row


def round_ratio(eager_ms: list[float], recipe_ms: list[float]) -> float | None:
    """One round's eager median over its recipe median (None when either side has no time)."""
    if not eager_ms or not recipe_ms:
        return None
    return round(statistics.median(eager_ms) / statistics.median(recipe_ms), 3)


def fmt(value, spec=".1f") -> str:
    return "-" if value is None else format(value, spec)


def best_compile_ms(row: dict) -> float | None:
    """The faster torch.compile mode's median (what a user who tries both would keep)."""
    times = [row[f"compile_{m}_ms"] for m in COMPILE_MODES if row.get(f"compile_{m}_ms")]
    return min(times) if times else None


def table(rows: list[dict], threads: int = 1) -> str:
    modes = [m for m in COMPILE_MODES if any(r.get(f"compile_{m}_ms") for r in rows)]
    head = ["policy", "PyTorch eager ms", *[f"torch.compile{'' if m == 'default' else f' ({m})'} ms" for m in modes],
            "IREE default ms", "recipe ms", "eager/IREE", "eager/recipe"]
    if modes:
        head.append("best compile/recipe")
    if threads == 1:  # one thread's CPU time is its wall time less a neighbour's share; not so on a task device
        head.append("CPU ms: eager / IREE / recipe")
    head.append("max rel err")
    baselines = any(r.get("baseline_ms") for r in rows)
    if baselines:
        head += ["baseline recipe ms", "baseline/recipe"]
    lines = [head]
    for r in rows:
        d, rc, pt, bc = r.get("default_ms"), r.get("recipe_ms"), r["pytorch_ms"], best_compile_ms(r)
        errs = [n["max_rel_err"] for key in ("default_numerics", "recipe_numerics", "baseline_numerics")
                for n in r.get(key, [])] + [r[f"compile_{m}_max_rel_err"] for m in modes
                                            if f"compile_{m}_max_rel_err" in r]
        line = [r["name"], fmt(pt), *[fmt(r.get(f"compile_{m}_ms")) for m in modes],
                fmt(d) if d else r.get("default_error", "-")[:30], fmt(rc),
                fmt(pt / d if d else None, ".2f"), fmt(pt / rc if rc else None, ".2f")]
        if modes:
            line.append(fmt(bc / rc if bc and rc else None, ".2f"))
        if threads == 1:
            line.append(" / ".join(fmt(r.get(k)) for k in ("pytorch_cpu_ms", "default_cpu_ms", "recipe_cpu_ms")))
        line.append(format(max(errs), ".1e") if errs else "-")
        if baselines:
            b = r.get("baseline_ms")
            line += [fmt(b), fmt(b / rc if b and rc else None, ".2f")]
        lines.append(line)
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(head))]
    out = ["| " + " | ".join(str(c).ljust(w) for c, w in zip(line, widths)) + " |" for line in lines]
    out.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(out)


def failed_modes(rows: list[dict], modes) -> list[str]:
    """One line per torch.compile mode whose process failed on some policy: on which, and the
    error's last line (the column holds only the policies it ran on)."""
    lines = []
    for mode in modes:
        failed = [r for r in rows if f"compile_{mode}_error" in r]
        if failed:
            last = failed[-1][f"compile_{mode}_error"].strip().splitlines() or [""]
            lines.append(f"torch.compile ({mode}) failed on {len(failed)} of {len(rows)} policies "
                         f"({', '.join(r['name'] for r in failed)}): {last[-1][:200]}")
    return lines


def summary(rows: list[dict], modes=()) -> str:
    lines = failed_modes(rows, modes)
    for label, key in (("PyTorch eager / recipe", lambda r: r["pytorch_ms"]),
                       ("best torch.compile / recipe", best_compile_ms),
                       ("PyTorch eager / IREE default", lambda r: r["pytorch_ms"])):
        den = "default_ms" if label.endswith("default") else "recipe_ms"
        ratios = [key(r) / r[den] for r in rows if r.get(den) and key(r)]
        if ratios:
            lines.append(f"{label} over {plural(len(ratios), 'policy', 'policies')}: geomean {statistics.geometric_mean(ratios):.2f}, "
                         f"min {min(ratios):.2f}, max {max(ratios):.2f}")
    spread = [r for r in rows if len(r.get("eager_recipe_by_round", [])) > 1]
    if spread:  # how far one round's ratio moved from another's: what the run's noise could do to a row
        lines.append("PyTorch eager / recipe round by round (each round's medians): " + "; ".join(
            f"{r['name']} {min(r['eager_recipe_by_round']):.2f}-{max(r['eager_recipe_by_round']):.2f}"
            for r in spread))
    return "\n".join(lines)


def machine_line(rows: list[dict], target_cpu: str, load: tuple[float, float] | None = None) -> str:
    """Which CPU and vector ISA the figures are from (the ratios do not carry to another)."""
    from iree_dsa_tuner.core.fingerprint import host_cpu_id, host_cpu_model, host_vector_isa

    fam = f" ({ident})" if (ident := host_cpu_id()) else ""
    caps = sorted({r["pytorch_cpu_capability"] for r in rows if r.get("pytorch_cpu_capability")})
    torch_isa = f"; PyTorch's CPU capability {', '.join(caps)}" if caps else ""
    shared = f"; 1-minute load average {load[0]:.1f} at the start, {load[1]:.1f} at the end" if load else ""
    from iree_dsa_tuner.core.host_isa import cap_note

    return (f"Machine: {host_cpu_model()}{fam}, widest vector ISA {host_vector_isa()}{cap_note()}, "
            f"{os.cpu_count()} logical CPUs{shared}; IREE --iree-llvmcpu-target-cpu={target_cpu}{torch_isa}.")


DOCS = REPO / "docs" / "PERFORMANCE.md"
BEGIN, END = "<!-- bench/lerobot_vs_pytorch.py begin -->", "<!-- bench/lerobot_vs_pytorch.py end -->"


def markers(threads: int = 1, isa: str | None = None) -> tuple[str, str]:
    """The block's markers: one pair per thread count, and per ISA cap ($IREE_DSA_HOST_ISA)."""
    if threads == 1 and not isa:
        return BEGIN, END
    tag = " ".join(([f"threads={threads}"] if threads != 1 else []) + ([f"isa={isa}"] if isa else []))
    return f"<!-- bench/lerobot_vs_pytorch.py {tag} begin -->", f"<!-- bench/lerobot_vs_pytorch.py {tag} end -->"


def write_docs(text: str, how: str, threads: int = 1) -> None:
    """The table between the markers in docs/PERFORMANCE.md, replaced whole (the prose around it stays);
    each thread count has its own pair of markers."""
    from iree_dsa_tuner.core.host_isa import host_isa_cap

    begin, end = markers(threads, host_isa_cap())
    doc = DOCS.read_text()
    if begin not in doc or end not in doc:
        raise SystemExit(f"{DOCS}: no {begin} ... {end} markers to write between")
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    DOCS.write_text(f"{head}{begin}\n{how}\n\n{text}\n{end}{tail}")


def tuned_threads(rows: list[dict]) -> str:
    """'; recipes tuned on N threads' (each count with its policies when they differ); '' for
    recipes tuned on one thread, as recipes were before they recorded it."""
    counts = sorted({r["recipe_threads"] for r in rows if "recipe_threads" in r})
    if counts in ([], [1]):
        return ""
    if len(counts) == 1:
        return f"; recipes tuned on {counts[0]} threads (tune --threads {counts[0]})"
    return "; recipes tuned on " + ", ".join(
        f"{n} thread(s): {' '.join(r['name'] for r in rows if r.get('recipe_threads') == n)}" for n in counts)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("directory", type=Path, help="what tools/export_lerobot.py wrote (--out)")
    ap.add_argument("--only", nargs="*", help="these model names only")
    ap.add_argument("--repetitions", type=int, default=5, help="calls timed per round (one call each)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--target-cpu", default=None,
                    help="IREE's --iree-llvmcpu-target-cpu (default host, or x86-64-v3 under $IREE_DSA_HOST_ISA=avx2)")
    ap.add_argument("--no-check", action="store_true", help="skip the numerics against PyTorch")
    ap.add_argument("--no-recipe", action="store_true", help="ignore recipes beside the models")
    ap.add_argument("--json", type=Path, help="write the rows here")
    ap.add_argument("--baseline-recipes", type=Path,
                    help="a directory of other recipes for the same models: time each beside the recipe")
    ap.add_argument("--write-docs", action="store_true",
                    help="replace the table between this bench's markers in docs/PERFORMANCE.md with this run's")
    ap.add_argument("--torch-python", help="the torch + lerobot environment's python: time PyTorch eager again, "
                                           "interleaved with IREE's rounds (default: the time recorded at export)")
    ap.add_argument("--torch-compile", nargs="*", choices=COMPILE_MODES, metavar="MODE",
                    help="with --torch-python, time torch.compile (inductor, CPU) in these modes too (default: "
                         f"{' '.join(COMPILE_MODES)}; none given: no torch.compile)")
    ap.add_argument("--neighbour-mb", type=int, default=0, metavar="MB",
                    help="run a neighbour for the whole run: a process copying one MB-sized array into another, "
                         "pinned to the last CPU (how each side holds up under another job's memory traffic; "
                         "default 0: none)")
    ap.add_argument("--threads", type=int, default=1,
                    help="threads on each side (default 1: IREE local-sync; N: IREE's task device with "
                         "--task_topology_max_group_count=N; PyTorch torch.set_num_threads(N))")
    args = ap.parse_args(argv)
    if args.target_cpu is None:
        from iree_dsa_tuner.core.host_isa import host_target_cpu

        args.target_cpu = host_target_cpu()
    if args.torch_compile is None:
        args.torch_compile = list(COMPILE_MODES) if args.torch_python else []
    if args.threads < 1:
        ap.error("--threads must be at least 1")
    if args.neighbour_mb > 0 and args.threads >= len(os.sched_getaffinity(0)):
        ap.error(f"--neighbour-mb needs a CPU the {args.threads} timed thread(s) do not use")
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
    load_start = os.getloadavg()[0]  # a neighbour's load: the figures are only as good as the machine was quiet
    with tempfile.TemporaryDirectory(prefix="lerobot-bench-") as tmp, memory_neighbour(args.neighbour_mb) as cpu:
        for record in records:
            rows.append(bench_model(args.directory, record, args, Path(tmp)))
            r = rows[-1]
            print(f"[{r['name']}] PyTorch {fmt(r['pytorch_ms'])} ms, IREE default {fmt(r.get('default_ms'))} ms"
                  + (f", recipe {fmt(r.get('recipe_ms'))} ms" if "recipe_flags" in r else ""),
                  file=sys.stderr, flush=True)
    when = "timed in this run, interleaved with IREE" if args.torch_python else "recorded at export"
    threads = "1 thread each" if args.threads == 1 else f"{args.threads} threads each"
    device = ("local-sync" if args.threads == 1
              else f"local-task --task_topology_max_group_count={args.threads}")
    compile_note = (f"; torch.compile: inductor, CPU, mode(s) {', '.join(args.torch_compile)} (freezing: "
                    "inductor's freezing on), its calls interleaved with eager's" if args.torch_compile else "")
    how = (f"{threads} (PyTorch: torch.set_num_threads({args.threads}), {when}{compile_note}; IREE: {device}, "
           f"--iree-llvmcpu-target-cpu={args.target_cpu}){tuned_threads(rows)}; medians of {args.rounds} x "
           f"{args.repetitions} calls, each side warmed up first; "
           + (f"a neighbour copying {args.neighbour_mb} MB arrays on CPU {cpu} throughout; " if cpu is not None else "")
           + f"ratio above 1 = IREE faster.\n{machine_line(rows, args.target_cpu, (load_start, os.getloadavg()[0]))}")
    print(how)
    text = table(rows, args.threads)
    if more := summary(rows, args.torch_compile):
        text += "\n\n" + more
    print(text)
    if args.write_docs:
        write_docs(text, how, args.threads)
    for r in rows:
        for key in ("default_error", "recipe_error", "baseline_error"):
            if key in r:
                print(f"{r['name']} {key}: {r[key]}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
