"""Write the register-tiled route's preprocessing script (host/routes/register_tiled.py) for a given
register tile, verified.

    %PYTHON write_register_tiled_script.py M0,N0,K0 [K:CHUNK ...] [--unbatch B ...] > script.mlir
    %PYTHON write_register_tiled_script.py M0,N0,K0 --linears MODEL.mlir > script.mlir

--unbatch names the batch sizes the unbatch route unrolls after the packing (the
register-tiled+unbatch+gdt+inner-tiled preset's script). --linears writes the script that packs
only MODEL's linear layers over [tokens, 1, features] (`broadcast_linears`; the presets beside the
convolution routes).

The route derives the tile (and which reductions it cuts into chunks) from the CPU description; a
lit test names them itself, so its golden text is the same on every machine.
"""

import sys

from iree_dsa_tuner.ir.conv_route import verified_script
from iree_dsa_tuner.host.routes.register_tiled import broadcast_linears, linear_script_text, register_tiled_script_text

args = sys.argv[1:]
if "--linears" in args:
    tile = tuple(int(v) for v in args[0].split(","))
    with open(args[args.index("--linears") + 1]) as model:
        sys.stdout.write(verified_script(linear_script_text(broadcast_linears(model.read()), tile), "register-tiled linear"))
    sys.exit(0)
unbatch = None
if "--unbatch" in args:
    at = args.index("--unbatch")
    args, unbatch = args[:at], [int(b) for b in args[at + 1:]]
tile = tuple(int(v) for v in args[0].split(","))
chunks = dict(tuple(map(int, arg.split(":"))) for arg in args[1:])
sys.stdout.write(verified_script(register_tiled_script_text(tile, chunks, unbatch), "register-tiled"))
