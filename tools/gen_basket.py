#!/usr/bin/env python3
"""Write the embodied GEMM basket (issue 4, item 9) as one MLIR model per shape.

    python tools/gen_basket.py OUT_DIR [--only NAME ...] [--list]

The basket:
- f32 `linalg.matmul`, C[M,N] = A[M,K] @ B[K,N] (weights [K, N]), for the eleven
  embodied shapes below;
- the batch-1 ones again with weights [N, K] as PyTorch `Linear` exports them: a
  transposed-B `linalg.generic`, maps (d0,d2), (d1,d2) -> (d0,d1);
- int8 variants (i8 x i8 -> i32, `linalg.matmul` with its default sign extension)
  of three shapes.

Each model is one function `@main(%a, %b) -> %c`. Importable: `basket()` gives the
entries (name, group, sizes, types, layout) and `write_basket(dir)` writes them.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

# (M, N, K) of the f32 [K, N] matmuls (the shapes named in issue 4).
F32_SHAPES: tuple[tuple[int, int, int], ...] = (
    (1, 1024, 4096),
    (1, 4096, 1024),
    (1, 2048, 2048),
    (1, 2048, 16384),
    (1, 16384, 2048),
    (50, 1024, 1024),
    (50, 1024, 4096),
    (256, 1152, 1152),
    (256, 1152, 4304),
    (16, 1024, 1024),
    (256, 2048, 2048),
)
INT8_SHAPES: tuple[tuple[int, int, int], ...] = (
    (1, 2048, 2048),
    (50, 1024, 1024),
    (256, 1152, 1152),
)
# OpenVLA's (Llama-2 7B) decode MLP: bf16 weights in PyTorch's Linear layout [N, K], batch 1.
BF16_DECODE_SHAPES: tuple[tuple[int, int, int], ...] = (
    (1, 11008, 4096),
    (1, 4096, 11008),
)

# Groups the benchmarks aggregate over.
GROUP_KN_BATCH1 = "f32 [K,N] M=1"
GROUP_NK_BATCH1 = "f32 [N,K] M=1"
GROUP_KN_BATCHED = "f32 [K,N] M>1"
GROUP_INT8 = "i8 [K,N]"
GROUP_BF16_DECODE = "bf16 [N,K] M=1"
GROUPS = (GROUP_KN_BATCH1, GROUP_NK_BATCH1, GROUP_KN_BATCHED, GROUP_INT8, GROUP_BF16_DECODE)


@dataclass(frozen=True)
class BasketEntry:
    """One GEMM of the basket and how its model is written."""

    m: int
    n: int
    k: int
    element_type: str = "f32"  # operand type; the result is i32 for i8
    weights_nk: bool = False  # True: B stored [N, K] (transposed-B generic)

    @property
    def result_type(self) -> str:
        # i8 accumulates in i32; bf16 in f32 (what a bf16 Linear becomes in IREE).
        return {"i8": "i32", "bf16": "f32"}.get(self.element_type, self.element_type)

    @property
    def name(self) -> str:
        layout = "nk" if self.weights_nk else "kn"
        return f"{self.element_type}_{layout}_{self.m}x{self.n}x{self.k}"

    @property
    def label(self) -> str:
        layout = "[N,K]" if self.weights_nk else "[K,N]"
        return f"{self.m}x{self.n}x{self.k} {self.element_type} {layout}"

    @property
    def group(self) -> str:
        if self.element_type == "i8":
            return GROUP_INT8
        if self.element_type == "bf16":
            return GROUP_BF16_DECODE
        if self.weights_nk:
            return GROUP_NK_BATCH1
        return GROUP_KN_BATCH1 if self.m == 1 else GROUP_KN_BATCHED

    @property
    def flops(self) -> int:
        return 2 * self.m * self.n * self.k

    @property
    def lhs_dims(self) -> tuple[int, int]:
        return (self.m, self.k)

    @property
    def rhs_dims(self) -> tuple[int, int]:
        return (self.n, self.k) if self.weights_nk else (self.k, self.n)

    @property
    def out_dims(self) -> tuple[int, int]:
        return (self.m, self.n)

    def input_flags(self, value: int = 1) -> list[str]:
        """`--input=` flags for iree-benchmark-module / iree-run-module (splat inputs)."""
        t = self.element_type
        return [f"--input={self.lhs_dims[0]}x{self.lhs_dims[1]}x{t}={value}",
                f"--input={self.rhs_dims[0]}x{self.rhs_dims[1]}x{t}={value}"]

    def mlir(self) -> str:
        return model_text(self)


def _tensor(dims: tuple[int, int], element_type: str) -> str:
    return f"tensor<{dims[0]}x{dims[1]}x{element_type}>"


def constant_weights_text(entry: BasketEntry) -> str:
    """The entry as a deployed model writes it: its weights a `util.global` constant, `@main(%a) -> C`.

    The constant is `#util.byte_pattern` (opaque, non-splat bytes IREE cannot fold away):
    what is timed is the schedule, not the values, and the file stays small.
    """
    text = model_text(entry)
    b = _tensor(entry.rhs_dims, entry.element_type)
    a = _tensor(entry.lhs_dims, entry.element_type)
    text = text.replace("module {", f"module {{\n  util.global private @weights = #util.byte_pattern<1> : {b}", 1)
    text = text.replace(f"func.func @main(%a: {a}, %b: {b})", f"func.func @main(%a: {a})", 1)
    return text.replace(f"    %zero = arith.constant", f"    %b = util.global.load @weights : {b}\n"
                                                       f"    %zero = arith.constant", 1)


def model_text(entry: BasketEntry) -> str:
    """The MLIR of one basket entry: `@main(%a, %b) -> C`."""
    t, acc = entry.element_type, entry.result_type
    a, b, c = _tensor(entry.lhs_dims, t), _tensor(entry.rhs_dims, t), _tensor(entry.out_dims, acc)
    zero = "0.0" if acc.startswith(("f", "bf")) else "0"
    lines = [f"// {entry.label}: C[M,N] = A[M,K] @ "
             + ("W[N,K]^T (transposed-B linalg.generic, PyTorch Linear layout)" if entry.weights_nk
                else "B[K,N] (linalg.matmul)") + f"; generated by tools/gen_basket.py"]
    if entry.weights_nk:
        lines += [
            "#map_lhs = affine_map<(d0, d1, d2) -> (d0, d2)>",
            "#map_rhs_t = affine_map<(d0, d1, d2) -> (d1, d2)>",
            "#map_out = affine_map<(d0, d1, d2) -> (d0, d1)>",
        ]
    lines += [
        "module {",
        f"  func.func @main(%a: {a}, %b: {b}) -> {c} {{",
        f"    %zero = arith.constant {zero} : {acc}",
        f"    %e = tensor.empty() : {c}",
        f"    %acc = linalg.fill ins(%zero : {acc}) outs(%e : {c}) -> {c}",
    ]
    if entry.weights_nk:
        if t == acc:
            body = [f"      %p = arith.mulf %x, %w : {t}", f"      %s = arith.addf %o, %p : {t}"]
        elif acc.startswith("f"):  # bf16 operands, f32 accumulator
            body = [f"      %xe = arith.extf %x : {t} to {acc}", f"      %we = arith.extf %w : {t} to {acc}",
                    f"      %p = arith.mulf %xe, %we : {acc}", f"      %s = arith.addf %o, %p : {acc}"]
        else:
            body = [f"      %xe = arith.extsi %x : {t} to {acc}", f"      %we = arith.extsi %w : {t} to {acc}",
                    f"      %p = arith.muli %xe, %we : {acc}", f"      %s = arith.addi %o, %p : {acc}"]
        lines += [
            "    %c = linalg.generic {indexing_maps = [#map_lhs, #map_rhs_t, #map_out],",
            '                         iterator_types = ["parallel", "parallel", "reduction"]}',
            f"        ins(%a, %b : {a}, {b}) outs(%acc : {c}) {{",
            f"    ^bb0(%x: {t}, %w: {t}, %o: {acc}):",
            *body,
            f"      linalg.yield %s : {acc}",
            f"    }} -> {c}",
        ]
    else:
        lines += [f"    %c = linalg.matmul ins(%a, %b : {a}, {b})",
                  f"                       outs(%acc : {c}) -> {c}"]
    lines += [f"    return %c : {c}", "  }", "}", ""]
    return "\n".join(lines)


def basket() -> list[BasketEntry]:
    """Every entry, in report order: [K,N] f32, [N,K] f32 batch-1, int8, bf16 [N,K] decode."""
    entries = [BasketEntry(m, n, k) for m, n, k in F32_SHAPES]
    entries += [BasketEntry(m, n, k, weights_nk=True) for m, n, k in F32_SHAPES if m == 1]
    entries += [BasketEntry(m, n, k, element_type="i8") for m, n, k in INT8_SHAPES]
    entries += [BasketEntry(m, n, k, element_type="bf16", weights_nk=True) for m, n, k in BF16_DECODE_SHAPES]
    return entries


def find_entry(name: str) -> BasketEntry:
    """An entry by its name (`f32_kn_1x2048x2048`) or a custom one from `TYPE_LAYOUT_MxNxK`."""
    for entry in basket():
        if entry.name == name:
            return entry
    try:
        element_type, layout, sizes = name.split("_")
        m, n, k = (int(v) for v in sizes.split("x"))
    except ValueError:
        raise ValueError(f"{name!r}: not a basket entry and not of the form f32_kn_MxNxK") from None
    if element_type not in ("f32", "bf16", "i8") or layout not in ("kn", "nk"):
        raise ValueError(f"{name!r}: type must be f32, bf16 or i8, layout kn or nk")
    return BasketEntry(m, n, k, element_type, layout == "nk")


def write_basket(out_dir: str | Path, entries: list[BasketEntry] | None = None) -> dict[str, Path]:
    """Write each entry as OUT_DIR/NAME.mlir; returns name -> path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = {}
    for entry in entries if entries is not None else basket():
        path = out / f"{entry.name}.mlir"
        path.write_text(entry.mlir())
        written[entry.name] = path
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir", nargs="?", help="directory for the .mlir files")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="write only this entry (repeatable); also TYPE_LAYOUT_MxNxK for a custom shape")
    parser.add_argument("--list", action="store_true", help="print the entries and exit")
    args = parser.parse_args(argv)
    entries = [find_entry(n) for n in args.only] if args.only else basket()
    if args.list or not args.out_dir:
        for e in entries:
            print(f"{e.name:<24} {e.group:<16} {e.label}")
        return 0
    for name, path in write_basket(args.out_dir, entries).items():
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
