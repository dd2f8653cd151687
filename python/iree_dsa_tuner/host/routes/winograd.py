"""The Winograd convolution route: 3x3 stride-1 convolutions as Winograd F(6x6, 3x3), their filters transformed once.

Why (docs/CONV.md, "The Winograd route"): a 3x3 convolution computed as im2col + GEMM does 9 multiply-adds
per input channel, output channel and output pixel. IREE 3.13 has Winograd F(6x6, 3x3) for
`linalg.conv_2d_nchw_fchw` and `linalg.conv_2d_nhwc_hwcf` with stride and dilation 1
(`iree-linalg-ext-convert-conv2d-to-winograd`): each 6x6 block of output pixels becomes an 8x8 tile of
transformed inputs, and the product is 64 batched GEMMs of [tiles x C] x [C x F], 36 * 9 / 64 = 5.1x
fewer multiply-adds. ACT's ResNet-18 backbone (a 240x320 camera: layer 1 at 60x80 pixels) is that case.

Two things make it pay, and IREE gives both as flags:
- the pass itself, in the preprocessing pipeline with `replace-all-convs` (without it, the pass
  converts only convolutions marked `__winograd_conv`, and the pipeline runs before any script);
- the filter transform hoisted into the module's initializer. The filters are parameters, so const-eval
  cannot fold the transform, and IREE's hoisting refuses an expression whose result is much larger than
  its inputs: the transformed filter is 64/9 = 7.1x the filter. Left in the function, ACT's layer-4 filter
  transforms alone took 235 ms of every call (against 140 ms for the whole recipe). The route raises
  `--iree-opt-const-expr-max-size-increase-threshold` to the largest transformed filter of the model, so
  they are computed once at load, and no larger expression is let through.

The price: the transformed filters stay resident, 64/9 of the converted filters' bytes (ACT's 13 converted
convolutions: 231 MB more), and are streamed every call; a convolution with few 6x6 blocks (ACT's layer 4:
4 blocks; the Diffusion Policy encoder's layers 3-4: 2) reuses each transformed weight only that often.
So beside the all-convolutions preset (`winograd_presets`) the route offers selective ones
(`selective_presets`): a preprocessing script marks the convolutions with the most blocks, runs the pass
itself, and folds the batched convolutions it leaves (the batch-fold route, `conv_fold`). The whole
model's timing keeps or drops each (the encoder: layers 1-2 converted; ACT: layers 1-3 on AVX-512,
1-2 on AVX2; docs/CONV.md). The scripts also pad the channels of a convolution whose transforms would
crowd one L1 set (`transform_padding`), which the all-convolutions preset's pass pipeline cannot do.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ... import flags
from ..flag_presets import TILE_BYTES_4M
from ...core.words import plural
from .register_tiled import linear_script_parts, register_tile
from .conv_fold import ConvPadding, InputConv, conv_script_text, folded_convs, packed_script_flags, packed_tiles
from ...ir.conv_route import ConvRoute, script_file, verified_script

WHAT = "Winograd convolution route (docs/CONV.md)"
OUTPUT_TILE = 6  # IREE 3.13's one output tile size for 3x3 filters
INPUT_TILE = OUTPUT_TILE + 3 - 1
_ELEMENT_BYTES = {"f32": 4}  # F(6x6, 3x3)'s constants lose too much in 16-bit floats

# The all-convolutions preset's flags: every 3x3 stride-1 convolution as Winograd F(6x6, 3x3).
# `replace-all-convs`, because the pipeline runs before any preprocessing script could mark the
# chosen ones (the selective presets' scripts run the pass themselves). The filter transform is
# hoisted to load time only under a larger size-increase threshold (sized to the largest transformed
# filter converted).
WINOGRAD_PASS = "iree-linalg-ext-convert-conv2d-to-winograd"
WINOGRAD_PIPELINE = f"--iree-preprocessing-pass-pipeline=builtin.module(util.func({WINOGRAD_PASS}{{replace-all-convs}}))"
HOIST_THRESHOLD_FLAG = "--iree-opt-const-expr-max-size-increase-threshold"
# Without `replace-all-convs` IREE's pass converts only the convolutions carrying this unit attribute.
WINOGRAD_ATTRIBUTE = "__winograd_conv"
SCRIPT_PREFIX = "winograd-"
# The selective presets beside the all-convolutions one (`selective_thresholds`): each costs a
# whole-model build and its timing in the tune's budget.
SELECTIVE_PRESETS = 2


def converts(conv: InputConv) -> bool:
    """Whether IREE's pass converts `conv` and the route is worth offering for it: a 3x3 filter,
    stride and dilation 1, f32."""
    return (conv.filter_shape[2:] == (3, 3) and conv.strides == (1, 1) and conv.dilations == (1, 1)
            and conv.element_type in _ELEMENT_BYTES)


def output_blocks(conv: InputConv) -> int:
    """The 6x6 output blocks of `conv` over all its images: the M of each of its 64 Winograd GEMMs."""
    oh, ow = conv.output_image
    return conv.batch * -(-oh // OUTPUT_TILE) * -(-ow // OUTPUT_TILE)


def transformed_filter_bytes(conv: InputConv, padding: ConvPadding | None = None) -> int:
    """The bytes of `conv`'s filter after the Winograd filter transform (8 x 8 x C x F), with its
    channels padded as `padding` says where given."""
    f, c, _, _ = conv.filter_shape
    if padding:
        f, c = padding.filters, padding.channels
    return INPUT_TILE * INPUT_TILE * c * f * _ELEMENT_BYTES[conv.element_type]


# The input transform's result is [8, 8, blocks, C]: each block's 64 values go to 64 planes one
# blocks x C stride apart, and IREE's transform writes them one value at a time. An x86 L1d is
# indexed within a 4 KiB page (64 sets of 64-byte lines: Zen 4's 8 ways of 4 KiB, Zen 5's and
# recent Intel's 12), so where the stride is a multiple of 4 KiB all 64 planes share one set and
# every write misses: the encoder's layer 1 (32 blocks x 64 channels, 8 KiB) took 960-1295 us for its
# transform on a Zen 5, 95-123 us with 65 or 60 channels (docs/CONV.md, "The Winograd route").
L1_WAY_BYTES = 4096
LINE_BYTES = 64
# Planes of one transform allowed in one L1 set: 8 (60 channels) ran as fast as 2 (65), 16 (72)
# 1.7x slower; 4 leaves the other half of an 8-way set to the input being read.
MOST_PLANES_PER_SET = 4


def planes_per_set(stride_bytes: int) -> int:
    """The most of the input transform's 64 planes, `stride_bytes` apart, that fall into one L1 set."""
    sets = Counter(k * stride_bytes % L1_WAY_BYTES // LINE_BYTES for k in range(INPUT_TILE * INPUT_TILE))
    return max(sets.values())


def _spread(count: int, conv: InputConv) -> int:
    """The fewest channels from `count` up whose transform planes ([8, 8, blocks, channels]) spread
    over the L1's sets (`MOST_PLANES_PER_SET`)."""
    width = output_blocks(conv) * _ELEMENT_BYTES[conv.element_type]
    while planes_per_set(count * width) > MOST_PLANES_PER_SET:
        count += 1
    return count


def transform_channels(conv: InputConv) -> int:
    """The input channels `conv`'s transformed input is given: its own, or the fewest above them
    whose planes spread over the L1's sets. The extra channels are zeros in the input and the filter
    alike; the batched products sum over them, a few percent more multiply-adds where the transform
    ran up to 10x slower."""
    return _spread(conv.filter_shape[1], conv)


def transform_filters(conv: InputConv) -> int:
    """The output channels `conv`'s batched products write and its output transform reads, [8, 8,
    blocks, F] like the input transform's result and crowded alike (the encoder's layer 1: 329-504 us
    at 64, 55-59 at 65): its own, or the fewest above them that spread. The extra ones come from
    zero filters and are sliced off the result."""
    return _spread(conv.filter_shape[0], conv)


def hoist_threshold_flag(chosen: list[InputConv], padding: dict[InputConv, ConvPadding] | None = None) -> str:
    """The hoisting threshold that lets the largest of these convolutions' filter transforms run at
    load (their channels padded as `padding` says)."""
    mib = 1 << 20
    padding = padding or {}
    threshold = -(-max(transformed_filter_bytes(c, padding.get(c)) for c in chosen) // mib) * mib
    return f"{HOIST_THRESHOLD_FLAG}={threshold}"


def winograd_flags(convs: list[InputConv]) -> tuple[str, ...]:
    """The iree-compile flags of the route for a model with these convolutions; () when none converts."""
    chosen = [c for c in convs if converts(c)]
    if not chosen:
        return ()
    return (WINOGRAD_PIPELINE, hoist_threshold_flag(chosen))


def selective_thresholds(convs: list[InputConv], most: int = SELECTIVE_PRESETS) -> list[int]:
    """The output-block counts from which the selective presets convert (ascending).

    A convolution with few 6x6 output blocks reuses each transformed weight that few times, and its
    transformed filter is 64/9 of the filter's bytes: it is where Winograd loses (the encoder's layers
    3-4 on 96x96 images: 2 blocks, against 32 in layer 1). So the candidates leave out the convolutions
    with the fewest blocks, one tier of block counts at a time; the whole model's timing chooses among
    them and the all-convolutions preset. Only convolutions the script can match (a zero-filled
    accumulator) count; the lowest tier is the all-convolutions preset's."""
    tiers = sorted({output_blocks(c) for c in convs if converts(c) and c.from_zeros})
    return tiers[1:1 + most]


def selective_split(convs: list[InputConv], cpu, threshold: int) -> tuple[list[InputConv], list[InputConv]]:
    """(the convolutions a selective preset converts: 3x3 ones the script matches with at least
    `threshold` output blocks, those of the rest it folds on `cpu`)."""
    chosen = [c for c in convs if converts(c) and c.from_zeros and output_blocks(c) >= threshold]
    return chosen, [c for c in folded_convs(convs, cpu) if c not in chosen]


_SELECTIVE_HEADER = ("// Chosen 3x3 convolutions -> Winograd F(6x6,3x3) (IREE's pass on the marked ones); "
                     "batched convolutions -> one GEMM over every image's pixels (iree-dsa-tune, docs/CONV.md).")


_PACKED_LINE = "// Of those not converted, the ones a register tile fits better -> linalg.mmt4d in that tile (docs/CONV.md)."


_PADDED_LINE = ("// Of the chosen, those whose transformed input or output would crowd one L1 set -> computed on"
                " zero-padded channels (docs/CONV.md).")


def transform_padding(chosen: list[InputConv]) -> dict[InputConv, ConvPadding]:
    """The chosen convolutions whose channels `transform_channels` or `transform_filters` pads, and
    to how many."""
    padding = {c: ConvPadding(transform_channels(c), transform_filters(c)) for c in chosen}
    return {c: p for c, p in padding.items() if (p.filters, p.channels) != c.filter_shape[:2]}


_LINEARS_LINE = ("// Linear layers over [tokens, 1, features] -> one mmt4d each in the register tile, rows fitted"
                 " to the tokens (docs/DATA_TILING.md 18).")


def _header(chosen: list[InputConv], packed: bool = False, linears: bool = False) -> str:
    return "\n".join([_SELECTIVE_HEADER] + ([_PACKED_LINE] if packed else []) + ([_LINEARS_LINE] if linears else [])
                     + ([_PADDED_LINE] if transform_padding(chosen) else []))


def selective_script_text(chosen: list[InputConv], folded: list[InputConv]) -> str:
    """The preprocessing script that marks `chosen` for IREE's Winograd pass (their channels
    padded where `transform_padding` says) and runs it, and folds `folded` (the batch-fold route's
    GEMMs, `conv_fold`)."""
    return conv_script_text(folded, chosen, WINOGRAD_ATTRIBUTE, (WINOGRAD_PASS,), header=_header(chosen),
                            padding=transform_padding(chosen))


def selective_presets(convs: list[InputConv], cpu, directory: Path, linears: list = ()) -> dict[str, tuple[str, ...]]:
    """The selective presets (`selective_thresholds`): `im2col+winograd-bT[+conv-fold]+gdt` converts
    the 3x3 convolutions with at least T output blocks, folds those of the rest the batch-fold route
    folds on `cpu`, and leaves the others to IREE's im2col. One preprocessing script does both
    (iree-compile takes one). Each has a `+register-tiled` twin, no ukernels, where a convolution it
    does not convert packs (`conv_fold.packs`: that one written as an mmt4d in its fitted register
    tile, the encoder's 18-pixel layer 4, docs/CONV.md) or the model has `linears`
    (`register_tiled.BroadcastLinear`: each packed as the register-tiled route's linear-only script
    does, in the same script; ACT's transformer, docs/DATA_TILING.md 18)."""
    presets = {}
    for threshold in selective_thresholds(convs):
        chosen, folded = selective_split(convs, cpu, threshold)
        text = verified_script(selective_script_text(chosen, folded), "selective Winograd")
        name = f"im2col+winograd-b{threshold}" + ("+conv-fold" if folded else "") + "+gdt"
        padding = transform_padding(chosen)
        presets[name] = (flags.IM2COL_FLAG, f"{flags.TRANSFORM_FLAG}={script_file(text, directory, SCRIPT_PREFIX)}",
                         hoist_threshold_flag(chosen, padding), flags.GLOBAL_DATA_TILING_FLAG)
        # The same, with the convolutions the register tile fits better packed into it (conv_fold's
        # packed form), and the linear layers.
        tiles = packed_tiles(convs, cpu, leave=chosen)
        if tiles or (linears and cpu is not None):
            more = linear_script_parts(linears, register_tile(cpu)) if linears else ((), ())
            packed = packed_script_flags(folded, tiles, directory, chosen, WINOGRAD_ATTRIBUTE, (WINOGRAD_PASS,),
                                         _header(chosen, packed=bool(tiles), linears=bool(linears)), padding, more)
            # 4 MiB mmt4d tiles where linear layers pack, as the linear-only presets build them.
            presets[name.removesuffix("+gdt") + "+register-tiled+gdt"] = (
                flags.IM2COL_FLAG, *packed, hoist_threshold_flag(chosen, padding),
                *((TILE_BYTES_4M,) if linears else ()), flags.GLOBAL_DATA_TILING_FLAG)
    return presets


def plan_winograd_route(convs: list[InputConv]) -> ConvRoute:
    """The route for a model with these `InputConv`s; empty when none converts."""
    route = ConvRoute(what=WHAT, key="winograd_route")
    chosen = [c for c in convs if converts(c)]
    if not chosen:
        return route
    route.flags = winograd_flags(chosen)
    blocks = Counter(f"{c.filter_shape[1]}->{c.filter_shape[0]} ch, {output_blocks(c)} blocks" for c in chosen)
    largest = max(transformed_filter_bytes(c) for c in chosen)
    route.notes.append(f"{plural(len(chosen), '3x3 convolution shape')} as Winograd F(6x6,3x3) (in -> out channels, 6x6 "
                       "output blocks): " + ", ".join(b + (f" (x{n})" if n > 1 else "") for b, n in blocks.items())
                       + f"; filters transformed once at load, the largest {largest / 1e6:.1f} MB"
                       + "".join(f"; also only those of at least {' or '.join(map(str, t))} blocks (selective presets)"
                                 for t in [selective_thresholds(convs)] if t))
    return route


# Where this route stands among the host's routes (host/routes/__init__.py): planned,
# then its presets timed, each in rank order.
PLAN_RANK = 50
PRESET_RANK = 30


def plan(planning) -> ConvRoute:
    """The route for the model's input-form convolutions (`plan_winograd_route`)."""
    route = plan_winograd_route(planning.convs)
    if route:
        planning.say(f"{route.what}: {route.notes[0]}")
    return route


def presets(route: ConvRoute, planning) -> dict[str, tuple[str, ...]]:
    return dict(winograd_presets(route.flags),
                **selective_presets(planning.convs, planning.cpu, planning.directory, planning.linears))


def winograd_presets(route_flags: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The preset the Winograd route adds (this module): its flags with IREE's im2col for the
    convolutions it leaves (strided, 1x1, 7x7), on the global data-tiling path (ACT's winner, 1.31x
    its previous unbatch+im2col+gdt+inner-tiled recipe side by side, docs/PERFORMANCE.md 4q). Not inner-tiled: IREE 3.13 does not materialize the Winograd
    batch GEMM's encodings under it ("failed to legalize linalg.batch_matmul"). Not beside the unbatch
    route's presets either: both set the preprocessing pipeline, and iree-compile keeps one."""
    return {"im2col+winograd+gdt": (flags.IM2COL_FLAG,) + tuple(route_flags) + (flags.GLOBAL_DATA_TILING_FLAG,)}


__all__ = ["HOIST_THRESHOLD_FLAG", "L1_WAY_BYTES", "MOST_PLANES_PER_SET", "SELECTIVE_PRESETS", "WHAT", "WINOGRAD_ATTRIBUTE", "WINOGRAD_PASS", "WINOGRAD_PIPELINE", "converts",
           "hoist_threshold_flag", "output_blocks", "planes_per_set", "plan", "plan_winograd_route", "presets", "selective_presets",
           "selective_script_text", "selective_split", "selective_thresholds", "transform_channels", "transform_filters", "transform_padding", "transformed_filter_bytes", "winograd_flags", "winograd_presets"]
