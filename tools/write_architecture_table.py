"""Write docs/ARCHITECTURE.md's layer table from docs/layers.toml (the table tests/test_layers.py reads).

    python tools/write_architecture_table.py          # rewrite the table between the markers
    python tools/write_architecture_table.py --check  # exit 1 when the doc differs from the table
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LAYERS = REPO / "docs" / "layers.toml"
DOC = REPO / "docs" / "ARCHITECTURE.md"
BEGIN, END = "<!-- layers.toml begin -->", "<!-- layers.toml end -->"


def load_layers(path: Path = LAYERS) -> dict[str, dict]:
    return tomllib.loads(path.read_text())


def render(layers: dict[str, dict]) -> str:
    lines = ["| unit | what it is | may import |", "|---|---|---|"]
    for unit, entry in layers.items():
        imports = ", ".join(entry["imports"]) or "nothing of the package"
        lines.append(f"| `{unit}` | {entry['what']} | {imports} |")
    return "\n".join(lines)


def rewritten(doc_text: str, layers: dict[str, dict]) -> str:
    head, rest = doc_text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{render(layers)}\n{END}{tail}"


def main(argv: list[str]) -> int:
    text = DOC.read_text()
    new = rewritten(text, load_layers())
    if "--check" in argv:
        if new != text:
            print(f"{DOC}: the layer table differs from {LAYERS}; run python tools/write_architecture_table.py",
                  file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
