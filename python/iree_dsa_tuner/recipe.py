"""A recipe: how to compile one model for the host = whole-model compile flags + a tuning spec.

`tune --target host -o SPEC.mlir` writes `SPEC.recipe.toml` beside the spec:

    schema = "iree-dsa-recipe/1"
    model = "model.mlir"            # as given to tune
    model_sha256 = "..."            # the recipe is for these bytes only
    target_cpu = "host"             # --iree-llvmcpu-target-cpu it was measured with
    flags = ["--iree-opt-data-tiling", "--iree-llvmcpu-enable-ukernels=all"]
    spec = "spec.mlir"              # relative to the recipe; "" when no spec was kept
    functions = ["proj", "attn_scores"]  # the entry functions timed (every public one by default)
    threads = 2                     # what its whole-model timings ran on (absent: 1, local-sync)
    [weights]                       # how often a function counts in the total; 1 when not listed
    [whole_model_us]                # per variant, the weighted sum of its functions' medians
    default = 5490.0
    [function_us.default]           # per variant, each function's median, as measured
    proj = 4290.0
    attn_scores = 1200.0
    [parameters]                    # the weights it was timed with, for a model that reads archives:
    files = ["model=stage.irpa"]    # the --parameters given (by name when beside the recipe), sha256 ...
    sha256 = ["..."]
    tensors = 4
    # ... or, when none were given: random_seed = 0 (random archives of the right shapes)
    [tuned_on]                      # the machine its timings come from (target_cpu = "host" only)
    cpu = "AMD EPYC"                # /proc/cpuinfo's model name
    vector_isa = "avx512f"          # the widest vector extension it reports
    cpu_id = "family 26 model 2"    # its microarchitecture (x86 family and model): one name, two cores

Which preset and which spec win is a property of the CPU as much as of the model: on an AMD Zen 4
the mmt4d ukernel beat the inner-tiled kernels that won on an Intel Xeon (docs/PERFORMANCE.md 4l).
A recipe used on another machine still builds and computes the same, but it is not that machine's
best, and a spec's vector sizes made for AVX-512 may not build for AVX2: `compile`, `verify` and
`profile` say so in one line (`Recipe.machine_note`).

A recipe is tuned for the thread count its whole-model timings ran on (`tune --threads`): the
presets and the spec kept are the fastest there. In two runs, a spec found on one thread left
Diffusion Policy's encoder slower on two than the same build without it (docs/PERFORMANCE.md 4u), so
a build run on more threads than its recipe's is not that recipe's measured best.

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
from .core.fingerprint import host_cpu_id, host_cpu_model, host_vector_isa
from .core.host_isa import may_be_a_host
from .errors import InputError
from .tomlfile import read_toml

SCHEMA = "iree-dsa-recipe/1"


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
    threads: int = 1  # the threads its whole-model timings ran on (1: local-sync)

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

    def parameter_files(self) -> list[str]:
        """The archives the recipe was timed with (`[SCOPE=]FILE`, as `--parameters` takes them), a
        file stored by its name beside the recipe resolved against the recipe's directory."""
        from .parameters import parse_archive_spec

        base = self.path.parent if self.path is not None else None
        return [parse_archive_spec(text, base).spec for text in self.parameters.get("files") or []]

    def recorded_parameters(self) -> list[str]:
        """`parameter_files`, each checked to be there: a recipe tuned elsewhere names archives this
        machine may not have, and one line says which and what to pass instead."""
        from .parameters import parse_archive_spec

        files = self.parameter_files()
        for text in files:
            archive = parse_archive_spec(text)
            if not archive.path.is_file():
                scope = f"{archive.scope}=" if archive.scope else ""
                raise InputError(f"{self.path or 'the recipe'}: the archive it was timed with is not there: "
                                 f"{archive.path}; give it with --parameters={scope}FILE.irpa")
        return files

    def _stored_parameters(self) -> dict:
        """`parameters` as the recipe stores them: an archive that sits beside the recipe named by
        its file name, so the recipe, its scripts and its weights move together."""
        from .parameters import ArchiveFile, parse_archive_spec

        files = self.parameters.get("files")
        if not files or self.path is None:
            return self.parameters
        base = self.path.parent.resolve()
        stored = []
        for text in files:
            archive = parse_archive_spec(text)
            if archive.path.is_absolute() and archive.path.parent.resolve() == base:
                archive = ArchiveFile(archive.scope, Path(archive.path.name))
            stored.append(archive.spec)
        return dict(self.parameters, files=stored)

    def to_toml(self) -> str:
        def q(text: str) -> str:
            return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

        stored_flags = self._script_flags(name_beside=True)
        lines = [f"schema = {q(SCHEMA)}", f"model = {q(self.model)}", f"model_sha256 = {q(self.model_sha256)}",
                 f"target_cpu = {q(self.target_cpu)}", "flags = [" + ", ".join(q(f) for f in stored_flags) + "]",
                 f"spec = {q(self.spec)}", "functions = [" + ", ".join(q(f) for f in self.functions) + "]",
                 *([f"variant = {q(self.variant)}"] if self.variant else []),
                 *([f"threads = {self.threads}"] if self.threads != 1 else []), "", "[weights]"]
        lines += [f"{q(name)} = {w:g}" for name, w in self.weights.items()]
        lines += ["", "[whole_model_us]"]
        lines += [f"{q(name)} = {us:.3f}" for name, us in self.whole_model_us.items()]
        for variant, times in self.function_us.items():
            lines += ["", f"[function_us.{q(variant)}]"]
            lines += [f"{q(function)} = {us:.3f}" for function, us in times.items()]
        if self.parameters:
            lines += ["", "[parameters]"]
            for key, value in self._stored_parameters().items():
                lines.append(f"{key} = " + ("[" + ", ".join(q(v) for v in value) + "]" if isinstance(value, list)
                                            else str(int(value))))
        if self.tuned_on:
            lines += ["", "[tuned_on]"]
            lines += [f"{key} = {q(str(value))}" for key, value in self.tuned_on.items()]
        return "\n".join(lines) + "\n"

    def machine_note(self, cpu: str | None = None, vector_isa: str | None = None, cpu_id: str | None = None) -> str:
        """One line when this machine is not the one the recipe was tuned on ("" when it is, when
        the recipe does not say, or when it compiles for a named CPU rather than the host). The
        microarchitecture (`cpu_id`) is compared only when the recipe records it: recipes written
        before it was recorded name the CPU and its ISA only."""
        if not may_be_a_host(self.target_cpu) or not self.tuned_on.get("cpu"):
            return ""
        here = {"cpu": cpu or host_cpu_model(), "vector_isa": vector_isa or host_vector_isa()}
        there = {"cpu": self.tuned_on.get("cpu", ""), "vector_isa": self.tuned_on.get("vector_isa", "unknown")}
        if self.tuned_on.get("cpu_id"):
            here["cpu_id"] = host_cpu_id() if cpu_id is None else cpu_id
            there["cpu_id"] = self.tuned_on["cpu_id"]
        if here == there:
            return ""

        def named(m: dict) -> str:
            return f"'{m['cpu']}'" + (f" ({m['cpu_id']})" if m.get("cpu_id") else "") + f" ({m['vector_isa']})"

        where = self.path or "the recipe"
        text = (f"note: {where} was tuned on {named(there)}, this machine is "
                f"{named(here)}: it builds the same model, but its preset and spec are "
                "that CPU's fastest, not necessarily this one's (run `iree-dsa-tune tune` here)")
        if there["vector_isa"] != here["vector_isa"]:
            text += f"; a spec's vector sizes chosen for {there['vector_isa']} may not build for {here['vector_isa']}"
        return text

    def parameters_text(self) -> str:
        """Which weights the recipe was timed with, in words ("" when the model reads none)."""
        if "random_seed" in self.parameters:
            return f"random parameters from seed {self.parameters['random_seed']}"
        files = self.parameter_files()
        return ("parameters " + " ".join(f"--parameters={f}" for f in files)) if files else ""

    def check_model(self, model: str | Path) -> None:
        if model_sha256(model) != self.model_sha256:
            raise InputError(f"{self.path}: the recipe was tuned for other model bytes than {model} "
                             f"(model_sha256 differs); tune this model again")

    def build_flags(self) -> tuple[str, ...]:
        """`flags` as iree-compile takes them: a route's transform script, stored by its name beside
        the recipe, resolved against the recipe's directory (its spec's flags not included)."""
        return self._script_flags(name_beside=False)

    def compile_flags(self) -> tuple[str, ...]:
        """The flags this recipe adds to the host's (its spec's flags included)."""
        from .compiler import tuning_spec_flags

        spec = self.spec_path()
        return self.build_flags() + (tuning_spec_flags(spec) if spec is not None else ())


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
    threads = data.get("threads", 1)
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise InputError(f"{path}: key 'threads': expected the threads it was timed on (an integer >= 1), "
                         f"got {threads!r}")
    recipe.threads = threads
    spec = recipe.spec_path()
    if spec is not None and not spec.is_file():
        raise InputError(f"{path}: key 'spec': no such file: {spec}")
    prefix = flags.TRANSFORM_FLAG + "="
    for f in recipe.compile_flags():
        if f.startswith(prefix) and not Path(f[len(prefix):]).is_file():
            raise InputError(f"{path}: key 'flags': no such file: {f[len(prefix):]} (the transform script the "
                             "recipe's build reads: keep it beside the recipe)")
    return recipe
