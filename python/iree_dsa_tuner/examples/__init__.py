"""Models shipped inside the package, so the main job runs with no input of the user's."""

from __future__ import annotations

from pathlib import Path

EXAMPLES_DIR = Path(__file__).resolve().parent
DEFAULT_MODEL = EXAMPLES_DIR / "pi0_action_expert_block.mlir"
DEFAULT_PLAN = EXAMPLES_DIR / "pi0_action_expert_block.plan.json"
MANIFESTS_DIR = EXAMPLES_DIR / "manifests"

# In a source checkout (an editable install) the lit suite's manifests are shipped inputs too:
# the lerobot exports and the torch ones. An installed wheel has only the package's.
_CHECKOUT_INPUTS = EXAMPLES_DIR.parents[2] / "lit_tests" / "inputs"
CHECKOUT_MANIFEST_DIRS = (_CHECKOUT_INPUTS / "manifests", _CHECKOUT_INPUTS / "lerobot")


def shipped_manifests() -> dict[str, Path]:
    """Every shipped manifest by the name `task` takes it by, in listing order.

    The package's own (examples/manifests) are named by their stem (`pi0`); a checkout's by
    their stem too unless a package manifest has it, else as folder/stem (`lerobot/pi0`).
    """
    found: dict[str, Path] = {p.stem: p for p in sorted(MANIFESTS_DIR.glob("*.toml"))}
    for folder in CHECKOUT_MANIFEST_DIRS:
        for path in sorted(folder.glob("*.toml")) if folder.is_dir() else ():
            name = path.stem if path.stem not in found else f"{folder.name}/{path.stem}"
            found.setdefault(name, path)
    return found


def find_shipped_manifest(name: str) -> Path | None:
    """The shipped manifest `name` names (`pi0`, `pi0.toml`, `lerobot/pi0`), or None."""
    key = name[:-len(".toml")] if name.endswith(".toml") else name
    shipped = shipped_manifests()
    if key in shipped:
        return shipped[key]
    # folder/stem names every checkout manifest, even one listed by its stem alone.
    return next((p for p in shipped.values() if f"{p.parent.name}/{p.stem}" == key
                 and p.parent != MANIFESTS_DIR), None)
