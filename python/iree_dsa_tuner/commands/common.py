"""Arguments shared by several subcommands."""

from __future__ import annotations

import argparse



def add_target_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--target", default="host", metavar="NAME",
                   help="target to tune for (see `iree-dsa-tune targets`; default: host)")
    p.add_argument("--target-path", action="append", default=[], metavar="DIR",
                   help="extra directory of target description files (also $IREE_DSA_TARGET_PATH)")


def target_compile_flags(args: argparse.Namespace) -> tuple[str, ...]:
    """iree-compile flags of the chosen target's llvm-cpu path (`Target.compile_flags`).

    A misspelt target name is an error rather than silently the host.
    """
    from ..errors import InputError
    from ..targets import UnknownTarget, get_target

    try:
        target = get_target(args.target, search_paths=getattr(args, "target_path", ()))
    except UnknownTarget as e:
        raise InputError(str(e).strip("'\"")) from None
    return target.compile_flags
