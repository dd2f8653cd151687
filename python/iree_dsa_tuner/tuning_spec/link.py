"""Link several tuning specs into one with IREE's own linker pass.

IREE reads one `--iree-codegen-tuning-spec-path` (a second one silently wins
over the first), so specs for several models or targets must be merged: the
inputs are nested as modules of one file and `iree-opt
--iree-codegen-link-tuning-specs` folds them into one foreach_match, renaming
clashing symbols.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from iree.compiler import ir

from ..compiler import mlir_parse_error, run_iree_tool
from ..errors import InputError


def link_spec_texts(texts: list[tuple[str, str]]) -> str:
    """Link (name, spec text) pairs; returns the linked spec text."""
    if not texts:
        raise InputError("nothing to link: no specs given")
    with ir.Context(), ir.Location.unknown():
        outer = ir.Module.create()
        outer.operation.attributes["transform.with_named_sequence"] = ir.UnitAttr.get()
        for name, text in texts:
            try:
                spec = ir.Module.parse(text)
            except ir.MLIRError as e:
                raise InputError(mlir_parse_error(name, e, "not a valid tuning spec")) from None
            ir.InsertionPoint(outer.body).insert(spec.operation.clone())
        nested = outer.operation.get_asm(use_local_scope=True)
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(nested)
        nested_path = f.name
    try:
        result = run_iree_tool("iree-opt", ["--iree-codegen-link-tuning-specs"], input_path=nested_path, what="linking specs")
    finally:
        os.unlink(nested_path)
    with ir.Context():
        linked = ir.Module.parse(result.text)
        return linked.operation.get_asm(use_local_scope=True) + "\n"


def link_spec_files(paths: list[str | os.PathLike]) -> str:
    texts = []
    for p in map(Path, paths):
        if not p.exists():
            raise InputError(f"{p}: no such file")
        texts.append((str(p), p.read_text(errors="replace")))
    return link_spec_texts(texts)
