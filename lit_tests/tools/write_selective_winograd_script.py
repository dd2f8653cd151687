"""Write one selective preset's preprocessing script of the Winograd route (host/routes/winograd.py), verified.

    %PYTHON write_selective_winograd_script.py MODEL.mlir LANES [THRESHOLD] > script.mlir

The script marks the 3x3 stride-1 convolutions with at least THRESHOLD 6x6 output blocks for IREE's
Winograd pass and runs it, and folds those of the rest that the batch-fold route folds at LANES f32
lanes (a lit test names them, so the text is the same on every machine). THRESHOLD defaults to the
lowest of `selective_thresholds`; prints nothing when the model has none.
"""

import sys

from iree_dsa_tuner.host.routes.conv_fold import InputConv, input_convs
from iree_dsa_tuner.host.routes.winograd import selective_script_text, selective_split, selective_thresholds
from iree_dsa_tuner.ir.conv_route import verified_script


class Lanes:
    """A CPU description with only the vector width the batch-fold route reads."""

    def __init__(self, lanes: int):
        self.vector_register_bytes = 4 * lanes


model, lanes = sys.argv[1], int(sys.argv[2])
with open(model) as f:
    convs: list[InputConv] = input_convs(f.read())
thresholds = selective_thresholds(convs)
threshold = int(sys.argv[3]) if len(sys.argv) > 3 else (thresholds[0] if thresholds else None)
if threshold is not None:
    chosen, folded = selective_split(convs, Lanes(lanes), threshold)
    sys.stdout.write(verified_script(selective_script_text(chosen, folded), "selective Winograd"))
