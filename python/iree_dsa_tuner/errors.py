"""Errors a user sees as one line (exit status 2), never as a traceback."""

from __future__ import annotations


class TunerError(Exception):
    """Something about the user's input or environment; printed as one line."""

    exit_code = 2


class InputError(TunerError):
    """The input file is missing, unreadable, not MLIR, or rejected by IREE."""


class CompileError(TunerError):
    """iree-compile rejected a module or a spec; carries IREE's first error line."""

    def __init__(self, message: str, diagnostics: str = ""):
        super().__init__(message)
        self.diagnostics = diagnostics


class CompileTimeout(CompileError):
    """iree-compile ran past its time limit (a hang is a failure, not a wait)."""
