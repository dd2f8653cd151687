"""Write the unbatch route's preprocessing script (host/routes/unbatch.py) for given batch sizes, verified.

    %PYTHON write_unbatch_script.py [--hinted] [B ...] [K:CHUNK[:N] ...] > script.mlir

The route reads the batches from the model's input form; a lit test names them itself. --hinted:
the script that also marks the GEMMs inner-tiled data tiling can build (step 4 of host/routes/unbatch.py).
K:CHUNK[:N]: long reductions cut into chunks summed after (k_split.summed_split_lines).
"""

import sys

from iree_dsa_tuner.ir.conv_route import verified_script
from iree_dsa_tuner.host.routes.k_split import KSplit
from iree_dsa_tuner.host.routes.unbatch import unbatch_script_text

args = sys.argv[1:]
hinted = "--hinted" in args
batches = [int(b) for b in args if b != "--hinted" and ":" not in b]
splits = [KSplit(*map(int, arg.split(":"))) for arg in args if ":" in arg]
sys.stdout.write(verified_script(unbatch_script_text(batches, hinted, splits), "unbatch"))
