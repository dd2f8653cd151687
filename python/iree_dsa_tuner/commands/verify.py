"""`iree-dsa-tune verify`: prove IREE applies a spec and numerics still match."""

from __future__ import annotations

import argparse
import sys

from ..errors import InputError
from ..flags import check_iree_flags
from ..report import format_table
from ..tuning_spec.verify import verify_spec
from .common import (JSON_TO_STDOUT, add_json_argument, add_parameters_argument, add_target_argument,
                     check_json_destination, emit_json, human_output, model_parameters, target_compile_flags)


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "verify",
        help="check a spec is applied by iree-compile and numerics match",
        description="Compile MODEL with --iree-codegen-tuning-spec-path=SPEC and read every configured "
        "dispatch. Each matcher's root op is `applied` (exactly the spec's lowering_config and "
        "translation_info), `not-applied` (IREE kept its default: the silent traps), or `failed` "
        "(compile error). Then run the module on seeded random inputs and compare with the same "
        "model evaluated in float64 numpy from its linalg form (where that cannot evaluate a function, each "
        "dispatch the spec configures is checked alone: its root op compiled with the spec against a numpy "
        "model of it, reference `numpy-root-op`; IREE's default build is never the reference), integers "
        "exact, floats within a dtype tolerance. A function off in the tuned build that IREE's own build "
        "(no spec) gets about as wrong against numpy (IREE 3.13's CPU attention on a 256-wide head; a "
        "model that quantises at run time, where f32 rounds some codes differently from float64) says "
        "nothing of the spec: it is reported not judged, with both errors, and the spec's dispatches are "
        "checked alone. "
        "A function that returns nothing (an e2e test asserting with check.expect_*) is reported "
        "'not checked', never as a match. Exit 0 only when every op is applied, at least one output "
        "was compared, and none differs (--no-numerics: application only).",
    )
    p.add_argument("model", metavar="MODEL.mlir")
    p.add_argument("spec", metavar="SPEC.mlir", nargs="?",
                   help="the tuning spec (optional with --recipe, which names its own)")
    p.add_argument("--recipe", metavar="RECIPE.toml",
                   help="verify the build a recipe makes (its flags and its spec) against numpy")
    add_json_argument(p, "the report")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    p.add_argument("--no-numerics", action="store_true", help="check application only")
    p.add_argument("--iree-flag", action="append", default=[], metavar="FLAG",
                   help="one more iree-compile flag to build with (repeatable); the flags a spec's header names "
                        "(`// iree-dsa-tune: flags: ...`, written by tune, e.g. the batch-1 conv route) are added "
                        "without asking")
    add_target_argument(p)
    add_parameters_argument(p, "the model (the module and the numpy reference alike)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_json_destination(args)
    extra_flags: tuple[str, ...] = ()
    spec = args.spec
    if args.recipe:
        from ..recipe import load_recipe

        recipe = load_recipe(args.recipe)
        recipe.check_model(args.model)
        if note := recipe.machine_note():  # timed on another CPU: its choice may not be this one's
            print(note, file=sys.stderr)
        if spec is not None and recipe.spec_path() is not None:
            raise InputError("give the spec either as SPEC.mlir or through --recipe, not both")
        spec = spec or recipe.spec_path()
        extra_flags = recipe.build_flags()  # a script stored by name beside the recipe, resolved there
        if not args.parameters and recipe.parameters.get("files"):
            args.parameters = recipe.recorded_parameters()  # the archives the recipe was timed with
    elif spec is None:
        raise InputError("a SPEC.mlir to verify is required (or --recipe RECIPE.toml)")
    check_iree_flags(args.iree_flag)
    header: tuple[str, ...] = ()
    if spec is not None:
        from pathlib import Path

        from ..flags import not_set_by, read_flags_header

        try:
            # A recipe's own flags win over the header's for the same option (its copy of a
            # route's script rather than the path the spec was tuned with).
            header = not_set_by(read_flags_header(Path(spec).read_text(), Path(spec).parent), extra_flags)
        except (OSError, UnicodeDecodeError):
            header = ()  # verify_spec reports an unreadable spec
    # The recipe's flags, the header's and the user's: the spec matches the dispatches all of them
    # make, so the model is discovered under them too (a recipe on the data-tiling path has mmt4d
    # dispatches that the plain model does not).
    model_flags = tuple(dict.fromkeys(extra_flags + header + tuple(args.iree_flag)))
    if header:
        print(f"compile flags from the spec's header: {' '.join(header)}", file=human_output(args))
    target_flags = target_compile_flags(args)
    # Checked before any compile; random ones from --seed only when numerics will run.
    parameters = (model_parameters(args, args.model, seed=args.seed) if not args.no_numerics or args.parameters
                  else None)
    artifacts = None
    if model_flags:
        # The spec matches the dispatches these flags make: discovery and the tuned build use them;
        # the numerical reference is the model as given (a route must not change the results).
        from ..ir import compile_model

        artifacts = compile_model(args.model, target_flags + model_flags)
        artifacts.reference_flags = target_flags
    report = verify_spec(args.model, spec, target_flags=target_flags, artifacts=artifacts,
                         check_numerics=not args.no_numerics, seed=args.seed, parameters=parameters)
    if args.json:
        emit_json(args, report.to_json())
    if args.json != JSON_TO_STDOUT:
        if report.compile_error:
            print(f"compile failed: {report.compile_error}")
        rows = [[v.dispatch or "-", v.status, v.reason or v.actual_lowering_config or ""] for v in report.ops]
        print(format_table(["dispatch", "status", "detail"], rows))
        if report.parameters_text:
            print(report.parameters_text)
        for n in report.numerics:
            if not n.checked:
                print(f"numerics {n.function}: not checked ({n.detail})")
                continue
            verdict = "match" if n.ok else "MISMATCH"
            print(f"numerics {n.function} output {n.output} ({n.element_type}): {verdict}, "
                  f"max err {n.max_error:.3g} (tolerance {n.tolerance:.3g}) vs {n.reference or '-'} {n.detail}".rstrip())
        applied = sum(v.status == "applied" for v in report.ops)
        unchecked = report.numerics_checked and not any(n.checked for n in report.numerics)
        verdict = "OK" if report.ok else ("numerics NOT CHECKED" if unchecked and not report.numerics_mismatch
                                          and applied == len(report.ops) else "FAILED")
        print(f"\n{applied}/{len(report.ops)} applied; {verdict}" if report.spec
              else f"\nthe recipe's build (no spec): {verdict}")
    if not report.ok:
        bad = [v for v in report.ops if v.status != "applied"]
        for v in bad:
            print(f"iree-dsa-tune: {v.status}: {v.dispatch or v.matcher}: {v.reason}", file=sys.stderr)
        for n in report.numerics:
            if n.checked and not n.ok:
                print(f"iree-dsa-tune: numerics mismatch: {n.describe()}", file=sys.stderr)
        if report.numerics_checked and not any(n.checked for n in report.numerics):
            print("iree-dsa-tune: numerics not checked: no output of the model could be compared (the 'not checked' "
                  "lines say why; --no-numerics checks application only)", file=sys.stderr)
    return 0 if report.ok else 1
