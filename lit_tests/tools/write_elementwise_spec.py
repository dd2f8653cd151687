"""Write the verified spec of the elementwise rule for a model (search/estimated.py).

    %PYTHON write_elementwise_spec.py MODEL [IREE_FLAG ...] > spec.mlir

Compiles MODEL with the flags (the target's), reads its elementwise roots and IREE's configs for
them, replaces each distribution tile that does not divide its loop
(`divisible_elementwise_configs`) and prints the spec that verified (nothing when no config
changes). What `tune` adds to a preset's own spec, without the presets around it.
"""

import sys

from iree_dsa_tuner.ir.artifacts import compile_model
from iree_dsa_tuner.search.estimated import divisible_elementwise_configs
from iree_dsa_tuner.tuning_spec.verify import build_verified

model, flags = sys.argv[1], tuple(sys.argv[2:])
built = compile_model(model, flags)
problems = built.elementwise_problems()
configs = divisible_elementwise_configs(problems, built.default_configs())
if configs:
    verified = build_verified(built, problems, configs)
    for dispatch, why in sorted(verified.dropped.items()):
        sys.stderr.write(f"dropped {dispatch}: {why}\n")
    sys.stdout.write(verified.text)
