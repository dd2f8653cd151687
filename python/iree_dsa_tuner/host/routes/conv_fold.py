"""The batch-fold convolution route: a batched NCHW convolution as one GEMM over all its images' pixels.

Why (docs/CONV.md, "The batch-fold route"): under `--iree-global-opt-use-im2col-for-convs` IREE
3.13 turns an NCHW convolution over B images into B GEMMs sharing the filter,
out[b] = W[F, C*KH*KW] x P[b][K, OH*OW]: the output image's pixels are the GEMM's N. Data tiling pads N to the vector lanes (16 f32 on
AVX-512, 8 on AVX2), so a small image wastes much of every tile: Diffusion Policy's encoder has two
96x96 views, and its layer-3 convolutions (6x6 outputs, N = 36 padded to 48) ran at 53-56% of the
f32 peak where layers 1-2 ran at 89-94% (docs/PERFORMANCE.md 4o). Folding the images into N
(N = 72, padded to 80) ran the GEMM 1.37x faster with the transposes it needs
(`bench/im2col_batch_fold.py`).

IREE forms its im2col GEMMs inside global optimisation, after any preprocessing script, and gives no
flag to fold the batch there. So the route writes the folded form itself: a preprocessing transform
script (`--iree-preprocessing-transform-spec-filename`) that, for each such convolution of this
model (matched with its exact shapes, strides and zero-filled accumulator), calls a function the
script defines and inlines it in the convolution's place:

    patches[c, kh, kw, b, oh, ow] = in[b, c, oh*SH + kh*DH, ow*SW + kw*DW]   (a gather, no reduction)
    out'[f, b*OH*OW] = W[f, c*KH*KW] x patches[c*KH*KW, b*OH*OW]           (one linalg.matmul from zeros)
    out[b, f, oh, ow] = out'[f, b, oh, ow]                                   (a transpose IREE fuses into the consumers)

The GEMM is a plain 2-D matmul from zeros, so both data-tiling paths and inner-tiled build it, and the
filter stays a global that const-eval packs once (the call is inlined: behind a call boundary IREE
repacked the filter on every run, 0.6 ms of the encoder's 22). Which convolutions fold: those over
more than one image whose folded N fills the lanes better than one image's (`folds`); the others
keep IREE's im2col. The route changes the whole build, so it competes as presets
(`conv_fold_presets`), each confirmed by timing the whole model.

The packed form (docs/CONV.md, "The packed fold"). Folding does not help where the images' pixels
together still pad badly: the encoder's layer 4 has 2 x 3 x 3 = 18 output pixels, 32 once padded to
16 lanes, one image or two, and those GEMMs (K = 2304-4608) ran at 53% of the FMA peak. So the
packed presets transpose the product, out'^T[b*OH*OW, f] = patches^T x W^T, and write it as the
register-tiled route's `linalg.mmt4d` (docs/DATA_TILING.md 18): the images' pixels are the tile's
broadcast rows, as many as pad them least (`packed_rows`: 9 for 18 on AVX-512, 2 tiles exactly), and
the filter F, two vectors wide, is the tile's columns. The filter needs no transpose for that: as
written, W[f, c*kh*kw] is the mmt4d's right-hand side, packed (f/N0, K, N0, 1) once at load. A
convolution is packed (`packs`) when the tile's rows pad its pixels less than the lanes do, folded or
not; since IREE's ukernel has no fast path for the tile, those presets build without ukernels. On
the encoder its recipe on the packed twin of the selective Winograd preset ran 1.14x faster than
the unpacked one's, side by side (docs/PERFORMANCE.md 4b).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ...core.words import plural
from ... import flags
from ...flags import TRANSFORM_FLAG
from ...ir.conv_route import (ConvRoute, dag_matcher, inline_call_action, inline_replacements_end,
                              inline_replacements_entry, script_file, verified_script)
from .register_tiled import NO_UKERNELS_FLAG, packed_product_lines, packed_rows, register_tile, zero_filled
from .register_tiled import tensor_type as _tensor

WHAT = "batch-fold convolution route (docs/CONV.md)"
SCRIPT_PREFIX = "conv-fold-"
_FLOAT_TYPES = ("f32", "f16", "bf16")
_CONV_OP = "linalg.conv_2d_nchw_fchw"
_PARALLEL_6 = ", ".join(['"parallel"'] * 6)
# How much more of its tiles must hold data for a convolution to be packed (`packs`): the encoder's
# layer 3 gains 1/0.9 (72 pixels in 12-row tiles, against 80 lanes), ACT's 300-pixel layer 3 only
# 304/300 and stays with data tiling.
PACK_GAIN = 1.1
PACKED_HEADER = ("// Batched NCHW convolutions -> one im2col GEMM over every image's pixels; those a register tile "
                 "fits better -> linalg.mmt4d in that tile (iree-dsa-tune, docs/CONV.md).")


@dataclass(frozen=True, order=True)
class InputConv:
    """One static `linalg.conv_2d_nchw_fchw` of a model's input form, as the script matches it."""

    input_shape: tuple[int, int, int, int]  # B, C, H, W (padding already applied)
    filter_shape: tuple[int, int, int, int]  # F, C, KH, KW
    strides: tuple[int, int]
    dilations: tuple[int, int]
    element_type: str  # of the input, the filter and the output alike
    from_zeros: bool  # its accumulator is a `linalg.fill` of 0.0
    # Its strides and dilations attributes as written (name, text), which the script's matcher must
    # repeat exactly: torch-mlir writes `dense<1> : vector<2xi64>`, other producers a tensor type.
    attributes: tuple[tuple[str, str], ...] = ()

    @property
    def batch(self) -> int:
        return self.input_shape[0]

    @property
    def output_image(self) -> tuple[int, int]:
        (_, _, h, w), (_, _, kh, kw) = self.input_shape, self.filter_shape
        return ((h - self.dilations[0] * (kh - 1) - 1) // self.strides[0] + 1,
                (w - self.dilations[1] * (kw - 1) - 1) // self.strides[1] + 1)

    @property
    def pixels(self) -> int:
        oh, ow = self.output_image
        return oh * ow

    @property
    def output_shape(self) -> tuple[int, int, int, int]:
        return (self.batch, self.filter_shape[0], *self.output_image)

    @property
    def reduction(self) -> int:
        _, c, kh, kw = self.filter_shape
        return c * kh * kw

    @property
    def name(self) -> str:
        b, c, h, w = self.input_shape
        f, _, kh, kw = self.filter_shape
        return (f"b{b}_c{c}_{h}x{w}_f{f}_{kh}x{kw}_s{self.strides[0]}x{self.strides[1]}"
                f"_d{self.dilations[0]}x{self.dilations[1]}_{self.element_type}")


def lane_fill(n: int, lanes: int) -> float:
    """The share of N's tiles that holds data when N is padded to a multiple of `lanes`."""
    return n / (-(-n // lanes) * lanes)


def packs(conv: InputConv, lanes: int, tile: tuple[int, int, int]) -> bool:
    """Whether the packed presets pack `conv` (module doc): f32, a zero-filled accumulator, and its
    images' pixels padded less by the tile's fitted rows (at most the tile's M0) than by the lanes,
    whether one image's pixels or all images' are the N that data tiling pads: at least
    `PACK_GAIN` times as much of the tiles holding data, since the presets give up the ukernel
    for the whole model."""
    n = conv.batch * conv.pixels
    if conv.element_type != "f32" or not conv.from_zeros:
        return False
    return lane_fill(n, packed_rows(n, tile[0])) >= PACK_GAIN * max(lane_fill(n, lanes), lane_fill(conv.pixels, lanes))


def folds(conv: InputConv, lanes: int) -> bool:
    """Whether the route folds `conv`: more than one image, a zero-filled accumulator, and a folded N
    (images x pixels) whose padded tiles hold more data than one image's pixels do."""
    return (conv.batch > 1 and conv.from_zeros
            and lane_fill(conv.batch * conv.pixels, lanes) > lane_fill(conv.pixels, lanes))


def input_convs(text: str) -> list[InputConv]:
    """The static-shaped NCHW convolutions of a model's input form (distinct, sorted)."""
    from iree.compiler import ir

    found: set[InputConv] = set()

    def dense_pair(op, name: str) -> tuple[int, int] | None:
        if name not in op.attributes:
            return (1, 1)
        values = [int(v) for v in ir.DenseIntElementsAttr(op.attributes[name])]
        return tuple(values) if len(values) == 2 else None

    def visit(op) -> "ir.WalkResult":
        if op.name == _CONV_OP and len(op.operands) == 3:
            types = [v.type for v in op.operands]
            if all(isinstance(t, ir.RankedTensorType) and t.has_static_shape and t.rank == 4 for t in types):
                elements = {str(t.element_type) for t in types}
                strides, dilations = dense_pair(op, "strides"), dense_pair(op, "dilations")
                if len(elements) == 1 and strides and dilations:
                    element = elements.pop()
                    written = tuple((name, str(op.attributes[name])) for name in ("dilations", "strides")
                                    if name in op.attributes)
                    found.add(InputConv(tuple(types[0].shape), tuple(types[1].shape), strides, dilations, element,
                                        element in _FLOAT_TYPES and zero_filled(op.operands[2]), written))
        return ir.WalkResult.ADVANCE

    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        ir.Module.parse(text).operation.walk(visit)
    return sorted(found)


def _prologue(conv: InputConv, name: str, dims: tuple[str, ...], patches_as: str, filter_as: str) -> list[str]:
    """The first lines of `@fold_NAME`: its signature; the input's patches gathered into a tensor laid
    out as `dims` (an order of b, c, kh, kw, oh, ow; a copy, no reduction: the strides and dilations
    are in its input map) and collapsed to 2-D as `patches_as` (dims 0-2 x 3-5); the filter collapsed
    to [F, C*KH*KW] as `filter_as`; and `%zero`."""
    (sh, sw), (dh, dw) = conv.strides, conv.dilations
    e = conv.element_type
    t_in, t_w, t_out = _tensor(conv.input_shape, e), _tensor(conv.filter_shape, e), _tensor(conv.output_shape, e)
    b, c, _, _ = conv.input_shape
    f, _, kh, kw = conv.filter_shape
    oh, ow = conv.output_image
    sizes = {"b": b, "c": c, "kh": kh, "kw": kw, "oh": oh, "ow": ow}
    shape = tuple(sizes[d] for d in dims)
    t_patches = _tensor(shape, e)
    row = f"oh * {sh} + kh * {dh}" if dh != 1 else f"oh * {sh} + kh"
    col = f"ow * {sw} + kw * {dw}" if dw != 1 else f"ow * {sw} + kw"
    loops = ", ".join(dims)
    return [
        f"  util.func private @fold_{name}(%in: {t_in}, %w: {t_w}) -> {t_out} {{",
        f"    %patches_init = tensor.empty() : {t_patches}",
        "    %patches = linalg.generic {indexing_maps = ["
        f"affine_map<({loops}) -> (b, c, {row}, {col})>, "
        f"affine_map<({loops}) -> ({loops})>], "
        f"iterator_types = [{_PARALLEL_6}]}} ins(%in : {t_in}) outs(%patches_init : {t_patches}) {{",
        f"    ^bb0(%x: {e}, %unused: {e}):",
        f"      linalg.yield %x : {e}",
        f"    }} -> {t_patches}",
        f"    {patches_as} = tensor.collapse_shape %patches [[0, 1, 2], [3, 4, 5]] : {t_patches}"
        f" into {_tensor((shape[0] * shape[1] * shape[2], shape[3] * shape[4] * shape[5]), e)}",
        f"    {filter_as} = tensor.collapse_shape %w [[0], [1, 2, 3]] : {t_w} into {_tensor((f, conv.reduction), e)}",
        f"    %zero = arith.constant 0.0 : {e}",
    ]


def _folded_sizes(conv: InputConv) -> tuple[int, int, int, int, int, int, str]:
    """(images, filters, output rows, output columns, K = C*KH*KW, N = images x pixels, element type)."""
    b, f, (oh, ow) = conv.batch, conv.filter_shape[0], conv.output_image
    return b, f, oh, ow, conv.reduction, b * oh * ow, conv.element_type


def _fold_function(conv: InputConv, name: str, tile: tuple[int, int] | None = None) -> list[str]:
    """The function that computes `conv` as one folded GEMM (module doc); with `tile` (rows,
    columns), in the packed form."""
    if tile is not None:
        return _packed_fold_function(conv, name, *tile)
    b, f, oh, ow, k, n, e = _folded_sizes(conv)
    t_out = _tensor(conv.output_shape, e)
    t_fb = _tensor((f, b, oh, ow), e)
    return [
        *_prologue(conv, name, ("c", "kh", "kw", "b", "oh", "ow"), patches_as="%rhs", filter_as="%lhs"),
        f"    %acc_init = tensor.empty() : {_tensor((f, n), e)}",
        f"    %acc = linalg.fill ins(%zero : {e}) outs(%acc_init : {_tensor((f, n), e)}) -> {_tensor((f, n), e)}",
        f"    %gemm = linalg.matmul ins(%lhs, %rhs : {_tensor((f, k), e)}, {_tensor((k, n), e)})"
        f" outs(%acc : {_tensor((f, n), e)}) -> {_tensor((f, n), e)}",
        f"    %images = tensor.expand_shape %gemm [[0], [1, 2, 3]] output_shape [{f}, {b}, {oh}, {ow}]"
        f" : {_tensor((f, n), e)} into {t_fb}",
        f"    %out_init = tensor.empty() : {t_out}",
        f"    %out = linalg.transpose ins(%images : {t_fb}) outs(%out_init : {t_out}) permutation = [1, 0, 2, 3]",
        f"    util.return %out : {t_out}",
        "  }",
    ]


def _packed_fold_function(conv: InputConv, name: str, rows: int, cols: int) -> list[str]:
    """The function that computes `conv` as one `linalg.mmt4d` in `rows` x `cols` x 1 register tiles:
    the images' pixels as rows, the filters as columns (module doc)."""
    b, f, oh, ow, k, n, e = _folded_sizes(conv)
    t_out = _tensor(conv.output_shape, e)
    t_images = _tensor((b, oh, ow, f), e)
    # W[f, c*kh*kw] is already the mmt4d's right-hand side (N x K): packed as is, once at load.
    return [
        *_prologue(conv, name, ("b", "oh", "ow", "c", "kh", "kw"), patches_as="%lhs", filter_as="%rhs"),
        *packed_product_lines(n, f, k, rows, cols, e),
        f"    %images = tensor.expand_shape %gemm [[0, 1, 2], [3]] output_shape [{b}, {oh}, {ow}, {f}]"
        f" : {_tensor((n, f), e)} into {t_images}",
        f"    %out_init = tensor.empty() : {t_out}",
        f"    %out = linalg.transpose ins(%images : {t_images}) outs(%out_init : {t_out}) permutation = [0, 3, 1, 2]",
        f"    util.return %out : {t_out}",
        "  }",
    ]


def _match_sequence(conv: InputConv, name: str) -> list[str]:
    """`@match_NAME`: the convolution with these exact types and attributes, from a zero fill; it
    yields the convolution's operands and its result."""
    e = conv.element_type
    t_in, t_w, t_out = _tensor(conv.input_shape, e), _tensor(conv.filter_shape, e), _tensor(conv.output_shape, e)
    return dag_matcher(name, f"%in: {t_in}, %w: {t_w}", [
        f"      %zero = arith.constant 0.0 : {e}",
        f"      %init = tensor.empty() : {t_out}",
        f"      %acc = linalg.fill ins(%zero : {e}) outs(%init : {t_out}) -> {t_out}",
        f"      %conv = {_CONV_OP} {{{', '.join(f'{k} = {v}' for k, v in conv.attributes)}}}"
        f" ins(%in, %w : {t_in}, {t_w}) outs(%acc : {t_out}) -> {t_out}"])


def _tag_action(name: str, attribute: str) -> list[str]:
    """`@tag_NAME_here`: the matched convolution marked with the unit attribute `attribute`."""
    return [
        f"  transform.named_sequence @tag_{name}_here(%ins: !transform.any_value {{transform.readonly}},"
        " %out: !transform.any_value {transform.readonly}) {",
        "    %conv = transform.get_defining_op %out : (!transform.any_value) -> !transform.any_op",
        f"    transform.annotate %conv \"{attribute}\" : !transform.any_op",
        "    transform.yield",
        "  }",
    ]


@dataclass(frozen=True)
class ConvPadding:
    """The zero channels a marked convolution is computed with: its input channels padded to
    `channels` (input and filter alike: the same sums), its output channels to `filters` (zero
    filters, their outputs sliced off)."""
    channels: int
    filters: int


def _padded_tag_function(conv: InputConv, name: str, padding: ConvPadding, attribute: str) -> list[str]:
    """`@fold_NAME`: `conv` computed on zero-padded channels (`padding`), the convolution marked with
    the unit attribute `attribute`, its result sliced back to `conv`'s output channels. The filter's
    pad reads only the parameter, so IREE hoists it with whatever it feeds."""
    e = conv.element_type
    b, c, h, w = conv.input_shape
    f, _, kh, kw = conv.filter_shape
    _, _, oh, ow = conv.output_shape
    t_in, t_w, t_out = _tensor(conv.input_shape, e), _tensor(conv.filter_shape, e), _tensor(conv.output_shape, e)
    t_in2, t_w2 = _tensor((b, padding.channels, h, w), e), _tensor((padding.filters, padding.channels, kh, kw), e)
    t_out2 = _tensor((b, padding.filters, oh, ow), e)

    def pad(value, source, high, types):  # (its lines, the padded value): none where nothing is padded
        if types[0] == types[1]:
            return [], source
        return [f"    {value} = tensor.pad {source} low[0, 0, 0, 0] high[{', '.join(map(str, high))}] {{",
                "    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):",
                f"      tensor.yield %zero : {e}",
                f"    }} : {types[0]} to {types[1]}"], value

    in_lines, in_value = pad("%in_padded", "%in", (0, padding.channels - c, 0, 0), (t_in, t_in2))
    w_lines, w_value = pad("%w_padded", "%w", (padding.filters - f, padding.channels - c, 0, 0), (t_w, t_w2))
    sliced = [f"    %out = tensor.extract_slice %out_padded[0, 0, 0, 0] [{b}, {f}, {oh}, {ow}] [1, 1, 1, 1]"
              f" : {t_out2} to {t_out}"] if t_out2 != t_out else []
    result = "%out_padded" if sliced else "%out"
    attributes = ", ".join([attribute] + [f"{k} = {v}" for k, v in conv.attributes])
    return [
        f"  util.func private @fold_{name}(%in: {t_in}, %w: {t_w}) -> {t_out} {{",
        f"    %zero = arith.constant 0.0 : {e}",
        *in_lines, *w_lines,
        f"    %init = tensor.empty() : {t_out2}",
        f"    %acc = linalg.fill ins(%zero : {e}) outs(%init : {t_out2}) -> {t_out2}",
        f"    {result} = {_CONV_OP} {{{attributes}}} ins({in_value}, {w_value} : {t_in2}, {t_w2}) outs(%acc : {t_out2}) -> {t_out2}",
        *sliced,
        f"    util.return %out : {t_out}",
        "  }",
    ]


def conv_script_text(folded: list[InputConv], tagged: list[InputConv] = (), attribute: str = "",
                     passes: tuple[str, ...] = (), header: str = "",
                     tiles: dict[InputConv, tuple[int, int]] | None = None,
                     padding: dict[InputConv, ConvPadding] | None = None,
                     more: tuple[list[str], list[str]] = ((), ())) -> str:
    """A preprocessing transform script over a model's convolutions: each of `folded` becomes one
    GEMM over all its images' pixels (module doc), in the packed form with its (rows, columns) tile
    where `tiles` names one; each of `tagged` (none of them folded) is marked with the unit
    attribute `attribute`, and then the registered `passes` run on every function (a pass that acts
    on marked convolutions only, like IREE's Winograd conversion; none when nothing is marked).
    A tagged convolution that `padding` names is replaced by the same convolution on zero-padded
    channels, marked (`_padded_tag_function`). `more` is another route's (named sequences, "@match_X
    -> @action_X" pairs), replaced in the same walk (iree-compile takes one script)."""
    tiles, padding = tiles or {}, padding or {}
    folded, tagged = sorted(set(folded) | set(tiles)), sorted(set(tagged))
    passes = tuple(passes) if tagged else ()
    if set(folded) & set(tagged):
        raise ValueError("a convolution cannot be both folded and tagged")
    lines = [header or "// Batched NCHW convolutions -> one im2col GEMM over every image's pixels (iree-dsa-tune, docs/CONV.md).",
             "// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE ...",
             "module attributes {transform.with_named_sequence} {"]
    # Numbered too: two convolutions may differ only in how their attributes are written.
    pairs = []
    for i, conv in enumerate(folded):
        name = f"{i}_{conv.name}"
        lines += _fold_function(conv, name, tiles.get(conv)) + _match_sequence(conv, name) + inline_call_action(name)
        pairs.append(f"@match_{name} -> @fold_{name}_here")
    for i, conv in enumerate(tagged, start=len(folded)):
        name = f"{i}_{conv.name}"
        if conv in padding:
            lines += (_padded_tag_function(conv, name, padding[conv], attribute) + _match_sequence(conv, name)
                      + inline_call_action(name))
            pairs.append(f"@match_{name} -> @fold_{name}_here")
            continue
        lines += _match_sequence(conv, name) + _tag_action(name, attribute)
        pairs.append(f"@match_{name} -> @tag_{name}_here")
    lines += list(more[0])
    # The replaced convolutions are dead: gone before IREE's own im2col looks for convolutions.
    lines += inline_replacements_entry(pairs + list(more[1]))
    handle = "%funcs_now"  # matched again: the rewrites above invalidated %funcs
    if passes:
        lines.append("    %funcs_now = transform.structured.match ops{[\"util.func\", \"func.func\"]} in %module"
                     " : (!transform.any_op) -> !transform.any_op")
    for i, name in enumerate(passes):  # function passes: run on each function, not on the module
        lines.append(f"    %passed{i} = transform.apply_registered_pass \"{name}\" to {handle}"
                     " : (!transform.any_op) -> !transform.any_op")
        handle = f"%passed{i}"
    return "\n".join(lines + inline_replacements_end()) + "\n"


def conv_fold_script_text(convs: list[InputConv]) -> str:
    """The preprocessing transform script that folds these convolutions (module doc)."""
    return conv_script_text(convs)


def conv_fold_flags(convs: list[InputConv], directory: Path) -> tuple[str, ...]:
    """The iree-compile flag that applies the route to these convolutions (the verified script,
    content-addressed); () when there are none."""
    if not convs:
        return ()
    text = verified_script(conv_fold_script_text(convs), "batch-fold convolution")
    return (f"{TRANSFORM_FLAG}={script_file(text, directory, SCRIPT_PREFIX)}",)


def plan_conv_fold_route(convs: list[InputConv], cpu, directory: Path) -> ConvRoute:
    """The route for a model with these `InputConv`s on a CPU described by `cpu` (its vector width
    gives the lanes N is padded to); empty: no convolution folds."""
    route = ConvRoute(what=WHAT, key="conv_fold_route")
    chosen = folded_convs(convs, cpu)
    if not chosen:
        return route
    route.flags = conv_fold_flags(chosen, directory)
    gemms = Counter(f"{c.batch}x{c.filter_shape[0]}x{c.pixels}x{c.reduction}" for c in chosen)
    route.notes.append(f"{plural(len(chosen), 'convolution shape')} as one GEMM each over all images' pixels, "
                       "images x M x N x K: " + ", ".join(g + (f" ({n} shapes)" if n > 1 else "") for g, n in gemms.items()))
    return route


def folded_convs(convs: list[InputConv], cpu) -> list[InputConv]:
    """Those of `convs` the route folds on a CPU described by `cpu` (its vector width gives the
    lanes N is padded to); none without a CPU model."""
    if cpu is None:
        return []
    return [c for c in convs if folds(c, max(1, cpu.vector_register_bytes // _element_bytes(c.element_type)))]


def packed_tiles(convs: list[InputConv], cpu, leave: list[InputConv] = ()) -> dict[InputConv, tuple[int, int]]:
    """Those of `convs` (but `leave`) the packed presets pack on a CPU described by `cpu` (`packs`),
    each with its (rows, columns) tile: the register-tiled route's tile with its rows fitted to the
    convolution's images x pixels. None without a CPU model."""
    if cpu is None:
        return {}
    tile, lanes = register_tile(cpu), max(1, cpu.vector_register_bytes // 4)
    return {c: (packed_rows(c.batch * c.pixels, tile[0]), tile[1])
            for c in convs if c not in leave and packs(c, lanes, tile)}


def packed_script_flags(folded: list[InputConv], tiles: dict[InputConv, tuple[int, int]], directory: Path,
                        tagged: list[InputConv] = (), attribute: str = "", passes: tuple[str, ...] = (),
                        header: str = PACKED_HEADER, padding: dict[InputConv, ConvPadding] | None = None,
                        more: tuple[list[str], list[str]] = ((), ())) -> tuple[str, ...]:
    """The flags of a packed preset's build: its verified script (`conv_script_text` with `tiles`),
    content-addressed, and no ukernels (the mmt4d ukernel has no fast path for the fitted tiles)."""
    text = verified_script(conv_script_text(folded, tagged, attribute, passes, header, tiles, padding, more),
                           "packed convolution")
    return (f"{TRANSFORM_FLAG}={script_file(text, directory, SCRIPT_PREFIX)}", NO_UKERNELS_FLAG)


def _element_bytes(element: str) -> int:
    return 4 if element == "f32" else 2


# Where this route stands among the host's routes (host/routes/__init__.py): planned after unbatch (it reads planned['unbatch']),
# then its presets timed, each in rank order.
PLAN_RANK = 40
PRESET_RANK = 20


def plan(planning) -> ConvRoute:
    """The route for the model's input-form convolutions, on its CPU (`plan_conv_fold_route`)."""
    route = plan_conv_fold_route(planning.convs, planning.cpu, planning.directory)
    if route:
        planning.say(f"{route.what}: {route.notes[0]}")
    return route


def presets(route: ConvRoute, planning) -> dict[str, tuple[str, ...]]:
    """`conv_fold_presets`, and the packed one where a convolution packs. Inner-tiled does not build
    beside batched GEMMs (the unbatch route's presets stand in)."""
    tiles = packed_tiles(planning.convs, planning.cpu)
    packed = (packed_script_flags(folded_convs(planning.convs, planning.cpu), tiles, planning.directory)
              if tiles else ())
    return conv_fold_presets(route.flags, inner_tiled=not planning.planned.get("unbatch"), packed_flags=packed)


def conv_fold_presets(route_flags: tuple[str, ...], inner_tiled: bool = True,
                      packed_flags: tuple[str, ...] = ()) -> dict[str, tuple[str, ...]]:
    """The presets the batch-fold convolution route adds (this module): its script with IREE's
    im2col for the convolutions it leaves, on the global data-tiling path, with inner-tiled (the
    encoder's im2col winner) and without (`inner_tiled=False` where inner-tiled cannot build).
    The folded GEMMs are for data-tiled kernels (their N padded to the lanes), so there is no preset
    without data tiling. With `packed_flags` (`packed_script_flags`), the packed form's preset too:
    the other GEMMs data-tiled as before, without ukernels."""
    presets = {"im2col+conv-fold+gdt": (flags.IM2COL_FLAG,) + tuple(route_flags) + (flags.GLOBAL_DATA_TILING_FLAG,)}
    if inner_tiled:
        presets["im2col+conv-fold+gdt+inner-tiled"] = presets["im2col+conv-fold+gdt"] + (flags.INNER_TILED_FLAG,)
    if packed_flags:
        presets["im2col+conv-fold+register-tiled+gdt"] = (flags.IM2COL_FLAG, *packed_flags, flags.GLOBAL_DATA_TILING_FLAG)
    return presets


__all__ = ["ConvPadding", "InputConv", "PACKED_HEADER", "PACK_GAIN", "WHAT", "conv_fold_flags", "conv_fold_presets", "conv_fold_script_text", "conv_script_text",
           "folded_convs", "folds", "input_convs", "lane_fill", "packed_rows", "packed_script_flags", "packed_tiles", "packs", "plan",
           "plan_conv_fold_route", "presets"]
