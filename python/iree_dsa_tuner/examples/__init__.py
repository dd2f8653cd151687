"""Models shipped inside the package, so the main job runs with no input of the user's."""

from __future__ import annotations

from pathlib import Path

EXAMPLES_DIR = Path(__file__).resolve().parent
DEFAULT_MODEL = EXAMPLES_DIR / "pi0_action_expert_block.mlir"
DEFAULT_PLAN = EXAMPLES_DIR / "pi0_action_expert_block.plan.json"
