"""A recipe: how to compile one model for the host = whole-model compile flags + a tuning spec.

`tune --target host -o SPEC.mlir` writes `SPEC.recipe.toml` beside the spec:

    schema = "iree-dsa-recipe/1"
    model = "model.mlir"            # as given to tune
    model_sha256 = "..."            # the recipe is for these bytes only
    target_cpu = "host"             # --iree-llvmcpu-target-cpu it was measured with
    flags = ["--iree-opt-data-tiling", "--iree-llvmcpu-enable-ukernels=all"]
    spec = "spec.mlir"              # relative to the recipe; "" when no spec was kept
    functions = ["proj", "attn_scores"]  # the entry functions timed (every public one by default)
    [weights]                       # how often a function counts in the total; 1 when not listed
    [whole_model_us]                # per variant, the weighted sum of its functions' medians
    default = 5490.0
    [function_us.default]           # per variant, each function's median, as measured
    proj = 4290.0
    attn_scores = 1200.0
    [parameters]                    # the weights it was timed with, for a model that reads archives:
    files = ["model=/abs/stage.irpa"]    # the --parameters given, with their sha256 ...
    sha256 = ["..."]
    tensors = 4
    # ... or, when none were given: random_seed = 0 (random archives of the right shapes)
    [tuned_on]                      # the machine its timings come from (target_cpu = "host" only)
    cpu = "AMD EPYC"                # /proc/cpuinfo's model name
    vector_isa = "avx512f"          # the widest vector extension it reports

Which preset and which spec win is a property of the CPU as much as of the model: on an AMD Zen 4
the mmt4d ukernel beat the inner-tiled kernels that won on an Intel Xeon (docs/PERFORMANCE.md 4l).
A recipe used on another machine still builds and computes the same, but it is not that machine's
best, and a spec's vector sizes made for AVX-512 may not build for AVX2: `compile`, `verify` and
`profile` say so in one line (`Recipe.machine_note`).

A variant timed on some functions only (a spec, confirmed on the functions that run its
dispatches) lists those; its `whole_model_us` is the sum over them. Recipes written before
per-function timing have no `functions` and read back with an empty one.

`iree-dsa-tune compile MODEL --recipe R -o m.vmfb` builds with it; the plain iree-compile line
is `iree-compile <host flags> <flags> --iree-codegen-tuning-spec-path=<spec> MODEL -o m.vmfb`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from . import flags
from .core.fingerprint import host_cpu_model, host_vector_isa
from .errors import InputError
from .tomlfile import read_toml

SCHEMA = "iree-dsa-recipe/1"

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
    # its mmt4d tiles (model_level searches a default-path winner there when the twin was as fast).
    "attn-decomposed+gdt+tile-bytes-4m": (flags.DECOMPOSE_ATTENTION_FLAG, flags.GLOBAL_DATA_TILING_FLAG,
                                          TILE_BYTES_4M),
}


def route_presets(route_flags: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The presets a batch-1 conv route adds (docs/CONV.md): its flags alone and with either
    data-tiling path (the UNet's 1-D conv taps build only with the global one)."""
    return {"conv-route": tuple(route_flags),
            "conv-route+dt": tuple(route_flags) + (flags.DATA_TILING_FLAG,),
            "conv-route+gdt": tuple(route_flags) + (flags.GLOBAL_DATA_TILING_FLAG,)}


def k_split_presets(route_flags: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The preset the long-K route adds (ir/k_split.py): its script on the global data-tiling path
    with the large mmt4d tiles its model won with (pi0's prefix layer, the one such model so far).
    The split is for data-tiled kernels, so there is none without data tiling; on the default path
    IREE 3.13 does not build it (the pack of a weight slice gets a 1x512x16 f32 vector: "large vector
    sizes" on the prefix layer, 2026-12-01)."""
    return {"k-split+gdt+tile-bytes-4m": tuple(route_flags) + (flags.GLOBAL_DATA_TILING_FLAG, TILE_BYTES_4M)}


INNER_TILED_PRESETS = ("gdt+inner-tiled", "im2col+gdt+inner-tiled")


def conv_fold_presets(route_flags: tuple[str, ...], inner_tiled: bool = True) -> dict[str, tuple[str, ...]]:
    """The presets the batch-fold convolution route adds (ir/conv_fold.py): its script with IREE's
    im2col for the convolutions it leaves, on the global data-tiling path, with inner-tiled (the
    encoder's im2col winner) and without (`inner_tiled=False` where inner-tiled cannot build).
    The folded GEMMs are for data-tiled kernels (their N padded to the lanes), so there is no preset
    without data tiling."""
    presets = {"im2col+conv-fold+gdt": (flags.IM2COL_FLAG,) + tuple(route_flags) + (flags.GLOBAL_DATA_TILING_FLAG,)}
    if inner_tiled:
        presets["im2col+conv-fold+gdt+inner-tiled"] = presets["im2col+conv-fold+gdt"] + (flags.INNER_TILED_FLAG,)
    return presets


def winograd_presets(route_flags: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The preset the Winograd route adds (ir/winograd.py): its flags with IREE's im2col for the
    convolutions it leaves (strided, 1x1, 7x7), on the global data-tiling path (ACT's winner, 1.31x
    its previous unbatch+im2col+gdt+inner-tiled recipe side by side, docs/PERFORMANCE.md 4q). Not inner-tiled: IREE 3.13 does not materialize the Winograd
    batch GEMM's encodings under it ("failed to legalize linalg.batch_matmul"). Not beside the unbatch
    route's presets either: both set the preprocessing pipeline, and iree-compile keeps one."""
    return {"im2col+winograd+gdt": (flags.IM2COL_FLAG,) + tuple(route_flags) + (flags.GLOBAL_DATA_TILING_FLAG,)}


def unbatch_presets(route_flags: tuple[str, ...], hinted_flags: tuple[str, ...] = (),
                    split_flags: tuple[str, ...] = ()) -> dict[str, tuple[str, ...]]:
    """The presets the unbatch route adds (ir/unbatch.py): its script under inner-tiled data tiling
    on the global path, with im2col too, and with attention decomposed (each dropped by
    `presets_that_apply` on a model without a convolution, or an attention op). They stand in for
    `INNER_TILED_PRESETS`, which do not build on a model with batched GEMMs.

    `hinted_flags` name the script that also marks the GEMMs inner-tiled can build (step 4 of
    ir/unbatch.py): without it, a decomposed attention's batched products fail the build (SigLIP's
    layer). im2col's GEMMs come after the script and carry no mark, so its preset keeps the plain one,
    with the convolutions' bias detached (`flags.IM2COL_INNER_TILED_PIPELINE`).
    `split_flags` name the hinted script that also cuts the long-K route's reductions into chunks
    summed after (`k_split.summed_split_lines`): the long-K route for inner-tiled data tiling (pi0's
    prefix layer, docs/DATA_TILING.md 13)."""
    hinted = tuple(hinted_flags or route_flags)
    tail = (flags.GLOBAL_DATA_TILING_FLAG, flags.INNER_TILED_FLAG)
    presets = {"unbatch+gdt+inner-tiled": hinted + tail,
               "unbatch+im2col+gdt+inner-tiled": (flags.IM2COL_FLAG, flags.IM2COL_INNER_TILED_PIPELINE)
                                                 + tuple(route_flags) + tail,
               "attn-decomposed+unbatch+gdt+inner-tiled": (flags.DECOMPOSE_ATTENTION_FLAG,) + hinted + tail}
    if split_flags:
        presets["unbatch+k-split+gdt+inner-tiled"] = tuple(split_flags) + tail
    return presets


def model_sha256(model: str | Path) -> str:
    return hashlib.sha256(Path(model).read_bytes()).hexdigest()


def recipe_path(spec_output: str | Path) -> Path:
    """`spec.mlir` -> `spec.recipe.toml` (same directory and stem)."""
    p = Path(spec_output)
    return p.with_name(p.stem + ".recipe.toml")


@dataclass
class Recipe:
    model: str
    model_sha256: str
    target_cpu: str
    flags: tuple[str, ...] = ()
    spec: str = ""  # relative to the recipe file; "" = no spec
    whole_model_us: dict[str, float] = field(default_factory=dict)
    functions: tuple[str, ...] = ()  # the entry functions timed, in order
    weights: dict[str, float] = field(default_factory=dict)  # function -> weight in the total (1 if absent)
    function_us: dict[str, dict[str, float]] = field(default_factory=dict)  # variant -> function -> median
    path: Path | None = None  # where it was read from or written to
    parameters: dict = field(default_factory=dict)  # `Parameters.to_record()`; {} when the model reads none
    # The build in `whole_model_us` that is this recipe: a preset's (with the spec it was timed
    # with, if any) or the searched spec's ("" in recipes written before it was recorded).
    variant: str = ""
    # The machine the timings come from ({"cpu": model name, "vector_isa": widest extension});
    # {} in recipes written before it was recorded, or compiled for a named CPU.
    tuned_on: dict = field(default_factory=dict)

    @property
    def uses_data_tiling(self) -> bool:
        return flags.uses_data_tiling(self.flags)

    def spec_path(self) -> Path | None:
        if not self.spec:
            return None
        base = self.path.parent if self.path is not None else Path(".")
        return base / self.spec

    def _script_flags(self, name_beside: bool) -> tuple[str, ...]:
        """`flags` with the transform script they name (a route's) resolved against the recipe's
        directory (`name_beside=False`: as iree-compile takes it), or named relative to it when it
        sits there (`name_beside=True`: as the recipe stores it, so the recipe moves with its files)."""
        base = self.path.parent if self.path is not None else None
        out = []
        for f in self.flags:
            prefix = flags.TRANSFORM_FLAG + "="
            if f.startswith(prefix) and base is not None:
                script = Path(f[len(prefix):])
                if name_beside and script.is_absolute() and script.parent.resolve() == base.resolve():
                    f = prefix + script.name
                elif not name_beside and not script.is_absolute():
                    f = prefix + str(base / script)
            out.append(f)
        return tuple(out)

    def to_toml(self) -> str:
        def q(text: str) -> str:
            return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

        stored_flags = self._script_flags(name_beside=True)
        lines = [f"schema = {q(SCHEMA)}", f"model = {q(self.model)}", f"model_sha256 = {q(self.model_sha256)}",
                 f"target_cpu = {q(self.target_cpu)}", "flags = [" + ", ".join(q(f) for f in stored_flags) + "]",
                 f"spec = {q(self.spec)}", "functions = [" + ", ".join(q(f) for f in self.functions) + "]",
                 *([f"variant = {q(self.variant)}"] if self.variant else []), "", "[weights]"]
        lines += [f"{q(name)} = {w:g}" for name, w in self.weights.items()]
        lines += ["", "[whole_model_us]"]
        lines += [f"{q(name)} = {us:.3f}" for name, us in self.whole_model_us.items()]
        for variant, times in self.function_us.items():
            lines += ["", f"[function_us.{q(variant)}]"]
            lines += [f"{q(function)} = {us:.3f}" for function, us in times.items()]
        if self.parameters:
            lines += ["", "[parameters]"]
            for key, value in self.parameters.items():
                lines.append(f"{key} = " + ("[" + ", ".join(q(v) for v in value) + "]" if isinstance(value, list)
                                            else str(int(value))))
        if self.tuned_on:
            lines += ["", "[tuned_on]"]
            lines += [f"{key} = {q(str(value))}" for key, value in self.tuned_on.items()]
        return "\n".join(lines) + "\n"

    def machine_note(self, cpu: str | None = None, vector_isa: str | None = None) -> str:
        """One line when this machine is not the one the recipe was tuned on ("" when it is, when
        the recipe does not say, or when it compiles for a named CPU rather than the host)."""
        if self.target_cpu != "host" or not self.tuned_on.get("cpu"):
            return ""
        here = {"cpu": cpu or host_cpu_model(), "vector_isa": vector_isa or host_vector_isa()}
        there = {"cpu": self.tuned_on.get("cpu", ""), "vector_isa": self.tuned_on.get("vector_isa", "unknown")}
        if here == there:
            return ""
        where = self.path or "the recipe"
        text = (f"note: {where} was tuned on '{there['cpu']}' ({there['vector_isa']}), this machine is "
                f"'{here['cpu']}' ({here['vector_isa']}): it builds the same model, but its preset and spec are "
                "that CPU's fastest, not necessarily this one's (run `iree-dsa-tune tune` here)")
        if there["vector_isa"] != here["vector_isa"]:
            text += f"; a spec's vector sizes chosen for {there['vector_isa']} may not build for {here['vector_isa']}"
        return text

    def parameters_text(self) -> str:
        """Which weights the recipe was timed with, in words ("" when the model reads none)."""
        if "random_seed" in self.parameters:
            return f"random parameters from seed {self.parameters['random_seed']}"
        files = self.parameters.get("files") or []
        return ("parameters " + " ".join(f"--parameters={f}" for f in files)) if files else ""

    def check_model(self, model: str | Path) -> None:
        if model_sha256(model) != self.model_sha256:
            raise InputError(f"{self.path}: the recipe was tuned for other model bytes than {model} "
                             f"(model_sha256 differs); tune this model again")

    def compile_flags(self) -> tuple[str, ...]:
        """The flags this recipe adds to the host's (its spec's flags included)."""
        from .compiler import tuning_spec_flags

        spec = self.spec_path()
        return self._script_flags(name_beside=False) + (tuning_spec_flags(spec) if spec is not None else ())


def load_recipe(path: str | Path) -> Recipe:
    path = Path(path)
    data = read_toml(path, "recipe")
    if data.get("schema") != SCHEMA:
        raise InputError(f"{path}: key 'schema': expected {SCHEMA!r}, got {data.get('schema')!r}")
    for key, kind in (("model", str), ("model_sha256", str), ("target_cpu", str), ("spec", str), ("flags", list)):
        if not isinstance(data.get(key), kind):
            raise InputError(f"{path}: key '{key}': expected {kind.__name__}, got {data.get(key)!r}")
    if not all(isinstance(f, str) and f.startswith("--") for f in data["flags"]):
        raise InputError(f"{path}: key 'flags': expected iree-compile flags, got {data['flags']!r}")
    functions = data.get("functions", [])
    if not isinstance(functions, list) or not all(isinstance(f, str) for f in functions):
        raise InputError(f"{path}: key 'functions': expected a list of function names, got {functions!r}")
    tables = {}
    for key in ("weights", "whole_model_us", "function_us", "parameters", "tuned_on"):
        tables[key] = data.get(key, {})
        if not isinstance(tables[key], dict):
            raise InputError(f"{path}: key '{key}': expected a table, got {tables[key]!r}")
    try:
        function_us = {str(variant): {str(f): float(us) for f, us in times.items()}
                       for variant, times in tables["function_us"].items()}
        recipe = Recipe(data["model"], data["model_sha256"], data["target_cpu"], tuple(data["flags"]), data["spec"],
                        {str(k): float(v) for k, v in tables["whole_model_us"].items()}, tuple(functions),
                        {str(k): float(v) for k, v in tables["weights"].items()}, function_us, path)
    except (AttributeError, TypeError, ValueError):
        raise InputError(f"{path}: keys 'weights', 'whole_model_us', 'function_us': expected numbers "
                         "(function_us: one table of numbers per variant)") from None
    recipe.parameters = dict(tables["parameters"])
    if not all(isinstance(v, str) for v in tables["tuned_on"].values()):
        raise InputError(f"{path}: key 'tuned_on': expected strings (cpu, vector_isa), got {tables['tuned_on']!r}")
    recipe.tuned_on = dict(tables["tuned_on"])
    if not isinstance(data.get("variant", ""), str):
        raise InputError(f"{path}: key 'variant': expected the name of a build, got {data['variant']!r}")
    recipe.variant = data.get("variant", "")
    spec = recipe.spec_path()
    if spec is not None and not spec.is_file():
        raise InputError(f"{path}: key 'spec': no such file: {spec}")
    prefix = flags.TRANSFORM_FLAG + "="
    for f in recipe.compile_flags():
        if f.startswith(prefix) and not Path(f[len(prefix):]).is_file():
            raise InputError(f"{path}: key 'flags': no such file: {f[len(prefix):]} (the transform script the "
                             "recipe's build reads: keep it beside the recipe)")
    return recipe
