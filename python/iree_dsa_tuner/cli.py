"""iree-dsa-tune: the tuner's command line.

Subcommands live in `iree_dsa_tuner.commands`, one module each, with
`add_parser(subparsers)` and `run(args) -> int`.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .commands.common import HelpFormatter
from .core.host_isa import host_isa_cap
from .errors import TunerError

_COMMANDS = ("demo", "inspect", "spec", "verify", "link", "targets", "funnel", "tune", "compile", "profile", "task", "quantize",
             "db")

_EPILOG = """\
The path from a model to a tuning spec:
  iree-dsa-tune inspect model.mlir              list dispatches and their root-op problems
  iree-dsa-tune funnel model.mlir --target dsa-e1   prune each dispatch's space analytically
  iree-dsa-tune tune model.mlir --target host -o spec.mlir   search, measure, write a verified spec
  iree-dsa-tune spec model.mlir --plan plan.json -o spec.mlir   spec from configs you chose
  iree-dsa-tune verify model.mlir spec.mlir     prove IREE applies it and numerics hold
  iree-dsa-tune task pi0 --target dsa-e1        a policy's action-chunk latency, tuned to its budget
                                                (pi0: a shipped manifest; `task --list` lists them)
  iree-dsa-tune quantize policy.mlir --scheme w4a8 -o q/   quantise its weights for real (docs/QUANT.md)
Use the spec with: iree-compile --iree-codegen-tuning-spec-path=spec.mlir ...
Exit status: 0 done; 2 an error (one line on stderr naming the file; a usage mistake too), --debug
shows the traceback; 1 a verdict: verify (and demo's verify step) found a config not applied or
numerics that differ.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="iree-dsa-tune",
        description="Tune how IREE compiles the dispatches of a model, for a DSA or the host CPU, "
        "and write a Transform-dialect tuning spec that iree-compile applies.",
        epilog=_EPILOG,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--debug", action="store_true", help="show Python tracebacks on errors")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMANDS:
        try:
            module = importlib.import_module(f".commands.{name}", __package__)
        except ModuleNotFoundError as e:
            if e.name and e.name.endswith(f"commands.{name}"):
                continue  # a subcommand not built yet in this checkout
            raise
        module.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        host_isa_cap()  # a bad $IREE_DSA_HOST_ISA is one line here, before any command reads the host
        return int(args.func(args) or 0)
    except TunerError as e:
        if args.debug:
            raise
        message = str(e)
        # IREE-style messages ("file:3:5: error: ...") already say they are errors.
        print(f"iree-dsa-tune: {message}" if ": error: " in message else f"iree-dsa-tune: error: {message}",
              file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print("iree-dsa-tune: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
