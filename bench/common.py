"""Helpers shared by the benchmarks in bench/: the basket, timing, numpy, statistics, output.

Imported by the scripts as `common` (they run as `python bench/NAME.py`, which
puts bench/ on sys.path); puts tools/ on sys.path for `gen_basket`.
"""

from __future__ import annotations

import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO / "tools") not in sys.path:
    sys.path.insert(0, str(REPO / "tools"))

import gen_basket  # noqa: E402  (tools/gen_basket.py)
from iree_dsa_tuner.compiler import HOST_FLAGS, compile_to_vmfb, find_tool, tuning_spec_flags  # noqa: E402
from iree_dsa_tuner.core.fingerprint import iree_version  # noqa: E402
from iree_dsa_tuner.report import format_table  # noqa: E402

BasketEntry = gen_basket.BasketEntry


def rewrite_docs_block(doc: Path, marker: str, text: str) -> None:
    """Replace what stands between `<!-- MARKER begin -->` and `<!-- MARKER end -->` in `doc` with
    `text` in a code fence (a bench's --write-docs)."""
    begin, end = f"<!-- {marker} begin -->", f"<!-- {marker} end -->"
    old = doc.read_text()
    if begin not in old or end not in old:
        raise SystemExit(f"{doc}: no {begin} ... {end} block to rewrite")
    head, rest = old.split(begin, 1)
    doc.write_text(head + begin + "\n```\n" + text + "\n```\n" + end + rest.split(end, 1)[1])


def emit_report(text: str, records, *, doc: Path | None, marker: str, json_path: str | None) -> None:
    """Print a bench's report; with `doc`, rewrite its marked block there (--write-docs); with
    `json_path`, write `records` as JSON (--json)."""
    import json

    print(text)
    if doc is not None:
        rewrite_docs_block(doc, marker, text)
    if json_path:
        Path(json_path).write_text(json.dumps(records, indent=2, sort_keys=True) + "\n")


# ---- statistics --------------------------------------------------------------------

def median(values) -> float:
    return float(statistics.median(values))


def geomean(values) -> float | None:
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def relative_spread(values) -> float:
    """Robust relative noise of repeated timings: 1.4826 x MAD / median (0 for < 3 values)."""
    if len(values) < 3:
        return 0.0
    mid = statistics.median(values)
    mad = statistics.median(abs(v - mid) for v in values)
    return 1.4826 * mad / mid if mid else 0.0


def fmt(value, spec: str = ".2f", suffix: str = "") -> str:
    return "-" if value is None else format(value, spec) + suffix


# ---- the basket -----------------------------------------------------------------------

def select_entries(names: list[str] | None, quick: bool, quick_names: tuple[str, ...]) -> list[BasketEntry]:
    """`--shape NAME` entries, else the quick set with --quick, else the whole basket."""
    if names:
        return [gen_basket.find_entry(n) for n in names]
    if quick:
        return [gen_basket.find_entry(n) for n in quick_names]
    return gen_basket.basket()


def write_models(entries: list[BasketEntry], directory: Path) -> dict[str, Path]:
    return gen_basket.write_basket(directory, entries)


def root_problem(artifacts):
    """The single tunable root-op problem of a compiled basket model (`iree_dsa_tuner.compile_model`)."""
    from iree_dsa_tuner.core.problems import RootOpProblem

    problems = [p for p in artifacts.problems() if isinstance(p, RootOpProblem)]
    if len(problems) != 1:
        raise RuntimeError(f"{artifacts.model}: expected one root-op dispatch, found {len(problems)}")
    return problems[0]


# ---- tuner internals the benchmarks look at ----

def cost_view_class():
    """The search's view of the funnel (legal set, ranking, estimates, calibration applied)."""
    from iree_dsa_tuner.search.cost_view import CostView

    return CostView


def fidelity_functions():
    """(fidelity(trials), fit_calibration(points)) exactly as the search uses them."""
    from iree_dsa_tuner.costmodel.fidelity import fidelity, fit_calibration

    return fidelity, fit_calibration


# ---- whole-function timing with iree-benchmark-module ------------------------------------

def compile_vmfb(model: Path, out_vmfb: Path, spec_path: Path | None = None, extra_flags: tuple[str, ...] = ()) -> Path:
    """The whole model compiled to a module for this CPU, with a tuning spec when given (IREE's defaults otherwise)."""
    extra = (tuning_spec_flags(spec_path) if spec_path is not None else ()) + tuple(extra_flags)
    compile_to_vmfb(model, out_vmfb, extra_flags=extra, target_flags=HOST_FLAGS, timeout_s=300.0)
    return out_vmfb


def benchmark_function(vmfb: Path, inputs: list[str], *, iterations: int, repetitions: int = 3,
                       function: str = "main", timeout_s: float = 300.0) -> list[float]:
    """Per-call wall times (us) of `function`, one value per repetition of `iterations` calls.

    local-sync: the function runs on the calling thread (one thread).
    """
    argv = [find_tool("iree-benchmark-module"), f"--module={vmfb}", "--device=local-sync",
            f"--function={function}", *inputs, f"--benchmark_min_time={iterations}x",
            f"--benchmark_repetitions={repetitions}", "--benchmark_format=json"]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout_s, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"iree-benchmark-module failed on {vmfb}: {proc.stderr.strip()[-400:]}")
    document = json.loads(proc.stdout[proc.stdout.find("{"):])
    scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
    times = [float(b["real_time"]) * scale[b.get("time_unit", "ns")]
             for b in document.get("benchmarks", []) if b.get("run_type", "iteration") == "iteration"]
    if not times:
        raise RuntimeError(f"iree-benchmark-module reported no repetitions for {vmfb}")
    return times


def iterations_for(estimate_us: float, seconds_per_repetition: float = 0.1, most: int = 20000) -> int:
    """Calls per repetition so that one repetition takes about `seconds_per_repetition`."""
    return max(1, min(most, math.ceil(seconds_per_repetition * 1e6 / max(estimate_us, 1.0))))


def constant_weight_matmul(m: int, n: int, k: int, t: str = "f32") -> str:
    """An [m, k] x [k, n] matmul whose weight is a `util.global` (packed once at initialisation
    under data tiling, as a deployed model's constant weights are); i8 accumulates in i32."""
    acc, zero = ("i32", "0") if t == "i8" else (t, "0.0")
    return f"""util.global private @weights = #util.byte_pattern<1> : tensor<{k}x{n}x{t}>
func.func @main(%a: tensor<{m}x{k}x{t}>) -> tensor<{m}x{n}x{acc}> {{
  %b = util.global.load @weights : tensor<{k}x{n}x{t}>
  %zero = arith.constant {zero} : {acc}
  %empty = tensor.empty() : tensor<{m}x{n}x{acc}>
  %init = linalg.fill ins(%zero : {acc}) outs(%empty : tensor<{m}x{n}x{acc}>) -> tensor<{m}x{n}x{acc}>
  %c = linalg.matmul ins(%a, %b : tensor<{m}x{k}x{t}>, tensor<{k}x{n}x{t}>) outs(%init : tensor<{m}x{n}x{acc}>) -> tensor<{m}x{n}x{acc}>
  return %c : tensor<{m}x{n}x{acc}>
}}
"""


# ---- numpy (OpenBLAS) on one thread, in a subprocess ---------------------------------------

# Runs in a fresh interpreter whose environment pins OpenBLAS to one thread.
_NUMPY_TIMER = r"""
import json, statistics, sys, time
import numpy as np
job = json.loads(sys.argv[1])
m, n, k = job["m"], job["n"], job["k"]
rng = np.random.default_rng(0)
a = rng.standard_normal((m, k), dtype=np.float32)
if job["weights_nk"]:
    w = rng.standard_normal((n, k), dtype=np.float32)
    call = lambda: a @ w.T
else:
    b = rng.standard_normal((k, n), dtype=np.float32)
    call = lambda: a @ b
call()
times = []
for _ in range(job["repetitions"]):
    t0 = time.perf_counter()
    for _ in range(job["iterations"]):
        call()
    times.append((time.perf_counter() - t0) / job["iterations"] * 1e6)
info = {"numpy": np.__version__}
try:
    import threadpoolctl
    blas = [i for i in threadpoolctl.threadpool_info() if i.get("user_api") == "blas"]
    if blas:
        info.update({k: blas[0].get(k) for k in ("internal_api", "version", "architecture", "num_threads")})
except ImportError:
    info["threadpoolctl"] = "not installed"
print(json.dumps({"times_us": times, "info": info}))
"""


def numpy_environment() -> dict[str, str]:
    """This environment with OpenBLAS on one thread and its core-type overrides removed.

    OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are unset together (this workplace sets
    them on some processors for older OpenBLAS builds; they slow a current numpy);
    only for the numpy benchmark's own process.
    """
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    env.update({"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"})
    return env


def numpy_matmul_times(entry: BasketEntry, *, iterations: int, repetitions: int = 3) -> tuple[list[float], dict]:
    """Per-call times (us) of the entry's GEMM in numpy f32 (x @ W.T for [N,K] weights).

    numpy has no int8 GEMM that reaches BLAS, so int8 entries are compared with
    the f32 sgemm of the same sizes (the BLAS reference a user would reach for).
    """
    job = {"m": entry.m, "n": entry.n, "k": entry.k, "weights_nk": entry.weights_nk,
           "iterations": iterations, "repetitions": repetitions}
    proc = subprocess.run([sys.executable, "-c", _NUMPY_TIMER, json.dumps(job)], capture_output=True, text=True,
                          env=numpy_environment(), timeout=600, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"numpy timer failed: {proc.stderr.strip()[-400:]}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    return result["times_us"], result["info"]


# ---- the machine ----------------------------------------------------------------------------

def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine_summary() -> dict:
    import numpy

    return {"cpu": cpu_model(), "cpus": os.cpu_count(), "python": platform.python_version(),
            "iree_compiler": iree_version(), "numpy": numpy.__version__}


def print_header(title: str) -> dict:
    machine = machine_summary()
    print(f"# {title}")
    print(f"# machine: {machine['cpu']}, {machine['cpus']} CPUs; iree-compile {machine['iree_compiler']}; "
          f"numpy {machine['numpy']}; python {machine['python']}")
    return machine


# ---- output ----------------------------------------------------------------------------------

def print_table(headers: list[str], rows: list[list], title: str | None = None) -> str:
    text = format_table(headers, [["-" if c is None else c for c in row] for row in rows],
                        right_align=set(range(1, len(headers))))
    if title:
        print(f"\n## {title}")
    print(text)
    sys.stdout.flush()
    return text


def write_json(path: str | None, document: dict) -> None:
    if not path:
        return
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=target.parent, delete=False, suffix=".tmp") as f:
        json.dump(document, f, indent=2, default=str)
        f.write("\n")
    os.replace(f.name, target)
    print(f"\nraw numbers: {target}")


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# ---- scripts that time one model's builds against each other (conv_fold_lanes, winograd_route) ----

def add_model_arguments(parser, what: str, rounds: int = 5, iterations: int = 10) -> None:
    """MODEL, its --parameters and --input values, --function, --rounds, --iterations, --quick, --json."""
    parser.add_argument("model", nargs="?", help=f"{what} (torch or linalg MLIR)")
    parser.add_argument("--parameters", action="append", default=[], metavar="[SCOPE=]FILE.irpa")
    parser.add_argument("--input", action="append", default=[], metavar="ARG",
                        help="an iree-benchmark-module --input value, e.g. @in0.npy (repeatable)")
    parser.add_argument("--function", default="main")
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--iterations", type=int, default=iterations,
                        help=f"calls per timed repetition (default {iterations})")
    parser.add_argument("--quick", action="store_true", help="the script's built-in small model, one round")
    parser.add_argument("--json", help="write every figure as JSON")


def model_and_inputs(args, work: Path, quick_model: str, quick_inputs: list[str]) -> tuple[Path, list[str]]:
    """The model to time (the built-in one, written into `work`, under --quick) and its
    iree-benchmark-module input and parameter flags."""
    if args.quick:
        model = work / "quick_model.mlir"
        model.write_text(quick_model)
        inputs = list(quick_inputs)
    else:
        model = Path(args.model)
        inputs = [f"--input={value}" for value in args.input]
    return model, inputs + [f"--parameters={p}" for p in args.parameters]


def model_input_convs(model: Path) -> list:
    """The model's static NCHW convolutions as IREE's input form has them (`host.routes.conv_fold.InputConv`)."""
    import iree.compiler as ic

    from iree_dsa_tuner.host.routes.conv_fold import input_convs

    return input_convs(ic.compile_file(str(model), target_backends=["llvm-cpu"],
                                       extra_args=["--compile-to=input"]).decode())


__all__ = [
    "BasketEntry", "REPO", "add_model_arguments", "benchmark_function", "compile_vmfb", "constant_weight_matmul", "cost_view_class",
    "fidelity_functions", "fmt",
    "gen_basket", "geomean",
    "iterations_for", "machine_summary", "median", "model_and_inputs", "model_input_convs", "numpy_environment", "numpy_matmul_times",
    "print_header", "print_table", "progress", "relative_spread", "root_problem", "select_entries",
    "write_json", "write_models",
]
