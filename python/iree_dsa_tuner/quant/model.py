"""Quantise a model: from what iree-compile accepts (torch, ONNX, linalg; weights inline, in
`.irpa` archives) to a new MLIR and a new `.irpa` that iree-compile builds and iree-run-module
runs.

1. The model's input form is taken (`iree-compile --compile-to=input`) and its weight sites
   found (`sites.find_sites`); the rest of the model is left as IREE gave it.
2. Calibration inputs (seeded, or `.npy` files) run through the numpy reference of the float
   model, which records the activation every site meets.
3. Each site's weight is evaluated through its layout ops and quantised: the scheme's form
   first, falling back (w4a8 -> w8a8 -> bf16) while the layer's output error on its
   calibration activations is over `layer_error`; round-to-nearest, or activation-aware
   scaling (`method = "awq"`). INT4's group is the largest of 128, 64, 32 that meets it.
4. The sites are rewritten (`rewrite.py`), the float weights leave the module, and the
   model's remaining parameters and the new tensors are written to one archive per scope.
5. Accuracy: both models compiled for the host and run on the calibration inputs
   (`accuracy.measure`). With `max_rel_l2`, a stage over it is quantised again with a layer
   budget half as large (at most 4 times); a stage that stays over it even at bf16 is an
   error naming the budget and the best figure reached.

Everything is written to a temporary name and renamed: a failed run leaves nothing half-written.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from iree.compiler import ir

from ..compiler import run_iree_tool
from ..errors import InputError
from ..parameters import ParameterGlobal, Parameters, default_cache_dir, resolve_parameters, write_archive
from ..tuning_spec.elementwise import NotEvaluable
from .accuracy import Accuracy, compile_for_host, measure, whole_head_attention_spec
from .attention_fuse import fuse_attention_text
from .layout_fold import fold_activation_broadcasts, fold_attention_broadcasts
from .rewrite import erase_unused_globals, site_parameters, site_template, splice
from .sites import WeightSite, activation_rows, find_sites, weight_matrix
from .weights import GROUP_SIZES, LayerForm, QuantizedWeight, awq_smoothing, layer_error, quantize_weight

SCHEMES = ("w4a8", "w8a8", "bf16")
METHODS = ("rtn", "awq")
ACTIVATIONS = ("token", "static")
ATTENTION_TYPES = ("bf16", "f16", "f32")
FALLBACK = {"w4a8": ("w4a8", "w8a8", "bf16"), "w8a8": ("w8a8", "bf16"), "bf16": ("bf16",)}
# Bump when what is written changes: cached quantised models of an older version are not reused.
QUANTISER_VERSION = "8"
# Held-out accuracy inputs are seeded at options.seed + HELD_OUT_SEED.
HELD_OUT_SEED = 7919
HOST_SPEC = "attention_spec.mlir"  # written beside model.mlir when the model has attention ops
_SITE_ATTRIBUTE = "quantiser.site"  # a mark on each site while calibration runs
_MAX_CALIBRATION_ROWS = 2048


@dataclass(frozen=True)
class QuantOptions:
    scheme: str = "w8a8"
    method: str = "rtn"
    group: int | None = None  # INT4 group; None: the largest of GROUP_SIZES within layer_error
    zero_point: bool = False
    scale_type: str = "f32"
    activations: str = "token"  # a8's scale: per token at run time, or one calibrated constant per layer
    attention: str = "bf16"  # what attention's Q, K, V and mask are computed in (f32: as exported)
    layer_error: float | None = None  # per-layer relative L2 budget (None: no fallback)
    max_rel_l2: float | None = None  # the model's output budget (None: measured, not bounded)
    min_weight_elements: int = 16384  # smaller weights stay float: too small to matter
    calibration_samples: int = 1
    seed: int = 0

    def check(self) -> "QuantOptions":
        if self.scheme not in SCHEMES:
            raise InputError(f"quantisation scheme {self.scheme!r}: expected one of {', '.join(SCHEMES)}")
        if self.method not in METHODS:
            raise InputError(f"quantisation method {self.method!r}: expected one of {', '.join(METHODS)}")
        if self.group is not None and self.group not in GROUP_SIZES:
            raise InputError(f"INT4 group {self.group}: expected one of {', '.join(map(str, GROUP_SIZES))}")
        if self.activations not in ACTIVATIONS:
            raise InputError(f"activation scales {self.activations!r}: expected one of {', '.join(ACTIVATIONS)}")
        if self.attention not in ATTENTION_TYPES:
            raise InputError(f"attention type {self.attention!r}: expected one of {', '.join(ATTENTION_TYPES)}")
        if self.scale_type not in ("f16", "f32"):
            raise InputError(f"scale type {self.scale_type!r}: expected f16 or f32")
        for name in ("layer_error", "max_rel_l2"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise InputError(f"{name.replace('_', '-')} must be positive, got {value}")
        return self

    def key(self) -> dict:
        # The default activations leave the key (and so the cache of earlier models) as it was.
        return {k: getattr(self, k) for k in self.__dataclass_fields__
                if not (k == "activations" and self.activations == "token")}


@dataclass
class SiteReport:
    name: str
    function: str
    n: int
    k: int
    form: str  # "w4a8 G128 symmetric f32", "w8a8", "bf16", or "float"
    error: float | None = None  # the layer's relative L2 output error on its calibration activations
    alpha: float | None = None  # AWQ's exponent (None: round-to-nearest)
    reason: str = ""  # why it stays float, or fell back
    tried: list[dict] = field(default_factory=list)
    activation_amax: float | None = None  # a static form's calibrated max |x| (its scale * 127)

    def to_json(self) -> dict:
        out = {"weight": self.name, "function": self.function, "n": self.n, "k": self.k, "form": self.form}
        if self.error is not None:
            out["layer_rel_l2"] = float(f"{self.error:.4g}")
        if self.alpha is not None:
            out["awq_alpha"] = self.alpha
        if self.reason:
            out["reason"] = self.reason
        if self.tried:
            out["tried"] = self.tried
        if self.activation_amax is not None:
            out["activation_amax"] = self.activation_amax
        return out


@dataclass
class QuantizedModel:
    mlir: Path
    archives: list[str]  # "[SCOPE=]FILE.irpa", as iree-run-module's --parameters takes them
    options: QuantOptions
    sites: list[SiteReport]
    accuracy: dict[str, Accuracy] = field(default_factory=dict)
    source: str = ""
    weight_bytes: dict = field(default_factory=dict)  # {"float": ..., "quantized": ...} of the sites
    folded: list[str] = field(default_factory=list)  # activation broadcasts read through maps (layout_fold)
    fused_attention: list[str] = field(default_factory=list)  # eager attention raised (attention_fuse)
    attention_converted: int = 0  # attention ops computed in options.attention instead of f32
    # A spec for CPU builds of the model: its attention ops with the head whole (IREE 3.13's own
    # config steps a 256-wide head and miscomputes); None when the model has no attention op.
    host_spec: Path | None = None
    cached: bool = False

    def parameters(self) -> Parameters | None:
        return resolve_parameters(self.mlir, self.archives) if self.archives else None

    def worst(self) -> Accuracy | None:
        return max(self.accuracy.values(), key=lambda a: a.rel_l2) if self.accuracy else None

    def to_json(self) -> dict:
        return {"schema": "iree-dsa-quantized/1", "source": self.source, "mlir": str(self.mlir),
                "parameters": self.archives, "options": self.options.key(),
                "accuracy": {k: v.to_json() for k, v in sorted(self.accuracy.items())},
                "weight_bytes": self.weight_bytes, "sites": [s.to_json() for s in self.sites],
                "folded_broadcasts": self.folded, "fused_attention": self.fused_attention,
                "attention_converted": self.attention_converted,
                "host_spec": self.host_spec.name if self.host_spec else None}

    @classmethod
    def from_json(cls, data: dict, directory: Path) -> "QuantizedModel":
        sites = [SiteReport(s["weight"], s["function"], s["n"], s["k"], s["form"], s.get("layer_rel_l2"),
                            s.get("awq_alpha"), s.get("reason", ""), s.get("tried", []),
                            s.get("activation_amax")) for s in data["sites"]]
        acc = {k: Accuracy(v["max_abs"], v["rel_l2"], v["cosine"]) for k, v in data["accuracy"].items()}
        archives = [a.replace("{dir}", str(directory)) for a in data["parameters"]]
        return cls(directory / "model.mlir", archives, QuantOptions(**data["options"]), sites, acc,
                   data.get("source", ""), data.get("weight_bytes", {}), data.get("folded_broadcasts", []),
                   data.get("fused_attention", []), data.get("attention_converted", 0),
                   directory / data["host_spec"] if data.get("host_spec") else None, cached=True)


def input_form(model: Path) -> tuple[str, str]:
    """The model as linalg on tensors (what the quantiser rewrites), and the same with named ops
    generalised (what the numpy reference evaluates)."""
    text = run_iree_tool("iree-compile", ["--compile-to=input", "--mlir-print-debuginfo=false"],
                         input_path=model, what="lowering the model to its input form").text
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "input.mlir"
        path.write_text(text)
        generic = run_iree_tool("iree-opt", ["--linalg-generalize-named-ops", "--mlir-print-debuginfo=false"],
                                input_path=path, what="generalising named ops").text
    return text, generic


def calibration_inputs(signatures: dict, seed: int, samples: int,
                       npy: dict[str, list[Path]] | None = None) -> dict[str, list[list[np.ndarray]]]:
    """Per public function, `samples` lists of seeded inputs (or the given `.npy` arrays)."""
    from ..tuning_spec.numerics import random_input

    out = {}
    for name, args in signatures.items():
        if npy and name in npy:
            arrays = [np.load(p) for p in npy[name]]
            if len(arrays) != len(args):
                raise InputError(f"@{name} takes {len(args)} inputs, {len(arrays)} .npy files given")
            for i, (a, (shape, _)) in enumerate(zip(arrays, args)):
                if tuple(a.shape) != tuple(shape):
                    raise InputError(f"{npy[name][i]}: shape {tuple(a.shape)}, @{name} input {i} is {tuple(shape)}")
            out[name] = [arrays]
            continue
        rng = np.random.default_rng(seed)
        out[name] = [[random_input(shape, et, rng) for shape, et in args] for _ in range(samples)]
    return out


def _collect_activations(evaluator, sites: list[WeightSite], inputs: dict, seed: int,
                         unevaluable: list[str]) -> dict[int, tuple[np.ndarray, np.ndarray | None]]:
    """The activation rows each site meets on `inputs` (at most _MAX_CALIBRATION_ROWS, seeded),
    and their activation max |x| where it is not the row's own (a convolution's sample)."""
    seen: dict[int, list[tuple[np.ndarray, np.ndarray | None]]] = {}
    by_index = {s.index: s for s in sites}

    def observe(op, values):
        if _SITE_ATTRIBUTE in op.attributes:
            site = by_index[ir.IntegerAttr(op.attributes[_SITE_ATTRIBUTE]).value]
            seen.setdefault(site.index, []).append(activation_rows(site, values[site.x_value]))

    with evaluator._ctx:
        for s in sites:
            s.op.attributes[_SITE_ATTRIBUTE] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), s.index)
    evaluator.observe = observe
    try:
        for name, samples in inputs.items():
            for args in samples:
                evaluator(name, *args)
    except NotEvaluable as e:
        # The numpy reference cannot run the whole model (e.g. ACT's iree_linalg_ext.scan): the
        # layers are judged by their weights' error, and AWQ has nothing to choose its scales on.
        seen.clear()
        unevaluable.append(str(e).splitlines()[0][:120] if str(e) else type(e).__name__)
    finally:
        evaluator.observe = None
        with evaluator._ctx:
            for s in sites:
                del s.op.attributes[_SITE_ATTRIBUTE]
    rng = np.random.default_rng(seed)
    out = {}
    for index, calls in seen.items():
        x = np.concatenate([rows for rows, _ in calls])
        amax = None if calls[0][1] is None else np.concatenate([a for _, a in calls])
        if len(x) > _MAX_CALIBRATION_ROWS:
            keep = np.sort(rng.choice(len(x), _MAX_CALIBRATION_ROWS, replace=False))
            x, amax = x[keep], (amax[keep] if amax is not None else None)
        out[index] = (x, amax)
    return out


def _forms(options: QuantOptions, k: int, calibrated: bool, convolution: bool = False) -> list[LayerForm]:
    """The forms a layer tries, in order. Static activation scales come first and fall back to
    per-token ones within each scheme; they need calibration activations (`calibrated`). A
    convolution has no INT4 form: IREE's named convolutions read a plain integer filter, with no
    group scales."""
    activations = ["static", "token"] if options.activations == "static" and calibrated else ["token"]
    forms = []
    for scheme in FALLBACK[options.scheme]:
        if convolution and scheme == "w4a8":
            continue
        if scheme == "w4a8":
            groups = [options.group] if options.group else list(GROUP_SIZES)
            forms += [LayerForm("w4a8", g, options.zero_point, options.scale_type, a)
                      for g in groups if k % g == 0 for a in activations]
            if options.group and k % options.group:
                raise InputError(f"INT4 group {options.group} does not divide K = {k}")
        elif scheme == "bf16":
            forms.append(LayerForm(scheme, 0, False, options.scale_type))
        else:
            forms += [LayerForm(scheme, 0, False, options.scale_type, a) for a in activations]
    return forms


def choose_form(w: np.ndarray, x: np.ndarray | None, options: QuantOptions, layer_error_budget: float | None,
                row_amax: np.ndarray | None = None,
                convolution: bool = False) -> tuple[QuantizedWeight, float, float | None, list[dict]]:
    """The first form of the scheme's fallback list whose output error on `x` is within budget
    (the last form when none is): (weight, error, AWQ alpha, what was tried). A convolution's
    rows carry their sample's max |x| (`row_amax`), and take no AWQ smoothing: its input
    channels are not its K."""
    tried = []
    forms = _forms(options, w.shape[1], x is not None, convolution)
    for i, form in enumerate(forms):
        if options.method == "awq" and x is not None and form.scheme != "bf16" and not convolution:
            smoothing, alpha, err = awq_smoothing(w, x, form)
            qw = quantize_weight(w, form, smoothing, x)
        else:
            qw, alpha = quantize_weight(w, form, calibration=x, row_amax=row_amax), None
            err = layer_error(w, x, qw, row_amax)
        tried.append({"form": form.describe(), "layer_rel_l2": float(f"{err:.4g}")})
        last = i == len(forms) - 1
        if layer_error_budget is None or err <= layer_error_budget or last:
            return qw, err, alpha, tried
    raise AssertionError("unreachable")


# A convolution with a small filter still matters when it multiplies this many times the filter
# elements per call (a ResNet stem: 9408 weights, 181 M multiply-accumulates on ACT's camera).
CONV_REUSE_THAT_MATTERS = 64


def _busy_convolution(site: WeightSite, options: QuantOptions) -> bool:
    """Whether `site` is a convolution whose small filter is quantised anyway: a filter is read at
    every output position, so its size says little of its cost (a linear's weight is read once
    per token, and the small ones in policies meet a handful of tokens)."""
    if site.conv is None:
        return False
    macs = int(np.prod(site.conv.output_shape)) * site.k
    return macs >= options.min_weight_elements * CONV_REUSE_THAT_MATTERS


def _stored_values(qw: QuantizedWeight, params: dict) -> dict[str, np.ndarray]:
    out = {"weight": qw.codes.reshape(params["weight"].shape)}  # a convolution's filter keeps its shape
    if qw.form.scheme != "bf16":
        out["scale"] = qw.channel_scale.astype(np.float16 if qw.form.scale_type == "f16" else np.float32)
    if qw.group_scale is not None:
        out["group_scale"] = qw.group_scale.astype(np.uint8).view(np.int8)
    if qw.zero_point is not None:
        out["zero_point"] = qw.zero_point.astype(np.uint8).view(np.int8)
    if "smoothing" in params:
        out["smoothing"] = (np.float32(1.0) / qw.smoothing.astype(np.float32)).astype(np.float32)
    return out


def _source_value(evaluator, site: WeightSite) -> np.ndarray:
    if site.source.name == "util.global.load":
        return evaluator.global_value(ir.FlatSymbolRefAttr(site.source.attributes["global"]).value)
    values: dict = {}
    evaluator.evaluate_op(site.source, values)
    return values[site.source.results[0]]


def _quantize_text(text: str, generic: str, parameters: Parameters | None, options: QuantOptions, inputs: dict,
                   layer_budget: float | None) -> tuple[str, dict, list[SiteReport], dict, list[str]]:
    """`text` (the input form) rewritten, the new tensors ({ParameterGlobal: value}), the site
    reports, the weight bytes before and after, and the activation broadcasts folded into the
    contractions that read them (`layout_fold.py`); `generic` (its generalised form) is what the
    numpy reference runs for calibration."""
    from ..parameters import parameter_of_global
    from ..tuning_spec.reference import NumpyModel

    evaluator = NumpyModel(generic, parameters)
    with ir.Context():
        module = ir.Module.parse(text)
        sites = find_sites(module)
        scopes = [p.scope for p in (parameters.globals if parameters else ())]
        scope = scopes[0] if scopes else "model"
        reports, todo = [], []
        for s in sites:
            report = SiteReport(s.name, s.function, s.n, s.k, "float", reason=s.reason)
            reports.append(report)
            if not s.reason and s.n * s.k < options.min_weight_elements and not _busy_convolution(s, options):
                report.reason = f"{s.n * s.k} weights: under {options.min_weight_elements}, too small to matter"
            if not report.reason:
                todo.append((s, report))
        if not todo:
            already = [s for s in sites if "already quantised" in s.reason]
            if already:
                raise InputError(f"the model is already quantised: {already[0].name} is {already[0].reason}")
            raise InputError("no contraction in the model multiplies by a float weight: nothing to quantise"
                             + (f" ({len(sites)} too small or not rewritable)" if sites else ""))
        unevaluable: list[str] = []
        with evaluator._ctx:
            twins = find_sites(evaluator.module)
        if [t.name for t in twins] != [s.name for s in sites]:
            unevaluable.append("a generalised form whose contractions differ")
            activations = {}
        else:
            activations = _collect_activations(evaluator, [twins[s.index] for s, _ in todo], inputs, options.seed,
                                               unevaluable)
        if unevaluable:
            for _, report in todo:
                report.reason = (f"no calibration activations (the numpy reference cannot evaluate "
                                 f"{unevaluable[0]}): judged by its weight's error"
                                 + ("; per-token activation scales (a static one is calibrated)"
                                    if options.activations == "static" else ""))
        new_values: dict[ParameterGlobal, np.ndarray] = {}
        bytes_before = bytes_after = 0
        for s, report in todo:
            try:
                w = weight_matrix(s, _source_value(evaluator, s))
            except (ValueError, NotEvaluable) as e:
                report.reason = f"its weight could not be evaluated through its layout ops: {e}"
                report.form = "float"
                continue
            x, row_amax = activations.get(s.index, (None, None))
            qw, err, alpha, tried = choose_form(w, x, options, layer_budget, row_amax, s.conv is not None)
            report.form, report.error, report.alpha, report.tried = qw.form.describe(), err, alpha, tried
            if qw.activation_amax is not None:
                report.activation_amax = float(qw.activation_amax)
            if tried[0]["form"] != report.form:
                report.reason = f"fell back: {tried[0]['form']} gave layer rel L2 {tried[0]['layer_rel_l2']}"
            elif options.scheme == "w4a8" and qw.form.scheme != "w4a8" and s.conv is not None:
                report.reason = "a convolution: INT8 per output channel (IREE's named convolutions take no INT4 groups)"
            elif options.scheme == "w4a8" and qw.form.scheme != "w4a8":
                report.reason = f"fell back: no INT4 group of {', '.join(map(str, GROUP_SIZES))} divides K = {s.k}"
            params = site_parameters(s, qw.form, scope, qw.smoothing is not None)
            splice(module, s, site_template(s, qw.form, params, qw.activation_amax))
            for role, value in _stored_values(qw, params).items():
                p = params[role]
                g = ParameterGlobal(p.symbol, p.scope, p.key, p.shape, p.element)
                new_values[g] = value
                bytes_after += g.num_bytes
            bytes_before += s.n * s.k * 4
        erase_unused_globals(module)
        # Activation x activation contractions (attention) are not sites; a broadcast they read
        # (a KV head repeated for each query head) is folded into their maps.
        folded = [f.describe() for f in fold_activation_broadcasts(module) + fold_attention_broadcasts(module)]
        module.operation.verify()
        # The model's own parameters it still reads (norm weights, small layers) join the new ones.
        for op in module.body.operations:
            p = parameter_of_global(op.operation) if op.operation.name == "util.global" else None
            if p is not None and all(g.name != p.name for g in new_values):
                new_values[p] = parameters.value(p.scope, p.key)
        out_text = module.operation.get_asm(print_generic_op_form=False)
    return out_text, new_values, reports, {"float": bytes_before, "quantized": bytes_after}, folded


def _write(directory: Path, text: str, values: dict) -> list[str]:
    (directory / "model.mlir").write_text(text)
    archives = []
    for scope in sorted({g.scope for g in values}):
        name = "model.irpa" if not archives else f"model.{scope or 'unscoped'}.irpa"
        write_archive(directory / name, {g: v for g, v in values.items() if g.scope == scope})
        archives.append(f"{scope}={{dir}}/{name}" if scope else f"{{dir}}/{name}")
    return archives


def _cache_key(model: Path, parameters: Parameters | None, options: QuantOptions, npy) -> str:
    h = hashlib.sha256(Path(model).read_bytes())
    h.update(json.dumps({"options": options.key(), "version": QUANTISER_VERSION,
                         "parameters": parameters.to_record() if parameters else None,
                         # random archives are named by their generator's version and the seed
                         "archives": [a.path.name for a in parameters.files] if parameters else None,
                         "npy": {k: [hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in v]
                                 for k, v in (npy or {}).items()}}, sort_keys=True).encode())
    return h.hexdigest()[:20]


def _lifted_model(model: Path, weight_arguments: tuple[int, ...], cache_dir: Path | None) -> Path:
    """`model` with its weight arguments made parameters (`arguments.py`), written once by content."""
    from .arguments import lift_weight_arguments

    text, _ = lift_weight_arguments(model.read_text(), weight_arguments, str(model))
    digest = hashlib.sha256(text.encode()).hexdigest()[:20]
    path = (cache_dir or default_cache_dir()) / "lifted" / f"{model.stem}.{digest}.mlir"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, staged = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(staged, path)
    return path


def quantize_model(model: str | os.PathLike, options: QuantOptions, *, parameters: Parameters | None = None,
                   given_parameters: tuple[str, ...] = (), weight_arguments: tuple[int, ...] = (),
                   output: str | os.PathLike | None = None, npy: dict[str, list[Path]] | None = None,
                   measure_accuracy: bool = True, cache_dir: Path | None = None, say=None) -> QuantizedModel:
    """Quantise `model` (see the module doc). `output`: the directory to write `model.mlir`,
    `model.irpa` and `quantization.json` into; None: a cache directory keyed by the model, its
    archives and `options` (reused when it exists). `parameters`: the model's archives, resolved
    (or `given_parameters`, "[SCOPE=]FILE.irpa" specs checked against the model; neither: random
    ones from `options.seed`). `weight_arguments`: indices of the public function's arguments
    that are weights (made parameters first, `arguments.py`)."""
    say = say or (lambda text: None)
    options = options.check()
    model = Path(model)
    if not model.is_file():
        raise InputError(f"{model}: no such file")
    if weight_arguments:
        model = _lifted_model(model, tuple(weight_arguments), cache_dir)
    if parameters is None:
        parameters = resolve_parameters(model, given_parameters, seed=options.seed)
    key = _cache_key(model, parameters, options, npy)
    if output is None:
        directory = (cache_dir or default_cache_dir()) / "quantized" / key
        record = directory / "quantization.json"
        if record.exists():
            return QuantizedModel.from_json(json.loads(record.read_text()), directory)
    else:
        directory = Path(output)
    say(f"quantising {model.name} ({options.scheme}, {options.method})")
    # Eager attention is raised to one attention op first (its scores then never leave the chip)
    # and computed in options.attention; the accuracy reference stays the model as exported.
    float_text, float_generic = input_form(model)
    fused_text, fused, converted = fuse_attention_text(model.read_text(), options.attention)
    if fused or converted:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / model.name).write_text(fused_text)
            text, generic = input_form(Path(tmp) / model.name)
    else:
        text, generic = float_text, float_generic
    from ..tuning_spec.reference import NumpyModel
    from ..tuning_spec.verify import public_signatures

    signatures, outputs = public_signatures(NumpyModel(generic, parameters))
    inputs = calibration_inputs(signatures, options.seed, options.calibration_samples, npy)
    types = {name: [et for _, et in args] for name, args in signatures.items()}
    # A static activation scale is fitted to the calibration inputs, so its accuracy is measured on
    # held-out inputs as well (seeded apart from them): on the calibration inputs alone no value
    # ever saturates, and the figure would flatter it.
    evaluation = inputs
    if options.activations == "static":
        held_out = calibration_inputs(signatures, options.seed + HELD_OUT_SEED, options.calibration_samples)
        evaluation = {name: inputs[name] + held_out[name] for name in inputs}
    budget = options.layer_error
    directory.parent.mkdir(parents=True, exist_ok=True)
    for attempt in range(6):
        staged = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=directory.parent))
        try:
            out_text, values, reports, weight_bytes, folded = _quantize_text(text, generic, parameters, options,
                                                                             inputs, budget)
            archives = _write(staged, out_text, values)
            spec = whole_head_attention_spec(staged / "model.mlir")
            if spec is not None:
                (staged / HOST_SPEC).write_text(spec)
            result = QuantizedModel(directory / "model.mlir", [a.replace("{dir}", str(directory)) for a in archives],
                                    options, reports, source=str(model), weight_bytes=weight_bytes,
                                    folded=folded, fused_attention=[f.describe() for f in fused],
                                    attention_converted=converted,
                                    host_spec=directory / HOST_SPEC if spec is not None else None)
            if measure_accuracy or options.max_rel_l2 is not None:
                vmfbs = staged / "build"
                staged_params = resolve_parameters(staged / "model.mlir",
                                                   [a.replace("{dir}", str(staged)) for a in archives])
                with tempfile.TemporaryDirectory() as tmp:
                    float_mlir = Path(tmp) / "float.mlir"
                    float_mlir.write_text(float_text)
                    result.accuracy = measure(compile_for_host(float_mlir, vmfbs), parameters,
                                              compile_for_host(staged / "model.mlir", vmfbs), staged_params,
                                              evaluation, types)
                shutil.rmtree(vmfbs, ignore_errors=True)
            worst = result.worst()
            if options.max_rel_l2 is not None and worst is not None and worst.rel_l2 > options.max_rel_l2:
                every_bf16 = all(r.form in ("bf16", "float") for r in reports)
                if every_bf16 or attempt == 5:
                    raise InputError(f"{model.name}: no scheme meets the accuracy budget rel L2 <= "
                                     f"{options.max_rel_l2:g}: the best reached is {worst.rel_l2:.4g} "
                                     f"({'every layer at bf16' if every_bf16 else 'after 5 tighter layer budgets'})")
                budget = (budget or worst.rel_l2) / 2 if attempt < 4 else 0.0
                say(f"  rel L2 {worst.rel_l2:.4g} over the budget {options.max_rel_l2:g}: "
                    f"layer budget {budget:.3g}")
                shutil.rmtree(staged, ignore_errors=True)
                continue
            record = result.to_json()
            record["parameters"] = archives
            (staged / "quantization.json").write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
            if directory.exists():
                shutil.rmtree(directory)
            staged.replace(directory)
            return result
        except BaseException:
            shutil.rmtree(staged, ignore_errors=True)
            raise
    raise AssertionError("unreachable")


__all__ = ["FALLBACK", "METHODS", "QuantOptions", "QuantizedModel", "SCHEMES", "SiteReport", "choose_form",
           "quantize_model"]
