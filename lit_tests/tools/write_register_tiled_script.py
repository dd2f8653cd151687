"""Write the register-tiled route's preprocessing script (host/routes/register_tiled.py) for a given
register tile, verified.

    %PYTHON write_register_tiled_script.py M0,N0,K0 [K:CHUNK ...] [--unbatch B ...] > script.mlir

--unbatch names the batch sizes the unbatch route unrolls after the packing (the
register-tiled+unbatch+gdt+inner-tiled preset's script).

The route derives the tile (and which reductions it cuts into chunks) from the CPU description; a
lit test names them itself, so its golden text is the same on every machine.
"""

import sys

from iree_dsa_tuner.ir.conv_route import verified_script
from iree_dsa_tuner.host.routes.register_tiled import register_tiled_script_text

args = sys.argv[1:]
unbatch = None
if "--unbatch" in args:
    at = args.index("--unbatch")
    args, unbatch = args[:at], [int(b) for b in args[at + 1:]]
tile = tuple(int(v) for v in args[0].split(","))
chunks = dict(tuple(map(int, arg.split(":"))) for arg in args[1:])
sys.stdout.write(verified_script(register_tiled_script_text(tile, chunks, unbatch), "register-tiled"))
