"""Write the Winograd route's iree-compile flags (host/routes/winograd.py) for a linalg model, one per line.

    %PYTHON write_winograd_flags.py MODEL.mlir > flags.txt
    iree-compile @flags.txt ...        (an LLVM response file: one flag per line)

Prints nothing when no convolution of the model converts.
"""

import sys

from iree_dsa_tuner.host.routes.conv_fold import input_convs
from iree_dsa_tuner.host.routes.winograd import winograd_flags

with open(sys.argv[1]) as f:
    for flag in winograd_flags(input_convs(f.read())):
        print(flag)
