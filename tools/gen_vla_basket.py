"""Write the VLA dispatch basket: every distinct GEMM, attention and convolution of the reference models.

    python tools/gen_vla_basket.py OUT_DIR [--only NAME ...] [--type f32|bf16|i8|w4] [--list]

One file per dispatch, `OUT_DIR/<name>.mlir`, each a function with one root op at the layer's
real size (weights as arguments, the form a torch export of the op takes), and
`OUT_DIR/basket.json` listing them (name, model, kind, what the op is, sizes, flops, the
element type of each operand, and for w4 GEMMs the weight's quantisation).
Sizes are the public configurations of shared/docs/BRIEF.md, the same as
tools/gen_task_models.py's stage models:

- pi0: SigLIP So400m/14 vision (256 tokens, width 1152, 16 heads x 72, MLP 4304), its
  14x14/14 patch embedding; the Gemma-2B prefix (304 tokens, width 2048, 8 query heads x 256,
  1 KV head, MLP 16384); the action expert (50 tokens, width 1024, MLP 4096) attending to the
  prefix and itself.
- OpenVLA: DINOv2 ViT-L/14 (width 1024, 16 heads x 64, MLP 4096) and its patch embedding; the
  Llama-2 7B prefill (276 tokens, width 4096, 32 heads x 128, MLP 11008) and the decode of one
  token (M = 1) against a 283-entry KV cache.
- GR00T-N1-style: a 2048-wide backbone over 300 tokens (4 KV heads of 128), a DiT action head
  (16 actions, width 1536, 24 heads x 64, MLP 6144) with self- and cross-attention.
- Diffusion Policy: the temporal U-Net's kernel-5 convolutions (channels 256/512/1024) over a
  16-step horizon.

GEMMs are [M,K] x [K,N] `linalg.matmul`; attention is `iree_linalg_ext.attention` with heads
folded into the batch (grouped KV heads are repeated, as an exporter does before SDPA);
convolutions are `linalg.conv_2d_nhwc_hwcf` (patch embeddings) and `linalg.conv_1d_nwc_wcf`
(temporal), batch 1, input pre-padded. Shapes that recur across models are written once.
Deterministic: the same arguments write the same bytes.

Types (`--type`, the four of issue 10):

- f32: every operand f32.
- bf16: operands bf16; GEMMs and convolutions accumulate in f32, attention returns bf16.
- i8 (w8a8): GEMMs are `linalg.matmul` of i8 x i8 into i32, convolutions i8 x i8 into i32,
  what a weight-and-activation int8 model's projections and convolutions are. Attention stays
  in floating point in a w8a8 model: it is written in bf16, as for --type bf16.
- w4 (weight-only INT4): each GEMM is the pattern of tools/gen_int4_models.py (its `model`,
  grouped layout): an i4 weight W[N, K/G, G] with one f16 scale per group of G consecutive K
  elements, s[N, K/G], dequantised by a `linalg.generic` (extsi, sitofp, times the group's
  scale) into f32, then contracted with f32 activations x[M, K/G, G]. G is 128, or the largest
  of 64 and 32 that divides K. SigLIP's MLP down projection (K = 4304 = 16 x 269) is divided by
  none of them and gets G = 16: one scale per output channel (G = K) would be a quantiser's
  other fallback, but IREE 3.13's llvm-cpu backend does not compile that dequantisation
  (`vector.maskedload` of i4 fails to legalise), so its numerics could not be verified.
  Attention and convolutions stay bf16 in a weight-only INT4 model, written as for --type bf16.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class BasketOp:
    """One dispatch of the basket."""

    name: str
    model: str
    kind: str  # "matmul" | "attention" | "conv2d" | "conv1d"
    what: str
    sizes: dict = field(default_factory=dict)

    @property
    def flops(self) -> int:
        s = self.sizes
        if self.kind == "matmul":
            return 2 * s["m"] * s["n"] * s["k"]
        if self.kind == "attention":  # Q K^T and P V
            return 2 * s["batch"] * s["m"] * s["k2"] * (s["k1"] + s["n"])
        if self.kind == "conv2d":
            return 2 * s["oh"] * s["ow"] * s["cout"] * s["kh"] * s["kw"] * s["cin"]
        return 2 * s["t"] * s["cout"] * s["kw"] * s["cin"]


def _matmul(model: str, what: str, m: int, n: int, k: int) -> BasketOp:
    return BasketOp(f"matmul_{m}x{n}x{k}", model, "matmul", what, {"m": m, "n": n, "k": k})


def _attention(model: str, what: str, heads: int, queries: int, keys: int, head_dim: int) -> BasketOp:
    return BasketOp(f"attention_{heads}x{queries}x{keys}x{head_dim}", model, "attention", what,
                    {"batch": heads, "m": queries, "k1": head_dim, "k2": keys, "n": head_dim})


def _patch_embed(model: str, what: str, image: int, patch: int, cin: int, cout: int) -> BasketOp:
    side = image // patch
    return BasketOp(f"conv2d_{image}x{image}x{cin}_p{patch}_{cout}", model, "conv2d", what,
                    {"ih": image, "iw": image, "cin": cin, "kh": patch, "kw": patch, "stride": patch,
                     "oh": side, "ow": side, "cout": cout})


def _temporal_conv(model: str, what: str, t: int, cin: int, cout: int, kernel: int = 5) -> BasketOp:
    return BasketOp(f"conv1d_t{t}_{cin}x{cout}_k{kernel}", model, "conv1d", what,
                    {"t": t, "cin": cin, "cout": cout, "kw": kernel})


def _transformer(model: str, part: str, tokens: int, hidden: int, mlp: int, q_width: int,
                 kv_width: int) -> list[BasketOp]:
    return [_matmul(model, f"{part} q projection", tokens, q_width, hidden),
            _matmul(model, f"{part} k+v projection", tokens, 2 * kv_width, hidden),
            _matmul(model, f"{part} o projection", tokens, hidden, q_width),
            _matmul(model, f"{part} mlp gate/up", tokens, mlp, hidden),
            _matmul(model, f"{part} mlp down", tokens, hidden, mlp)]


def _vit(model: str, part: str, tokens: int, hidden: int, mlp: int) -> list[BasketOp]:
    return [_matmul(model, f"{part} qkv projection", tokens, 3 * hidden, hidden),
            _matmul(model, f"{part} o projection", tokens, hidden, hidden),
            _matmul(model, f"{part} mlp fc1", tokens, mlp, hidden),
            _matmul(model, f"{part} mlp fc2", tokens, hidden, mlp)]


def basket_ops() -> list[BasketOp]:
    """Every op of the reference models, in model order, first occurrence of each shape kept."""
    ops: list[BasketOp] = []
    # pi0
    ops += [_patch_embed("pi0", "SigLIP patch embedding", 224, 14, 3, 1152)]
    ops += _vit("pi0", "SigLIP", 256, 1152, 4304)
    ops += [_attention("pi0", "SigLIP self-attention", 16, 256, 256, 72)]
    ops += _transformer("pi0", "Gemma prefix", 304, 2048, 16384, 2048, 256)
    ops += [_attention("pi0", "Gemma prefix self-attention (1 KV head repeated)", 8, 304, 304, 256)]
    ops += _transformer("pi0", "action expert", 50, 1024, 4096, 2048, 256)
    ops += [_attention("pi0", "action expert attention over prefix + actions", 8, 50, 354, 256)]
    ops += [_matmul("pi0", "action in-projection (32-dim actions)", 50, 1024, 32),
            _matmul("pi0", "action-time MLP", 50, 1024, 2048),
            _matmul("pi0", "action out-projection", 50, 32, 1024)]
    # OpenVLA
    ops += [_patch_embed("openvla", "DINOv2 patch embedding", 224, 14, 3, 1024)]
    ops += _vit("openvla", "DINOv2", 256, 1024, 4096)
    ops += [_attention("openvla", "DINOv2 self-attention", 16, 256, 256, 64)]
    ops += _transformer("openvla", "Llama-2 prefill", 276, 4096, 11008, 4096, 4096)
    ops += [_attention("openvla", "Llama-2 prefill self-attention", 32, 276, 276, 128)]
    ops += _transformer("openvla", "Llama-2 decode", 1, 4096, 11008, 4096, 4096)
    ops += [_attention("openvla", "Llama-2 decode attention over the KV cache", 32, 1, 283, 128)]
    ops += [_matmul("openvla", "Llama-2 LM head (action tokens are its last 256 ids)", 1, 32000, 4096)]
    # GR00T-N1-style
    ops += _transformer("gr00t_dit", "backbone", 300, 2048, 8192, 2048, 512)
    ops += [_attention("gr00t_dit", "backbone self-attention", 16, 300, 300, 128)]
    ops += _transformer("gr00t_dit", "DiT", 16, 1536, 6144, 1536, 1536)
    ops += [_attention("gr00t_dit", "DiT self-attention", 24, 16, 16, 64),
            _attention("gr00t_dit", "DiT cross-attention to the backbone", 24, 16, 300, 64)]
    ops += [_matmul("gr00t_dit", "DiT cross-attention k+v projection", 300, 2 * 1536, 2048),
            _matmul("gr00t_dit", "DiT adaLN modulation", 1, 6 * 1536, 1536),
            _matmul("gr00t_dit", "action decoder", 16, 32, 1536)]
    # Diffusion Policy: down 256->512->1024, up 1024->512->256, two convs per block.
    for t, cin, cout in ((16, 256, 256), (16, 256, 512), (8, 512, 512), (8, 512, 1024), (4, 1024, 1024),
                         (8, 1024, 512), (8, 2048, 512), (16, 512, 256), (16, 1024, 256)):
        ops.append(_temporal_conv("diffusion_policy", f"temporal conv k5 {cin}->{cout} @T={t}", t, cin, cout))
    ops += [_matmul("diffusion_policy", "FiLM conditioning", 1, 2 * 1024, 256),
            _matmul("diffusion_policy", "observation encoder projection", 2, 256, 512)]
    seen: set[str] = set()
    unique = []
    for op in ops:
        if op.name not in seen:
            seen.add(op.name)
            unique.append(op)
    return unique


def _t(dims, element: str) -> str:
    return "tensor<" + "x".join(str(d) for d in dims) + f"x{element}>"


TYPES = ("f32", "bf16", "i8", "w4")
W4_GROUPS = (128, 64, 32, 16)  # the quantiser's group: the largest dividing K (16 only for K = 4304)
W4_SCALE = "f16"


def w4_group(k: int) -> int:
    """K elements per scale of a w4 GEMM: 128, else the largest of 64 / 32 / 16 dividing K."""
    group = next((g for g in W4_GROUPS if k % g == 0), None)
    if group is None:
        raise ValueError(f"K={k} has no INT4 group size among {W4_GROUPS}")
    return group


def _check_type(element: str) -> None:
    if element not in TYPES:
        raise ValueError(f"unknown basket type {element!r} ({', '.join(TYPES)})")


def op_types(op: BasketOp, element: str = "f32") -> dict:
    """The element type of each operand of the op as written for `--type element`."""
    _check_type(element)
    if op.kind == "attention":
        e = "f32" if element == "f32" else "bf16"  # i8 and w4 models keep attention in bf16
        return {"query": e, "key": e, "value": e, "scale": e, "result": e}
    if element == "w4" and op.kind == "matmul":
        return {"lhs": "f32", "rhs": "i4", "rhs_scale": W4_SCALE, "rhs_dequantised": "f32", "result": "f32"}
    e = "bf16" if element == "w4" else element  # w4 models keep convolutions in bf16
    acc = "i32" if e == "i8" else "f32"
    if op.kind == "matmul":
        return {"lhs": e, "rhs": e, "result": acc}
    return {"input": e, "filter": e, "result": acc}


def op_quantisation(op: BasketOp, element: str = "f32") -> dict | None:
    """How a w4 GEMM's weight is stored (None for everything else)."""
    if element != "w4" or op.kind != "matmul":
        return None
    return {"weight": "i4", "signed": True, "group_size": w4_group(op.sizes["k"]), "scale_type": W4_SCALE,
            "zero_point": False, "layout": "grouped"}


def _int4_tool():
    """tools/gen_int4_models.py, imported (tools/ is put on sys.path if it is not already)."""
    try:
        import gen_int4_models
    except ImportError:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import gen_int4_models
    return gen_int4_models


def _w4_matmul(op: BasketOp) -> str:
    s, q = op.sizes, op_quantisation(op, "w4")
    text = _int4_tool().model(s["m"], s["n"], s["k"], q["group_size"], scale_type=q["scale_type"],
                              zero_point=q["zero_point"], layout=q["layout"], name="main")
    return f"// {op.model}: {op.what} ({op.kind}, {', '.join(f'{k}={v}' for k, v in s.items())})\n" + text


def op_mlir(op: BasketOp, element: str = "f32") -> str:
    """The op as a one-function module (`@main`), weights as arguments."""
    types = op_types(op, element)
    if op.kind == "matmul" and element == "w4":
        return _w4_matmul(op)
    if op.kind == "attention":
        element, acc = types["query"], "f32"  # the score region's argument is f32 whatever the operands
    else:
        element, acc = types["rhs" if op.kind == "matmul" else "filter"], types["result"]
    s = op.sizes
    zero = f"  %zero = arith.constant 0{'.0' if acc.startswith('f') else ''} : {acc}\n"
    if op.kind == "matmul":
        a, b, c = _t((s["m"], s["k"]), element), _t((s["k"], s["n"]), element), _t((s["m"], s["n"]), acc)
        body = (zero + f"  %e = tensor.empty() : {c}\n"
                f"  %f = linalg.fill ins(%zero : {acc}) outs(%e : {c}) -> {c}\n"
                f"  %r = linalg.matmul ins(%a, %b : {a}, {b}) outs(%f : {c}) -> {c}\n")
        return _module(op, f"%a: {a}, %b: {b}", c, body)
    if op.kind == "attention":
        q = _t((s["batch"], s["m"], s["k1"]), element)
        kv = _t((s["batch"], s["k2"], s["k1"]), element)
        o = _t((s["batch"], s["m"], s["n"]), element)
        scale = 1.0 / (s["k1"] ** 0.5)
        maps = ", ".join(f"affine_map<(d0, d1, d2, d3, d4) -> ({m})>"
                         for m in ("d0, d1, d2", "d0, d3, d2", "d0, d3, d4", "", "d0, d1, d4"))
        body = (f"  %scale = arith.constant {scale:.8e} : {element}\n"
                f"  %e = tensor.empty() : {o}\n"
                f"  %r = iree_linalg_ext.attention <indexing_maps = [{maps}]>\n"
                f"         ins(%q, %k, %v, %scale : {q}, {kv}, {kv}, {element}) outs(%e : {o}) {{\n"
                f"  ^bb0(%score: {acc}):\n"
                f"    iree_linalg_ext.yield %score : {acc}\n"
                f"  }} -> {o}\n")
        return _module(op, f"%q: {q}, %k: {kv}, %v: {kv}", o, body)
    if op.kind == "conv2d":
        x = _t((1, s["ih"], s["iw"], s["cin"]), element)
        w = _t((s["kh"], s["kw"], s["cin"], s["cout"]), element)
        c = _t((1, s["oh"], s["ow"], s["cout"]), acc)
        stride = s["stride"]
        body = (zero + f"  %e = tensor.empty() : {c}\n"
                f"  %f = linalg.fill ins(%zero : {acc}) outs(%e : {c}) -> {c}\n"
                f"  %r = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, "
                f"strides = dense<{stride}> : tensor<2xi64>}}\n"
                f"         ins(%x, %w : {x}, {w}) outs(%f : {c}) -> {c}\n")
        return _module(op, f"%x: {x}, %w: {w}", c, body)
    padded = s["t"] + s["kw"] - 1  # "same" padding, applied by the exporter
    x = _t((1, padded, s["cin"]), element)
    w = _t((s["kw"], s["cin"], s["cout"]), element)
    c = _t((1, s["t"], s["cout"]), acc)
    body = (zero + f"  %e = tensor.empty() : {c}\n"
            f"  %f = linalg.fill ins(%zero : {acc}) outs(%e : {c}) -> {c}\n"
            f"  %r = linalg.conv_1d_nwc_wcf {{dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}}\n"
            f"         ins(%x, %w : {x}, {w}) outs(%f : {c}) -> {c}\n")
    return _module(op, f"%x: {x}, %w: {w}", c, body)


def _module(op: BasketOp, args: str, result: str, body: str) -> str:
    return (f"// {op.model}: {op.what} ({op.kind}, {', '.join(f'{k}={v}' for k, v in op.sizes.items())})\n"
            f"func.func @main({args}) -> {result} {{\n{body}  return %r : {result}\n}}\n")


def write_basket(out_dir: str | Path, ops: list[BasketOp] | None = None, element: str = "f32") -> dict[str, Path]:
    _check_type(element)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    ops = basket_ops() if ops is None else ops
    written = {}
    for op in ops:
        path = out / f"{op.name}.mlir"
        path.write_text(op_mlir(op, element))
        written[op.name] = path
    index = []
    for op in ops:
        entry = {**asdict(op), "flops": op.flops, "file": f"{op.name}.mlir", "types": op_types(op, element)}
        quant = op_quantisation(op, element)
        if quant is not None:
            entry["quantisation"] = quant
        index.append(entry)
    notes = {"f32": "every operand f32",
             "bf16": "bf16 operands; GEMMs and convolutions accumulate in f32",
             "i8": "w8a8: GEMMs and convolutions i8 x i8 -> i32; attention stays floating point (bf16)",
             "w4": ("weight-only INT4: GEMMs dequantise an i4 weight with per-group f16 scales (group 128, "
                    "else the largest of 64, 32, 16 dividing K) and contract with f32 activations; "
                    "attention and convolutions stay bf16")}
    (out / "basket.json").write_text(json.dumps({"element_type": element, "note": notes[element], "ops": index},
                                                indent=1) + "\n")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir", nargs="?", help="where the .mlir files and basket.json go")
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="write only this op (repeatable)")
    parser.add_argument("--type", default="f32", choices=TYPES,
                        help="f32, bf16, i8 (w8a8: int8 GEMMs/convs into i32, bf16 attention) or w4 "
                             "(i4 weights with f16 group scales, bf16 attention/convs); default f32")
    parser.add_argument("--list", action="store_true", help="print the ops and exit")
    args = parser.parse_args(argv)
    ops = basket_ops()
    if args.only:
        known = {op.name: op for op in ops}
        missing = [n for n in args.only if n not in known]
        if missing:
            print(f"gen_vla_basket: unknown op {missing[0]!r} (see --list)", file=sys.stderr)
            return 2
        ops = [known[n] for n in args.only]
    if args.list or not args.out_dir:
        for op in ops:
            print(f"{op.name:36} {op.model:17} {op.kind:9} {op.flops / 1e9:9.3f} GFLOP  {op.what}")
        print(f"{len(ops)} ops")
        return 0 if args.list else 2
    written = write_basket(args.out_dir, ops, args.type)
    print(f"{len(written)} dispatches written to {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
