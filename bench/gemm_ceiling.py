"""The f32 GEMM ceiling of pi0's layers and ACT's: IREE's best build of each GEMM beside BLAS, one thread.

    python bench/gemm_ceiling.py [--rounds 3] [--only expert|vision|prefix|act ...] [--quick] [--k-split]
                                 [--k-chunks 4096 1024 ...]
                                 [--presets default gdt gdt+tile-bytes-4m] [--register-tiled]
                                 [--register-tiles 14x32 8x32 ...]
                                 [--torch-python PY] [--json OUT]

Issue 19 asks why the tuned pi0 layers stay behind PyTorch eager. Their recipes spend 90-97% of
their time in f32 GEMMs (`iree-dsa-tune profile --recipe`), so a layer can be no faster than IREE's
fastest build of those GEMMs. This script measures that ceiling. Each GEMM is the layer's own
shape (M tokens x K -> N), with the weight held in a `util.global`. IREE packs such a weight once,
at initialisation, when data tiling is on, as it does for the exports' parameters. It is compiled
under each named flag preset (`host.flag_presets.FLAG_PRESETS`; the pi0 recipes use the global data-tiling
ones) and timed as a whole call with iree-benchmark-module (local-sync, one thread). Beside it:
numpy's BLAS sgemm (`common.numpy_matmul_times`, OpenBLAS pinned to one thread) and, with
--torch-python, PyTorch's (torch.set_num_threads(1), the same shapes).

All builds and libraries run interleaved, round by round; each figure is the median over rounds
of the median of 3 repetitions. GF/s counts the GEMM's useful FLOPs (2 M N K): IREE's f32 inner
tile on AVX-512 has 16 rows, so M = 51 is computed as 64 rows (80% of the work is useful).
Prints one table: per GEMM, each build's ms and GF/s, BLAS's, and the best IREE build over BLAS.

--k-split adds the long-K route's build (host/routes/k_split.py, docs/DATA_TILING.md 9) for each GEMM the
route cuts on this machine (its reduction's panels crowd the L2, or its few rows' block does): the
route's own preprocessing script with the flags of `k-split+gdt+tile-bytes-4m`; '-' where the
route keeps the GEMM whole.
--register-tiled adds the register-tiled route's build (host/routes/register_tiled.py,
docs/DATA_TILING.md 18): the GEMM packed into this CPU's register tile (6 x 16 x 1 with AVX2) by
its preprocessing script, lowered by IREE's mmt4d codegen without the ukernel, with 4 MiB tiles.
--register-tiles M0xN0... adds one such build per named tile (M0 rows, N0 columns, K0 = 1), whatever
tile the route would take on this CPU: how the tile was chosen.
--k-chunks W... adds one such build per chunk width W for each GEMM whose K it divides (K W-wide
chunks, whatever the route would choose): how the chunk width was chosen.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import common

from iree_dsa_tuner.host.routes.k_split import KSplit, k_split_flags, split_for
from iree_dsa_tuner.host.flag_presets import FLAG_PRESETS
from iree_dsa_tuner.host.routes.k_split import k_split_presets
from iree_dsa_tuner.host.routes.register_tiled import register_tile, register_tiled_flags, register_tiled_presets
from iree_dsa_tuner.host.target import machine_description
from iree_dsa_tuner.runners.host import exclusive_timing

# (layer, what, M, K, N): the GEMMs of the three exported pi0 layers (tools/export_lerobot.py).
GEMMS = (
    ("expert", "q proj", 51, 1024, 2048),
    ("expert", "gate/up proj", 51, 1024, 4096),
    ("expert", "down proj", 51, 4096, 1024),
    ("vision", "qkv/o proj", 256, 1152, 1152),
    ("vision", "fc1", 256, 1152, 4304),
    ("vision", "fc2", 256, 4304, 1152),
    ("prefix", "q/o proj", 816, 2048, 2048),
    ("prefix", "gate/up proj", 816, 2048, 16384),
    ("prefix", "down proj", 816, 16384, 2048),
    # ACT (tools/export_lerobot.py act): its transformer's FFN (82 tokens) and ResNet-18's layer4
    # 3x3 conv as im2col GEMM (8x10 pixels x 512*9 -> 512), its largest GEMMs under its recipe.
    ("act", "ffn up", 82, 512, 3200),
    ("act", "ffn down", 82, 3200, 512),
    ("act", "layer4 conv", 80, 4608, 512),
)

# The long-K route's build (--k-split): its script under the flags of the preset it won with.
K_SPLIT = "k-split+gdt+tile-bytes-4m"
# The register-tiled route's build (--register-tiled).
REGISTER_TILED = "register-tiled+tile-bytes-4m"

_TORCH_TIMER = r"""
import json, sys, time, torch
torch.set_num_threads(1)
job = json.loads(sys.argv[1])
a = torch.randn(job["m"], job["k"]); b = torch.randn(job["k"], job["n"])
a @ b
times = []
for _ in range(job["repetitions"]):
    t0 = time.perf_counter()
    for _ in range(job["iterations"]):
        a @ b
    times.append((time.perf_counter() - t0) / job["iterations"] * 1e6)
print(json.dumps({"times_us": times, "torch": torch.__version__}))
"""


class Gemm:
    """One GEMM shape; `m, n, k, weights_nk` make it a `common.numpy_matmul_times` entry."""

    def __init__(self, layer: str, what: str, m: int, k: int, n: int):
        self.layer, self.what, self.m, self.k, self.n = layer, what, m, k, n
        self.weights_nk = False

    @property
    def label(self) -> str:
        return f"{self.layer} {self.what} {self.m}x{self.k}x{self.n}"

    @property
    def gflop(self) -> float:
        return 2.0 * self.m * self.n * self.k * 1e-9


def chunk_build(width: int) -> str:
    return f"k-chunks-{width}"


def tile_build(tile: tuple[int, int, int]) -> str:
    return f"register-tiled-{tile[0]}x{tile[1]}"


def register_tile_arg(text: str) -> tuple[int, int, int]:
    """'M0xN0' -> (M0, N0, 1)."""
    try:
        m0, n0 = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a tile M0xN0 (for example 14x32)") from None
    if m0 < 1 or n0 < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: both sides of a tile are at least 1")
    return m0, n0, 1


def iree_us(vmfb: Path, gemm: Gemm, iterations: int) -> float:
    with exclusive_timing():
        times = common.benchmark_function(vmfb, [f"--input={gemm.m}x{gemm.k}xf32=1"], iterations=iterations,
                                          repetitions=3)
    return common.median(times)


def numpy_us(gemm: Gemm, iterations: int) -> float:
    with exclusive_timing():
        times, _ = common.numpy_matmul_times(gemm, iterations=iterations, repetitions=3)
    return common.median(times)


def torch_us(python: str, gemm: Gemm, iterations: int) -> float:
    job = {"m": gemm.m, "k": gemm.k, "n": gemm.n, "iterations": iterations, "repetitions": 3}
    with exclusive_timing():
        proc = subprocess.run([python, "-c", _TORCH_TIMER, json.dumps(job)], capture_output=True, text=True,
                              env=common.numpy_environment(), timeout=600, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"torch timer failed: {proc.stderr.strip()[-400:]}")
    return common.median(json.loads(proc.stdout.strip().splitlines()[-1])["times_us"])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (median over them)")
    ap.add_argument("--only", nargs="*", choices=sorted({g[0] for g in GEMMS}), help="these layers' GEMMs only")
    ap.add_argument("--presets", nargs="*", default=["default", "gdt", "gdt+tile-bytes-4m"],
                    help="flag presets to build each GEMM with ('default': IREE's own choice)")
    ap.add_argument("--torch-python", help="a python with torch: time PyTorch's GEMM too (one thread)")
    ap.add_argument("--json", help="write every sample here")
    ap.add_argument("--quick", action="store_true", help="one tiny GEMM, one round (a smoke run)")
    ap.add_argument("--k-split", action="store_true",
                    help="also build the long-K route's chunks where it cuts the GEMM on this machine")
    ap.add_argument("--register-tiled", action="store_true",
                    help="also build the register-tiled route's packing (this CPU's register tile, no ukernel)")
    ap.add_argument("--register-tiles", nargs="*", type=register_tile_arg, default=[], metavar="M0xN0",
                    help="also build the register-tiled route's packing with each of these tiles")
    ap.add_argument("--k-chunks", nargs="*", type=int, default=[], metavar="W",
                    help="also build the route's script with these chunk widths, where they divide K")
    args = ap.parse_args(argv)
    unknown = [p for p in args.presets if p != "default" and p not in FLAG_PRESETS]
    if unknown:
        ap.error(f"unknown preset(s) {', '.join(unknown)}; known: {', '.join(FLAG_PRESETS)}")
    gemms = [Gemm(*g) for g in GEMMS if not args.only or g[0] in args.only]
    if args.quick:
        gemms, args.rounds = [Gemm("quick", "tiny", 16, 128, 128)], 1
        if args.k_split:  # a reduction the route cuts on any L2 up to 8 MiB
            gemms.append(Gemm("quick", "long K", 16, 32768, 16))
    machine = common.print_header("f32 GEMM ceiling of lerobot layers: IREE's builds beside BLAS, one thread")
    libraries = ["numpy"] + (["torch"] if args.torch_python else [])
    builds = [*args.presets, *([K_SPLIT] if args.k_split else []), *([REGISTER_TILED] if args.register_tiled else []),
              *(tile_build(t) for t in args.register_tiles), *(chunk_build(w) for w in args.k_chunks)]
    rows, document = [], {"machine": machine, "gemms": []}
    with tempfile.TemporaryDirectory(prefix="gemm-ceiling-") as tmp:
        for gemm in gemms:
            work = Path(tmp) / gemm.label.replace(" ", "_").replace("/", "-")
            work.mkdir()
            model = work / "model.mlir"
            model.write_text(common.constant_weight_matmul(gemm.m, gemm.n, gemm.k))
            flags = {p: tuple(FLAG_PRESETS.get(p, ())) for p in args.presets}
            split = split_for(gemm.k, 4, machine_description().cpu, gemm.m, gemm.n) if args.k_split else None
            if split is not None:
                flags[K_SPLIT] = k_split_presets(k_split_flags([split], work))[K_SPLIT]
            if args.register_tiled:
                route = register_tiled_flags(register_tile(machine_description().cpu), work)
                flags[REGISTER_TILED] = register_tiled_presets(route)[REGISTER_TILED]
            for tile in args.register_tiles:  # scripts are content-addressed: one file per tile
                flags[tile_build(tile)] = register_tiled_presets(register_tiled_flags(tile, work))[REGISTER_TILED]
            for width in args.k_chunks:
                if width < gemm.k and gemm.k % width == 0:
                    chunks = k_split_flags([KSplit(gemm.k, width)], work)
                    flags[chunk_build(width)] = k_split_presets(chunks)[K_SPLIT]
            common.progress(f"{gemm.label}: compiling {len(flags)} builds")
            vmfbs = {p: common.compile_vmfb(model, work / f"{p}.vmfb", extra_flags=f) for p, f in flags.items()}
            # About 0.1 s per repetition at 60 GF/s.
            iterations = common.iterations_for(gemm.gflop / 60 * 1e6)
            samples: dict[str, list[float]] = {name: [] for name in [*vmfbs, *libraries]}
            for r in range(args.rounds):
                common.progress(f"    round {r + 1}/{args.rounds}")
                for p, vmfb in vmfbs.items():
                    samples[p].append(iree_us(vmfb, gemm, iterations))
                samples["numpy"].append(numpy_us(gemm, iterations))
                if args.torch_python:
                    samples["torch"].append(torch_us(args.torch_python, gemm, iterations))
            us = {name: common.median(v) for name, v in samples.items()}
            best = min(vmfbs, key=lambda p: us[p])
            blas = min(us[lib] for lib in libraries)
            row = [gemm.label]
            for name in [*builds, *libraries]:
                row.append(f"{us[name] / 1e3:.2f} ({gemm.gflop / us[name] * 1e6:.0f})" if name in us else "-")
            row += [best, f"{blas / us[best]:.2f}x"]
            rows.append(row)
            document["gemms"].append({"label": gemm.label, "m": gemm.m, "k": gemm.k, "n": gemm.n,
                                      "samples_us": samples, "median_us": us, "best_iree": best})
    headers = ["GEMM (M x K x N)", *(f"{n} ms (GF/s)" for n in [*builds, *libraries]), "best IREE",
               "BLAS / best IREE"]
    common.print_table(headers, rows, title=f"median of {args.rounds} interleaved rounds; "
                                            "BLAS / best IREE below 1: IREE's best build is slower than BLAS")
    common.write_json(args.json, document)
    return 0


if __name__ == "__main__":
    sys.exit(main())
