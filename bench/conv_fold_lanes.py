"""The batch-fold route's rule by lane count: a model built without the route, and with the route's
script for 16 lanes and for 8, for each target CPU, timed interleaved, one thread.

    python bench/conv_fold_lanes.py MODEL.mlir [--parameters SCOPE=FILE.irpa] [--input ARG ...]
                                    [--cpu host --cpu haswell] [--rounds 5] [--json OUT]
    python bench/conv_fold_lanes.py --quick        (a small two-convolution model, one round)

The route (host/routes/conv_fold.py, docs/CONV.md) folds a batched NCHW convolution's images into one GEMM
when the images' pixels together fill the data-tiling lanes better than one image's do, so what it
folds depends on the lanes: 16 f32 with AVX-512, 8 with AVX2. Diffusion Policy's encoder has layer-3
outputs of 36 pixels (folded with either lane count) and layer-4 outputs of 9 (folded with 8 only:
16 -> 24 padded, where 16 lanes pad 9 and 18 alike to 16 and 32). This script checks that rule where
it matters: each build is the presets' im2col + global data tiling + inner-tiled, compiled for each
`--cpu` (`--iree-llvmcpu-target-cpu`; an AVX2 part such as haswell runs on any AVX-512 machine too),
and the row marks the script the route writes for that CPU's lanes. Medians of each round's median of
3 repetitions, over interleaved rounds.

    python bench/conv_fold_lanes.py /work/lerobot-out/diffusion_encoder.mlir \\
        --parameters model=/work/lerobot-out/diffusion_encoder.irpa \\
        --input @/work/lerobot-out/diffusion_encoder.in0.npy --rounds 5
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import common

from iree_dsa_tuner.compiler import compile_to_vmfb
from iree_dsa_tuner.flags import (CPU_FLAG, GLOBAL_DATA_TILING_FLAG, HOST_FLAGS, IM2COL_FLAG, INNER_TILED_FLAG)
from iree_dsa_tuner.host.routes.conv_fold import conv_fold_flags, folds

LANES = (16, 8)
BUILD = (IM2COL_FLAG, GLOBAL_DATA_TILING_FLAG, INNER_TILED_FLAG)
# Two convolutions over two images with layer 3's and layer 4's output sizes (6x6, then 3x3 from a
# 4x4 kernel; fewer channels), weights as globals (packed once at initialisation, as an export's
# parameters are).
QUICK_MODEL = """
util.global private @w3 = #util.byte_pattern<1> : tensor<64x64x3x3xf32>
util.global private @w4 = #util.byte_pattern<2> : tensor<128x64x4x4xf32>
func.func @main(%x: tensor<2x64x8x8xf32>) -> tensor<2x128x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %w3 = util.global.load @w3 : tensor<64x64x3x3xf32>
  %w4 = util.global.load @w4 : tensor<128x64x4x4xf32>
  %e3 = tensor.empty() : tensor<2x64x6x6xf32>
  %a3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x64x6x6xf32>) -> tensor<2x64x6x6xf32>
  %y3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x, %w3 : tensor<2x64x8x8xf32>, tensor<64x64x3x3xf32>) outs(%a3 : tensor<2x64x6x6xf32>) -> tensor<2x64x6x6xf32>
  %e4 = tensor.empty() : tensor<2x128x3x3xf32>
  %a4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x128x3x3xf32>) -> tensor<2x128x3x3xf32>
  %y4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%y3, %w4 : tensor<2x64x6x6xf32>, tensor<128x64x4x4xf32>) outs(%a4 : tensor<2x128x3x3xf32>) -> tensor<2x128x3x3xf32>
  return %y4 : tensor<2x128x3x3xf32>
}
"""
QUICK_INPUT = "--input=2x64x8x8xf32=1"


def host_lanes() -> int:
    """f32 lanes of this machine's vector registers (the host target's description)."""
    from iree_dsa_tuner.host.target import machine_description

    return machine_description().cpu.vector_register_bytes // 4


def cpu_lanes(cpu: str) -> int | None:
    """The lanes the route would use for `cpu`: this machine's for `host`, 8 for haswell-class AVX2
    parts, 16 for the AVX-512 ones IREE names; None for a name this script does not know."""
    if cpu == "host":
        return host_lanes()
    avx2 = {"haswell", "broadwell", "skylake", "znver1", "znver2", "znver3", "alderlake"}
    avx512 = {"skylake-avx512", "cascadelake", "cooperlake", "icelake-server", "sapphirerapids", "znver4", "znver5"}
    return 8 if cpu in avx2 else 16 if cpu in avx512 else None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    common.add_model_arguments(parser, "a model with batched NCHW convolutions")
    parser.add_argument("--cpu", action="append", default=[], help="--iree-llvmcpu-target-cpu values "
                        "(repeatable; default: host and haswell)")
    args = parser.parse_args(argv)
    if not args.quick and not args.model:
        parser.error("give MODEL.mlir, or --quick")
    cpus = args.cpu or ["host", "haswell"]
    rounds = 1 if args.quick else args.rounds

    machine = common.print_header("the batch-fold route by lane count: none / 16-lane / 8-lane scripts, one thread")
    rows, records = [], []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        model, inputs = common.model_and_inputs(args, work, QUICK_MODEL, [QUICK_INPUT])
        convs = common.model_input_convs(model)
        scripts = {"none": ()}
        for lanes in LANES:
            chosen = [c for c in convs if folds(c, lanes)]
            scripts[f"{lanes}-lane"] = conv_fold_flags(chosen, work / "routes")
            common.progress(f"{lanes} lanes fold {len(chosen)} of {len(convs)} convolution shape(s)")
        builds = {}
        for cpu in cpus:
            target = HOST_FLAGS[:-1] + (f"{CPU_FLAG}{cpu}",)
            for name, script in scripts.items():
                common.progress(f"compiling {cpu} / {name}")
                vmfb = work / f"{cpu}-{name}.vmfb"
                compile_to_vmfb(model, vmfb, extra_flags=BUILD + tuple(script), target_flags=target, timeout_s=600.0)
                builds[(cpu, name)] = vmfb
        samples = {key: [] for key in builds}
        for r in range(rounds):
            common.progress(f"round {r + 1}/{rounds}")
            for key, vmfb in builds.items():
                samples[key].append(common.median(common.benchmark_function(
                    vmfb, inputs, iterations=args.iterations, function=args.function)))
        for cpu in cpus:
            us = {name: common.median(samples[(cpu, name)]) for name in scripts}
            lanes = cpu_lanes(cpu)
            rows.append([cpu, lanes or "?", *(common.fmt(us[n], ".0f") for n in scripts),
                         *(common.fmt(us["none"] / us[f"{n}-lane"], ".2f", "x") for n in LANES),
                         f"{lanes}-lane" if lanes in LANES else "?"])
            records.append({"cpu": cpu, "lanes": lanes, "us": us, "rounds": rounds,
                            "folded_shapes": {f"{n}-lane": sum(folds(c, n) for c in convs) for n in LANES}})
    common.print_table(["target cpu", "lanes", *(f"{n} us" for n in scripts), *(f"none / {n}-lane" for n in LANES),
                        "route writes"], rows,
                       title=f"{model.name}, {' '.join(BUILD)}; median of {rounds} interleaved round(s)")
    common.write_json(args.json, {"machine": machine, "model": str(model), "results": records})
    return 0


if __name__ == "__main__":
    sys.exit(main())
