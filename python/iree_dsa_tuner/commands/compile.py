"""`iree-dsa-tune compile`: build a model with the recipe `tune --target host` wrote for it."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from ..report.table import check_writable


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "compile",
        help="build a model with a tuning recipe (whole-model flags + spec) into a .vmfb",
        description="Compile MODEL for the host with RECIPE (written beside the spec by `tune --target host`): "
        "its whole-model flags (data tiling, ukernels, ...) and its tuning spec, if it kept one. The recipe "
        "is refused for a model whose bytes differ from the one it was tuned on. --print shows the plain "
        "iree-compile command line instead of running it.",
    )
    p.add_argument("model", metavar="MODEL.mlir")
    p.add_argument("--recipe", required=True, metavar="RECIPE.toml")
    p.add_argument("-o", "--output", metavar="MODULE.vmfb", help="where the module goes (required unless --print)")
    p.add_argument("--print", action="store_true", help="print the equivalent iree-compile command and exit")
    p.add_argument("--parameters", action="append", default=[], metavar="[SCOPE=]FILE.irpa",
                   help="a parameter archive the module will run with (repeatable): checked against the model's "
                        "parameter globals before compiling, and named in the run line printed after (the module "
                        "itself does not hold it; iree-run-module needs the same --parameters)")
    p.set_defaults(func=run)


def command_line(model: str, recipe, output: str) -> list[str]:
    from ..flags import HOST_FLAGS, with_target_cpu

    return ["iree-compile", *with_target_cpu(HOST_FLAGS, recipe.target_cpu), *recipe.compile_flags(), model,
            "-o", output]


def run(args: argparse.Namespace) -> int:
    from ..compiler import check_input_file, compile_to_vmfb
    from ..flags import HOST_FLAGS, with_target_cpu
    from ..errors import InputError
    from ..recipe import load_recipe
    from .common import recipe_device

    from ..parameters import read_model_parameters, resolve_parameters

    check_input_file(args.model)
    recipe = load_recipe(args.recipe)
    recipe.check_model(args.model)
    if note := recipe.machine_note():  # timed on another CPU: its choice may not be this one's
        print(note, file=sys.stderr)
    parameters = resolve_parameters(args.model, args.parameters) if args.parameters else None
    if args.print:
        print(shlex.join(command_line(args.model, recipe, args.output or "model.vmfb")))
        return 0
    if not args.output:
        raise InputError("-o MODULE.vmfb is required (or --print)")
    check_writable(args.output)
    target_flags = with_target_cpu(HOST_FLAGS, recipe.target_cpu)
    compile_to_vmfb(args.model, Path(args.output), extra_flags=recipe.compile_flags(), target_flags=target_flags)
    print(f"module: {args.output} ({' '.join(recipe.compile_flags()) or 'IREE defaults'})")
    weights = list(parameters.globals) if parameters is not None else read_model_parameters(args.model)
    device = recipe_device(recipe)  # a recipe tuned with `tune --threads N` runs on N workers
    if device and not weights:
        print(f"run with: iree-run-module --module={args.output} {device}... (the recipe was tuned on "
              f"{recipe.threads} threads)")
    if weights:
        if parameters is not None:
            flags = " ".join(parameters.runtime_flags())
        elif recipe.parameters.get("files"):
            flags = " ".join(f"--parameters={f}" for f in recipe.parameter_files())
        else:
            scopes = dict.fromkeys(p.scope for p in weights)
            flags = " ".join(f"--parameters={s + '=' if s else ''}FILE.irpa" for s in scopes)
        timed = recipe.parameters_text()
        print(f"run with: iree-run-module --module={args.output} {device}{flags} ..."
              + (f" (the recipe was timed with {timed}" + (f", on {recipe.threads} threads)" if device else ")")
                 if timed else f" (the recipe was tuned on {recipe.threads} threads)" if device else ""))
    return 0
