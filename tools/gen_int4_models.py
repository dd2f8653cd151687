"""Write a linalg model whose weight is INT4 with per-group scales, the way a quantiser stores it.

    python tools/gen_int4_models.py [--preset openvla-decode|pi0-w4] [--m M --n N --k K --group G]
                                    [--scale-type f16|f32] [--zero-point] [--layout grouped|kn]
                                    [--weights argument|global] [--seed S] [-o OUT]

The function computes y[M, N] = x @ dequantise(W) where dequantise is
`ext{s,u}i` + `{s,u}itofp` of the i4 weight, minus a zero point (with
--zero-point: unsigned nibbles, the asymmetric scheme), times the scale of its
group of G consecutive K elements. The weight, scales and zero points are function
arguments, or with --weights global constants (`util.global` initialised from a
`dense_resource` blob, as an importer writes a deployed model; values drawn from a
generator seeded with --seed). Layouts:
- grouped (default): W[N, K/G, G], scales[N, K/G], x[M, K/G, G], the matmul a
  linalg.generic over (m, n, group, element): what GPTQ/AWQ-style exports give;
- kn: W[K, N], scales[K/G, N] read at `k floordiv G`, then linalg.matmul.
The same arguments give the same bytes. Presets (sizes from shared/docs/BRIEF.md):
- openvla-decode: Llama-2 7B decode projection, 1 x 4096 x 4096, group 128, f16 scales;
- pi0-w4: pi0 action-expert MLP up projection on a 50-action chunk, 50 x 4096 x 1024,
  group 64, f32 scales with zero points.
IREE 3.13 splits the dequantisation into its own dispatch by default (for constant
weights it hoists it into an initializer that runs once at load) and fuses it into a
matvec's dispatch with --iree-dispatch-creation-enable-aggressive-fusion (docs/INT4.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

PRESETS = {
    "openvla-decode": dict(m=1, n=4096, k=4096, group=128, scale_type="f16", zero_point=False),
    "pi0-w4": dict(m=50, n=4096, k=1024, group=64, scale_type="f32", zero_point=True),
}


def _dequantise_body(scale_type: str, zero_point: bool, indent: str) -> list[str]:
    """The body of the dequantising generic: block args (q, scale, [zero point], out)."""
    ext, to_float = ("arith.extui", "arith.uitofp") if zero_point else ("arith.extsi", "arith.sitofp")
    args = "%q: i4, %s: " + scale_type + (", %z: " + scale_type if zero_point else "") + ", %o: f32"
    lines = [f"^bb0({args}):", f"  %i = {ext} %q : i4 to i32", f"  %f = {to_float} %i : i32 to f32"]
    scale, zp = "%s", "%z"
    if scale_type != "f32":
        lines.append(f"  %s32 = arith.extf %s : {scale_type} to f32")
        scale = "%s32"
        if zero_point:
            lines.append(f"  %z32 = arith.extf %z : {scale_type} to f32")
            zp = "%z32"
    value = "%f"
    if zero_point:
        lines.append(f"  %c = arith.subf %f, {zp} : f32")
        value = "%c"
    lines += [f"  %d = arith.mulf {value}, {scale} : f32", "  linalg.yield %d : f32"]
    return [indent + line for line in lines]


def _blob(values: np.ndarray) -> str:
    """A `dense_resource` blob: a 4-byte alignment word, then the little-endian bytes."""
    return "0x04000000" + values.tobytes().hex().upper()


def _constants(shapes: dict[str, tuple[int, ...]], scale_type: str, zero_point: bool, seed: int) -> dict[str, str]:
    """Blob text of the weight (i4 packed two to a byte, first in the low nibble, as IREE
    stores it), the scales and the zero points, drawn from a generator seeded with `seed`."""
    rng = np.random.default_rng(seed)
    q = rng.integers(0, 16, shapes["w"]) if zero_point else rng.integers(-8, 8, shapes["w"])
    nibbles = (q.reshape(-1) & 0xF).astype(np.uint8)
    blobs = {"w": _blob(nibbles[0::2] | (nibbles[1::2] << 4))}
    dtype = np.float16 if scale_type == "f16" else np.float32
    blobs["scale"] = _blob(rng.uniform(0.005, 0.02, shapes["scale"]).astype(dtype))
    if zero_point:
        blobs["zero"] = _blob(rng.integers(0, 16, shapes["scale"]).astype(dtype))
    return blobs


def model(m: int, n: int, k: int, group: int, scale_type: str = "f16", zero_point: bool = False,
          layout: str = "grouped", name: str = "int4_matmul", weights: str = "argument", seed: int = 0) -> str:
    """The model's MLIR text."""
    if k % group:
        raise ValueError(f"K={k} is not a multiple of the group size {group}")
    g = k // group
    st = scale_type
    zp_note = "(q - zero point) * scale, unsigned nibbles" if zero_point else "q * scale, signed nibbles"
    out = [f"// {m}x{n}x{k}: y = x @ dequantise(W i4), {zp_note}, one {st} scale per {group} K elements "
           f"({layout} layout)."]
    if layout == "grouped":
        w_t, s_t, x_t = f"tensor<{n}x{g}x{group}xi4>", f"tensor<{n}x{g}x{st}>", f"tensor<{m}x{g}x{group}xf32>"
        deq_t = f"tensor<{n}x{g}x{group}xf32>"
        w_map, s_map = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>", "affine_map<(d0, d1, d2) -> (d0, d1)>"
        par = '"parallel", "parallel", "parallel"'
    elif layout == "kn":
        w_t, s_t, x_t = f"tensor<{k}x{n}xi4>", f"tensor<{g}x{n}x{st}>", f"tensor<{m}x{k}xf32>"
        deq_t = f"tensor<{k}x{n}xf32>"
        w_map, s_map = "affine_map<(d0, d1) -> (d0, d1)>", f"affine_map<(d0, d1) -> (d0 floordiv {group}, d1)>"
        par = '"parallel", "parallel"'
    else:
        raise ValueError(f"unknown layout {layout!r} (grouped or kn)")
    constants = {"w": w_t, "scale": s_t, **({"zero": s_t} if zero_point else {})}
    if weights == "argument":
        args = [f"%x: {x_t}"] + [f"%{c}: {t}" for c, t in constants.items()]
    elif weights == "global":
        args = [f"%x: {x_t}"]
        out += [f"util.global private @{c} = dense_resource<{c}_blob> : {t}" for c, t in constants.items()]
    else:
        raise ValueError(f"unknown weights {weights!r} (argument or global)")
    ins = "%w, %scale" + (", %zero" if zero_point else "")
    in_types = f"{w_t}, {s_t}" + (f", {s_t}" if zero_point else "")
    maps = ", ".join([w_map, s_map] + ([s_map] if zero_point else []) + [w_map])
    out.append(f"func.func @{name}({', '.join(args)}) -> tensor<{m}x{n}xf32> {{")
    if weights == "global":
        out += [f"  %{c} = util.global.load @{c} : {t}" for c, t in constants.items()]
    out.append(f"  %empty = tensor.empty() : {deq_t}")
    out.append(f"  %deq = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{par}]}}")
    out.append(f"      ins({ins} : {in_types}) outs(%empty : {deq_t}) {{")
    out += _dequantise_body(st, zero_point, "  ")
    out.append(f"  }} -> {deq_t}")
    out.append("  %zero_f = arith.constant 0.0 : f32")
    out.append(f"  %init = tensor.empty() : tensor<{m}x{n}xf32>")
    out.append(f"  %acc = linalg.fill ins(%zero_f : f32) outs(%init : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>")
    if layout == "grouped":
        out.append("  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, "
                   "affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], "
                   'iterator_types = ["parallel", "parallel", "reduction", "reduction"]}')
        out.append(f"      ins(%x, %deq : {x_t}, {deq_t}) outs(%acc : tensor<{m}x{n}xf32>) {{")
        out += ["  ^bb0(%a: f32, %b: f32, %c: f32):", "    %p = arith.mulf %a, %b : f32",
                "    %r = arith.addf %c, %p : f32", "    linalg.yield %r : f32", f"  }} -> tensor<{m}x{n}xf32>"]
    else:
        out.append(f"  %y = linalg.matmul ins(%x, %deq : {x_t}, {deq_t}) outs(%acc : tensor<{m}x{n}xf32>) "
                   f"-> tensor<{m}x{n}xf32>")
    out.append(f"  return %y : tensor<{m}x{n}xf32>")
    out.append("}")
    if weights == "global":
        shapes = {c: tuple(int(d) for d in t[len("tensor<"):-1].split("x")[:-1]) for c, t in constants.items()}
        blobs = _constants(shapes, scale_type, zero_point, seed)
        out += ["{-#", "  dialect_resources: {", "    builtin: {"]
        out += [f'      {c}_blob: "{blobs[c]}"' + ("," if i < len(blobs) - 1 else "") for i, c in enumerate(constants)]
        out += ["    }", "  }", "#-}"]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--preset", choices=sorted(PRESETS), default="openvla-decode")
    p.add_argument("--m", type=int)
    p.add_argument("--n", type=int)
    p.add_argument("--k", type=int)
    p.add_argument("--group", type=int, help="K elements per scale")
    p.add_argument("--scale-type", choices=["f16", "f32"])
    p.add_argument("--zero-point", action="store_true", default=None,
                   help="asymmetric: unsigned nibbles minus a per-group zero point")
    p.add_argument("--layout", choices=["grouped", "kn"], default="grouped")
    p.add_argument("--weights", choices=["argument", "global"], default="argument",
                   help="function arguments (default) or constants, as a deployed model holds them")
    p.add_argument("--seed", type=int, default=0, help="seed of the constants' values (--weights global)")
    p.add_argument("-o", "--output", help="file to write (default: stdout)")
    args = p.parse_args(argv)
    params = dict(PRESETS[args.preset])
    for key in ("m", "n", "k", "group", "scale_type", "zero_point"):
        if getattr(args, key) is not None:
            params[key] = getattr(args, key)
    if any(params[key] < 1 for key in ("m", "n", "k", "group")):
        print("gen_int4_models: --m, --n, --k and --group must be positive", file=sys.stderr)
        return 2
    try:
        text = model(layout=args.layout, weights=args.weights, seed=args.seed, **params)
    except ValueError as e:
        print(f"gen_int4_models: {e}", file=sys.stderr)
        return 2
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
