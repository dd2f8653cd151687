"""Write the batch-fold route's preprocessing script (host/routes/conv_fold.py) for a linalg model, verified.

    %PYTHON write_conv_fold_script.py MODEL.mlir LANES > script.mlir

The route reads the convolutions from the model's input form and the lanes from the host's vector
width; a lit test names the lanes itself (16: AVX-512 f32, 8: AVX2), so the text is the same on
every machine. Prints nothing when no convolution folds.
"""

import sys

from iree_dsa_tuner.host.routes.conv_fold import conv_fold_script_text, folds, input_convs
from iree_dsa_tuner.ir.conv_route import verified_script

model, lanes = sys.argv[1], int(sys.argv[2])
with open(model) as f:
    chosen = [c for c in input_convs(f.read()) if folds(c, lanes)]
if chosen:
    sys.stdout.write(verified_script(conv_fold_script_text(chosen), "batch-fold convolution"))
