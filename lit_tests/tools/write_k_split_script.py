"""Write the long-K route's preprocessing script (host/routes/k_split.py) for given reductions, verified.

    %PYTHON write_k_split_script.py K:CHUNK[:N] [K:CHUNK[:N] ...] > script.mlir

The route picks K, the chunk (and for a few-rows GEMM its N) from the machine's L2; a lit test
names them itself, so its golden text is the same on every machine.
"""

import sys

from iree_dsa_tuner.ir.conv_route import verified_script
from iree_dsa_tuner.host.routes.k_split import KSplit, k_split_script_text

splits = [KSplit(*map(int, arg.split(":"))) for arg in sys.argv[1:]]
sys.stdout.write(verified_script(k_split_script_text(splits), "long-K split"))
