"""Write the unbatch route's preprocessing script (ir/unbatch.py) for given batch sizes, verified.

    %PYTHON write_unbatch_script.py [--hinted] [B ...] > script.mlir

The route reads the batches from the model's input form; a lit test names them itself. --hinted:
the script that also marks the GEMMs inner-tiled data tiling can build (step 4 of ir/unbatch.py).
"""

import sys

from iree_dsa_tuner.ir.conv_route import verified_script
from iree_dsa_tuner.ir.unbatch import unbatch_script_text

args = sys.argv[1:]
hinted = "--hinted" in args
batches = [int(b) for b in args if b != "--hinted"]
sys.stdout.write(verified_script(unbatch_script_text(batches, hinted), "unbatch"))
