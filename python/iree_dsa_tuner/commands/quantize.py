"""`iree-dsa-tune quantize`: a float model rewritten into a quantised one (docs/QUANT.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..core.words import plural
from ..errors import InputError
from ..report.table import format_table
from .common import add_json_argument, check_json_destination, emit_json, human_output


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "quantize",
        help="quantise a model's weights for real: a new MLIR and .irpa, with its accuracy measured",
        description="Rewrite MODEL (torch, ONNX or linalg MLIR, as iree-compile accepts it; weights inline or "
        "in .irpa archives) into a quantised model: every contraction that multiplies by a weight reads "
        "INT8 (w8a8) or two-level INT4 grouped along K (w4a8) codes, or bf16, with the layout ops between the "
        "stored weight and its matmul (torch's Linear transpose) applied offline. Activations are quantised "
        "per token at run time, products accumulate in i32 and the rescale is fused into the epilogue. "
        "Softmax, norms and attention stay float; attention written out by hand (matmul, scale, mask, softmax, "
        "matmul) is raised to one attention op, and attention is computed in --attention (bf16 by default). "
        "With --activations static each layer's activation scale is a "
        "calibrated constant instead, and the per-token reduction leaves the model. Writes OUT/model.mlir, OUT/model.irpa and "
        "OUT/quantization.json, then runs both models with IREE on the calibration inputs and reports "
        "max abs error, relative L2 and cosine against the float model.",
        epilog="examples:\n"
        "  iree-dsa-tune quantize policy.mlir --parameters model=policy.irpa --scheme w4a8 -o q/\n"
        "  iree-dsa-tune quantize policy.mlir --scheme w8a8 --method awq --max-rel-l2 0.02 -o q/\n"
        "  iree-compile q/model.mlir ... && iree-run-module --parameters=model=q/model.irpa ...",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("model", metavar="MODEL.mlir")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="directory for model.mlir, model.irpa and "
                   "quantization.json (written whole or not at all)")
    p.add_argument("--scheme", default="w8a8", choices=("w4a8", "w8a8", "bf16"),
                   help="w8a8: INT8 weights per output channel; w4a8: INT4 codes grouped along K with an integer "
                        "scale per group and a float scale per channel; bf16 (default: w8a8)")
    p.add_argument("--method", default="rtn", choices=("rtn", "awq"),
                   help="rtn: round to nearest; awq: activation-aware per-channel scaling, chosen on the "
                        "calibration activations (default: rtn)")
    p.add_argument("--group", type=int, choices=(32, 64, 128), help="w4a8's group along K (default: the largest "
                   "of 128, 64, 32 within --layer-error)")
    p.add_argument("--zero-point", action="store_true", help="w4a8: unsigned codes with a zero point per group")
    p.add_argument("--scale-type", default="f32", choices=("f16", "f32"), help="the per-channel scales' type")
    p.add_argument("--activations", default="token", choices=("token", "static"),
                   help="a8's activation scale: token: max |x| of each token at run time (a reduction per "
                        "layer and call); static: one constant per layer, max |x| over the calibration "
                        "activations (values beyond it saturate), so the quantisation fuses into the op that "
                        "produces x; accuracy is then measured on held-out inputs too (default: token)")
    p.add_argument("--attention", default="bf16", choices=("bf16", "f16", "f32"),
                   help="what attention's Q, K, V and mask are computed in (its softmax accumulates in f32 "
                        "either way); f32 keeps the export's type (default: bf16)")
    p.add_argument("--layer-error", type=float, metavar="REL_L2",
                   help="a layer's output error budget on its calibration activations: over it, the layer falls "
                        "back (w4a8 -> w8a8 -> bf16) and the report names it")
    p.add_argument("--max-rel-l2", type=float, metavar="REL_L2",
                   help="the model's output budget against the float model; over it, layers are quantised "
                        "again under tighter layer budgets, and an error names the best reached")
    p.add_argument("--parameters", action="append", default=[], metavar="[SCOPE=]FILE.irpa",
                   help="the model's parameter archives (default: random ones from --seed, for trying it out)")
    p.add_argument("--calibration", action="append", default=[], metavar="FUNCTION=A.npy,B.npy",
                   help="calibration inputs of one public function, one .npy per argument (default: seeded)")
    p.add_argument("--calibration-samples", type=int, default=1, metavar="N", help="seeded input sets (default 1)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--min-weight-elements", type=int, default=16384, metavar="N",
                   help="smaller weights stay float (default 16384), except a convolution's that is read at least "
                        "64 x N times a call (a ResNet stem)")
    p.add_argument("--weight-argument", action="append", type=int, default=[], metavar="I",
                   help="argument I of the model's public function is a weight (repeatable): it becomes a "
                        "parameter (values from --parameters under the key FUNCTION.argI, else seeded) and is "
                        "quantised; the quantised model no longer takes it")
    add_json_argument(p, "the report (what each weight became, the accuracy)")
    p.set_defaults(func=run)


def _calibration(values: list[str]) -> dict[str, list[Path]]:
    out = {}
    for text in values:
        name, sep, files = text.partition("=")
        if not sep or not name or not files:
            raise InputError(f"--calibration {text!r}: expected FUNCTION=A.npy[,B.npy...]")
        paths = [Path(f) for f in files.split(",")]
        for path in paths:
            if not path.is_file():
                raise InputError(f"--calibration: {path}: no such file")
        out[name] = paths
    return out


def run(args: argparse.Namespace) -> int:
    from ..quant import QuantOptions, quantize_model

    check_json_destination(args)
    options = QuantOptions(scheme=args.scheme, method=args.method, group=args.group, zero_point=args.zero_point,
                           scale_type=args.scale_type, activations=args.activations, attention=args.attention,
                           layer_error=args.layer_error, max_rel_l2=args.max_rel_l2,
                           min_weight_elements=args.min_weight_elements,
                           calibration_samples=args.calibration_samples, seed=args.seed)
    model = Path(args.model)
    if not model.is_file():
        raise InputError(f"{model}: no such file")
    out = human_output(args)
    result = quantize_model(model, options, given_parameters=tuple(args.parameters), output=args.output,
                            npy=_calibration(args.calibration), weight_arguments=tuple(args.weight_argument),
                            say=lambda text: print(text, file=sys.stderr))
    if args.json:
        emit_json(args, result.to_json())
    rows = [[s.name, f"{s.n}x{s.k}", s.form, f"{s.error:.4f}" if s.error is not None else "-",
             "-" if s.alpha is None else f"{s.alpha:g}", s.reason] for s in result.sites]
    print(format_table(["weight", "N x K", "form", "layer rel L2", "awq alpha", "note"], rows), file=out)
    for text in result.fused_attention:
        print(f"fused attention: {text}", file=out)
    if result.attention_converted:
        print(f"attention in {options.attention}: {plural(result.attention_converted, 'op')}", file=out)
    for text in result.folded:
        print(f"folded: {text}", file=out)
    wb = result.weight_bytes
    print(f"\nweights: {wb['float'] / 1e6:.2f} MB float -> {wb['quantized'] / 1e6:.2f} MB stored", file=out)
    measured_on = "IREE, host" + (", calibration and held-out inputs" if args.activations == "static" else "")
    for name, acc in sorted(result.accuracy.items()):
        print(f"@{name} against the float model ({measured_on}): {acc.describe()}", file=out)
    print(f"wrote {result.mlir} and {', '.join(result.archives)}", file=out)
    if result.host_spec is not None:
        print(f"for a CPU build add --iree-codegen-tuning-spec-path={result.host_spec}: it keeps attention's "
              f"head width whole (IREE 3.13's own CPU config steps a 256-wide head and computes wrong "
              f"results; the accuracy above was measured with it)", file=out)
    if result.archives:
        print(f"run it with: iree-run-module --module=... --parameters={result.archives[0]}", file=out)
    return 0
