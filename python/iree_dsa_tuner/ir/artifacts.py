"""A model compiled once: everything the tuner reads from IREE about it, kept on disk.

One `iree-compile --compile-to=executable-configurations` run gives, together:
- the executable sources (`--iree-hal-dump-executable-sources-to`): discovery reads
  the root-op problems from them;
- the configured IR (the output): IREE's default config per dispatch;
- the dispatch benchmarks (`--iree-hal-dump-executable-benchmarks-to`), with every
  config stripped, so the host runner recompiles one dispatch per candidate.
The reference inputs for `verify` (the model's generic linalg form for the numpy
evaluator, and the model compiled with IREE's defaults) are made on first use and
kept beside them.

The directory is named by a content hash of (model bytes, compile flags, IREE
version), so a second `tune`, `verify` or `inspect` of the same model reuses it
and an edited model never sees a stale dump. It lives under
`$IREE_DSA_CACHE_DIR` (default `~/.cache/iree-dsa-tuner`), in `models/`.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from ..compiler import check_input_file, compile_to_vmfb, run_iree_tool
from ..core.host_isa import is_this_cpu
from ..flags import FUSE_DEQUANTISATION_FLAG, HOST_FLAGS, target_cpu_of
from ..core.cache_dir import CACHE_ENV, cache_root  # noqa: F401  (CACHE_ENV: tests and callers name it here)
from ..core.config import CompilationConfig
from ..core.fingerprint import host_cpu_model, host_isa_flags, iree_version
from ..core.problems import ConvolutionProblem, ElementwiseProblem, Problem, RootOpProblem, UntunableDispatch
from ..core.words import plural
from ..errors import InputError

# Bump when the layout of an artifacts directory changes.
_LAYOUT = "2"  # 2: benchmark buffers written before they are timed
# Attributes that carry a chosen config; stripped from the dumped benchmarks.
CONFIG_ATTRIBUTES = ("lowering_config", "translation_info", "compilation_info")

# Every model-level dump this process made (tests count it: one per model and flags).
DUMP_COUNT = 0
_LOCK = threading.Lock()


def model_key(model: Path, target_flags: tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    digest.update(model.read_bytes())
    digest.update(json.dumps([list(target_flags), iree_version(), _LAYOUT]).encode())
    if is_this_cpu(target_cpu_of(target_flags) or ""):
        # `target-cpu=host` compiles for whatever CPU this is: a cache shared between machines
        # (CI's, a network home) must not hand one CPU's configs to another.
        digest.update(json.dumps([host_cpu_model(), host_isa_flags()]).encode())
    for flag in target_flags:
        # A flag naming a file (a preprocessing script, a tuning spec) names its content too: the
        # same path edited in place is another build (a stale entry once gave a profile another
        # build's call counts).
        value = flag.partition("=")[2] if flag.startswith("--") else ""
        if value and os.path.isfile(value):
            digest.update(hashlib.sha256(Path(value).read_bytes()).digest())
    return digest.hexdigest()[:24]



def spec_problems(artifacts) -> list[RootOpProblem]:
    """A build's root-op problems and its elementwise roots: every dispatch a spec may configure."""
    return [p for p in artifacts.problems() if isinstance(p, RootOpProblem)] + artifacts.elementwise_problems()

@dataclass
class ModelArtifacts:
    """One model's dispatch IR, default configs and dispatch benchmarks, made by one compile."""

    model: Path
    target_flags: tuple[str, ...]
    directory: Path
    symbols: list[str]  # dispatch symbols in IREE's order
    source_files: dict[str, str]  # symbol -> dumped executable source
    benchmark_files: dict[str, str]  # symbol -> stripped benchmark module
    _problems: list[Problem] | None = field(default=None, repr=False)
    # The refused batch-1 convolutions (ir/conv_route.py routes them), filled by problems().
    batch1_convs: list = field(default_factory=list, repr=False)
    # Flags of the numerical reference build when they differ from target_flags: a model
    # compiled under the conv route is checked against the model as the user gave it.
    reference_flags: tuple[str, ...] | None = field(default=None, repr=False)
    _defaults: dict[str, CompilationConfig] | None = field(default=None, repr=False)
    # The parameter archives (`parameters.Parameters`) the model's weights are read from when it is
    # run (verify's numerics); None: random ones from a seed, where it reads any.
    parameters: object | None = field(default=None, repr=False)
    _host_program: object | None = field(default=None, repr=False)
    _traffic: dict | None = field(default=None, repr=False)
    _elementwise: list | None = field(default=None, repr=False)

    # ---- what the stages read -----------------------------------------------------
    @property
    def configured_text(self) -> str:
        return (self.directory / "configured.mlir").read_text()

    def problems(self) -> list[Problem]:
        """One problem per dispatch, in IREE's order (discovery)."""
        if self._problems is None:
            from .dequantisation import link_split_dequantisation
            from .discovery import problems_from_sources

            problems: list[Problem] = []
            seen: set[str] = set()
            for symbol in self.symbols:
                path = self.source_files.get(symbol)
                if path is None or path in seen:
                    continue
                seen.add(path)
                problems.extend(problems_from_sources(Path(path).read_text(), str(self.model)))
            order = {s: i for i, s in enumerate(self.symbols)}
            problems.sort(key=lambda p: order.get(p.dispatch, len(order)))
            problems = self._refuse_reshaped(problems)
            # IREE's split INT4 form: the matmul reads what a dequantise dispatch wrote.
            problems = link_split_dequantisation(problems, self.configured_text)
            if not problems:
                raise InputError(f"{self.model}: IREE made no dispatches from this module (nothing to tune)")
            self._problems = problems
        return list(self._problems)

    def elementwise_problems(self) -> list[ElementwiseProblem]:
        """The dispatches whose root is an all-parallel generic (none of `problems()`' root ops), in
        IREE's order: what `search.estimated.divisible_elementwise_configs` repairs."""
        if self._elementwise is None:
            from .discovery import elementwise_problems_from_sources

            found: list[ElementwiseProblem] = []
            for path in dict.fromkeys(self.source_files.get(s) for s in self.symbols):
                if path is not None:
                    found.extend(elementwise_problems_from_sources(Path(path).read_text(), str(self.model)))
            order = {s: i for i, s in enumerate(self.symbols)}
            self._elementwise = sorted(found, key=lambda p: order.get(p.dispatch, len(order)))
        return list(self._elementwise)

    def _refuse_reshaped(self, problems: list[Problem]) -> list[Problem]:
        """Root ops IREE configures with another loop structure than the dispatch shows.

        IREE 3.13 folds a convolution's unit batch away before configuration and
        restores it while configuring (6 loops in the source, 7 in the configured
        op); a spec matches the 6-loop op and its config is dropped, so no spec can
        tune it. Such a dispatch is refused with that reason instead of searched.
        """
        from .configured import read_configured_dispatches
        from .conv_route import is_batch1_conv, manual_hint

        configured_dispatches = {c.symbol: c for c in read_configured_dispatches(self.configured_text)}
        out: list[Problem] = []
        for p in problems:
            c = configured_dispatches.get(p.dispatch)
            configured = c.num_loops if c is not None else None
            if (isinstance(p, RootOpProblem) and c is not None and "Mmt4dTilingExpert" in (c.translation_info or "")
                    and not getattr(p, "is_mmt4d", False)):  # an mmt4d or inner_tiled op in the source
                # Data tiling's default path: the spec sees the encoded op, which then becomes an
                # mmt4d, and a config on it is dropped or fails to build (IREE 3.13,
                # docs/DATA_TILING.md 1). On the global path the dispatch holds the mmt4d itself
                # and its distribution tiles are searched (`host.target.mmt4d_space`).
                out.append(UntunableDispatch(
                    p.dispatch, f"{p.op_name}: data tiling (--iree-opt-data-tiling) lowers it as an mmt4d after a "
                                "spec is applied, so no spec can set its tiles; under --iree-global-opt-data-tiling "
                                "they are searched (docs/DATA_TILING.md)", p.op_name))
            elif isinstance(p, RootOpProblem) and configured is not None and configured != p.num_loops:
                hint = ""
                if isinstance(p, ConvolutionProblem) and not p.dim_groups.get("batch"):
                    if is_batch1_conv(p):
                        self.batch1_convs.append(p)
                    hint = f"; {manual_hint(p)}"
                out.append(UntunableDispatch(
                    p.dispatch, f"{p.op_name}: IREE configures it with {configured} loops but the dispatch has "
                                f"{p.num_loops} (a unit dimension folded away before configuration), and drops "
                                f"a tuning spec's config on such an op{hint}", p.op_name))
            else:
                out.append(p)
        return out

    def host_program(self):
        """Which dispatches each public function calls, and how often (`ir.host_program`)."""
        if self._host_program is None:
            from .host_program import read_host_program

            self._host_program = read_host_program(self.configured_text)
        return self._host_program

    def calls(self) -> dict[str, int]:
        """Calls per dispatch symbol in one call of every public function (IREE deduplicates
        identical dispatches, so one executable can run several times)."""
        return dict(self.host_program().calls())

    def traffic(self) -> dict:
        """Per dispatch symbol, the `DispatchTraffic` of one call (bytes loaded and stored, vector work)."""
        if self._traffic is None:
            from .traffic import traffic_from_sources

            traffic: dict = {}
            for path in sorted(set(self.source_files.values())):
                traffic.update(traffic_from_sources(Path(path).read_text(), str(self.model)))
            self._traffic = traffic
        return dict(self._traffic)

    def constant_read_bytes(self, symbol: str) -> int:
        """Bytes one call of `symbol` reads from the model's globals and parameters (its weights),
        averaged over its calls (the same executable may read different constants per call)."""
        calls = self.host_program().calls_of(symbol)
        traffic = self.traffic().get(symbol)
        if not calls or traffic is None:
            return 0
        total = sum(traffic.read_bytes_of(b for b in range(len(c.lifetimes)) if c.reads_constant(b)) for c in calls)
        return total // len(calls)

    def default_configs(self) -> dict[str, CompilationConfig]:
        """IREE's own config per dispatch (the baseline every target starts from)."""
        if self._defaults is None:
            from .configured import default_configs_from_text

            self._defaults = default_configs_from_text(self.configured_text)
        return dict(self._defaults)

    def input_text(self) -> str:
        """The model's input form (`--compile-to=input`: linalg on tensors, named ops kept)."""
        path = self.directory / "input.mlir"
        if not path.exists():
            text = run_iree_tool("iree-compile", [*self.target_flags, "--compile-to=input",
                                                  "--mlir-print-debuginfo=false"],
                                 input_path=self.model).text
            _write_atomic(path, text)
        return path.read_text()

    def generic_input_text(self) -> str:
        """The model's input form with named ops generalised (the numpy reference reads it)."""
        path = self.directory / "input.generic.mlir"
        if not path.exists():
            self.input_text()
            generic = run_iree_tool("iree-opt", ["--linalg-generalize-named-ops"],
                                    input_path=self.directory / "input.mlir", what="generalising named ops").text
            _write_atomic(path, generic)
        return path.read_text()

    def default_vmfb(self, timeout_s: float = 300.0) -> Path:
        """The model compiled with IREE's defaults (the reference where numpy cannot evaluate)."""
        flags = self.reference_flags if self.reference_flags is not None else self.target_flags
        path = self.directory / ("default.vmfb" if flags == self.target_flags else "default.reference.vmfb")
        if not path.exists():
            with tempfile.TemporaryDirectory(prefix="iree-dsa-default-", dir=self.directory) as tmp:
                staged = Path(tmp) / "default.vmfb"
                compile_to_vmfb(self.model, staged, target_flags=flags, timeout_s=timeout_s)
                os.replace(staged, path)
        return path


def _write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def _strip_configs(source: Path, dest: Path) -> list[str]:
    """Write `source` without any config attribute, its buffers written before they are timed
    (`benchmark_buffers`); return its dispatch symbols."""
    from iree.compiler import ir

    from .benchmark_buffers import write_buffers_first
    from .mlir_walk import _walk, dispatch_functions

    with ir.Context():
        module = ir.Module.parse(source.read_text())
        for op in _walk(module.operation):
            for name in CONFIG_ATTRIBUTES:
                if name in op.attributes:
                    del op.attributes[name]
        write_buffers_first(module)
        symbols = [symbol for symbol, _ in dispatch_functions(module)]
        dest.write_text(module.operation.get_asm(assume_verified=True))
    return symbols


def _symbols_of(path: Path) -> list[str]:
    from iree.compiler import ir

    from .mlir_walk import dispatch_functions

    with ir.Context():
        return [s for s, _ in dispatch_functions(ir.Module.parse(path.read_text()))]


def _dump(model: Path, target_flags: tuple[str, ...], directory: Path, timeout_s: float) -> None:
    """The one compile: configured IR, executable sources and dispatch benchmarks."""
    global DUMP_COUNT
    sources, raw_benchmarks = directory / "sources", directory / "benchmarks.raw"
    with _LOCK:
        DUMP_COUNT += 1
    compile_to_vmfb(
        model, directory / "configured.mlir", target_flags=target_flags, timeout_s=timeout_s,
        extra_flags=("--compile-to=executable-configurations", "--mlir-print-debuginfo=false",
                     f"--iree-hal-dump-executable-sources-to={sources}",
                     f"--iree-hal-dump-executable-benchmarks-to={raw_benchmarks}"),
    )
    from .configured import read_configured_dispatches

    symbols = [c.symbol for c in read_configured_dispatches((directory / "configured.mlir").read_text())]
    source_files = {}
    for path in sorted(sources.glob("*.mlir")):
        for symbol in _symbols_of(path):
            source_files[symbol] = str(path.relative_to(directory))
    benchmarks = directory / "benchmarks"
    benchmarks.mkdir()
    benchmark_files = {}
    for path in sorted(raw_benchmarks.glob("*.mlir")):
        for symbol in _strip_configs(path, benchmarks / path.name):
            benchmark_files[symbol] = str((benchmarks / path.name).relative_to(directory))
    shutil.rmtree(raw_benchmarks, ignore_errors=True)
    (directory / "artifacts.json").write_text(json.dumps({
        "model": str(model), "target_flags": list(target_flags), "iree": iree_version(),
        "symbols": symbols, "sources": source_files, "benchmarks": benchmark_files,
    }, indent=1) + "\n")


def _load(model: Path, target_flags: tuple[str, ...], directory: Path) -> ModelArtifacts:
    index = json.loads((directory / "artifacts.json").read_text())
    return ModelArtifacts(
        model, target_flags, directory, list(index["symbols"]),
        {s: str(directory / p) for s, p in index["sources"].items()},
        {s: str(directory / p) for s, p in index["benchmarks"].items()},
    )


def route_batch1_convs(artifacts: ModelArtifacts, say=None):
    """`artifacts` recompiled under the batch-1 conv route (ir/conv_route.py) when the model has
    refused batch-1 convs the route handles; returns (artifacts, route). The route's flags are
    added to the model's, the reference build keeps the model's own."""
    from .conv_route import plan_route

    artifacts.problems()
    route = plan_route(artifacts.batch1_convs, cache_root() / "routes", artifacts.target_flags)
    if not route:
        return artifacts, route
    if say is not None:
        say(f"batch-1 convolution route for {plural(len(route.dispatches), 'dispatch')}: {' '.join(route.flags)}")
    routed = compile_model(artifacts.model, artifacts.target_flags + route.flags)
    routed.reference_flags, routed.parameters = _reference_flags(artifacts), artifacts.parameters
    left = {p.dispatch for p in routed.problems() if isinstance(p, UntunableDispatch)} & {
        p.dispatch for p in routed.batch1_convs}
    if left:
        route.notes.append(f"still refused under the route: {', '.join(sorted(left))}")
    return routed, route


def _reference_flags(artifacts: ModelArtifacts) -> tuple[str, ...]:
    """The flags of the model as the user gave it (a route must not change the numbers)."""
    return artifacts.reference_flags if artifacts.reference_flags is not None else artifacts.target_flags


# IREE fuses a sub-byte weight's dequantisation into the contraction that reads it only under
# aggressive fusion (flags.FUSE_DEQUANTISATION_FLAG, docs/INT4.md); split, the contraction reads
# 32-bit weights.


def _split_dequantisations(artifacts: ModelArtifacts) -> list[str]:
    calls = artifacts.calls()
    return [p.dispatch for p in artifacts.problems()
            if isinstance(p, UntunableDispatch) and p.dequantises is not None and calls.get(p.dispatch)]


def route_split_dequantisation(artifacts: ModelArtifacts, say=None):
    """`artifacts` recompiled with the dequantisation fused into its contraction when the default
    build splits an INT4 (sub-byte) dequantisation into a dispatch of its own that runs every call;
    returns (artifacts, route). The route is taken only when it removes split dequantisations."""
    from .conv_route import ConvRoute

    split = _split_dequantisations(artifacts)
    route = ConvRoute(dispatches=tuple(split), what="INT4 dequantisation fusion route (docs/INT4.md)",
                      key="dequantisation_route")
    if not split or FUSE_DEQUANTISATION_FLAG in artifacts.target_flags:
        return artifacts, ConvRoute(what=route.what, key=route.key)
    fused = compile_model(artifacts.model, artifacts.target_flags + (FUSE_DEQUANTISATION_FLAG,))
    left = _split_dequantisations(fused)
    if len(left) >= len(split):
        route.notes.append(f"not taken: {FUSE_DEQUANTISATION_FLAG} leaves {plural(len(left), 'dequantisation')} split")
        route.dispatches = ()
        return artifacts, route
    if say is not None:
        say(f"{route.what} for {plural(len(split) - len(left), 'dispatch')}: {FUSE_DEQUANTISATION_FLAG}")
    if left:
        route.notes.append(f"still split under the route: {', '.join(left)}")
    fused.reference_flags, fused.parameters = _reference_flags(artifacts), artifacts.parameters
    route.flags = (FUSE_DEQUANTISATION_FLAG,)
    return fused, route


def take_routes(artifacts: ModelArtifacts, say=None):
    """Every compile route a target that takes them takes: the batch-1 conv route, then the INT4
    dequantisation fusion; returns (artifacts, [the routes taken or noted])."""
    routes = []
    for route_of in (route_batch1_convs, route_split_dequantisation):
        artifacts, route = route_of(artifacts, say=say)
        if route or route.notes:
            routes.append(route)
    return artifacts, routes


def compile_model(model: str | os.PathLike, target_flags: tuple[str, ...] = HOST_FLAGS, *,
                  timeout_s: float = 300.0) -> ModelArtifacts:
    """The artifacts of `model` under `target_flags`: from the cache, or made by one compile.

    A compile error is raised as IREE's one-line error naming the model; nothing
    half-written is left in the cache (the directory is renamed into place whole).
    """
    model = check_input_file(model)
    target_flags = tuple(target_flags)
    directory = cache_root() / "models" / model_key(model, target_flags)
    if (directory / "artifacts.json").exists():
        return _load(model, target_flags, directory)
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=directory.parent))
    try:
        _dump(model, target_flags, staging, timeout_s)
        try:
            os.rename(staging, directory)
        except OSError:  # another process made it first: theirs is as good as ours
            shutil.rmtree(staging, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return _load(model, target_flags, directory)


def load_problems(model: str | os.PathLike, target_flags: tuple[str, ...] = HOST_FLAGS) -> list[Problem]:
    """Compile `model` through IREE (once; see `compile_model`) and return one problem per dispatch."""
    return compile_model(model, target_flags).problems()
