"""Write the packed kernel-tap route's preprocessing script (host/routes/packed_taps.py) for MODEL's
batch-1 1-D convolutions and a given register tile, verified.

    %PYTHON write_packed_taps_script.py ROWS,COLS MODEL.mlir > script.mlir

MODEL is read in its input form (linalg on tensors, as the lit inputs are). The route derives the
tile from the CPU description; a lit test names it itself, so its golden text is the same on every
machine.
"""

import sys

from iree_dsa_tuner.host.routes.packed_taps import batch1_conv1d_layers, packed_taps_script_text
from iree_dsa_tuner.ir.conv_route import verified_script

tile = tuple(int(v) for v in sys.argv[1].split(","))
with open(sys.argv[2]) as model:
    layers, others = batch1_conv1d_layers(model.read())
sys.stdout.write(verified_script(packed_taps_script_text(layers, tile, others), "packed kernel-tap"))
