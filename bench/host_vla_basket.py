"""The host over the VLA basket: IREE's default vs what `iree-dsa-tune tune --target host` gives.

    python bench/host_vla_basket.py [--quick] [--shape NAME ...] [--kind matmul|attention|conv1d|conv2d]
                                    [--rounds 3] [--confirm-rounds 5] [--budget 16] [--no-conv-route] [--time-refused]
                                    [--weights constant|arguments] [--json OUT]

The 61 dispatches of tools/gen_vla_basket.py (pi0, OpenVLA, GR00T-style DiT, Diffusion Policy at
real sizes; `--shape` takes its op names, `python tools/gen_vla_basket.py --list`), one model each,
in the form a deployed model has them: a GEMM's or a convolution's weights are a `util.global`
constant (`#util.byte_pattern`: opaque bytes, so what is timed is the schedule, not the values),
`@main(activations)`; attention's Q, K and V stay arguments (they are activations).
`--weights arguments` keeps every operand an argument (the generator's own files).

Per dispatch:
1. The model is compiled once with IREE's defaults and its dispatches read (the tuner's own
   discovery). A batch-1 convolution, which IREE 3.13 will not take a spec config for, gets what
   `tune` gives it: the conv route's flags (ir/conv_route.py, docs/CONV.md) as two more presets
   (`--no-conv-route`: none). A dispatch refused with no route is listed with the refusal's
   reason; `--time-refused` also runs the recipe on it (its flag presets may still act).
2. `tune_recipe`, exactly what `tune --target host` runs (flag presets timed on the whole model,
   the dispatches the chosen flags leave tunable searched at `--budget`, a spec kept only when the
   whole model confirms it): tuning seconds and dispatch measurements are recorded.
3. Confirmation, independent of the decisions in 2 (which picked the winner from the same rounds,
   so their figures favour it): IREE's default and the recipe (flags + spec) compiled again and the
   whole entry function timed in `--confirm-rounds` interleaved rounds (`WholeModelTimer`: one
   thread, local-sync), medians. When the recipe is IREE's default (no flag, no spec) both are the
   same build and the ratio is 1 by construction; only the default is timed.

The summary states the property users rely on: the tuned model is never slower than IREE's
default beyond the noise (tuned median > default median x (1 + max(3%, the rounds' noise)), the
noise being `Variant.noise`, 2 x MAD / median), on how many dispatches it held, the geomean
tuned / default and the worst dispatch.

Why a script of its own rather than `host_basket.py --basket vla`: host_basket's rows are
tools/gen_basket.py GEMM entries with columns that only mean something for a GEMM (numpy's
OpenBLAS time, weight-streaming GB/s, a weights-as-arguments twin, the entry groups); the VLA
rows are GEMMs, attention and convolutions, carry refusals, and are judged on the never-slower
rule with an independent confirmation. Sharing one main() would be two scripts behind flags.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from pathlib import Path

import common  # noqa: F401  (puts tools/ on sys.path)
import gen_vla_basket as gen

QUICK = ("matmul_2x256x512",)
# Below this a whole-model difference is not called slower (the timer's own floor is 2%).
NOISE_FLOOR = 0.03
KINDS = ("matmul", "attention", "conv1d", "conv2d")


# ---- the models (pure text) ------------------------------------------------------------------

def _tensor(dims, element: str) -> str:
    return "tensor<" + "x".join(str(d) for d in dims) + f"x{element}>"


def weight_operand(op: gen.BasketOp, element: str = "f32") -> tuple[str, str] | None:
    """(argument name, type) of the op's weights in gen_vla_basket's text; None for attention."""
    s = op.sizes
    if op.kind == "matmul":
        return "%b", _tensor((s["k"], s["n"]), element)
    if op.kind == "conv2d":
        return "%w", _tensor((s["kh"], s["kw"], s["cin"], s["cout"]), element)
    if op.kind == "conv1d":
        return "%w", _tensor((s["kw"], s["cin"], s["cout"]), element)
    return None


def activation_signature(op: gen.BasketOp, element: str = "f32", *,
                         weights_as_arguments: bool = False) -> list[tuple[tuple[int, ...], str]]:
    """The entry function's arguments (shape, element type), in order, as `WholeModelTimer` takes them."""
    s = op.sizes
    if op.kind == "attention":
        q, kv = (s["batch"], s["m"], s["k1"]), (s["batch"], s["k2"], s["k1"])
        return [(q, element), (kv, element), (kv, element)]
    if op.kind == "matmul":
        args, weights = [((s["m"], s["k"]), element)], ((s["k"], s["n"]), element)
    elif op.kind == "conv2d":
        args, weights = [((1, s["ih"], s["iw"], s["cin"]), element)], ((s["kh"], s["kw"], s["cin"], s["cout"]), element)
    else:
        args = [((1, s["t"] + s["kw"] - 1, s["cin"]), element)]
        weights = ((s["kw"], s["cin"], s["cout"]), element)
    return args + [weights] if weights_as_arguments else args


def deployed_text(op: gen.BasketOp, element: str = "f32") -> str:
    """The op's model with its weights a `util.global` constant, `@main(activations)`.

    Attention has no weights: its text is gen_vla_basket's unchanged.
    """
    text = gen.op_mlir(op, element)
    weights = weight_operand(op, element)
    if weights is None:
        return text
    name, ty = weights
    argument = f", {name}: {ty})"
    if argument not in text:
        raise ValueError(f"{op.name}: weight argument {name}: {ty} not found in the generated model")
    text = text.replace(argument, ")", 1)
    head, sep, body = text.partition(" {\n")  # after the function's signature
    global_name = "@weights"
    return (f"util.global private {global_name} = #util.byte_pattern<1> : {ty}\n" + head + sep
            + f"  {name} = util.global.load {global_name} : {ty}\n" + body)


def select_ops(names: list[str], kinds: list[str], quick: bool) -> list[gen.BasketOp]:
    ops = gen.basket_ops()
    if names:
        known = {op.name: op for op in ops}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise SystemExit(f"host_vla_basket.py: not in the VLA basket: {', '.join(unknown)} "
                             f"(python tools/gen_vla_basket.py --list)")
        ops = [known[n] for n in dict.fromkeys(names)]
    elif quick:
        ops = [op for op in ops if op.name in QUICK]
    if kinds:
        ops = [op for op in ops if op.kind in kinds]
    return ops


# ---- the never-slower rule (pure) ----------------------------------------------------------

def slower_beyond_noise(default_us: float, tuned_us: float, noise: float = 0.0,
                        floor: float = NOISE_FLOOR) -> bool:
    """Tuned slower than the default by more than max(floor, noise) (relative to the default)."""
    return tuned_us > default_us * (1.0 + max(floor, noise))


def summarize(rows: list[dict], floor: float = NOISE_FLOOR) -> dict:
    """The never-slower verdict over timed rows; refused and failed rows listed, not counted.

    A row is timed when it has both `default_us` and `tuned_us`; `noise` (optional) is the
    larger relative noise of its two variants.
    """
    timed, refused, failed = [], [], []
    for r in rows:
        if r.get("refused") and not r.get("tuned_us"):
            refused.append({"name": r["name"], "reason": r["refused"]})
        elif r.get("error") or not (r.get("default_us") and r.get("tuned_us")):
            failed.append({"name": r["name"], "error": r.get("error") or "no timing"})
        else:
            timed.append(r)
    ratios = {r["name"]: r["tuned_us"] / r["default_us"] for r in timed}
    slower = [{"name": r["name"], "ratio": ratios[r["name"]], "noise": max(floor, r.get("noise") or 0.0)}
              for r in timed if slower_beyond_noise(r["default_us"], r["tuned_us"], r.get("noise") or 0.0, floor)]
    geomean = math.exp(sum(math.log(v) for v in ratios.values()) / len(ratios)) if ratios else None
    worst = max(ratios.items(), key=lambda kv: kv[1]) if ratios else None
    best = min(ratios.items(), key=lambda kv: kv[1]) if ratios else None
    return {"timed": len(timed), "held": len(timed) - len(slower), "slower": slower,
            "geomean_tuned_over_default": geomean, "worst": worst, "best": best,
            "refused": refused, "failed": failed,
            "faster_beyond_noise": sum(1 for r in timed if slower_beyond_noise(
                r["tuned_us"], r["default_us"], r.get("noise") or 0.0, floor))}


def summary_lines(summary: dict, floor: float = NOISE_FLOOR) -> list[str]:
    lines = []
    if summary["timed"]:
        slower = ", ".join(f"{s['name']} ({s['ratio']:.2f}x, noise {s['noise']:.0%})" for s in summary["slower"])
        lines.append(f"tuned never slower than IREE's default beyond the noise (max({floor:.0%}, rounds' noise)): "
                     f"held on {summary['held']}/{summary['timed']} timed dispatches"
                     + (f"; slower: {slower}" if slower else ""))
        g = summary["geomean_tuned_over_default"]
        lines.append(f"geomean tuned / default: {g:.3f} ({1 / g:.2f}x faster); "
                     f"worst: {summary['worst'][0]} {summary['worst'][1]:.3f}; "
                     f"best: {summary['best'][0]} {summary['best'][1]:.3f}; "
                     f"faster beyond the noise: {summary['faster_beyond_noise']}/{summary['timed']}")
    else:
        lines.append("no dispatch timed")
    for r in summary["refused"]:
        lines.append(f"refused {r['name']}: {r['reason']}")
    for r in summary["failed"]:
        lines.append(f"FAILED {r['name']}: {r['error']}")
    return lines


# ---- running one dispatch ----------------------------------------------------------------------

def refusal(artifacts) -> str | None:
    """Why the tuner cannot tune this one-op model's dispatch (None when it can)."""
    from iree_dsa_tuner.core.problems import UntunableDispatch

    problems = artifacts.problems()
    tunable = [p for p in problems if not isinstance(p, UntunableDispatch)]
    if tunable:
        return None
    reasons = [p.reason for p in problems if isinstance(p, UntunableDispatch)]
    return reasons[0] if reasons else "no dispatch found"


def conv_route_presets(artifacts) -> dict | None:
    """The flag presets `tune --target host` gives a model with a batch-1 conv (commands/tune.py):
    IREE's plus the conv route's flags alone and with data tiling (either path); None without such a conv."""
    from iree_dsa_tuner.ir.artifacts import route_batch1_convs
    from iree_dsa_tuner.host.flag_presets import FLAG_PRESETS
    from iree_dsa_tuner.host.routes.batch1_conv import route_presets

    _, route = route_batch1_convs(artifacts, say=common.progress)
    if not route:
        return None
    return dict(FLAG_PRESETS, **route_presets(route.flags))


def _recipe_name(result) -> str:
    chosen = next((v.name for v in result.variants if tuple(v.flags) == tuple(result.recipe.flags)
                   and not v.name.endswith("+spec")), "?")
    return chosen + ("+spec" if result.spec_text else "")


def confirm(model: Path, signature, flags: tuple[str, ...], spec: Path | None, rounds: int, work: Path) -> dict:
    """IREE's default vs flags + spec on the whole entry function, interleaved rounds, medians in us."""
    from iree_dsa_tuner.host.whole_model import Variant, WholeModelTimer
    from iree_dsa_tuner.targets import get_target

    timer = WholeModelTimer(model, get_target("host").compile_flags, "main", signature, work_dir=work)
    default = timer.compile(Variant("default"))
    variants = [default]
    tuned = None
    if flags or spec:
        tuned = timer.compile(Variant("tuned", flags, spec=spec))
        variants.append(tuned)
    timer.time(variants, rounds)
    out = {"default_us": default.median_us, "default_rounds_us": [round(t, 2) for t in default.times_us],
           "error": default.error or (tuned.error if tuned else "") or None}
    if tuned is None:
        out.update(tuned_us=default.median_us, tuned_rounds_us=None, noise=default.noise, same_build=True)
    else:
        out.update(tuned_us=tuned.median_us, tuned_rounds_us=[round(t, 2) for t in tuned.times_us],
                   noise=max(default.noise, tuned.noise), same_build=False)
    return out


def run_op(op: gen.BasketOp, work: Path, args) -> dict:
    from iree_dsa_tuner import compile_model
    from iree_dsa_tuner.host.recipe import tune_recipe
    from iree_dsa_tuner.search.options import TuneOptions
    from iree_dsa_tuner.targets import get_target

    target = get_target("host")
    as_args = args.weights == "arguments"
    model = work / f"{op.name}.mlir"
    model.write_text(gen.op_mlir(op, args.type) if as_args else deployed_text(op, args.type))
    row = {"name": op.name, "model": op.model, "kind": op.kind, "what": op.what, "gflop": op.flops / 1e9}
    t0 = time.perf_counter()
    base = compile_model(model, target.compile_flags)
    why = refusal(base)
    presets = conv_route_presets(base) if not args.no_conv_route else None
    if presets:
        row["conv_route"] = list(presets["conv-route"])
    if why:
        row["refused"] = why
        if not presets and not args.time_refused:
            return row
    options = TuneOptions(budget=args.budget, repetitions=3, time_budget_s=args.time_budget)
    result = tune_recipe(model, target, options, rounds=args.rounds, progress=common.progress, presets=presets)
    row["tuning_s"] = round(time.perf_counter() - t0, 1)
    dispatches = result.tune_result.dispatches if result.tune_result else []
    row["measurements"] = sum(d.measured for d in dispatches)
    row["recipe"] = _recipe_name(result)
    row["recipe_flags"] = list(result.recipe.flags)
    row["spec_kept"] = bool(result.spec_text)
    row["spec_found"] = bool(result.tune_result and result.tune_result.spec_text)
    row["notes"] = list(result.notes)
    row["recipe_variants"] = [v.to_json() for v in result.variants]
    spec = None
    if result.spec_text:
        spec = work / f"{op.name}.spec.mlir"
        spec.write_text(result.spec_text)
    confirm_dir = work / f"{op.name}.confirm"
    confirm_dir.mkdir(exist_ok=True)
    row.update(confirm(model, activation_signature(op, args.type, weights_as_arguments=as_args),
                       tuple(result.recipe.flags), spec, args.confirm_rounds, confirm_dir))
    for vmfb in confirm_dir.glob("*.vmfb"):  # constant-weight modules are large; keep the disk free
        vmfb.unlink()
    return row


def table_row(r: dict, floor: float = NOISE_FLOOR) -> list:
    fmt = common.fmt
    if r.get("refused") and not r.get("tuned_us"):
        return [r["name"], r["model"], r["kind"], fmt(r["gflop"], ".3f"), "-", "-", "-", "-", "refused", "-", "-", "-", "-"]
    if r.get("error") and not r.get("tuned_us"):
        return [r["name"], r.get("model", "?"), r.get("kind", "?"), fmt(r.get("gflop"), ".3f"), "-", "-", "-", "-",
                "FAILED", "-", "-", "-", "-"]
    ratio = r["tuned_us"] / r["default_us"] if r.get("tuned_us") and r.get("default_us") else None
    spec = "kept" if r.get("spec_kept") else ("not kept" if r.get("spec_found") else "none")
    held = "-" if ratio is None else ("NO" if slower_beyond_noise(r["default_us"], r["tuned_us"],
                                                                   r.get("noise") or 0.0, floor) else "yes")
    return [r["name"], r["model"], r["kind"], fmt(r["gflop"], ".3f"), fmt(r.get("default_us"), ".1f"),
            fmt(r.get("tuned_us"), ".1f"), fmt(ratio, ".3f"), fmt(100 * (r.get("noise") or 0), ".0f", "%"),
            r.get("recipe", "-") + (" (same build)" if r.get("same_build") else ""), spec,
            r.get("tuning_s"), r.get("measurements"), held]


HEADERS = ["dispatch", "model", "kind", "GFLOP", "default us", "tuned us", "tuned/default", "noise",
           "tune gives", "spec", "tune s", "meas.", "never slower"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help=f"one small dispatch ({', '.join(QUICK)})")
    parser.add_argument("--shape", action="append", default=[], metavar="NAME",
                        help="a VLA basket op name (repeatable; python tools/gen_vla_basket.py --list)")
    parser.add_argument("--kind", action="append", default=[], choices=KINDS, help="only ops of this kind (repeatable)")
    parser.add_argument("--type", default="f32", choices=("f32", "bf16"), help="operand element type (default f32)")
    parser.add_argument("--weights", default="constant", choices=("constant", "arguments"),
                        help="GEMM/conv weights as a util.global constant (deployed; default) or as arguments")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved whole-model rounds per recipe decision "
                                                               "(tune's --rounds)")
    parser.add_argument("--confirm-rounds", type=int, default=5, help="interleaved rounds of the final default vs tuned")
    parser.add_argument("--budget", type=int, default=16, help="dispatch measurements per dispatch (tune's --budget)")
    parser.add_argument("--time-budget", type=float, default=None, metavar="S",
                        help="tune's --time-budget per model (default: none, as tune)")
    parser.add_argument("--no-conv-route", action="store_true",
                        help="tune's --no-conv-route: no batch-1 conv route presets (such convs are then refused)")
    parser.add_argument("--time-refused", action="store_true",
                        help="run the recipe on dispatches the tuner refuses too (flag presets only)")
    parser.add_argument("--json", help="write every figure as JSON (rewritten after each dispatch)")
    args = parser.parse_args()
    ops = select_ops(args.shape, args.kind, args.quick)
    machine = common.print_header(f"host over the VLA basket: IREE default vs tune --target host, whole model, "
                                  f"{args.type}, weights {args.weights}, 1 thread")
    print(f"# budget {args.budget}, recipe rounds {args.rounds}, confirmation rounds {args.confirm_rounds}"
          + (f", time budget {args.time_budget:g} s per model" if args.time_budget else "")
          + f"; {len(ops)} dispatches")
    rows: list[dict] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="host-vla-basket-") as tmp:
        for n, op in enumerate(ops, start=1):
            common.progress(f"[{n}/{len(ops)} {time.perf_counter() - started:.0f} s] {op.name} "
                            f"({op.model} {op.what}, {op.flops / 1e9:.3f} GFLOP)")
            work = Path(tmp) / op.name
            work.mkdir()
            try:
                r = run_op(op, work, args)
            except Exception as e:  # one dispatch failing must not lose the others' figures
                r = {"name": op.name, "model": op.model, "kind": op.kind, "gflop": op.flops / 1e9,
                     "error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}
            rows.append(r)
            if r.get("refused") and not r.get("tuned_us"):
                common.progress(f"    refused: {r['refused']}")
            elif r.get("error") and not r.get("tuned_us"):
                common.progress(f"    FAILED: {r['error']}")
            else:
                common.progress(f"    default {common.fmt(r.get('default_us'), '.1f')} us, tuned "
                                f"{common.fmt(r.get('tuned_us'), '.1f')} us ({r['recipe']}), tuning {r['tuning_s']} s, "
                                f"{r['measurements']} measurements" + (f"; {'; '.join(r['notes'])}" if r['notes'] else ""))
            if args.json:  # so far, in case the run is stopped
                Path(args.json).with_suffix(".partial.json").write_text(
                    json.dumps({"machine": machine, "args": vars(args), "rows": rows}, indent=1, default=str))
    common.print_table(HEADERS, [table_row(r) for r in rows],
                       title="whole function @main, median of interleaved rounds (tuned/default < 1 = faster)")
    summary = summarize(rows)
    print()
    for line in summary_lines(summary):
        print(line)
    tuned = [r for r in rows if r.get("tuning_s") is not None]
    if tuned:
        seconds = sorted(r["tuning_s"] for r in tuned)
        print(f"tuning time per dispatch: median {common.median(seconds):.0f} s, max {seconds[-1]:.0f} s; "
              f"measurements: median {common.median([r['measurements'] for r in tuned]):.0f}, "
              f"max {max(r['measurements'] for r in tuned)}; wall {time.perf_counter() - started:.0f} s")
    for r in rows:
        for note in r.get("notes", []):
            print(f"{r['name']}: {note}")
    common.write_json(args.json, {"machine": machine, "args": vars(args), "rows": rows, "summary": summary})
    if args.json:
        Path(args.json).with_suffix(".partial.json").unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
