"""The host program: which dispatch each entry function calls, how often, and what each call moves.

IREE deduplicates identical dispatches, so one executable can run several times per call of
a function (a layer's q and o projections, or its MLP gate and up projections, share one
executable). Counting executables undercounts time and weights; this module counts calls.

It reads the configured IR that `ir.compile_model` keeps (the output of
`--compile-to=executable-configurations`): the host functions are in the stream dialect
there, each `stream.cmd.dispatch` naming its executable entry and the byte range of every
resource it reads or writes. The count is per call of each public function, through calls
of private functions; dispatches in `util.initializer`s run once at load and are kept apart
(`load_calls`). Everything is read with the MLIR bindings, never by matching text.

A resource's lifetime says where its bytes live: `constant` resources hold the model's
globals (inline constants and `#flow.parameter` weights alike), `external` ones the
function's arguments and results, `transient` ones the intermediates between dispatches.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from iree.compiler import ir

# stream.cmd.dispatch's resource_accesses bits.
READ, WRITE = 1, 2


@dataclass(frozen=True)
class DispatchCall:
    """One `stream.cmd.dispatch` as it runs: per binding, its access bits and its resource's lifetime.

    The byte ranges the host passes are not the bytes a dispatch moves (a binding often spans a
    whole packed resource, the offset going in as a push constant), so sizes come from the
    dispatch's own `hal.interface.binding.subspan`s (`traffic.traffic_from_sources`).
    """

    symbol: str
    accesses: tuple[int, ...]  # READ = 1, WRITE = 2, both = 3
    lifetimes: tuple[str, ...]  # "constant" (globals, parameters), "external", "transient", ...

    def reads_constant(self, binding: int) -> bool:
        return binding < len(self.lifetimes) and self.lifetimes[binding] == "constant" \
            and bool(self.accesses[binding] & READ)


@dataclass
class HostProgram:
    """Per public function, the dispatch calls one call of it makes (through private calls)."""

    functions: dict[str, list[DispatchCall]] = field(default_factory=dict)
    load_calls: list[DispatchCall] = field(default_factory=list)  # run once, in initializers
    notes: list[str] = field(default_factory=list)  # what could not be counted exactly
    entries: list[str] = field(default_factory=list)  # public functions no other public one calls

    def calls(self, function: str | None = None) -> Counter:
        """Calls per dispatch symbol: of one function, or summed over the model's entry functions
        (the public functions no other public function calls: a wrapped body counts once)."""
        names = [function] if function is not None else list(self.entries or self.functions)
        counts: Counter = Counter()
        for name in names:
            counts.update(c.symbol for c in self.functions[name])
        return counts

    def functions_calling(self, symbol: str) -> list[str]:
        return [name for name, calls in self.functions.items() if any(c.symbol == symbol for c in calls)]

    def calls_of(self, symbol: str) -> list[DispatchCall]:
        return [c for calls in self.functions.values() for c in calls if c.symbol == symbol]

    def to_json(self) -> dict:
        return {"functions": {name: dict(sorted(self.calls(name).items())) for name in self.functions},
                "load_calls": dict(sorted(Counter(c.symbol for c in self.load_calls).items())),
                "notes": self.notes}


def _regions_ops(op: ir.Operation):
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                yield child.operation


def _walk(op: ir.Operation):
    for child in _regions_ops(op):
        yield child
        yield from _walk(child)


def _segments(op: ir.Operation) -> list[list[ir.Value]]:
    sizes = [int(x) for x in ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])]
    operands, out, start = list(op.operands), [], 0
    for n in sizes:
        out.append(operands[start:start + n])
        start += n
    return out


def _lifetime(value: ir.Value) -> str:
    # `!stream.resource<constant>` -> "constant"
    text = str(value.type)
    return text[text.find("<") + 1:text.rfind(">")] if text.startswith("!stream.resource<") else ""


def _entry_symbol(attr: ir.Attribute) -> str:
    # [@exe::@variant::@entry]: the dispatch function is the last name of the first entry point.
    first = ir.ArrayAttr(attr)[0]
    return ir.SymbolRefAttr(first).value[-1]


def _dispatch_call(op: ir.Operation) -> DispatchCall:
    # Operand segments: workload, uniform operands, resources, sizes, offsets, lengths.
    resources = _segments(op)[2]
    accesses = tuple(ir.IntegerAttr(a).value for a in ir.ArrayAttr(op.attributes["resource_accesses"]))
    return DispatchCall(_entry_symbol(op.attributes["entry_points"]), accesses,
                        tuple(_lifetime(r) for r in resources))


def _callee(op: ir.Operation) -> str | None:
    if "callee" not in op.attributes:
        return None
    return ir.FlatSymbolRefAttr(op.attributes["callee"]).value


def read_host_program(configured_text: str) -> HostProgram:
    """The host program of a configured module (`ModelArtifacts.configured_text`)."""
    program = HostProgram()
    with ir.Context():
        module = ir.Module.parse(configured_text)
        direct: dict[str, list] = {}  # function -> DispatchCall | callee name, in order
        public: list[str] = []
        for top in module.body.operations:
            op = top.operation
            if op.name == "util.initializer":
                program.load_calls.extend(_dispatch_call(x) for x in _walk(op) if x.name == "stream.cmd.dispatch")
                continue
            if op.name not in ("util.func", "func.func"):
                continue
            name = ir.StringAttr(op.attributes["sym_name"]).value
            visibility = op.attributes["sym_visibility"] if "sym_visibility" in op.attributes else None
            if visibility is None or ir.StringAttr(visibility).value == "public":
                if len(op.regions) and len(op.regions[0].blocks):  # declarations (imports) run nothing
                    public.append(name)
            items = []
            for x in _walk(op):
                if x.name == "stream.cmd.dispatch":
                    items.append(_dispatch_call(x))
                elif x.name in ("util.call", "func.call"):
                    callee = _callee(x)
                    if callee is not None:
                        items.append(callee)
                elif x.name in ("scf.for", "scf.while", "cf.br", "cf.cond_br"):
                    program.notes.append(f"@{name} has control flow ({x.name}): dispatches in it are counted "
                                         "once per call of the function")
            direct[name] = items

        def expand(name: str, stack: tuple[str, ...]) -> list[DispatchCall]:
            out = []
            for item in direct.get(name, []):
                if isinstance(item, DispatchCall):
                    out.append(item)
                elif item in stack:
                    program.notes.append(f"@{name} calls @{item} recursively: counted once")
                elif item in direct:
                    out.extend(expand(item, stack + (item,)))
            return out

        for name in public:
            program.functions[name] = expand(name, (name,))

        def reached(name: str, seen: set[str]) -> set[str]:
            for item in direct.get(name, []):
                if isinstance(item, str) and item not in seen:
                    seen.add(item)
                    reached(item, seen)
            return seen

        # A public function another public one calls is a wrapper's body (iree-turbine's
        # `main` waits on `main$async`): one call of the model runs it once, not twice.
        wrapped = {callee for name in public for callee in reached(name, set()) if callee != name}
        program.entries = [name for name in public if name not in wrapped] or list(public)
    return program


__all__ = ["READ", "WRITE", "DispatchCall", "HostProgram", "read_host_program"]
