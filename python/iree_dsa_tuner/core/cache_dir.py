"""Where the tuner keeps what it can reuse across runs (dumped models, routes, random
parameter archives, the host's FMA probe): `$IREE_DSA_CACHE_DIR`, default `~/.cache/iree-dsa-tuner`."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "IREE_DSA_CACHE_DIR"


def cache_root() -> Path:
    root = os.environ.get(CACHE_ENV)
    return Path(root) if root else Path.home() / ".cache" / "iree-dsa-tuner"
