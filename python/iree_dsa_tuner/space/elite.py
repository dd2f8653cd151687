"""Elite templates: a hand-written expert config per op kind and target kind (R2.3).

The rules are data (`elite.toml` beside this module), written over the target
description's numbers and the problem's sizes, so a new MAC array or register file
gives a new elite without a code change. `elite_candidate` turns the rule for a
space's op kind and a description's kind into a `TilingCandidate` of that space:
every knob is snapped to a value the space offers. Legality in the funnel's sense is
the caller's to check (this layer sees only the space).

Expressions are parsed with `ast` and walked over a small set of node types; nothing
is ever evaluated by Python itself.
"""

from __future__ import annotations

import ast
import functools
import math
import operator
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.candidate import KNOBS, TilingCandidate

ELITE_TOML = Path(__file__).with_name("elite.toml")
SCHEMA = "iree-dsa-elite/1"
SNAP_MODES = ("nearest", "down", "up")

# Names an expression may read besides the knobs (elite.toml's header lists them).
DESCRIPTION_NAMES = ("cores", "mac_m", "mac_n", "mac_k", "vector_widths_min", "vector_widths_max",
                     "scratchpad_bytes", "shared_bytes", "accumulator_bytes", "max_vector_elements",
                     "min_dma_bytes", "scale_bytes", "dram_bytes_per_s", "dma_port_bytes_per_s", "ridge")
CPU_MODEL_NAMES = ("vector_registers", "load_ports", "fma_latency_cycles", "unroll_budget")
PROBLEM_NAMES = ("batch", "m", "n", "k", "m_outer", "n_outer", "k_outer", "head_dim", "lhs_bytes", "rhs_bytes",
                 "out_bytes", "has_consumer", "quantised", "quant_group", "intensity")
KNOWN_NAMES = frozenset(DESCRIPTION_NAMES + CPU_MODEL_NAMES + PROBLEM_NAMES + KNOBS)

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
_COMPARE = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
            ast.Eq: operator.eq, ast.NotEq: operator.ne}
_FUNCTIONS = {"min": min, "max": max, "ceil": math.ceil, "floor": math.floor}


class EliteRuleError(ValueError):
    """A malformed elite rule file; the message names the file, the section and the key."""


class Expression:
    """One arithmetic or boolean expression of a rule, checked once, evaluated many times."""

    def __init__(self, text: str, where: str):
        if not isinstance(text, str) or not text.strip():
            raise EliteRuleError(f"{where}: expected an expression string, got {text!r}")
        self.text, self.where = text, where
        try:
            self._tree = ast.parse(text.strip(), mode="eval").body
        except SyntaxError as e:
            raise EliteRuleError(f"{where}: cannot parse {text!r}: {e.msg}") from None
        self.names: set[str] = set()
        self._check(self._tree)

    def _check(self, node) -> None:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                raise EliteRuleError(f"{self.where}: only numbers are allowed, got {node.value!r} in {self.text!r}")
        elif isinstance(node, ast.Name):
            if node.id not in KNOWN_NAMES:
                raise EliteRuleError(f"{self.where}: unknown name {node.id!r} in {self.text!r}")
            self.names.add(node.id)
        elif isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            self._check(node.left)
            self._check(node.right)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
            self._check(node.operand)
        elif isinstance(node, ast.BoolOp):
            for value in node.values:
                self._check(value)
        elif isinstance(node, ast.IfExp):
            for value in (node.test, node.body, node.orelse):
                self._check(value)
        elif isinstance(node, ast.Compare) and all(type(op) in _COMPARE for op in node.ops):
            for value in (node.left, *node.comparators):
                self._check(value)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS
              and node.args and not node.keywords):
            for arg in node.args:
                self._check(arg)
        else:
            raise EliteRuleError(f"{self.where}: {type(node).__name__} is not allowed in {self.text!r} "
                                 f"(arithmetic, comparisons, and/or/not, a if b else c, {', '.join(_FUNCTIONS)})")

    def __call__(self, env: dict[str, float]):
        return self._eval(self._tree, env)

    def _eval(self, node, env):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in env:
                raise EliteRuleError(f"{self.where}: {node.id!r} has no value here ({self.text!r})")
            return env[node.id]
        if isinstance(node, ast.BinOp):
            left, right = self._eval(node.left, env), self._eval(node.right, env)
            if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and right == 0:
                raise EliteRuleError(f"{self.where}: division by zero in {self.text!r}")
            return _BINARY[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp):
            value = self._eval(node.operand, env)
            return -value if isinstance(node.op, ast.USub) else (not value)
        if isinstance(node, ast.IfExp):
            return self._eval(node.body if self._eval(node.test, env) else node.orelse, env)
        if isinstance(node, ast.BoolOp):
            values = (self._eval(v, env) for v in node.values)
            return all(values) if isinstance(node.op, ast.And) else any(values)
        if isinstance(node, ast.Compare):
            left = self._eval(node.left, env)
            for op, right_node in zip(node.ops, node.comparators):
                right = self._eval(right_node, env)
                if not _COMPARE[type(op)](left, right):
                    return False
                left = right
            return True
        return _FUNCTIONS[node.func.id](*(self._eval(a, env) for a in node.args))


@dataclass(frozen=True)
class KnobRule:
    knob: str
    value: Expression
    snap: str = "nearest"
    where: Expression | None = None


@dataclass(frozen=True)
class Constraint:
    name: str
    test: Expression
    required: bool  # `require` (no elite without it) vs `prefer` (best effort)
    shrink: tuple[str, ...]
    floor: dict[str, Expression] = field(default_factory=dict)


@dataclass(frozen=True)
class EliteRule:
    """One section of elite.toml: its knob settings and constraints, in file order."""

    name: str  # "<target kind>.<op kind>", or "<target kind>.<schedule>" for a rule with `applies_to`
    steps: tuple[KnobRule | Constraint, ...]
    # A schedule's rule (`applies_to = "<op kind>"`, `when = "EXPR"`) is tried before the op
    # kind's own rule on the problems where `when` holds; when it gives nothing legal there,
    # the op kind's rule is the elite.
    applies_to: str = ""
    when: Expression | None = None


@dataclass(frozen=True)
class Elite:
    """The elite of one problem: a candidate of its space, or why there is none."""

    rule: str
    candidate: TilingCandidate | None
    reason: str = ""  # why there is no candidate; notes on best-effort constraints left unmet

    def to_json(self) -> dict:
        return {"rule": self.rule, "candidate": self.candidate.to_json() if self.candidate else None,
                "reason": self.reason}


def _parse_knob(section: str, knob: str, raw) -> KnobRule:
    where = f"{section}.{knob}"
    if isinstance(raw, str):
        return KnobRule(knob, Expression(raw, where))
    if not isinstance(raw, dict) or "value" not in raw:
        raise EliteRuleError(f"{where}: expected an expression or a table with 'value'")
    unknown = set(raw) - {"value", "snap", "where"}
    if unknown:
        raise EliteRuleError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    snap = raw.get("snap", "nearest")
    if snap not in SNAP_MODES:
        raise EliteRuleError(f"{where}.snap: expected one of {', '.join(SNAP_MODES)}, got {snap!r}")
    condition = Expression(raw["where"], f"{where}.where") if "where" in raw else None
    return KnobRule(knob, Expression(raw["value"], f"{where}.value"), snap, condition)


def _parse_constraint(section: str, name: str, raw) -> Constraint:
    where = f"{section}.{name}"
    if not isinstance(raw, dict) or ("require" in raw) == ("prefer" in raw):
        raise EliteRuleError(f"{where}: not a knob ({', '.join(KNOBS)}); a constraint needs exactly one of "
                             "'require' or 'prefer'")
    unknown = set(raw) - {"require", "prefer", "shrink", "floor"}
    if unknown:
        raise EliteRuleError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    key = "require" if "require" in raw else "prefer"
    shrink = raw.get("shrink", [])
    if not isinstance(shrink, list) or any(s not in KNOBS for s in shrink):
        raise EliteRuleError(f"{where}.shrink: expected a list of knob names, got {shrink!r}")
    floor = raw.get("floor", {})
    if not isinstance(floor, dict) or any(k not in shrink for k in floor):
        raise EliteRuleError(f"{where}.floor: expected a table of the shrunk knobs' floors, got {floor!r}")
    return Constraint(name, Expression(raw[key], f"{where}.{key}"), key == "require", tuple(shrink),
                      {k: Expression(v, f"{where}.floor.{k}") for k, v in floor.items()})


def parse_rules(data: dict, source: str) -> dict[str, EliteRule]:
    """The rules of an elite file's parsed TOML, checked: names, expressions, knob order."""
    if data.get("schema") != SCHEMA:
        raise EliteRuleError(f"{source}: schema must be {SCHEMA!r}, got {data.get('schema')!r}")
    rules: dict[str, EliteRule] = {}
    for target_kind, ops in data.items():
        if target_kind == "schema":
            continue
        if not isinstance(ops, dict):
            raise EliteRuleError(f"{source}: {target_kind}: expected tables [<target kind>.<op kind>]")
        for op_kind, body in ops.items():
            section = f"{source}: [{target_kind}.{op_kind}]"
            if not isinstance(body, dict):
                raise EliteRuleError(f"{section}: expected a table")
            steps: list[KnobRule | Constraint] = []
            set_so_far: set[str] = set()
            applies_to, when = "", None
            if "applies_to" in body or "when" in body:
                applies_to, when = body.get("applies_to"), body.get("when")
                if not isinstance(applies_to, str) or not applies_to or when is None:
                    raise EliteRuleError(f"{section}: a schedule's rule needs both 'applies_to = \"<op kind>\"' "
                                         "and 'when = \"EXPR\"'")
                when = Expression(when, f"{section}.when")
                early = sorted(n for n in when.names if n in KNOBS)
                if early:
                    raise EliteRuleError(f"{section}.when: reads {', '.join(early)}, a knob: 'when' reads the "
                                         "problem and the description only")
            for key, raw in body.items():
                if key in ("applies_to", "when"):
                    continue
                step = _parse_knob(section, key, raw) if key in KNOBS else _parse_constraint(section, key, raw)
                if isinstance(step, KnobRule):
                    if step.knob in set_so_far:
                        raise EliteRuleError(f"{section}.{key}: set twice")
                    # `where` tests each offered value under the knob's own name; `value` cannot read it.
                    early = (step.value.names - set_so_far) | ((step.where.names if step.where else set())
                                                               - set_so_far - {step.knob})
                    set_so_far.add(step.knob)
                else:
                    unset = [k for k in step.shrink if k not in set_so_far]
                    if unset:
                        raise EliteRuleError(f"{section}.{key}: shrinks {', '.join(unset)} before the rule sets it")
                    early = set().union(*(e.names for e in (step.test, *step.floor.values()))) - set_so_far
                early = sorted(n for n in early if n in KNOBS)
                if early:
                    raise EliteRuleError(f"{section}.{key}: reads {', '.join(early)} before the rule sets it")
                steps.append(step)
            rules[f"{target_kind}.{op_kind}"] = EliteRule(f"{target_kind}.{op_kind}", tuple(steps), applies_to, when)
    return rules


@functools.lru_cache(maxsize=4)
def load_rules(path: Path = ELITE_TOML) -> dict[str, EliteRule]:
    try:
        data = tomllib.loads(Path(path).read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise EliteRuleError(f"{path}: {e}") from None
    return parse_rules(data, str(path))


def _environment(shape, description) -> dict[str, float]:
    """The names a rule reads, from the description and the problem's shape."""
    compute_type = description.compute_type(shape.lhs_type, shape.rhs_type)
    env = {
        "cores": description.cores, "mac_m": description.mac_m, "mac_n": description.mac_n,
        "mac_k": description.mac_k_for(compute_type),
        "vector_widths_min": min(description.vector_widths), "vector_widths_max": max(description.vector_widths),
        "scratchpad_bytes": description.scratchpad_bytes, "shared_bytes": description.shared_bytes,
        "accumulator_bytes": description.accumulator_bytes, "max_vector_elements": description.max_vector_elements,
        "min_dma_bytes": description.min_dma_bytes, "scale_bytes": description.scale_bytes,
        "dram_bytes_per_s": description.dram_bytes_per_s, "dma_port_bytes_per_s": description.dma_port_bytes_per_s,
        "ridge": description.ridge(compute_type),
        "batch": shape.batch, "m": shape.inner("m"), "n": shape.inner("n"), "k": shape.inner("k"),
        "m_outer": shape.outer("m"), "n_outer": shape.outer("n"), "k_outer": shape.outer("k"),
        "head_dim": shape.head_dim, "lhs_bytes": shape.lhs_bytes, "rhs_bytes": shape.rhs_bytes,
        "out_bytes": shape.out_bytes, "has_consumer": int(shape.has_consumer),
        "quantised": int(shape.quantised), "quant_group": shape.quant_group,
        "intensity": shape.ops / shape.compulsory_bytes if shape.compulsory_bytes else 0.0,
    }
    cpu = getattr(description, "cpu", None)
    if cpu is not None:
        env.update({name: getattr(cpu, name) for name in CPU_MODEL_NAMES})
    return env


def _closeness(value: int, target: float) -> tuple[float, int]:
    """Relative distance (a ratio, so 48 is as far from 32 as from 72) then the smaller value."""
    top = max(abs(value), abs(target), 1)
    return abs(value - target) / top, value


def _snap(offered: list[int], target: float, mode: str) -> int:
    if mode == "down":
        below = [v for v in offered if v <= target]
        return max(below) if below else min(offered)
    if mode == "up":
        above = [v for v in offered if v >= target]
        return min(above) if above else max(offered)
    return min(offered, key=lambda v: _closeness(v, target))


class _Unavailable(Exception):
    """The rule gives nothing legal for this problem (the message says where)."""


def _allowed(rule: KnobRule | None, knob: str, values, env: dict) -> list[int]:
    if rule is None or rule.where is None:
        return list(values)
    return [v for v in values if rule.where({**env, knob: v})]


def _apply(rule: EliteRule, choices: dict[str, tuple[int, ...]], env: dict) -> tuple[dict[str, int], list[str]]:
    knob_rules = {s.knob: s for s in rule.steps if isinstance(s, KnobRule)}
    knobs: dict[str, int] = {}
    notes: list[str] = []
    for step in rule.steps:
        if isinstance(step, KnobRule):
            offered = _allowed(step, step.knob, choices[step.knob], {**env, **knobs})
            if not offered:
                raise _Unavailable(f"{step.knob}: none of {list(choices[step.knob])} satisfies {step.where.text!r}")
            knobs[step.knob] = _snap(offered, step.value({**env, **knobs}), step.snap)
            continue
        while not step.test({**env, **knobs}):
            scope = {**env, **knobs}
            movable = []
            for position, knob in enumerate(step.shrink):
                floor = step.floor[knob](scope) if knob in step.floor else -math.inf
                lower = [v for v in _allowed(knob_rules.get(knob), knob, choices[knob], scope)
                         if floor <= v < knobs[knob]]
                if lower:
                    movable.append((-knobs[knob], position, knob, max(lower)))
            if not movable:
                if step.required:
                    raise _Unavailable(f"{step.name}: {step.test.text!r} cannot hold at any offered value")
                notes.append(f"{step.name} not met")
                break
            _, _, knob, value = min(movable)
            knobs[knob] = value
    return knobs, notes


def elite_candidate(space, description, rules: dict[str, EliteRule] | None = None) -> Elite:
    """The elite template's candidate for `space` (a `CandidateSpace`) on `description`.

    `description` is the target's `TargetDescription` (passed in: this layer imports
    only core). The rule is `<description.kind>.<space.shape.kind>`; without one, or when
    the rule's requirements cannot hold in this space, `Elite.candidate` is None and
    `Elite.reason` says why.
    """
    rules = load_rules() if rules is None else rules
    name = f"{description.kind}.{space.shape.kind}"
    env = _environment(space.shape, description)
    schedules = [r for r in rules.values() if r.applies_to == space.shape.kind
                 and r.name.startswith(f"{description.kind}.") and r.when(env)]
    for schedule in schedules:  # a schedule that fits this problem first (the DSA's weight streaming)
        try:
            knobs, notes = _apply(schedule, space.choices, env)
        except _Unavailable:
            continue
        return _elite_of(schedule.name, space, knobs, notes)
    rule = rules.get(name)
    if rule is None:
        return Elite(name, None, f"no elite rule for {space.shape.kind} on a {description.kind!r} target")
    try:
        knobs, notes = _apply(rule, space.choices, env)
    except _Unavailable as e:
        return Elite(name, None, f"the {name} rule gives nothing legal here ({e})")
    return _elite_of(name, space, knobs, notes)


def _elite_of(name: str, space, knobs: dict[str, int], notes: list[str]) -> Elite:
    unset = [k for k in KNOBS if k not in knobs and len(space.choices[k]) > 1]
    if unset:
        raise EliteRuleError(f"[{name}] leaves {', '.join(unset)} unset, but the space offers several values")
    columns = {k: np.asarray([knobs.get(k, space.choices[k][0])], dtype=np.int64) for k in KNOBS}
    if space.derive is not None:
        space.derive(columns)
    return Elite(name, space.candidate(columns, 0), "; ".join(notes))
