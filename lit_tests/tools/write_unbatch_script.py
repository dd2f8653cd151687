"""Write the unbatch route's preprocessing script (ir/unbatch.py) for given batch sizes, verified.

    %PYTHON write_unbatch_script.py [B ...] > script.mlir

The route reads the batches from the model's input form; a lit test names them itself.
"""

import sys

from iree_dsa_tuner.ir.conv_route import verified_script
from iree_dsa_tuner.ir.unbatch import unbatch_script_text

sys.stdout.write(verified_script(unbatch_script_text([int(b) for b in sys.argv[1:]]), "unbatch"))
