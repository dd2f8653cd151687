"""The model manifest (R2.5): what a policy runs per action chunk, in a schema-checked TOML file.

    schema = "iree-dsa-manifest/1"
    [model]   id, version
    [task]    chunk_size, n_action_steps, flow_steps, control_rate_hz, latency_budget_ms, rtc
    [quant]   scheme = "w4a8" | "w8a8" | "bf16" | "f32"; block (INT4 group size; chosen per layer when
              absent); method = "rtn" | "awq"; zero_point; scale_type = "f16" | "f32";
              activations = "token" | "static" (a8's scale per token at run time, or one calibrated
              constant per layer, so the quantisation fuses into its producer); attention = "bf16" |
              "f16" | "f32" (what attention's Q, K, V and mask are computed in); layer_error
              (a layer's output rel L2 budget: over it, w4 -> w8 -> bf16); max_rel_l2 (each stage's
              output budget against f32); a stage whose weights the model holds is quantised for real
              (and one whose public function takes them, with [[stage]] weight_arguments = [indices])
              (docs/QUANT.md), one whose weights are function arguments is re-typed (a what-if)
    [[stage]] name, mlir (relative to the manifest), repeat, per = "chunk" | "flow_step" | "token",
              tokens (with per = "token"), parameters (optional: the stage's parameter archives as
              iree-run-module takes them, ["model=stage.irpa"], relative to the manifest; checked
              against the stage's model when the manifest is read)

Every error names the file and the key.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import InputError
from ..tomlfile import read_toml

SCHEMA = "iree-dsa-manifest/1"
PERS = ("chunk", "flow_step", "token")
# Element types (activation, weight, result) a scheme runs in on the target.
SCHEME_TYPES = {
    "w4a8": ("i8", "i4", "i32"),
    "w8a8": ("i8", "i8", "i32"),
    "bf16": ("bf16", "bf16", "f32"),
    "f32": ("f32", "f32", "f32"),
}


@dataclass(frozen=True)
class Stage:
    name: str
    mlir: Path
    repeat: int  # layers
    per: str  # chunk | flow_step | token
    tokens: int = 0  # per = "token": tokens generated per chunk
    # The archives its weights are read from (`parameters.Parameters`); None: the stage reads
    # none, or names none (then `task --parameters`, else random ones from the seed).
    parameters: object | None = field(default=None, compare=False)
    # Arguments of the stage's public function that are weights (the quantiser makes them
    # parameters, docs/QUANT.md); () : its weights are in the model, or it has none.
    weight_arguments: tuple[int, ...] = ()

    def count(self, flow_steps: int) -> int:
        """How often one of its layers runs per chunk, before `repeat`."""
        return {"chunk": 1, "flow_step": flow_steps, "token": self.tokens}[self.per]


@dataclass(frozen=True)
class Manifest:
    path: Path
    model_id: str
    version: str
    chunk_size: int
    n_action_steps: int
    flow_steps: int
    control_rate_hz: float
    latency_budget_ms: float
    rtc: bool
    scheme: str
    quant_block: int | None  # None: searched jointly with the tiles
    stages: tuple[Stage, ...] = field(default_factory=tuple)

    # [quant] beyond the scheme: how the quantiser quantises real weights (docs/QUANT.md).
    quant_method: str = "rtn"
    quant_zero_point: bool = False
    quant_scale_type: str = "f32"
    quant_layer_error: float | None = None
    quant_max_rel_l2: float | None = None
    quant_activations: str = "token"
    quant_attention: str = "bf16"

    @property
    def types(self) -> tuple[str, str, str]:
        return SCHEME_TYPES[self.scheme]

    def quant_options(self):
        """The quantiser's options for this manifest's stages."""
        from ..quant import QuantOptions

        return QuantOptions(scheme=self.scheme, method=self.quant_method, group=self.quant_block,
                            zero_point=self.quant_zero_point, scale_type=self.quant_scale_type,
                            layer_error=self.quant_layer_error, max_rel_l2=self.quant_max_rel_l2,
                            activations=self.quant_activations, attention=self.quant_attention)

    def with_flow_steps(self, flow_steps: int) -> "Manifest":
        return replace(self, flow_steps=flow_steps)

    def binding(self, stage_shapes: dict[str, list]) -> dict:
        """What a spec set is bound to: the stages' root-op shapes, quantisation, flow and action steps."""
        return {
            "model": self.model_id, "version": self.version, "scheme": self.scheme, "quant_block": self.quant_block,
            "flow_steps": self.flow_steps, "n_action_steps": self.n_action_steps, "chunk_size": self.chunk_size,
            "stages": {name: shapes for name, shapes in sorted(stage_shapes.items())},
            **({"quant": [self.quant_method, self.quant_zero_point, self.quant_scale_type, self.quant_layer_error,
                          self.quant_max_rel_l2]}
               if (self.quant_method, self.quant_zero_point, self.quant_scale_type, self.quant_layer_error,
                   self.quant_max_rel_l2) != ("rtn", False, "f32", None, None) else {}),
            # only when not the default, so that the specs bound before it existed stay bound
            **({"activations": self.quant_activations} if self.quant_activations != "token" else {}),
            **({"attention": self.quant_attention} if self.quant_attention != "bf16" else {}),
        }


def binding_hash(binding: dict) -> str:
    return hashlib.sha256(json.dumps(binding, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


class _Keys:
    """Typed reads of one TOML table; errors name the file and the dotted key."""

    def __init__(self, path: Path, table: dict, prefix: str):
        self.path, self.table, self.prefix = path, table, prefix

    def error(self, key: str, message: str) -> InputError:
        return InputError(f"{self.path}: key '{self.prefix}{key}': {message}")

    def get(self, key: str, kind, required: bool = True, default=None):
        if key not in self.table:
            if required:
                raise self.error(key, "missing (required)")
            return default
        value = self.table[key]
        ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
        if kind is float:
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not ok:
            raise self.error(key, f"expected {getattr(kind, '__name__', kind)}, got {value!r}")
        return value

    def positive(self, key: str, kind=int, required: bool = True, default=None):
        value = self.get(key, kind, required, default)
        if value is not None and value <= 0:
            raise self.error(key, f"must be positive, got {value!r}")
        return value


def _stage_parameters(keys: _Keys, raw: dict, mlir: Path):
    """The stage's `parameters` archives, checked against its model (None when it names none)."""
    from ..parameters import resolve_parameters

    if "parameters" not in raw:
        return None
    given = keys.get("parameters", list)
    if not given or not all(isinstance(g, str) and g for g in given):
        raise keys.error("parameters", f"expected a list of \"[SCOPE=]FILE.irpa\", got {given!r}")
    try:
        return resolve_parameters(mlir, given, base=keys.path.parent.resolve())
    except InputError as e:
        raise keys.error("parameters", str(e)) from None


def load_manifest(path: str | Path) -> Manifest:
    path = Path(path)
    data = read_toml(path, "TOML manifest")
    top = _Keys(path, data, "")
    if top.get("schema", str) != SCHEMA:
        raise top.error("schema", f"expected {SCHEMA!r}, got {data['schema']!r}")
    model = _Keys(path, top.get("model", dict), "model.")
    task = _Keys(path, top.get("task", dict), "task.")
    quant = _Keys(path, top.get("quant", dict, required=False, default={"scheme": "f32"}), "quant.")
    scheme = quant.get("scheme", str)
    if scheme not in SCHEME_TYPES:
        raise quant.error("scheme", f"expected one of {', '.join(SCHEME_TYPES)}, got {scheme!r}")
    block = quant.positive("block", int, required=False)
    if block is not None and scheme != "w4a8":
        raise quant.error("block", f"a quantisation block only applies to w4a8, not {scheme}")
    method = quant.get("method", str, required=False, default="rtn")
    if method not in ("rtn", "awq"):
        raise quant.error("method", f"expected rtn or awq, got {method!r}")
    scale_type = quant.get("scale_type", str, required=False, default="f32")
    if scale_type not in ("f16", "f32"):
        raise quant.error("scale_type", f"expected f16 or f32, got {scale_type!r}")
    activations = quant.get("activations", str, required=False, default="token")
    if activations not in ("token", "static"):
        raise quant.error("activations", f"expected token or static, got {activations!r}")
    attention = quant.get("attention", str, required=False, default="bf16")
    if attention not in ("bf16", "f16", "f32"):
        raise quant.error("attention", f"expected bf16, f16 or f32, got {attention!r}")
    budgets = {key: quant.positive(key, float, required=False) for key in ("layer_error", "max_rel_l2")}
    raw_stages = top.get("stage", list)
    if not raw_stages:
        raise top.error("stage", "at least one [[stage]] is required")
    stages = []
    for i, raw in enumerate(raw_stages):
        if not isinstance(raw, dict):
            raise top.error(f"stage[{i}]", "expected a table")
        s = _Keys(path, raw, f"stage[{i}].")
        per = s.get("per", str)
        if per not in PERS:
            raise s.error("per", f"expected one of {', '.join(PERS)}, got {per!r}")
        tokens = 0
        if per == "token":
            tokens = s.positive("tokens", int)
        elif "tokens" in raw:
            raise s.error("tokens", f"only a per = \"token\" stage takes tokens (this one is per {per})")
        mlir = (path.parent / s.get("mlir", str)).resolve()
        if not mlir.is_file():
            raise s.error("mlir", f"no such file: {mlir}")
        weight_arguments = s.get("weight_arguments", list, required=False, default=[])
        if not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in weight_arguments):
            raise s.error("weight_arguments", f"expected argument indices (integers >= 0), got {weight_arguments!r}")
        stages.append(Stage(s.get("name", str), mlir, s.positive("repeat", int), per, tokens,
                            None if weight_arguments else _stage_parameters(s, raw, mlir),
                            tuple(weight_arguments)))
        if weight_arguments and "parameters" in raw:
            raise s.error("parameters", "archives for weight_arguments are not supported yet: their values are "
                                        "generated from the seed")
    names = [s.name for s in stages]
    if len(set(names)) != len(names):
        raise top.error("stage", f"stage names must be unique, got {names}")
    chunk_size, n_action_steps = task.positive("chunk_size"), task.positive("n_action_steps")
    if n_action_steps > chunk_size:
        raise task.error("n_action_steps", f"{n_action_steps} actions executed from a chunk of {chunk_size}")
    return Manifest(
        path=path, model_id=model.get("id", str), version=str(model.get("version", str, required=False, default="")),
        chunk_size=chunk_size, n_action_steps=n_action_steps,
        flow_steps=task.positive("flow_steps"), control_rate_hz=float(task.positive("control_rate_hz", float)),
        latency_budget_ms=float(task.positive("latency_budget_ms", float)), rtc=task.get("rtc", bool, False, True),
        scheme=scheme, quant_block=block, stages=tuple(stages), quant_method=method,
        quant_zero_point=quant.get("zero_point", bool, required=False, default=False), quant_scale_type=scale_type,
        quant_layer_error=budgets["layer_error"], quant_max_rel_l2=budgets["max_rel_l2"],
        quant_activations=activations, quant_attention=attention,
    )
