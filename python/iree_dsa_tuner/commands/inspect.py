"""`iree-dsa-tune inspect`: list every dispatch IREE makes and its root-op problem."""

from __future__ import annotations

import argparse

from ..flags import check_iree_flags
from ..ir import compile_model
from ..report import format_table, plural
from .common import (add_dispatch_argument, add_json_argument, add_parameters_argument, add_target_argument,
                     check_json_destination, emit_json, select_dispatches, target_compile_flags)
from .common import JSON_TO_STDOUT


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "inspect",
        help="list dispatches and their root ops",
        description="Compile MODEL through IREE up to its executable sources and list every dispatch: "
        "its root op kind (contraction, convolution, attention, or none with a reason), the loop "
        "sizes grouped as MLIR's linalg.infer_contraction_dimensions / infer_convolution_dimensions "
        "group them, operand types, flops, bytes and arithmetic intensity.",
    )
    p.add_argument("model", metavar="MODEL.mlir", help="linalg/tensor, torch-dialect or ONNX-imported MLIR")
    add_target_argument(p)
    add_json_argument(p, "one array of the dispatches")
    add_dispatch_argument(p, "list")
    p.add_argument("--iree-flag", action="append", default=[], metavar="FLAG",
                   help="one more iree-compile flag for the dump (repeatable), e.g. "
                        "--iree-flag=--iree-dispatch-creation-enable-aggressive-fusion, which fuses an INT4 "
                        "dequantisation into its matvec (docs/INT4.md)")
    add_parameters_argument(p)
    p.set_defaults(func=run)


def _sizes_text(sizes: dict) -> str:
    return " ".join(f"{k}={'x'.join(map(str, v)) if v else '-'}" for k, v in sizes.items())


def _weight_text(record: dict) -> str:
    q = record.get("weight_quant")
    if not q:
        return ""
    where = {"fused": "fused", "split": f"split, dequantised by {q['producer']}",
             "hoisted": f"hoisted, dequantised once at load by {q['producer']}"}.get(q["form"], q["form"])
    return f"  weight {q['type']} group {q['group_size']} ({where})"


def run(args: argparse.Namespace) -> int:
    check_iree_flags(args.iree_flag)
    check_json_destination(args)
    from ..parameters import read_model_parameters, resolve_parameters, unbound_text

    # Given archives are checked against the model before the compile; none given: once IREE has
    # accepted the model, say what it reads (and make nothing).
    parameters = resolve_parameters(args.model, args.parameters) if args.parameters else None
    artifacts = compile_model(args.model, target_compile_flags(args) + tuple(args.iree_flag))
    weights = list(parameters.globals) if parameters is not None else read_model_parameters(args.model)
    problems, calls = artifacts.problems(), artifacts.calls()
    chosen = set(select_dispatches([p.dispatch for p in problems], args.dispatch, args.model))
    problems = [p for p in problems if p.dispatch in chosen]
    # IREE runs one executable for identical ops: calls counts them per call of every public function.
    records = [{**p.to_json(), "calls": calls.get(p.dispatch, 0)} for p in problems]
    if args.json:
        emit_json(args, records)
        if args.json == JSON_TO_STDOUT:  # the array alone on stdout, for a pipe
            return 0
    rows = []
    for r in records:
        if r["kind"] == "none":
            rows.append([r["dispatch"], r["calls"], "none", r["op"] or "-", r["reason"], "", "", ""])
        else:
            types = f"{r['lhs_type']} {r['rhs_type']} -> {r['out_type']}"
            rows.append([r["dispatch"], r["calls"], r["kind"], r["op"],
                         _sizes_text(r["sizes"]) + "  " + types + _weight_text(r),
                         r["flops"], r["bytes"], f"{r['intensity']:.2f}"])
    print(format_table(["dispatch", "calls", "kind", "root op", "sizes / reason", "flops", "bytes", "op/B"], rows,
                       right_align={1, 5, 6, 7}))
    tunable = sum(1 for r in records if r["kind"] in ("contraction", "convolution", "attention"))
    total_calls = sum(r["calls"] for r in records)
    print(f"\n{plural(len(records), 'dispatch')}, {tunable} tunable; {plural(total_calls, 'call')} "
          "per call of every public function")
    for note in artifacts.host_program().notes:
        print(f"note: {note}")
    line = parameters.describe() if parameters is not None else unbound_text(weights)
    if line:
        print(line)
    return 0
