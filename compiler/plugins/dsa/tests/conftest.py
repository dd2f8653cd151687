"""The plugin's tests share the repository's test setup (tests/conftest.py).

Python knows one module named `conftest` at a time, and pytest loads this file and
tests/conftest.py in either order, so this one must offer every name that one does:
a test under tests/ doing `from conftest import INPUTS` may be handed this module.
It therefore loads tests/conftest.py under its own name and re-exports its public
names, fixtures included (the artifact cache of the session, `inputs`).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_SHARED = Path(__file__).resolve().parents[4] / "tests" / "conftest.py"
_spec = importlib.util.spec_from_file_location("iree_dsa_tuner_tests_conftest", _SHARED)
_shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shared)

for _name, _value in vars(_shared).items():
    if not _name.startswith("_"):
        globals()[_name] = _value
