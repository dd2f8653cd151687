"""Arguments shared by several subcommands."""

from __future__ import annotations

import argparse

from ..compiler import HOST_FLAGS


def add_target_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--target", default="host", metavar="NAME",
                   help="target to tune for (see `iree-dsa-tune targets`; default: host)")
    p.add_argument("--target-path", action="append", default=[], metavar="DIR",
                   help="extra directory of target description files (also $IREE_DSA_TARGET_PATH)")


def target_compile_flags(args: argparse.Namespace) -> tuple[str, ...]:
    """iree-compile flags for dispatch discovery.

    Every target, the DSA included, drives IREE's llvm-cpu code generation as
    its functional path (a pure-Python package cannot add a HAL backend), so
    dispatch formation is the host's for all of them. The target is still
    looked up, so a misspelt name is an error rather than silently the host.
    """
    from ..errors import InputError
    from ..targets import UnknownTarget, get_target

    try:
        get_target(args.target, search_paths=getattr(args, "target_path", ()))
    except UnknownTarget as e:
        raise InputError(str(e).strip("'\"")) from None
    return HOST_FLAGS
