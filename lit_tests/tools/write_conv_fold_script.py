"""Write the batch-fold route's preprocessing script (host/routes/conv_fold.py) for a linalg model, verified.

    %PYTHON write_conv_fold_script.py MODEL.mlir LANES [ROWSxCOLS] > script.mlir

The route reads the convolutions from the model's input form and the lanes from the host's vector
width; a lit test names the lanes itself (16: AVX-512 f32, 8: AVX2), so the text is the same on
every machine. With ROWSxCOLS, the folded convolutions are written in the packed form instead, as
`linalg.mmt4d` in ROWS x COLS x 1 register tiles (the packed presets fit ROWS to each convolution;
here it is named). Prints nothing when no convolution folds.
"""

import sys

from iree_dsa_tuner.host.routes.conv_fold import conv_fold_script_text, conv_script_text, folds, input_convs
from iree_dsa_tuner.ir.conv_route import verified_script

model, lanes = sys.argv[1], int(sys.argv[2])
with open(model) as f:
    chosen = [c for c in input_convs(f.read()) if folds(c, lanes)]
if chosen and len(sys.argv) > 3:
    rows, cols = (int(v) for v in sys.argv[3].split("x"))
    text = conv_script_text([], tiles={c: (rows, cols) for c in chosen})
    sys.stdout.write(verified_script(text, "packed convolution"))
elif chosen:
    sys.stdout.write(verified_script(conv_fold_script_text(chosen), "batch-fold convolution"))
