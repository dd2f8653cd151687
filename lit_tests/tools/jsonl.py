"""Read one JSON document on stdin and print it for FileCheck, one line per item.

    ... --json | %jsonl                      one compact object per line
    ... --json | %jsonl dispatch kind sizes  per item: dispatch=... kind=... sizes=...
    ... --json | %jsonl --key ops dispatch status   items of the top-level "ops" list

A JSON array prints a first line `array of N`, then one line per element; any
other document prints as one item. With field names, each line holds just
those fields, in the order asked, as `name=<compact JSON>` (`name=<missing>`
when absent), so CHECK lines do not depend on the tool's key order. Fails
(exit 1, message on stderr) when stdin is not exactly one JSON document, which
is itself part of what the tests check.
"""

import json
import sys

_MISSING = object()


def compact(value) -> str:
    return json.dumps(value, separators=(", ", ": "))


def main(fields: list[str]) -> int:
    key = None
    if fields[:1] == ["--key"] and len(fields) >= 2:
        key, fields = fields[1], fields[2:]
    text = sys.stdin.read()
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        print(f"jsonl.py: stdin is not one JSON document: {e}", file=sys.stderr)
        return 1
    if key is not None:
        if not isinstance(doc, dict) or key not in doc:
            print(f"jsonl.py: the document has no top-level key {key!r}", file=sys.stderr)
            return 1
        doc = doc[key]
    items = doc if isinstance(doc, list) else [doc]
    if isinstance(doc, list):
        print(f"array of {len(doc)}")
    for item in items:
        if not fields:
            print(compact(item))
            continue
        parts = []
        for name in fields:
            value = item.get(name, _MISSING) if isinstance(item, dict) else _MISSING
            parts.append(f"{name}=" + ("<missing>" if value is _MISSING else compact(value)))
        print(" ".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
