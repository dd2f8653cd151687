"""The package's layers import one way (docs/ARCHITECTURE.md), and the core never names the DSA.

Every `import` / `from ... import` in the package's source counts, function-level
ones included: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "iree_dsa_tuner"
PLUGIN = "iree_dsa_plugin"

# Each unit and what it may import from the package (besides itself), lower layers first: the
# table docs/ARCHITECTURE.md is written from (tools/write_architecture_table.py).
LAYERS_FILE = PACKAGE.parent.parent / "docs" / "layers.toml"
ALLOWED = {unit: set(entry["imports"]) for unit, entry in tomllib.loads(LAYERS_FILE.read_text()).items()}


def test_the_architecture_doc_shows_the_table_this_test_reads():
    tool = PACKAGE.parent.parent / "tools" / "write_architecture_table.py"
    proc = subprocess.run([sys.executable, str(tool), "--check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def _unit(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _imports(path: Path):
    """(unit imported from the package, line) and plugin imports of one source file."""
    unit_parts = path.relative_to(PACKAGE).with_suffix("").parts
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                yield node.module or "", node.lineno
                continue
            # Resolve a relative import against the file's package.
            package = list(unit_parts[:-1]) if path.name != "__init__.py" else list(unit_parts[:-1])
            base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
            target = ".".join(["iree_dsa_tuner", *base, *([node.module] if node.module else [])])
            if node.module is None:  # from . import x, y: each name is a module of the package
                for alias in node.names:
                    yield f"{target}.{alias.name}", node.lineno
            else:
                yield target, node.lineno


def _edges():
    for path in sorted(PACKAGE.rglob("*.py")):
        here = _unit(path)
        for module, line in _imports(path):
            parts = module.split(".")
            if parts[0] == PLUGIN:
                yield here, PLUGIN, path, line
            elif parts[0] == "iree_dsa_tuner" and len(parts) > 1:
                yield here, parts[1], path, line


def test_every_unit_has_a_declared_layer():
    units = {_unit(p) for p in PACKAGE.rglob("*.py")}
    assert units <= set(ALLOWED), f"units without a layer: {sorted(units - set(ALLOWED))}"


def test_imports_follow_the_layers():
    wrong = [f"{path.relative_to(PACKAGE)}:{line}: {here} -> {there}"
             for here, there, path, line in _edges() if there != here and there not in ALLOWED.get(here, set())]
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_the_core_never_imports_the_dsa_plugin_nor_names_its_knobs():
    plugin_imports = [f"{path.relative_to(PACKAGE)}:{line}" for _, there, path, line in _edges() if there == PLUGIN]
    assert not plugin_imports, f"the tuner imports the DSA plugin: {plugin_imports}"
    named = [str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if "iree_dsa." in p.read_text()]
    assert not named, f"DSA knob names in the tuner core: {named}"


def test_the_declared_layers_have_no_cycle():
    state: dict[str, int] = {}

    def visit(unit: str, trail: list[str]) -> None:
        if state.get(unit) == 2:
            return
        assert state.get(unit) != 1, "import cycle: " + " -> ".join([*trail, unit])
        state[unit] = 1
        for dep in ALLOWED[unit]:
            visit(dep, [*trail, unit])
        state[unit] = 2

    for unit in ALLOWED:
        visit(unit, [])


def test_a_cycle_is_caught(tmp_path, monkeypatch):
    """The checker itself: an upward import is reported with its file and line."""
    fake = tmp_path / "iree_dsa_tuner"
    (fake / "core").mkdir(parents=True)
    (fake / "core" / "x.py").write_text("from ..search import driver\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    edges = list(_edges())
    assert [(h, t) for h, t, _, _ in edges] == [("core", "search")]


@pytest.mark.slow
def test_space_and_costmodel_import_without_iree(tmp_path):
    """A venv with numpy but no IREE: the pure-Python layers still import."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False, system_site_packages=False)
    python = env_dir / "bin" / "python"
    import numpy

    site = Path(numpy.__file__).resolve().parent.parent
    code = ("import sys; sys.path[:0] = [%r, %r]\n"
            "import importlib.util\n"
            "assert importlib.util.find_spec('iree') is None, 'IREE leaked into the venv'\n"
            "import iree_dsa_tuner.space, iree_dsa_tuner.costmodel, iree_dsa_tuner.core, iree_dsa_tuner.description\n"
            "print('ok')" % (str(PACKAGE.parent), str(tmp_path / "numpy_only")))
    (tmp_path / "numpy_only").mkdir()
    os.symlink(site / "numpy", tmp_path / "numpy_only" / "numpy")
    for extra in site.glob("numpy.libs"):
        os.symlink(extra, tmp_path / "numpy_only" / extra.name)
    proc = subprocess.run([str(python), "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr
