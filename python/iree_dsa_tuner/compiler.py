"""Driving the IREE compiler that ships in the pinned wheel.

Compiles run `iree-compile` from the wheel as a subprocess. The in-process
`iree.compiler.api` of 3.13 wraps neither `--compile-to` phases nor diagnostic
capture, and a subprocess gives us what a tuner needs most: IREE's own error
text, a timeout for a hanging candidate, and isolation from a compiler crash.
IR is read and written in-process with the MLIR Python bindings.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from . import flags
from .errors import CompileError, CompileTimeout, InputError

# llvm-cpu on the machine we run on; the host target of the tuner.
HOST_FLAGS = flags.HOST_FLAGS  # llvm-cpu on this machine's CPU (flags.py)

DEFAULT_TIMEOUT_S = 300.0


PREPROCESSING_FLAG_PREFIX = "--iree-preprocessing-"


def executable_benchmark_flags(flags: tuple[str, ...]) -> tuple[str, ...]:
    """`flags` for compiling one dispatch's dumped benchmark: without the preprocessing flags. They
    act on the model before its dispatches form; run again on a formed dispatch, a route's script
    rewrites it: the register-tiled script packs a matmul a second time, and its passes turned a
    6 x 16 x 1 mmt4d into a 5-loop op that ran 48 ms where the model's dispatch runs 2.3 ms."""
    return tuple(f for f in flags if not f.startswith(PREPROCESSING_FLAG_PREFIX))


def tuning_spec_flags(spec_path: str | os.PathLike) -> tuple[str, ...]:
    """Flags that make iree-compile apply a tuning spec.

    `--mlir-disable-threading`: IREE 3.13 can deadlock loading the transform
    library when a spec is given (seen once in CI: a worker blocked on a mutex in
    getOrLoadTransformLibraryModule, 0 % CPU for minutes). Single-threaded
    compiles gave byte-identical output and were no slower on 2 cores.
    """
    return (f"--iree-codegen-tuning-spec-path={spec_path}", "--mlir-disable-threading")

# "file.mlir:12:3: error: message" -- the first error line IREE prints.
_DIAG_RE = re.compile(r"^(?P<loc>[^\n]*?:\d+:\d+): error: (?P<msg>.*)$", re.M)


def find_tool(name: str) -> str:
    """Path of an IREE tool (`iree-compile`, `iree-opt`, ...) from the pinned wheels."""
    try:
        from iree.compiler.tools.binaries import find_tool as _find_compiler_tool

        return _find_compiler_tool(name)
    except Exception:
        pass
    try:
        import iree._runtime_libs as runtime_libs  # iree-benchmark-module and friends

        candidate = Path(runtime_libs.__file__).parent / name
        if candidate.exists():
            return str(candidate)
    except Exception:
        pass
    from shutil import which

    found = which(name)
    if not found:
        raise InputError(f"cannot find the IREE tool {name!r}; install iree-base-compiler==3.13.0 and iree-base-runtime==3.13.0")
    return found


def first_error_line(stderr: str, fallback: str) -> str:
    """IREE's first `error:` diagnostic as one line, keeping its file:line:col."""
    match = _DIAG_RE.search(stderr)
    if match:
        return f"{match.group('loc')}: error: {match.group('msg').strip()}"
    for line in stderr.splitlines():
        if "error" in line.lower():
            return line.strip()
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return lines[0] if lines else fallback


@dataclass
class CompileResult:
    output: bytes
    stderr: str
    argv: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.output.decode("utf-8", errors="replace")


def run_iree_tool(
    tool: str,
    args: list[str],
    *,
    input_path: str | os.PathLike | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    what: str = "",
) -> CompileResult:
    """Run an IREE tool whose output goes to stdout; raise CompileError on failure."""
    argv = [find_tool(tool), *args]
    if input_path is not None:
        argv.append(str(input_path))
    argv += ["-o", "-"]
    try:
        proc = subprocess.run(argv, capture_output=True, timeout=timeout_s, check=False)
    except subprocess.TimeoutExpired:
        raise CompileTimeout(f"{what or tool}: {tool} did not finish in {timeout_s:g} s") from None
    stderr = proc.stderr.decode("utf-8", errors="replace")
    if proc.returncode != 0 and _is_crash(proc.returncode, stderr) and input_path is not None:
        raise CompileError(_crash_diagnosis(Path(input_path), proc.returncode), stderr)
    if proc.returncode != 0:
        msg = first_error_line(stderr, f"{tool} exited with status {proc.returncode}")
        raise CompileError(msg if not what or what in msg else f"{what}: {msg}", stderr)
    return CompileResult(proc.stdout, stderr, argv)


def _crash_diagnosis(path: Path, returncode: int) -> str:
    """One line for an iree-compile crash, naming the unregistered op that caused it if any.

    IREE 3.13 accepts ops of unregistered dialects at parse time and then crashes
    in dispatch formation; the bindings can point at the op and its line.
    """
    from iree.compiler import ir

    try:
        with ir.Context() as ctx:
            ctx.allow_unregistered_dialects = True
            module = ir.Module.parse(path.read_text(errors="replace"))
            stack = [module.operation]
            while stack:
                op = stack.pop()
                if not ctx.is_registered_operation(op.name):
                    loc = str(op.location)
                    m = re.search(r'(\d+):(\d+)', loc)
                    where = f"{path}:{m.group(1)}:{m.group(2)}" if m else str(path)
                    return f"{where}: error: unknown op '{op.name}' (no IREE dialect registers it)"
                for region in op.regions:
                    for block in region.blocks:
                        stack.extend(child.operation for child in reversed(list(block.operations)))
    except Exception:
        pass
    return f"{path}: iree-compile crashed (exit status {returncode}) on this input"


def _is_crash(returncode: int, stderr: str) -> bool:
    return returncode < 0 or returncode > 128 or "crash backtrace" in stderr


def check_input_file(path: str | os.PathLike) -> Path:
    """The one-line errors for a model path before IREE sees it."""
    p = Path(path)
    if p.is_symlink() and not p.exists():
        raise InputError(f"{p}: a symbolic link that leads to no file (a loop, or its target is gone)")
    if not p.exists():
        raise InputError(f"{p}: no such file")
    if p.is_dir():
        raise InputError(f"{p}: is a directory, expected an MLIR file")
    try:
        with open(p, "rb") as f:
            head = f.read(4096)
    except OSError as e:
        raise InputError(f"{p}: cannot read: {e.strerror}") from None
    if b"\x00" in head and not head.startswith(b"ML\xefR"):
        raise InputError(f"{p}: not an MLIR file (binary data)")
    return p


def compile_to_vmfb(
    model: str | os.PathLike,
    out_path: str | os.PathLike,
    *,
    extra_flags: tuple[str, ...] = (),
    target_flags: tuple[str, ...] = HOST_FLAGS,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    retries: int = 1,
) -> CompileResult:
    """Compile `model` to a VM flatbuffer at `out_path`.

    A compile that times out is tried again `retries` times: a rare deadlock in
    IREE is not a property of the input, and a second try usually finishes.
    """
    path = check_input_file(model)
    argv = [find_tool("iree-compile"), *target_flags, *extra_flags, str(path), "-o", str(out_path)]
    for attempt in range(retries + 1):
        try:
            proc = subprocess.run(argv, capture_output=True, timeout=timeout_s, check=False)
            break
        except subprocess.TimeoutExpired:
            if attempt == retries:
                raise CompileTimeout(f"{path}: iree-compile did not finish in {timeout_s:g} s "
                                     f"({retries + 1} tries)") from None
    stderr = proc.stderr.decode("utf-8", errors="replace")
    if proc.returncode != 0 and _is_crash(proc.returncode, stderr):
        raise CompileError(_crash_diagnosis(path, proc.returncode), stderr)
    if proc.returncode != 0:
        raise CompileError(first_error_line(stderr, f"iree-compile exited with status {proc.returncode}"), stderr)
    return CompileResult(b"", stderr, argv)


def mlir_parse_error(path: str | os.PathLike, exc: Exception, what: str = "") -> str:
    """`path:line:col: error: message` for an MLIRError from parsing a string of `path`.

    The bindings parse text, so their locations say "-"; the line and column
    are right, the file name is put back here.
    """
    diagnostics = getattr(exc, "error_diagnostics", None) or []
    prefix = f"{what}: " if what else ""
    if diagnostics:
        d = diagnostics[0]
        m = re.search(r":(\d+):(\d+)", str(d.location))
        where = f"{path}:{m.group(1)}:{m.group(2)}" if m else str(path)
        return f"{where}: error: {prefix}{d.message}"
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return f"{path}: error: {prefix}{lines[-1] if lines else 'cannot parse'}"
