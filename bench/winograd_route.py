"""The Winograd route, taken apart: a model built with im2col (with and without inner-tiled), with
IREE's Winograd pass alone, with the route (the pass plus the hoisting threshold) on every 3x3
convolution, and with its selective presets (only the convolutions with many output blocks),
interleaved, one thread.

    python bench/winograd_route.py MODEL.mlir [--parameters SCOPE=FILE.irpa] [--input ARG ...]
                                   [--cpu CPU] [--rounds 5] [--json OUT]
    python bench/winograd_route.py --quick        (a small two-convolution model, one round)

The route (host/routes/winograd.py, docs/CONV.md) is two flags: IREE's `iree-linalg-ext-convert-conv2d-to-winograd`
on every 3x3 stride-1 convolution, and `--iree-opt-const-expr-max-size-increase-threshold` raised to the
model's largest transformed filter, so that the filter transforms of parameter filters run once at load.
The builds, each on the global data-tiling path with IREE's im2col for the convolutions the pass leaves:

- `im2col`: im2col + global data tiling (the route's baseline: the same build without the pass);
- `im2col+inner-tiled`: the same with inner-tiled data tiling (which the Winograd build cannot use:
  IREE 3.13 does not materialize its batch GEMM's encodings under it);
- `conv-fold+inner-tiled`: the batch-fold route's preset with inner-tiled, where it folds any
  convolution (the Diffusion Policy encoder's recipe without Winograd);
- `winograd, default threshold`: the pass with IREE's default hoisting threshold (1 MiB);
- `winograd route`: the pass with the route's threshold (the preset `im2col+winograd+gdt`);
- `im2col+winograd-bT[+conv-fold]+gdt`: the route's selective presets, as the tuner plans them for
  this machine (`selective_presets`: the 3x3 convolutions with at least T 6x6 output blocks converted
  by a preprocessing script, the rest folded where the batch-fold route folds them).

`--cpu` defaults to the code this machine's host readings compile (`host`, or x86-64-v3 under
`IREE_DSA_HOST_ISA=avx2`); the selective presets' folds use the host description's lanes.
Medians of each round's median of 3 repetitions, over interleaved rounds. ACT (its 240x320 camera):

    python bench/winograd_route.py /work/lerobot-out/act.mlir --parameters model=/work/lerobot-out/act.irpa \\
        --input @/work/lerobot-out/act.in0.npy --input @/work/lerobot-out/act.in1.npy --rounds 5
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import common

from iree_dsa_tuner.compiler import compile_to_vmfb
from iree_dsa_tuner.errors import CompileError
from iree_dsa_tuner.flags import CPU_FLAG, GLOBAL_DATA_TILING_FLAG, HOST_FLAGS, IM2COL_FLAG, INNER_TILED_FLAG, TRANSFORM_FLAG
from iree_dsa_tuner.core.host_isa import host_target_cpu
from iree_dsa_tuner.host.routes.conv_fold import conv_fold_flags, folded_convs
from iree_dsa_tuner.host.routes.winograd import (WINOGRAD_PIPELINE, converts, output_blocks, selective_presets,
                                                 winograd_flags)
from iree_dsa_tuner.host.target import machine_description

BASE = (IM2COL_FLAG, GLOBAL_DATA_TILING_FLAG)
# Two 3x3 stride-1 convolutions, 60x80 and 15x20 outputs (ACT's layers 1 and 3, fewer channels),
# weights as globals.
QUICK_MODEL = """
util.global private @w1 = #util.byte_pattern<1> : tensor<32x32x3x3xf32>
util.global private @w3 = #util.byte_pattern<2> : tensor<64x64x3x3xf32>
func.func @main(%x: tensor<1x32x62x82xf32>, %y: tensor<1x64x17x22xf32>) -> (tensor<1x32x60x80xf32>, tensor<1x64x15x20xf32>) {
  %zero = arith.constant 0.0 : f32
  %w1 = util.global.load @w1 : tensor<32x32x3x3xf32>
  %w3 = util.global.load @w3 : tensor<64x64x3x3xf32>
  %e1 = tensor.empty() : tensor<1x32x60x80xf32>
  %a1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x32x60x80xf32>) -> tensor<1x32x60x80xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x, %w1 : tensor<1x32x62x82xf32>, tensor<32x32x3x3xf32>) outs(%a1 : tensor<1x32x60x80xf32>) -> tensor<1x32x60x80xf32>
  %e3 = tensor.empty() : tensor<1x64x15x20xf32>
  %a3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x64x15x20xf32>) -> tensor<1x64x15x20xf32>
  %c3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%y, %w3 : tensor<1x64x17x22xf32>, tensor<64x64x3x3xf32>) outs(%a3 : tensor<1x64x15x20xf32>) -> tensor<1x64x15x20xf32>
  return %c1, %c3 : tensor<1x32x60x80xf32>, tensor<1x64x15x20xf32>
}
"""
QUICK_INPUTS = ["--input=1x32x62x82xf32=1", "--input=1x64x17x22xf32=1"]


def _short(flag: str) -> str:
    """A flag for the table: a script named by its file name (it lives in a temporary directory)."""
    name, _, value = flag.partition("=")
    return f"{name}={Path(value).name}" if name == TRANSFORM_FLAG else flag


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    common.add_model_arguments(parser, "a model with 3x3 stride-1 convolutions", iterations=5)
    parser.add_argument("--cpu", default=host_target_cpu(),
                        help=f"--iree-llvmcpu-target-cpu (default {host_target_cpu()}: this machine's host code)")
    args = parser.parse_args(argv)
    if not args.quick and not args.model:
        parser.error("give MODEL.mlir, or --quick")
    rounds = 1 if args.quick else args.rounds

    machine = common.print_header("the Winograd route taken apart: im2col, the pass alone, the route; one thread")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        model, inputs = common.model_and_inputs(args, work, QUICK_MODEL, QUICK_INPUTS)
        all_convs = common.model_input_convs(model)
        convs = [c for c in all_convs if converts(c)]  # what the route converts
        route = winograd_flags(convs)
        if not route:
            print(f"{model.name}: no 3x3 stride-1 f32 convolution: nothing for the route to do")
            return 0
        common.progress(f"{len(convs)} convolution shape(s) convert: "
                        + ", ".join(f"{c.filter_shape[1]}->{c.filter_shape[0]} ch, {output_blocks(c)} blocks"
                                    for c in convs) + f"; route flags: {' '.join(route[1:])}")
        cpu = machine_description().cpu
        variants = {"im2col": BASE, "im2col+inner-tiled": BASE + (INNER_TILED_FLAG,)}
        folded = folded_convs(all_convs, cpu)
        if folded:
            variants["conv-fold+inner-tiled"] = (IM2COL_FLAG, *conv_fold_flags(folded, work), GLOBAL_DATA_TILING_FLAG,
                                                 INNER_TILED_FLAG)
        variants.update({"winograd, default threshold": (IM2COL_FLAG, WINOGRAD_PIPELINE, GLOBAL_DATA_TILING_FLAG),
                         "winograd route": (IM2COL_FLAG, *route, GLOBAL_DATA_TILING_FLAG)})
        variants.update(selective_presets(all_convs, cpu, work))
        target = HOST_FLAGS[:-1] + (f"{CPU_FLAG}{args.cpu}",)
        builds, failed = {}, {}
        for name, flags in variants.items():
            common.progress(f"compiling {name}")
            vmfb = work / f"{len(builds) + len(failed)}.vmfb"
            try:
                compile_to_vmfb(model, vmfb, extra_flags=flags, target_flags=target, timeout_s=900.0)
            except CompileError as e:  # inner-tiled does not build beside batched GEMMs (ACT's attention)
                failed[name] = str(e).splitlines()[0][:160]
                common.progress(f"{name} does not build: {failed[name]}")
                continue
            builds[name] = vmfb
        if "winograd route" not in builds:
            print(f"{model.name}: the route's build failed: {failed['winograd route']}")
            return 1
        samples = {name: [] for name in builds}
        for r in range(rounds):
            common.progress(f"round {r + 1}/{rounds}")
            for name, vmfb in builds.items():
                samples[name].append(common.median(common.benchmark_function(
                    vmfb, inputs, iterations=args.iterations, function=args.function)))
    us = {name: common.median(values) for name, values in samples.items()}
    rows = [[name, common.fmt(us[name], ".0f"), common.fmt(us[name] / us["winograd route"], ".2f", "x"),
             " ".join(_short(f) for f in variants[name])] if name in us else [name, "-", "-", f"does not build: {failed[name]}"]
            for name in variants]
    common.print_table(["build", "us", "this / route", "flags (beside the target's)"], rows,
                       title=f"{model.name} on {args.cpu}; median of {rounds} interleaved round(s)")
    common.write_json(args.json, {"machine": machine, "model": str(model), "cpu": args.cpu, "rounds": rounds,
                                  "route_flags": list(route), "us": us, "samples": samples,
                                  "does_not_build": failed})
    return 0


if __name__ == "__main__":
    sys.exit(main())
