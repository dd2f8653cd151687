# The table's columns line up: every row starts each column at the same
# offset as the header does (checked on a model whose rows differ in width:
# two contractions, transposes without a root op, '$' in the symbols).
# RUN: %dsa-tune inspect %inputs/torch_gemma_mlp.mlir > %t.table
# RUN: %PYTHON %s %t.table | FileCheck %s

# CHECK: rows=5 aligned

import sys

lines = open(sys.argv[1]).read().splitlines()
header, rule, rows = lines[0], lines[1], [l for l in lines[2:] if "_dispatch_" in l]
# Column starts, from the rule line of dashes separated by two spaces.
starts = [i for i, c in enumerate(rule) if c == "-" and (i == 0 or rule[i - 1] == " ")]
bad = []
for row in [header] + rows:
    for s in starts[2:5]:  # kind, root op, sizes/reason: left-aligned text columns (calls is a number)
        if row[s - 2:s] != "  " or row[s] == " ":
            bad.append((row, s))
print(f"rows={len(rows)}", "aligned" if not bad else f"MISALIGNED {bad}")
