"""Read one JSON document on stdin and print it for FileCheck, one line per item.

A JSON array prints one compact object per line (keys in the order the tool
wrote them), so a CHECK line can match a whole dispatch. Anything else prints
as one compact line. Fails (exit 1, message on stderr) when stdin is not
exactly one JSON document, which is itself part of what the tests check.
"""

import json
import sys


def main() -> int:
    text = sys.stdin.read()
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        print(f"jsonl.py: stdin is not one JSON document: {e}", file=sys.stderr)
        return 1
    items = doc if isinstance(doc, list) else [doc]
    if isinstance(doc, list):
        print(f"array of {len(doc)}")
    for item in items:
        print(json.dumps(item, separators=(", ", ": ")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
