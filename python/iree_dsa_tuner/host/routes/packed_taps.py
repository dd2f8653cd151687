"""The packed kernel-tap route: each batch-1 1-D convolution (Diffusion Policy's UNet) computed as
its kernel taps' GEMMs in a register tile of our own, the weight's rows down the tile and the time
steps across it, accumulated in one packed result.

Why (docs/CONV.md, "The packed kernel-tap route"): the batch-1 conv route (`batch1_conv`) cuts such
a conv into one matmul per tap, and data tiling then makes the time steps the GEMM's rows: the
UNet's widest convs (2048 channels, 16 steps) become `mmt4d_2x256x2048x8x8x1` under AVX2, whose
8 x 8 x 1 ukernel tile ran a tap in 2.28 ms alone, where AVX-512's 16 x 16 x 1 tile ran it in 0.90
ms. Here the weight, a parameter, is the left-hand side: packed once (IREE hoists the pack into an
initializer) into tiles of `rows` output channels, the activation's time steps the columns, one
vector wide. A 2048 -> 2048, 5-tap conv over 16 steps took 9.3-10.0 ms this way with 12 x 8 tiles
under AVX2, against 11.0-11.3 ms for the tap route's ukernel build and 13.1-13.3 ms with the
register-tiled route's 6 x 16 (one-off runs, docs/CONV.md). The whole model decides whether it is
kept (`presets`).

The tile (`tap_tile`): one vector of f32 lanes across, and as many rows as leave four registers
for the step's operands and the compiler's temporaries (12 of AVX2's 16; 14 rows ran 3x slower).
The route replaces a conv whole (`packed_taps_script_text`): a DAG matcher takes the conv with its
input, weight and accumulator (torch puts the bias there), and an inlined function packs the
accumulator, adds each tap's mmt4d into it, and unpacks it once. Convolutions it does not take
(strided, dilated, another layout or element type) keep the tap route's split, in the same script
(iree-compile takes one), so its preset stands beside the batch-1 conv route's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...core.words import plural
from ...flags import GLOBAL_DATA_TILING_FLAG, TRANSFORM_FLAG
from ...ir.conv_route import (ConvRoute, dag_matcher, inline_call_action, inline_replacements_script, script_file,
                              taps_script_parts, verified_script)
from ..flag_presets import TILE_BYTES_4M
from .register_tiled import NO_UKERNELS_FLAG, tensor_type

WHAT = "packed kernel-tap route for batch-1 1-D convolutions (docs/CONV.md)"
SCRIPT_PREFIX = "packed-taps-"
# Registers a tap step needs besides the accumulators: the activation's vector, the broadcast weight
# element, and two the compiler keeps for itself (14 x 8 under AVX2, two spare fewer, ran 3x slower).
SPARE_REGISTERS = 4
CONV_OP = "linalg.conv_1d_ncw_fcw"
UNIT_STEP = "dense<1> : vector<1xi64>"  # the strides and dilations of a conv the route takes


@dataclass(frozen=True, order=True)
class Conv1dLayer:
    """A batch-1 `linalg.conv_1d_ncw_fcw`, stride 1, no dilation, f32: `channels` in, `filters`
    out, `width` output time steps, `taps` kernel width (its input is `width + taps - 1` wide)."""

    channels: int
    filters: int
    width: int
    taps: int

    @property
    def name(self) -> str:
        return f"conv1d_{self.channels}x{self.filters}x{self.width}x{self.taps}"

    @property
    def input_width(self) -> int:
        return self.width + self.taps - 1


def tap_tile(cpu) -> tuple[int, int]:
    """(rows, columns) of the route's register tile on a CPU described by `cpu` (`CpuModel`)."""
    return max(1, cpu.vector_registers - SPARE_REGISTERS), cpu.vector_register_bytes // 4


def batch1_conv1d_layers(text: str) -> tuple[list[Conv1dLayer], list[int]]:
    """(the distinct `Conv1dLayer`s of a model's input form, sorted; the kernel widths of its other
    batch-1 1-D convolutions, which the tap route still splits)."""
    from iree.compiler import ir

    layers: set[Conv1dLayer] = set()
    others: set[int] = set()

    def ones(op, name: str) -> bool:  # as the route's matcher spells them (torch's lowering does)
        return name in op.attributes and str(op.attributes[name]) == UNIT_STEP

    def visit(op) -> "ir.WalkResult":
        if op.name.startswith("linalg.conv_1d_") and len(op.operands) == 3:
            types = [v.type for v in op.operands]
            if all(isinstance(t, ir.RankedTensorType) and t.has_static_shape and t.rank == 3 for t in types):
                (n, c, w_in), weight, (_, f, w) = (list(ir.RankedTensorType(t).shape) for t in types)
                if n == 1:
                    taps = weight[2] if op.name == CONV_OP else weight[0]
                    if (op.name == CONV_OP and ones(op, "strides") and ones(op, "dilations") and weight[:2] == [f, c]
                            and w_in == w + taps - 1
                            and all(str(ir.RankedTensorType(t).element_type) == "f32" for t in types)):
                        layers.add(Conv1dLayer(c, f, w, taps))
                    else:
                        others.add(taps)
        return ir.WalkResult.ADVANCE

    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        ir.Module.parse(text).operation.walk(visit)
    return sorted(layers), sorted(others)


def _conv_function(layer: Conv1dLayer, rows: int, cols: int) -> list[str]:
    """`@fold_NAME`: the conv as its taps' mmt4d products, the weight's output channels the rows of
    `rows` x `cols` x 1 tiles (its packs read only the weight: IREE hoists them), the time steps the
    columns, all accumulated into the packed accumulator, unpacked once."""
    c, f, w, k = layer.channels, layer.filters, layer.width, layer.taps
    f1, w1 = -(-f // rows), -(-w // cols)
    t = lambda *shape: tensor_type(shape, "f32")  # noqa: E731
    lines = [
        f"  util.func private @fold_{layer.name}(%x: {t(1, c, layer.input_width)}, %w: {t(f, c, k)},"
        f" %acc: {t(1, f, w)}) -> {t(1, f, w)} {{",
        "    %zero = arith.constant 0.0 : f32",
        f"    %acc2 = tensor.collapse_shape %acc [[0, 1], [2]] : {t(1, f, w)} into {t(f, w)}",
        f"    %acc_init = tensor.empty() : {t(f1, w1, rows, cols)}",
        f"    %sum0 = linalg.pack %acc2 padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [{rows}, {cols}]"
        f" into %acc_init : {t(f, w)} -> {t(f1, w1, rows, cols)}"]
    for tap in range(k):
        lines += [
            f"    %w{tap} = tensor.extract_slice %w[0, 0, {tap}] [{f}, {c}, 1] [1, 1, 1] : {t(f, c, k)} to {t(f, c)}",
            f"    %lhs_init{tap} = tensor.empty() : {t(f1, c, rows, 1)}",
            f"    %lhs{tap} = linalg.pack %w{tap} padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [{rows}, 1]"
            f" into %lhs_init{tap} : {t(f, c)} -> {t(f1, c, rows, 1)}",
            f"    %x{tap} = tensor.extract_slice %x[0, 0, {tap}] [1, {c}, {w}] [1, 1, 1] : {t(1, c, layer.input_width)}"
            f" to {t(c, w)}",
            f"    %rhs_init{tap} = tensor.empty() : {t(w1, c, cols, 1)}",
            f"    %rhs{tap} = linalg.pack %x{tap} padding_value(%zero : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0]"
            f" inner_tiles = [{cols}, 1] into %rhs_init{tap} : {t(c, w)} -> {t(w1, c, cols, 1)}",
            f"    %sum{tap + 1} = linalg.mmt4d ins(%lhs{tap}, %rhs{tap} : {t(f1, c, rows, 1)}, {t(w1, c, cols, 1)})"
            f" outs(%sum{tap} : {t(f1, w1, rows, cols)}) -> {t(f1, w1, rows, cols)}"]
    return lines + [
        f"    %out_init = tensor.empty() : {t(f, w)}",
        f"    %out2 = linalg.unpack %sum{k} inner_dims_pos = [0, 1] inner_tiles = [{rows}, {cols}] into %out_init"
        f" : {t(f1, w1, rows, cols)} -> {t(f, w)}",
        f"    %out = tensor.expand_shape %out2 [[0, 1], [2]] output_shape [1, {f}, {w}] : {t(f, w)} into {t(1, f, w)}",
        f"    util.return %out : {t(1, f, w)}",
        "  }"]


def _conv_match(layer: Conv1dLayer) -> list[str]:
    """`@match_NAME`: the conv of `layer`'s shapes, stride 1, no dilation; it yields its input, weight
    and accumulator, and its result."""
    c, f, w, k = layer.channels, layer.filters, layer.width, layer.taps
    t = lambda *shape: tensor_type(shape, "f32")  # noqa: E731
    return dag_matcher(layer.name, f"%x: {t(1, c, layer.input_width)}, %w: {t(f, c, k)}, %acc: {t(1, f, w)}", [
        f"      %r = {CONV_OP} {{dilations = {UNIT_STEP}, strides = {UNIT_STEP}}}"
        f" ins(%x, %w : {t(1, c, layer.input_width)}, {t(f, c, k)}) outs(%acc : {t(1, f, w)}) -> {t(1, f, w)}"])


def packed_taps_script_text(layers: list[Conv1dLayer], tile: tuple[int, int], other_widths: list[int] = ()) -> str:
    """The preprocessing script that replaces each of `layers` by its packed taps (module doc), and
    splits the batch-1 1-D convs of `other_widths` into taps as the tap route does."""
    rows, cols = tile
    sequences, pairs = [], []
    for layer in sorted(set(layers)):
        sequences += _conv_function(layer, rows, cols) + _conv_match(layer) + inline_call_action(layer.name)
        pairs.append(f"@match_{layer.name} -> @fold_{layer.name}_here")
    tap_sequences, tap_names = taps_script_parts(list(other_widths)) if other_widths else ([], [])
    pairs += [f"@match_{name} -> @taps_{name}" for name in tap_names]  # after ours: the first match wins
    return inline_replacements_script([
        f"// Batch-1 1-D convolutions -> their kernel taps' mmt4d products in {rows} x {cols} x 1 register tiles,"
        " accumulated packed (iree-dsa-tune, docs/CONV.md)"
        + (f"; the other batch-1 1-D convolutions (kernel widths {', '.join(map(str, sorted(set(other_widths))))})"
           " split into taps." if other_widths else "."),
        f"// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE {NO_UKERNELS_FLAG} ..."],
        sequences + tap_sequences, pairs)


def packed_taps_flags(layers: list[Conv1dLayer], tile: tuple[int, int], directory: Path,
                      other_widths: list[int] = ()) -> tuple[str, ...]:
    """The flags of the route's build: its verified script (content-addressed) and no ukernels (the
    tile is not one the mmt4d ukernel has a fast path for)."""
    text = verified_script(packed_taps_script_text(layers, tile, other_widths), "packed kernel-tap")
    return (f"{TRANSFORM_FLAG}={script_file(text, directory, SCRIPT_PREFIX)}", NO_UKERNELS_FLAG)


def plan_packed_taps_route(layers: list[Conv1dLayer], other_widths: list[int], cpu, directory: Path) -> ConvRoute:
    """The route for a model with these batch-1 1-D convs (`batch1_conv1d_layers`) on a CPU
    described by `cpu`; empty when it has none the route takes."""
    route = ConvRoute(what=WHAT, key="packed_taps_route")
    if cpu is None or not layers:
        return route
    tile = tap_tile(cpu)
    route.flags = packed_taps_flags(layers, tile, directory, other_widths)
    route.notes.append(f"{plural(len(layers), 'batch-1 1-D convolution shape')} as packed kernel taps in {tile[0]} x "
                       f"{tile[1]} x 1 tiles (output channels x time steps)"
                       + (f"; kernel widths {', '.join(map(str, other_widths))} of the others split into taps"
                          if other_widths else ""))
    return route


# Where this route stands among the host's routes (host/routes/__init__.py): planned and timed
# after the batch-1 conv route, whose presets it stands beside.
PLAN_RANK = 15
PRESET_RANK = 15


def plan(planning) -> ConvRoute:
    """The route for the model's batch-1 1-D convolutions, on its CPU (`plan_packed_taps_route`)."""
    layers, others = batch1_conv1d_layers(planning.plain.input_text())
    route = plan_packed_taps_route(layers, others, planning.cpu, planning.directory)
    if route:
        planning.say(f"{route.what}: {route.notes[0]}")
    return route


def presets(route: ConvRoute, planning) -> dict[str, tuple[str, ...]]:
    return packed_taps_presets(route.flags)


def packed_taps_presets(route_flags: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The route's script with 4 MiB mmt4d tiles (IREE's 256 KiB give a workgroup a sliver of a
    tap's weight), on the global data-tiling path, which the tap route's strided convs and the UNet's
    FiLM projections need to build fast. One preset: without data tiling the UNet's whole call ran
    1.05-1.6x slower on both ISAs, and each preset's build costs the UNet's tune 35-40 s of its budget."""
    return {"packed-taps+gdt": tuple(route_flags) + (TILE_BYTES_4M, GLOBAL_DATA_TILING_FLAG)}


__all__ = ["CONV_OP", "Conv1dLayer", "SCRIPT_PREFIX", "WHAT", "batch1_conv1d_layers", "packed_taps_flags",
           "packed_taps_presets", "packed_taps_script_text", "plan", "plan_packed_taps_route", "presets", "tap_tile"]
