"""The encoder's batch-2 im2col GEMMs, as IREE forms them and with the batch folded into N, one thread.

    python bench/im2col_batch_fold.py [--rounds 3] [--quick] [--json OUT]

Diffusion Policy's observation encoder (ResNet-18 on 2 images, NCHW) is at parity with PyTorch
(docs/PERFORMANCE.md 4b). Under its recipe (`--iree-global-opt-use-im2col-for-convs` with data
tiling) each convolution becomes a batched GEMM out[b, m, n] = W[m, k] x P[b, k, n]: M output
channels, K = input channels x 3 x 3, N = the output image's pixels. Its layer-3 and layer-4
GEMMs have N = 36 and 9, which the 16-lane data-tiling tiles pad to 48 and 16. Both images share
W, so the batch can be folded into N: W x P'[k, b*n] (N = 72 and 18) computes the same numbers.
This script times three forms of each GEMM, with W a `util.global` (packed once at
initialisation under data tiling, as the exports' parameters are):

  batched       the batched GEMM as im2col leaves it (P is [b, k, n]);
  folded        one GEMM over P' = [k, b*n], given in that layout;
  folded+T      the same, from P in [b, k, n] and back to [b, m, n]: the two transposes a
                route folding the batch would add, left to IREE to fuse or run.

Each form is compiled under the encoder's recipe flags (global data tiling + inner-tiled) and
under global data tiling alone, and all builds are timed interleaved, round by round
(iree-benchmark-module, local-sync, median of 3 repetitions per round, then the median over
rounds). Prints per GEMM and build: each form's us and folded+T's speedup over batched.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import common

# (M = output channels, N = pixels per image, K = input channels x 9): the encoder's layers 2-4.
SHAPES = ((128, 144, 1152), (256, 36, 2304), (512, 9, 4608))
QUICK = ((256, 36, 2304),)
BATCH = 2
BUILDS = {
    "gdt+inner-tiled": ("--iree-global-opt-data-tiling", "--iree-llvmcpu-enable-inner-tiled"),
    "gdt": ("--iree-global-opt-data-tiling",),
}
FORMS = ("batched", "folded", "folded+T")

_MATMUL_BODY = """^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32"""


def form_mlir(form: str, m: int, n: int, k: int, b: int = BATCH) -> tuple[str, str]:
    """(module text, iree-benchmark-module input) of one form of the GEMM."""
    weights = f"util.global private @weights = #util.byte_pattern<1> : tensor<{m}x{k}xf32>"
    fill = """%zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<{shape}xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<{shape}xf32>) -> tensor<{shape}xf32>"""
    if form == "batched":
        return f"""{weights}
func.func @main(%in: tensor<{b}x{k}x{n}xf32>) -> tensor<{b}x{m}x{n}xf32> {{
  %w = util.global.load @weights : tensor<{m}x{k}xf32>
  {fill.format(shape=f"{b}x{m}x{n}")}
  %r = linalg.generic {{indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>,
                        affine_map<(b, m, n, k) -> (b, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}}
      ins(%w, %in : tensor<{m}x{k}xf32>, tensor<{b}x{k}x{n}xf32>) outs(%init : tensor<{b}x{m}x{n}xf32>) {{
    {_MATMUL_BODY}
  }} -> tensor<{b}x{m}x{n}xf32>
  return %r : tensor<{b}x{m}x{n}xf32>
}}
""", f"--input={b}x{k}x{n}xf32=1"
    if form == "folded":
        return f"""{weights}
func.func @main(%in: tensor<{k}x{b * n}xf32>) -> tensor<{m}x{b * n}xf32> {{
  %w = util.global.load @weights : tensor<{m}x{k}xf32>
  {fill.format(shape=f"{m}x{b * n}")}
  %r = linalg.matmul ins(%w, %in : tensor<{m}x{k}xf32>, tensor<{k}x{b * n}xf32>)
                     outs(%init : tensor<{m}x{b * n}xf32>) -> tensor<{m}x{b * n}xf32>
  return %r : tensor<{m}x{b * n}xf32>
}}
""", f"--input={k}x{b * n}xf32=1"
    return f"""{weights}
func.func @main(%in: tensor<{b}x{k}x{n}xf32>) -> tensor<{b}x{m}x{n}xf32> {{
  %w = util.global.load @weights : tensor<{m}x{k}xf32>
  %te = tensor.empty() : tensor<{k}x{b}x{n}xf32>
  %t = linalg.transpose ins(%in : tensor<{b}x{k}x{n}xf32>) outs(%te : tensor<{k}x{b}x{n}xf32>) permutation = [1, 0, 2]
  %p = tensor.collapse_shape %t [[0], [1, 2]] : tensor<{k}x{b}x{n}xf32> into tensor<{k}x{b * n}xf32>
  {fill.format(shape=f"{m}x{b * n}")}
  %r = linalg.matmul ins(%w, %p : tensor<{m}x{k}xf32>, tensor<{k}x{b * n}xf32>)
                     outs(%init : tensor<{m}x{b * n}xf32>) -> tensor<{m}x{b * n}xf32>
  %e = tensor.expand_shape %r [[0], [1, 2]] output_shape [{m}, {b}, {n}] : tensor<{m}x{b * n}xf32> into tensor<{m}x{b}x{n}xf32>
  %oe = tensor.empty() : tensor<{b}x{m}x{n}xf32>
  %o = linalg.transpose ins(%e : tensor<{m}x{b}x{n}xf32>) outs(%oe : tensor<{b}x{m}x{n}xf32>) permutation = [1, 0, 2]
  return %o : tensor<{b}x{m}x{n}xf32>
}}
""", f"--input={b}x{k}x{n}xf32=1"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one GEMM (256 x 36 x 2304), one round")
    parser.add_argument("--json", help="write every figure as JSON")
    args = parser.parse_args(argv)
    shapes = QUICK if args.quick else SHAPES
    rounds = 1 if args.quick else args.rounds

    machine = common.print_header("the encoder's batch-2 im2col GEMMs: batched vs batch folded into N, one thread")
    rows, records = [], []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for m, n, k in shapes:
            label = f"{BATCH}x{m}x{n}x{k}"
            common.progress(f"{label}: compiling {len(FORMS) * len(BUILDS)} builds")
            builds = {}
            for form in FORMS:
                text, arg = form_mlir(form, m, n, k)
                model = work / f"{label}-{form}.mlir"
                model.write_text(text)
                for build, flags in BUILDS.items():
                    vmfb = common.compile_vmfb(model, work / f"{label}-{form}-{build}.vmfb", extra_flags=flags)
                    builds[(form, build)] = (vmfb, arg)
            iterations = common.iterations_for(2 * BATCH * m * n * k / 60e9 * 1e6)
            samples: dict[tuple[str, str], list[float]] = {key: [] for key in builds}
            for r in range(rounds):
                common.progress(f"    round {r + 1}/{rounds}")
                for key, (vmfb, arg) in builds.items():
                    samples[key].append(common.median(common.benchmark_function(vmfb, [arg], iterations=iterations)))
            for build in BUILDS:
                us = {form: common.median(samples[(form, build)]) for form in FORMS}
                rows.append([label, build, *(common.fmt(us[f], ".0f") for f in FORMS),
                             common.fmt(us["batched"] / us["folded+T"], ".2f", "x")])
                records.append({"gemm": label, "build": build, "us": us, "rounds": rounds})
    common.print_table(["GEMM (b x M x N x K)", "build", *(f"{f} us" for f in FORMS), "batched / folded+T"], rows,
                       title=f"median of {rounds} interleaved rounds (each the median of 3 repetitions)")
    common.write_json(args.json, {"machine": machine, "results": records})
    return 0


if __name__ == "__main__":
    sys.exit(main())
