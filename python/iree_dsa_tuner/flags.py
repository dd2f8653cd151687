"""iree-compile flags: the one place that knows them.

- the llvm-cpu device flags every target starts from, and swapping their target CPU;
- `--iree-flag` values given by a user, checked the same way in every command;
- the flags of the compile routes (batch-1 convs, INT4 dequantisation fusion) and of data tiling;
- the line in a spec's header that names the flags the spec is valid with.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from .core.host_isa import host_target_cpu
from .errors import InputError

CPU_FLAG = "--iree-llvmcpu-target-cpu="


def _host_cpu() -> str:
    try:
        return host_target_cpu()
    except InputError:  # a bad $IREE_DSA_HOST_ISA: the CLI and the host target say so in one line
        return "host"


# `host`, or the ISA level $IREE_DSA_HOST_ISA caps this machine at (core/host_isa.py).
HOST_CPU_FLAG = CPU_FLAG + _host_cpu()
# llvm-cpu on this machine's CPU: the base every target's flags are made from.
HOST_FLAGS = (
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    HOST_CPU_FLAG,
)

# The routes that make some dispatches tunable (docs/CONV.md, docs/INT4.md), and data tiling.
IM2COL_FLAG = "--iree-global-opt-use-im2col-for-convs"
TRANSFORM_FLAG = "--iree-preprocessing-transform-spec-filename"
FUSE_DEQUANTISATION_FLAG = "--iree-dispatch-creation-enable-aggressive-fusion"
DATA_TILING_FLAG = "--iree-opt-data-tiling"
# Data tiling from GlobalOptimization: encodings set and materialized before dispatch formation
# (docs/DATA_TILING.md). It builds where the default path does not: lerobot's ACT (a layer norm
# fused with its pack: 32 KiB vectors) and Diffusion Policy's UNet taps (1-D convs as matmuls).
# Never both flags: together they turn data tiling off, silently (docs/DATA_TILING.md).
GLOBAL_DATA_TILING_FLAG = "--iree-global-opt-data-tiling"
# Data-tiled contractions lowered through `iree_codegen.inner_tiled` with the CPU's intrinsic
# layouts instead of the mmt4d ukernel (docs/DATA_TILING.md 11).
INNER_TILED_FLAG = "--iree-llvmcpu-enable-inner-tiled"
DATA_TILING_FLAGS = (DATA_TILING_FLAG, GLOBAL_DATA_TILING_FLAG)
PREPROCESSING_PIPELINE_FLAG = "--iree-preprocessing-pass-pipeline"


def preprocessing_pipeline_flag(passes) -> str:
    """The iree-compile flag that runs these function-scope passes in IREE's preprocessing (it takes
    one pipeline: routes that need passes of their own write them all into one)."""
    return f"{PREPROCESSING_PIPELINE_FLAG}=builtin.module(util.func({','.join(passes)}))"


# Attention as matmul -> softmax pieces -> matmul, before dispatch formation: IREE 3.13's CPU
# attention op runs at ~1 GFLOP/s; decomposed, its two matmuls reach data tiling (SigLIP layer,
# one thread: 426 -> 126-223 ms with data tiling, 2026-12-01). The online form first, because
# the decomposition pass rewrites only that form.
DECOMPOSE_ATTENTION_PASSES = ("iree-linalg-ext-convert-attention-to-online-attention",
                              "iree-linalg-ext-decompose-attention")
DECOMPOSE_ATTENTION_FLAG = preprocessing_pipeline_flag(DECOMPOSE_ATTENTION_PASSES)
# im2col's GEMMs inner-tiled (docs/DATA_TILING.md 16): IREE 3.13's inner-tiled lowering builds no
# GEMM that accumulates into anything but zeros, and torch's convolutions accumulate into their
# bias, so the bias is detached into an addition after the product. (Channels last as well made
# im2col's rows pixels instead of output channels, but Diffusion Policy's encoder 2.7x slower.)
IM2COL_INNER_TILED_PIPELINE = ("--iree-preprocessing-pass-pipeline=builtin.module(util.func("
                               "iree-global-opt-detach-elementwise-from-named-ops))")

# A spec made under extra flags names them in its header; `verify` reads them back.
FLAGS_HEADER = "// iree-dsa-tune: flags: "


def uses_data_tiling(flags) -> bool:
    """Whether `flags` turn data tiling on (either path; both at once turn it off)."""
    return sum(f in flags for f in DATA_TILING_FLAGS) == 1


def global_data_tiling_twin(flags) -> tuple[str, ...] | None:
    """`flags` with the default data-tiling path swapped for the global one, or None when they
    do not use the default path. Only on the global path does a spec reach the mmt4d
    (docs/DATA_TILING.md 1-2); everything else in `flags` is kept, in order."""
    if not uses_data_tiling(flags) or DATA_TILING_FLAG not in flags:
        return None
    return tuple(GLOBAL_DATA_TILING_FLAG if f == DATA_TILING_FLAG else f for f in flags)


def with_target_cpu(flags: tuple[str, ...], cpu: str) -> tuple[str, ...]:
    """`flags` compiling for `cpu` (any target CPU they named replaced)."""
    return tuple(f for f in flags if not f.startswith(CPU_FLAG)) + (f"{CPU_FLAG}{cpu}",)


def target_cpu_of(flags: tuple[str, ...]) -> str | None:
    return next((f[len(CPU_FLAG):] for f in flags if f.startswith(CPU_FLAG)), None)


def check_iree_flags(flags, option: str = "--iree-flag") -> tuple[str, ...]:
    """User-given iree-compile flags, each one checked: a one-line error for one that is not a flag."""
    for flag in flags:
        if not isinstance(flag, str) or not flag.startswith("--"):
            raise InputError(f"{option} {flag!r}: not an iree-compile flag (they start with --)")
    return tuple(flags)


def flags_header(flags: tuple[str, ...], spec_dir: Path | None = None) -> str:
    """The spec header naming the flags it needs ("" when none). A transform script in `spec_dir`
    (a route's, copied beside the spec) is named by its file name, so the header is the same
    wherever the tune ran; `read_flags_header` resolves it against the spec's directory."""
    if not flags:
        return ""
    if spec_dir is not None:
        flags = tuple(_script_named_beside(f, spec_dir) for f in flags)
    return ("// iree-dsa-tune: this spec matches the dispatches these iree-compile flags make; compile (and verify)\n"
            "// with them, or the spec silently applies to nothing (docs/CONV.md); a script named without a\n"
            "// directory sits beside this spec:\n"
            + FLAGS_HEADER + shlex.join(flags) + "\n")


def _script_named_beside(flag: str, spec_dir: Path) -> str:
    if not flag.startswith(TRANSFORM_FLAG + "="):
        return flag
    script = Path(flag.split("=", 1)[1])
    return f"{TRANSFORM_FLAG}={script.name}" if script.resolve().parent == spec_dir.resolve() else flag


def read_flags_header(spec_text: str, spec_dir: Path | None = None) -> tuple[str, ...]:
    """The flags a spec's header names (empty when it names none), a script named without a
    directory resolved against `spec_dir`."""
    flags: list[str] = []
    for line in spec_text.splitlines():
        if line.startswith(FLAGS_HEADER):
            flags += shlex.split(line[len(FLAGS_HEADER):])
        elif line.strip() and not line.startswith("//"):
            break
    if spec_dir is not None:
        flags = [_resolved_beside(f, spec_dir) for f in flags]
    return tuple(flags)


def _resolved_beside(flag: str, spec_dir: Path) -> str:
    if not flag.startswith(TRANSFORM_FLAG + "="):
        return flag
    script = Path(flag.split("=", 1)[1])
    return flag if script.is_absolute() else f"{TRANSFORM_FLAG}={spec_dir / script}"


def option_name(flag: str) -> str:
    """`--name=value` -> `--name` (a flag without a value is its own name)."""
    return flag.split("=", 1)[0]


def not_set_by(flags, given) -> tuple[str, ...]:
    """The flags of `flags` whose option `given` does not set already: for a recipe's flags beside
    its spec's header, which names the paths the spec was tuned with (a route's script in the
    tune's directory) where the recipe names the copies it ships with."""
    taken = {option_name(f) for f in given if "=" in f}
    return tuple(f for f in flags if option_name(f) not in taken)


__all__ = [
    "CPU_FLAG", "DATA_TILING_FLAG", "DATA_TILING_FLAGS", "GLOBAL_DATA_TILING_FLAG", "DECOMPOSE_ATTENTION_FLAG", "DECOMPOSE_ATTENTION_PASSES", "FLAGS_HEADER", "FUSE_DEQUANTISATION_FLAG", "global_data_tiling_twin", "HOST_CPU_FLAG", "HOST_FLAGS",
    "IM2COL_FLAG", "IM2COL_INNER_TILED_PIPELINE", "INNER_TILED_FLAG", "PREPROCESSING_PIPELINE_FLAG", "TRANSFORM_FLAG", "check_iree_flags", "flags_header",
    "not_set_by", "option_name", "preprocessing_pipeline_flag", "read_flags_header", "target_cpu_of", "uses_data_tiling",
    "with_target_cpu",
]
