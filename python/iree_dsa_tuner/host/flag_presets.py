"""The host recipe's flag presets: named sets of IREE 3.13 flags that act on the whole model, each
timed on the whole model by the recipe (`host.recipe.tune_recipe`). The compile routes
(`host.routes`) add presets of their own."""

from __future__ import annotations

from .. import flags

# The model-level knobs (IREE 3.13 flags that act on the whole model), as named presets. Data
# tiling packs constant weights once at compile time (4-6x on batch-1 GEMMs, IREE_NOTES);
# ukernels replace the mmt4d codegen with hand-written kernels; aggressive fusion puts an INT4
# dequantisation into its matvec; matmul tile bytes is data tiling's own coarse tile knob.
TILE_BYTES_4M = "--iree-llvmcpu-matmul-tile-bytes=4194304"
FLAG_PRESETS: dict[str, tuple[str, ...]] = {
    "default": (),
    # No `dt+uk-mmt4d`: on x86-64 and AArch64 the mmt4d ukernel is IREE's default once data tiling
    # is on, so it was the `dt` build again under another name (docs/DATA_TILING.md).
    "dt": (flags.DATA_TILING_FLAG,),
    "dt+uk-all": (flags.DATA_TILING_FLAG, "--iree-llvmcpu-enable-ukernels=all"),
    "dt+inner-tiled": (flags.DATA_TILING_FLAG, "--iree-llvmcpu-enable-inner-tiled"),
    # Larger mmt4d distribution tiles: with IREE's (256 KiB, sized for 8 threads) a GEMM with many
    # rows streams its whole weight once per 16-row tile; pi0's prefix layer (816 tokens, 134 MB
    # FFN weights) went 3.4-3.7 s -> 2.3-2.6 s on one thread (docs/DATA_TILING.md 7). Smaller
    # tiles: 64 KiB won 4 of 10 constant-weight GEMMs of the basket (docs/PERFORMANCE.md 5);
    # 16 KiB won one there and was never faster than `dt` on the six lerobot exports.
    "dt+tile-bytes-64k": (flags.DATA_TILING_FLAG, "--iree-llvmcpu-matmul-tile-bytes=65536"),
    "dt+tile-bytes-4m": (flags.DATA_TILING_FLAG, TILE_BYTES_4M),
    # The other data-tiling path: it builds where `dt` fails (ACT, the UNet's conv taps).
    "gdt": (flags.GLOBAL_DATA_TILING_FLAG,),
    "gdt+tile-bytes-4m": (flags.GLOBAL_DATA_TILING_FLAG, TILE_BYTES_4M),
    # The data-tiled GEMMs as `iree_codegen.inner_tiled` instead of the mmt4d ukernel: on AVX-512
    # the intrinsic layout stacks up to 29 rows on a 16-lane column (29 of the 32 vector registers
    # accumulate) where the ukernel's tile has 16, and lerobot's GEMMs ran 1.1-1.7x faster
    # (docs/DATA_TILING.md 11). IREE 3.13 builds it only without batched contractions and without
    # GEMMs that accumulate into a non-zero tensor: on transformers as exported it fails (recorded,
    # skipped; the unbatch route's presets stand in), on conv nets it builds (Diffusion Policy's
    # encoder 1.06-1.21x beside its recipe, side by side).
    "gdt+inner-tiled": (flags.GLOBAL_DATA_TILING_FLAG, flags.INNER_TILED_FLAG),
    "aggressive-fusion": ("--iree-dispatch-creation-enable-aggressive-fusion",),
    # Convolutions as im2col + matmul, so data tiling and the mmt4d kernels reach them. IREE
    # 3.13's direct conv codegen is its weak spot on these policies: Diffusion Policy's
    # ResNet-18 encoder went 88 -> 41 ms with im2col, 25 ms with data tiling too (2026-12-01).
    "im2col": (flags.IM2COL_FLAG,),
    "im2col+dt": (flags.IM2COL_FLAG, flags.DATA_TILING_FLAG),
    "im2col+gdt": (flags.IM2COL_FLAG, flags.GLOBAL_DATA_TILING_FLAG),
    "im2col+gdt+inner-tiled": (flags.IM2COL_FLAG, flags.GLOBAL_DATA_TILING_FLAG, flags.INNER_TILED_FLAG),
    # Attention ops decomposed into matmuls and softmax pieces (models with an attention op only).
    "attn-decomposed": (flags.DECOMPOSE_ATTENTION_FLAG,),
    "attn-decomposed+dt": (flags.DECOMPOSE_ATTENTION_FLAG, flags.DATA_TILING_FLAG),
    "attn-decomposed+dt+tile-bytes-4m": (flags.DECOMPOSE_ATTENTION_FLAG, flags.DATA_TILING_FLAG, TILE_BYTES_4M),
    "attn-decomposed+gdt": (flags.DECOMPOSE_ATTENTION_FLAG, flags.GLOBAL_DATA_TILING_FLAG),
    # The global twin of the SigLIP layer's winner: only on the global path can the search reach
    # its mmt4d tiles (the recipe searches a default-path winner there when the twin was as fast).
    "attn-decomposed+gdt+tile-bytes-4m": (flags.DECOMPOSE_ATTENTION_FLAG, flags.GLOBAL_DATA_TILING_FLAG,
                                          TILE_BYTES_4M),
}

# The presets that build no model with batched GEMMs (the unbatch route's presets stand in for them).
INNER_TILED_PRESETS = ("gdt+inner-tiled", "im2col+gdt+inner-tiled")
