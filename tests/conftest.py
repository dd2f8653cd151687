"""Shared fixtures: the lit inputs double as pytest models."""

from __future__ import annotations

from pathlib import Path

import os

import pytest

INPUTS = Path(__file__).resolve().parent.parent / "lit_tests" / "inputs"


@pytest.fixture(scope="session", autouse=True)
def artifact_cache(tmp_path_factory):
    """Compiled-model artifacts go to a directory of this test session, not ~/.cache."""
    from iree_dsa_tuner.ir.artifacts import CACHE_ENV

    previous = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(tmp_path_factory.mktemp("artifact-cache"))
    yield Path(os.environ[CACHE_ENV])
    if previous is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = previous


@pytest.fixture
def inputs() -> Path:
    return INPUTS


def write_model(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


MATMUL_TEMPLATE = """\
func.func @{name}(%a: tensor<{m}x{k}x{t}>, %b: tensor<{k}x{n}x{t}>) -> tensor<{m}x{n}x{acc}> {{
  %c0 = arith.constant 0{zero} : {acc}
  %e = tensor.empty() : tensor<{m}x{n}x{acc}>
  %f = linalg.fill ins(%c0 : {acc}) outs(%e : tensor<{m}x{n}x{acc}>) -> tensor<{m}x{n}x{acc}>
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}x{t}>, tensor<{k}x{n}x{t}>) outs(%f : tensor<{m}x{n}x{acc}>) -> tensor<{m}x{n}x{acc}>
  return %r : tensor<{m}x{n}x{acc}>
}}
"""


def matmul_model(m: int, n: int, k: int, t: str = "f32", acc: str | None = None, name: str = "mm") -> str:
    acc = acc or t
    return MATMUL_TEMPLATE.format(name=name, m=m, n=n, k=k, t=t, acc=acc, zero=".0" if acc.startswith("f") else "")


def load_tool(name: str):
    """A script of tools/ (not a package) imported as a module, e.g. `load_tool("gen_int4_models")`."""
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
