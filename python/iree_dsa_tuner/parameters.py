"""Parameter archives (.irpa): the weights a model reads from outside its module.

iree-turbine's externalised exports (`aot.externalize_module_parameters` + `aot.export`) hold
each weight as

    util.global private @__auto.fc1.weight = #flow.parameter.named<"model"::"fc1.weight"> : tensor<64x32xf32>

The module compiles without the archive, but running it needs IREE's
`--parameters=[SCOPE=]FILE.irpa` (the archive's keys land in SCOPE), or it fails with
"NOT_FOUND; no provider registered that handles scopes like 'model'". Everything the tuner
does with such weights is here:
- `read_model_parameters`: the model's parameter globals (scope, key, shape, element type),
  read from its util.global ops with the MLIR bindings;
- `resolve_parameters`: the `--parameters` values a user gave, checked against the model
  before any work (a missing file, an unused scope, a key the archive lacks, a shape or
  dtype that disagrees: one line naming the file and the parameter), or, when none were
  given, random archives of the right shapes and dtypes from a seed, cached on disk;
- `Parameters`: what a model runs with, as iree-benchmark-module flags, as an io_parameters
  module for iree.runtime, as numpy values for the reference, and as a record for a recipe.

Random values are written from Python (iree.runtime's ParameterIndex): in IREE 3.13
iree-create-parameters makes zero-filled archives only (a patterned value failed with
"write failed"), and zeros would hide wrong numerics.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .errors import InputError

# The attribute kinds that name a weight in an archive instead of holding it (IREE 3.13
# prints flow's; stream's is the same attribute after conversion).
PARAMETER_ATTRIBUTES = ("#flow.parameter.named<", "#stream.parameter.named<")
# Bump when random values change: archives cached under an older version are not reused.
_GENERATOR_VERSION = "2"
# iree.runtime's archive metadata: "TENSORv0:" + JSON with dtype and shape (turbine writes "PYTORCH:").
_METADATA_PREFIXES = ("TENSORv0:", "PYTORCH:")
_METADATA_VERSION = "TENSORv0"

# MLIR element type -> (bits per element as stored, numpy dtype of the stored bytes, metadata names).
_ELEMENTS = {
    "f64": (64, np.float64, ("float64", "double")),
    "f32": (32, np.float32, ("float32", "float")),
    "f16": (16, np.float16, ("float16", "half")),
    "bf16": (16, np.uint16, ("bfloat16",)),
    "i64": (64, np.int64, ("int64", "uint64", "long")),
    "i32": (32, np.int32, ("int32", "uint32", "int")),
    "i16": (16, np.int16, ("int16", "uint16", "short")),
    "i8": (8, np.int8, ("int8", "uint8", "char")),
    "si8": (8, np.int8, ("int8",)),
    "ui8": (8, np.uint8, ("uint8",)),
    "i1": (8, np.uint8, ("bool",)),  # one byte per element, as IREE stores an i1 tensor
    "i4": (4, np.uint8, ("int4",)),  # two to a byte, the first in the low bits
    "si4": (4, np.uint8, ("int4",)),
    "ui4": (4, np.uint8, ("uint4",)),
}


@dataclass(frozen=True)
class ParameterGlobal:
    """One weight a model reads from an archive: `util.global @name = #flow.parameter.named<scope::key>`."""

    name: str  # the util.global's symbol
    scope: str  # "" for an unscoped parameter (--parameters=FILE.irpa)
    key: str
    shape: tuple[int, ...]
    element: str  # MLIR element type: f32, bf16, i8, ...

    @property
    def type_text(self) -> str:
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + self.element + ">"

    @property
    def num_bytes(self) -> int:
        bits = _ELEMENTS[self.element][0] if self.element in _ELEMENTS else 0
        return -(-math.prod(self.shape) * bits // 8)

    def describe(self) -> str:
        scope = f" (scope '{self.scope}')" if self.scope else " (no scope)"
        return f"'{self.key}'{scope}, read as @{self.name} : {self.type_text}"


# ---- reading the model ---------------------------------------------------------------------

class UnreadableModel(InputError):
    """The bindings cannot parse the model: without archives to check, IREE's own error says why."""


def _string_literal_end(text: str, start: int) -> int:
    """Index just past the MLIR string literal that opens at `text[start]` (a `"`)."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    raise ValueError("unterminated string literal")


def parameter_reference(attribute) -> tuple[str, str] | None:
    """(scope, key) of a `#flow.parameter.named<["scope"::]"key">` attribute; None for any other value.

    IREE 3.13's bindings have no accessor for this attribute, so its printed form is split at
    its string literals and each literal is decoded by MLIR's own parser. (3.13 prints a key's
    `"` unescaped, so a key holding one cannot be read back; torch's keys never do.)
    """
    from iree.compiler import ir

    text = str(attribute)
    prefix = next((p for p in PARAMETER_ATTRIBUTES if text.startswith(p)), None)
    if prefix is None:
        return None
    pos = len(prefix)
    literals = []
    while pos < len(text) and text[pos] == '"' and len(literals) < 2:
        end = _string_literal_end(text, pos)
        literals.append(ir.StringAttr(ir.Attribute.parse(text[pos:end])).value)
        pos = end
        if text.startswith("::", pos):
            pos += 2
        else:
            break
    if not literals:
        raise ValueError(f"cannot read the key of {text[:80]}")
    return ("", literals[0]) if len(literals) == 1 else (literals[0], literals[1])


def parameter_of_global(op) -> ParameterGlobal | None:
    """The parameter a `util.global` op names, or None when it holds its own value (or none)."""
    from iree.compiler import ir

    if op.name != "util.global" or "initial_value" not in op.attributes:
        return None
    reference = parameter_reference(op.attributes["initial_value"])
    if reference is None:
        return None
    tensor = ir.TypeAttr(op.attributes["type"]).value
    shaped = ir.RankedTensorType(tensor)
    return ParameterGlobal(ir.StringAttr(op.attributes["sym_name"]).value, reference[0], reference[1],
                           tuple(shaped.shape), str(shaped.element_type))


def _walk_globals(operation):
    """util.global ops at module level, nested modules included (not inside functions)."""
    for region in operation.regions:
        for block in region.blocks:
            for child in block.operations:
                child = child.operation
                if child.name == "util.global":
                    yield child
                elif child.name == "builtin.module":
                    yield from _walk_globals(child)


_READ_CACHE: dict[tuple, list] = {}  # (path, size, mtime) -> its parameters: verify asks once per spec


def read_model_parameters(model: str | os.PathLike) -> list[ParameterGlobal]:
    """The parameter globals of `model` (an MLIR file, text or bytecode), in module order."""
    from .compiler import check_input_file

    path = check_input_file(model)
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _READ_CACHE:
        _READ_CACHE[key] = _read_model_parameters(path)
    return list(_READ_CACHE[key])


def _read_model_parameters(path: Path) -> list[ParameterGlobal]:
    from iree.compiler import ir

    from .compiler import mlir_parse_error

    data = path.read_bytes()
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        try:
            module = ir.Module.parse(data if data.startswith(b"ML\xefR") else data.decode("utf-8", errors="replace"))
        except ir.MLIRError as e:
            raise UnreadableModel(mlir_parse_error(path, e)) from None
        found = []
        for op in _walk_globals(module.operation):
            try:
                parameter = parameter_of_global(op)
            except ValueError as e:
                raise InputError(f"{path}: util.global: {e}") from None
            if parameter is not None:
                found.append(parameter)
    return found


# ---- archives --------------------------------------------------------------------------------

@dataclass(frozen=True)
class ArchiveFile:
    """One `--parameters=[SCOPE=]FILE.irpa`: an archive whose keys go into SCOPE."""

    scope: str
    path: Path

    @property
    def flag(self) -> str:
        return f"--parameters={self.scope}={self.path}" if self.scope else f"--parameters={self.path}"

    @property
    def spec(self) -> str:
        """As the user writes it after --parameters=."""
        return f"{self.scope}={self.path}" if self.scope else str(self.path)


def parse_archive_spec(text: str, base: Path | None = None) -> ArchiveFile:
    """`[SCOPE=]FILE.irpa` (iree-run-module's syntax) -> ArchiveFile; FILE relative to `base`."""
    scope, sep, file = text.partition("=")
    if not sep:
        scope, file = "", text
    if not file:
        raise InputError(f"--parameters {text!r}: expected [SCOPE=]FILE.irpa")
    path = Path(file).expanduser()
    if base is not None and not path.is_absolute():
        path = base / path
    return ArchiveFile(scope, path)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _metadata(entry) -> tuple[str | None, tuple[int, ...] | None]:
    """(dtype name, shape) an archive entry's metadata declares, or (None, None) when it has none."""
    try:
        text = bytes(entry.metadata).decode()
    except (UnicodeDecodeError, TypeError):
        return None, None
    prefix = next((p for p in _METADATA_PREFIXES if text.startswith(p)), None)
    if prefix is None:
        return None, None
    try:
        document = json.loads(text[len(prefix):])
        dtype = str(document["dtype"]).removeprefix("torch.")
        shape = tuple(int(d) for d in document["shape"])
    except (ValueError, KeyError, TypeError):
        return None, None
    return dtype, shape


def _open_index(path: Path):
    import iree.runtime as rt

    index = rt.ParameterIndex()
    try:
        index.load(str(path))
    except Exception as e:  # the runtime reports a bad archive as a generic error
        raise InputError(f"{path}: not a parameter archive: {str(e).splitlines()[0] if str(e) else e}") from None
    return index


def _check_entry(archive: ArchiveFile, entry, parameter: ParameterGlobal, model: Path) -> None:
    """One line naming the file and the parameter when the archive's value cannot be the model's."""
    reads = f"{model} reads it as @{parameter.name} : {parameter.type_text}"
    dtype, shape = _metadata(entry)
    if shape is not None and shape != parameter.shape:
        raise InputError(f"{archive.path}: parameter '{parameter.key}' has shape {list(shape)} ({dtype}); {reads}")
    known = _ELEMENTS.get(parameter.element)
    if dtype is not None and known is not None and dtype not in known[2]:
        raise InputError(f"{archive.path}: parameter '{parameter.key}' is {dtype}; {reads}")
    if entry.length != parameter.num_bytes:
        raise InputError(f"{archive.path}: parameter '{parameter.key}' holds {entry.length} bytes; {reads} "
                         f"({parameter.num_bytes} bytes)")


# ---- random values -----------------------------------------------------------------------------

def random_value(parameter: ParameterGlobal, seed: int) -> np.ndarray:
    """A weight of `parameter`'s shape and type from `seed` alone (not from the other weights).

    Floats are uniform in +-1/sqrt(last dim) (torch's nn.Linear bound): a deep model keeps
    finite activations. Integers are small ([-8, 8)), i4 covers its range, i1 is 0/1.
    Returned in numpy form: bf16 as float32 already rounded to bf16, sub-byte unpacked.
    """
    name_hash = int.from_bytes(hashlib.sha256(f"{parameter.scope}::{parameter.key}".encode()).digest()[:8], "little")
    rng = np.random.default_rng([seed, name_hash])
    shape, element = parameter.shape, parameter.element
    if element in ("i1",):
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if element in ("i4", "si4"):
        return rng.integers(-8, 8, size=shape).astype(np.int8)
    if element == "ui4":
        return rng.integers(0, 16, size=shape).astype(np.uint8)
    if element.startswith(("i", "si", "ui")):
        return rng.integers(-8, 8, size=shape).astype(_ELEMENTS[element][1])
    bound = 1.0 / math.sqrt(shape[-1]) if shape and shape[-1] else 1.0
    values = rng.uniform(-bound, bound, size=shape).astype(np.float32)
    if parameter.key.endswith(("running_var", ".var")):
        # A batch norm's variance is never negative: sqrt(var + eps) of a negative one is NaN,
        # and every output of the model with it (lerobot's ACT backbone).
        values = np.abs(values) + np.float32(0.5)
    if element == "bf16":
        return _from_bf16_bits(_to_bf16_bits(values))
    return values.astype(_ELEMENTS[element][1])


def _to_bf16_bits(values: np.ndarray) -> np.ndarray:
    return (np.asarray(values, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)


def _from_bf16_bits(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def _pack_nibbles(values: np.ndarray) -> np.ndarray:
    flat = (np.asarray(values).reshape(-1).astype(np.int64) & 0xF).astype(np.uint8)
    flat = np.concatenate([flat, np.zeros(flat.size % 2, dtype=np.uint8)])
    return flat[0::2] | (flat[1::2] << 4)


def _unpack_nibbles(packed: np.ndarray, count: int, signed: bool) -> np.ndarray:
    nibbles = np.empty(packed.size * 2, dtype=np.uint8)
    nibbles[0::2], nibbles[1::2] = packed & 0xF, packed >> 4
    nibbles = nibbles[:count]
    return (nibbles.astype(np.int8) - (nibbles >= 8) * 16).astype(np.int8) if signed else nibbles


def to_archive_bytes(parameter: ParameterGlobal, value: np.ndarray) -> np.ndarray:
    """The bytes IREE reads for `value` (numpy form, as `random_value` returns it)."""
    element = parameter.element
    if element == "bf16":
        return _to_bf16_bits(value).view(np.uint8).reshape(-1)
    if element in ("i4", "si4", "ui4"):
        return _pack_nibbles(value)
    return np.ascontiguousarray(value.astype(_ELEMENTS[element][1])).view(np.uint8).reshape(-1)


def elements_from_bytes(element: str, shape, raw) -> np.ndarray:
    """A tensor of `element`s stored densely in `raw` as IREE stores them (an archive entry, a
    `dense_resource` blob): bf16 read as float32, i4 unpacked, i1 (a byte each) as bool."""
    shape = tuple(shape)
    raw = np.frombuffer(raw, dtype=np.uint8) if isinstance(raw, (bytes, bytearray)) else \
        np.asarray(raw, dtype=np.uint8).reshape(-1)
    if element not in _ELEMENTS:
        raise ValueError(f"no byte layout known for element type {element}")
    if element == "bf16":
        return _from_bf16_bits(raw.view(np.uint16)).reshape(shape)
    if element in ("i4", "si4", "ui4"):
        return _unpack_nibbles(raw, math.prod(shape), element != "ui4").reshape(shape)
    if element == "i1":
        return (raw != 0).reshape(shape)
    return raw.view(_ELEMENTS[element][1]).reshape(shape)


def _metadata_text(parameter: ParameterGlobal) -> str:
    dtype = _ELEMENTS[parameter.element][2][0]
    return _METADATA_VERSION + ":" + json.dumps({"type": "Tensor", "dtype": dtype, "shape": list(parameter.shape)})


def write_archive(path: Path, values: dict[ParameterGlobal, np.ndarray]) -> None:
    """An .irpa holding `values` under their keys, with iree.runtime's dtype/shape metadata.

    Written to a temporary file beside `path` and renamed into place: a reader never sees half.
    """
    import iree.runtime as rt

    index = rt.ParameterIndex()
    keep = []  # the index reads the buffers when it writes the file
    for parameter, value in values.items():
        data = to_archive_bytes(parameter, value)
        keep.append(data)
        index.add_buffer(parameter.key, data, metadata=_metadata_text(parameter))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, staged = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(fd)
    try:
        index.create_archive_file(staged)
        os.replace(staged, path)
    except BaseException:
        Path(staged).unlink(missing_ok=True)
        raise


def default_cache_dir() -> Path:
    """Random archives live beside the model artifacts (`$IREE_DSA_CACHE_DIR/parameters/`)."""
    from .ir.artifacts import cache_root

    return cache_root() / "parameters"


def random_archives(parameters: list[ParameterGlobal], seed: int, cache_dir: Path | None = None) -> list[ArchiveFile]:
    """One archive per scope with `random_value`s of `parameters`, made once and cached.

    Named by a hash of what they hold (keys, shapes, types, seed, generator version), so two
    models with the same weights share them and a changed model never reads stale ones.
    """
    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    by_scope: dict[str, list[ParameterGlobal]] = {}
    for p in parameters:
        by_scope.setdefault(p.scope, []).append(p)
    archives = []
    for scope, members in by_scope.items():
        unique = {p.key: p for p in members}  # two globals may name one key
        digest = hashlib.sha256(json.dumps([_GENERATOR_VERSION, seed, scope, sorted(
            (p.key, list(p.shape), p.element) for p in unique.values())]).encode()).hexdigest()[:24]
        path = cache_dir / f"random-seed{seed}-{digest}.irpa"
        if not path.is_file():
            write_archive(path, {p: random_value(p, seed) for p in unique.values()})
        archives.append(ArchiveFile(scope, path))
    return archives


# ---- what a model runs with ----------------------------------------------------------------------

@dataclass
class Parameters:
    """The archives a model runs with: the user's (`seed` None) or random ones from `seed`."""

    model: Path
    globals: tuple[ParameterGlobal, ...]
    files: tuple[ArchiveFile, ...]
    seed: int | None = None
    _indexes: dict = field(default_factory=dict, repr=False)  # scope -> loaded ParameterIndex
    _sha256: dict = field(default_factory=dict, repr=False)

    @property
    def random(self) -> bool:
        return self.seed is not None

    @property
    def total_bytes(self) -> int:
        return sum({(p.scope, p.key): p.num_bytes for p in self.globals}.values())

    @property
    def scopes(self) -> list[str]:
        return list(dict.fromkeys(p.scope for p in self.globals))

    def runtime_flags(self) -> tuple[str, ...]:
        """iree-run-module / iree-benchmark-module flags."""
        return tuple(a.flag for a in self.files)

    def sha256(self, archive: ArchiveFile) -> str:
        if archive.path not in self._sha256:
            self._sha256[archive.path] = file_sha256(archive.path)
        return self._sha256[archive.path]

    def describe(self) -> str:
        """One line for the output: where the weights come from."""
        size = f"{len(self.globals)} tensor{'s' if len(self.globals) != 1 else ''}, {self.total_bytes / 1e6:.2f} MB"
        if self.random:
            where = ", ".join(str(a.path) for a in self.files)
            return f"parameters: none given; random from seed {self.seed} ({size}; {where})"
        files = ", ".join(f"{a.spec} (sha256 {self.sha256(a)[:12]})" for a in self.files)
        return f"parameters: {files} ({size})"

    def to_record(self) -> dict:
        """For a recipe or a JSON report: the files with their sha256, or the random seed."""
        if self.random:
            return {"random_seed": self.seed, "tensors": len(self.globals)}
        # Absolute, links kept: an archive linked beside a recipe is named there by its file name.
        files = [ArchiveFile(a.scope, Path(os.path.abspath(a.path))).spec for a in self.files]
        return {"files": files, "sha256": [self.sha256(a) for a in self.files],
                "tensors": len(self.globals)}

    def _index(self, scope: str):
        if scope not in self._indexes:
            import iree.runtime as rt

            index = rt.ParameterIndex()
            for a in self.files:
                if a.scope == scope:
                    index.load(str(a.path))
            self._indexes[scope] = index
        return self._indexes[scope]

    def _entry(self, scope: str, key: str):
        index = self._index(scope)
        for i in range(len(index)):
            if index[i].key == key:
                return index[i]
        return None

    def value(self, scope: str, key: str) -> np.ndarray:
        """The numpy form of one weight, read from the archive the runtime reads too."""
        parameter = next((p for p in self.globals if p.scope == scope and p.key == key), None)
        entry = self._entry(scope, key) if parameter is not None else None
        if entry is None:
            raise KeyError(f"{scope}::{key}")
        if entry.is_splat:
            pattern = np.frombuffer(bytes(entry.splat_pattern), dtype=np.uint8)
            raw = np.tile(pattern, entry.length // max(1, pattern.size))
        else:
            # A copy: a view would point into the archive the index maps, which is unmapped when
            # this `Parameters` is collected while the array may still be read (a segfault).
            raw = np.array(entry.file_view, dtype=np.uint8, copy=True)
        return elements_from_bytes(parameter.element, parameter.shape, raw)

    def runtime_module(self, instance):
        """An io_parameters VM module serving every scope (add it to a context before the model)."""
        import iree.runtime as rt

        providers = [self._index(scope).create_provider(scope=scope) for scope in self.scopes]
        return rt.create_io_parameters_module(instance, *providers)


def unbound_text(parameters: list[ParameterGlobal]) -> str:
    """One line on the weights a model reads when no archive was given ("" when it reads none)."""
    if not parameters:
        return ""
    size = sum({(p.scope, p.key): p.num_bytes for p in parameters}.values())
    scopes = list(dict.fromkeys(p.scope for p in parameters))
    needs = " ".join(f"--parameters={s + '=' if s else ''}FILE.irpa" for s in scopes)
    return (f"parameters: the model reads {len(parameters)} tensor{'s' if len(parameters) != 1 else ''} "
            f"({size / 1e6:.2f} MB) from archives; none given (running it needs {needs})")


def _check_archives(model: Path, parameters: list[ParameterGlobal], archives: list[ArchiveFile]) -> None:
    for a in archives:
        if not a.path.is_file():
            raise InputError(f"{a.path}: no such file (--parameters={a.spec})" if not a.path.is_dir()
                             else f"{a.path}: is a directory, expected an .irpa parameter archive "
                                  f"(--parameters={a.spec})")
    used = list(dict.fromkeys(p.scope for p in parameters))

    def scope_name(scope: str) -> str:
        return f"scope '{scope}'" if scope else "no scope"

    for a in archives:
        if a.scope not in used:
            have = ", ".join(scope_name(s) for s in used) or "none: it reads no parameters"
            raise InputError(f"{a.path}: {scope_name(a.scope)} (--parameters={a.spec}) is not read by "
                             f"{model} (its parameters: {have})")
    for scope in used:
        if not any(a.scope == scope for a in archives):
            first = next(p for p in parameters if p.scope == scope)
            raise InputError(f"{model}: reads parameter {first.describe()}, and no --parameters gives "
                             f"{scope_name(scope)} (given: {', '.join(a.spec for a in archives)})")
    for scope in used:
        entries = {}
        for a in archives:
            if a.scope != scope:
                continue
            index = _open_index(a.path)
            for i in range(len(index)):
                entries.setdefault(index[i].key, (a, index[i]))
        for p in parameters:
            if p.scope != scope:
                continue
            if p.key not in entries:
                files = ", ".join(str(a.path) for a in archives if a.scope == scope)
                raise InputError(f"{files}: no parameter '{p.key}'; {model} reads it ({scope_name(scope)}) "
                                 f"as @{p.name} : {p.type_text}")
            archive, entry = entries[p.key]
            _check_entry(archive, entry, p, model)


def resolve_parameters(model: str | os.PathLike, given: list[str] | tuple[str, ...] = (), *, seed: int = 0,
                       base: Path | None = None, cache_dir: Path | None = None,
                       model_parameters: list[ParameterGlobal] | None = None) -> Parameters | None:
    """What `model` runs with: the checked `given` archives, or random ones from `seed` when none
    were given; None when the model reads no parameters and none were given.

    Every problem is one InputError naming the file and the parameter, raised before anything
    is compiled or written.
    """
    model = Path(model)
    archives = [parse_archive_spec(text, base) for text in given]
    try:
        parameters = read_model_parameters(model) if model_parameters is None else list(model_parameters)
    except UnreadableModel:
        if archives:
            raise
        return None  # nothing to check: compiling the model reports what is wrong with it, as before
    if archives:
        _check_archives(model, parameters, archives)
        return Parameters(model, tuple(parameters), tuple(archives))
    if not parameters:
        return None
    unknown = sorted({p.element for p in parameters} - set(_ELEMENTS))
    if unknown:
        raise InputError(f"{model}: parameters of element type {', '.join(unknown)} cannot be generated; "
                         "give their archive with --parameters")
    return Parameters(model, tuple(parameters), tuple(random_archives(parameters, seed, cache_dir)), seed)


__all__ = ["ArchiveFile", "ParameterGlobal", "Parameters", "parameter_of_global", "parameter_reference",
           "random_archives", "random_value", "read_model_parameters", "resolve_parameters", "write_archive"]
