"""The batch-1 convolution route: compile flags under which a batch-1 conv becomes tunable.

IREE 3.13 folds a convolution's unit batch away before configuration and rebuilds the op
(InsertBatchDimForBatchlessConvPass) after a tuning spec has set its config, so the config
is lost (docs/CONV.md). Two whole-model rewrites turn such a conv into contractions whose
configs survive:

- 2-D (patch embeddings): `--iree-global-opt-use-im2col-for-convs`, IREE's own im2col
  (an im2col dispatch plus one `linalg.matmul`). It rewrites every 2-D conv of the model.
- 1-D (temporal convs): IREE has no im2col for them on llvm-cpu (the linalg_ext im2col op has
  no CPU lowering in 3.13). Instead a preprocessing transform script
  (`--iree-preprocessing-transform-spec-filename=FILE`) tiles each batch-1
  `linalg.conv_1d_nwc_wcf` / `conv_1d_ncw_fcw` over its kernel taps and unrolls the taps:
  one `matmul_like` dispatch per tap (IREE sums the partial products in the last one). Only
  batch-1 1-D convs with the kernel widths this model has are matched; others stay as they are.

Both are compile flags, so a spec tuned under them is only valid together with them: `tune`
reports them (output, JSON, the spec's header) and `verify` reads them back from the header.
"""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ..core.problems import ConvolutionProblem, Problem

from ..flags import IM2COL_FLAG, TRANSFORM_FLAG
TAPS_FILE_SUFFIX = ".conv1d-taps.mlir"

# Named 1-D convs the taps script matches: loop index of the batch and of the kernel window.
_CONV1D_OPS = {"linalg.conv_1d_nwc_wcf": (0, 3, 5), "linalg.conv_1d_ncw_fcw": (0, 4, 5)}


def is_batch1_conv(problem: Problem) -> bool:
    """A convolution whose unit batch IREE folded away (the dispatch shows no batch loop)."""
    return (isinstance(problem, ConvolutionProblem) and not problem.dim_groups.get("batch")
            and not problem.dim_groups.get("depth") and bool(problem.dim_groups.get("input_channel")))


def conv_rank(problem: ConvolutionProblem) -> int:
    return len(problem.dim_groups.get("output_image", ()))


def taps_transform_text(widths: list[int]) -> str:
    """The preprocessing transform script for batch-1 1-D convs with these kernel widths."""
    lines, pairs = taps_script_parts(widths)
    return "\n".join(["// Batch-1 1-D convolutions -> one matmul per kernel tap (iree-dsa-tune, docs/CONV.md).",
                      "// Use with: iree-compile --iree-preprocessing-transform-spec-filename=THIS_FILE ...",
                      "module attributes {transform.with_named_sequence} {", *lines]
                     + foreach_match_main(pairs, "taps")) + "\n"


def taps_script_parts(widths: list[int]) -> tuple[list[str], list[str]]:
    """(named sequences, names N of their `@match_N` -> `@taps_N` pairs) that split each batch-1 1-D
    conv with one of these kernel widths into its taps."""
    widths = sorted(set(int(w) for w in widths))
    lines: list[str] = []
    pairs = []
    for op, (batch, window, loops) in _CONV1D_OPS.items():
        short = op.split(".")[1]
        for w in widths:
            name = f"{short}_k{w}"
            pairs.append(name)
            tiles = ", ".join("1" if i == window else "0" for i in range(loops))
            lines += [
                f"  transform.named_sequence @match_{name}(%op: !transform.any_op {{transform.readonly}}) -> !transform.any_op {{",
                f"    transform.match.operation_name %op [\"{op}\"] : !transform.any_op",
                "    %m = transform.match.structured %op : (!transform.any_op) -> !transform.any_op {",
                "    ^bb0(%s: !transform.any_op):",
                f"      %n = transform.match.structured.dim %s[{batch}] : (!transform.any_op) -> !transform.param<i64>",
                f"      %k = transform.match.structured.dim %s[{window}] : (!transform.any_op) -> !transform.param<i64>",
                "      %one = transform.param.constant 1 : i64 -> !transform.param<i64>",
                f"      %width = transform.param.constant {w} : i64 -> !transform.param<i64>",
                "      transform.match.param.cmpi eq %n, %one : !transform.param<i64>",
                "      transform.match.param.cmpi eq %k, %width : !transform.param<i64>",
                "      transform.match.structured.yield %s : !transform.any_op",
                "    }",
                "    transform.yield %m : !transform.any_op",
                "  }",
                f"  transform.named_sequence @taps_{name}(%op: !transform.any_op {{transform.consumed}}) {{",
                f"    %tap, %loop = transform.structured.tile_using_for %op tile_sizes [{tiles}]"
                " : (!transform.any_op) -> (!transform.any_op, !transform.op<\"scf.for\">)",
            ]
            if w > 1:  # unrolled: static slices, so IREE dumps a benchmark per dispatch
                lines.append(f"    transform.loop.unroll %loop factor = {w} : !transform.op<\"scf.for\">")
            lines += ["    transform.yield", "  }"]
    return lines, pairs


def dim_is(loop: int, extent: int, cmp: str = "eq") -> list[str]:
    """Lines of a structured matcher's body: loop `loop`'s extent compared (`cmp`) with `extent`."""
    return [f"      %d{loop} = transform.match.structured.dim %s[{loop}] : (!transform.any_op) -> !transform.param<i64>",
            f"      %e{loop} = transform.param.constant {extent} : i64 -> !transform.param<i64>",
            f"      transform.match.param.cmpi {cmp} %d{loop}, %e{loop} : !transform.param<i64>"]


def structured_matcher(name: str, op: str | None, body: list[str], after: list[str] = ()) -> list[str]:
    """A preprocessing script's `@match_NAME`: an `op` (None: any structured op) whose structured
    body lines `body` accept, and for which the lines `after` (on the handle `%op`) succeed."""
    return [f"  transform.named_sequence @match_{name}(%op: !transform.any_op {{transform.readonly}}) -> !transform.any_op {{",
            *([f"    transform.match.operation_name %op [\"{op}\"] : !transform.any_op"] if op else []),
            "    %m = transform.match.structured %op : (!transform.any_op) -> !transform.any_op {",
            "    ^bb0(%s: !transform.any_op):",
            *body,
            "      transform.match.structured.yield %s : !transform.any_op",
            "    }",
            *after,
            "    transform.yield %m : !transform.any_op",
            "  }"]


def dag_matcher(name: str, arguments: str, body: list[str]) -> list[str]:
    """A preprocessing script's `@match_NAME`: the ops cast-compatible with the DAG `body` (lines of
    ops over the block `arguments`, its root last); it yields the DAG's inputs and its root's result,
    what `inline_call_action` takes."""
    return [f"  transform.named_sequence @match_{name}(%root: !transform.any_op {{transform.readonly}})"
            " -> (!transform.any_value, !transform.any_value) {",
            "    %ins, %out = transform.iree.match.cast_compatible_dag_from_root %root {",
            f"    ^bb0({arguments}):",
            *body,
            "    } : (!transform.any_op) -> (!transform.any_value, !transform.any_value)",
            "    transform.yield %ins, %out : !transform.any_value, !transform.any_value",
            "  }"]


def inline_call_action(name: str) -> list[str]:
    """`@fold_NAME_here`: the op whose result a matcher yielded (`%out`, from the operands `%ins`)
    replaced by its inlined `@fold_NAME` function, imported from the script."""
    return [
        f"  transform.named_sequence @fold_{name}_here(%ins: !transform.any_value {{transform.readonly}},"
        " %out: !transform.any_value {transform.readonly}) {",
        "    %conv = transform.get_defining_op %out : (!transform.any_value) -> !transform.any_op",
        "    %module = transform.util.get_nearest_symbol_table %conv : (!transform.any_op) -> !transform.any_op",
        f"    %fold = transform.util.import_symbol @fold_{name} into %module if undefined"
        " : (!transform.any_op) -> !transform.any_op",
        # Inlined: behind a call a weight is an argument, and IREE would repack it on every run.
        "    transform.util.cast_and_call inline_call %fold(%ins) -> %out after %conv {",
        "    } : (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) -> ()",
        "    transform.yield",
        "  }",
    ]


def inline_replacements_entry(pairs: list[str], handle: str = "%module") -> list[str]:
    """The start of a script's entry on the module `handle`: in each function, every matcher's op
    replaced (`pairs`: "@match_X -> @action_X"), and the replaced ops dropped, dead."""
    return [f"  transform.named_sequence @__transform_main({handle}: !transform.any_op {{transform.consumed}}) {{",
            f"    %funcs = transform.structured.match ops{{[\"util.func\", \"func.func\"]}} in {handle}"
            " : (!transform.any_op) -> !transform.any_op",
            "    transform.foreach %funcs : !transform.any_op {",
            "    ^bb0(%func: !transform.any_op):",
            f"      %folded = transform.foreach_match in %func {', '.join(pairs)} : (!transform.any_op) -> !transform.any_op",
            "    }",
            f"    transform.apply_dce to {handle} : !transform.any_op"]


def inline_replacements_end() -> list[str]:
    """The end of an entry begun by `inline_replacements_entry`, and of its module: the inlined
    functions dropped (dead, but IREE would compile them too)."""
    return ["    %pruned = transform.apply_registered_pass \"symbol-dce\" to %module : (!transform.any_op) -> !transform.any_op",
            "    transform.yield",
            "  }",
            "}"]


def inline_replacements_script(header: list[str], sequences: list[str], pairs: list[str]) -> str:
    """A whole preprocessing script: `header` comment lines, the named `sequences`, and an entry that
    replaces each matcher's op in every function (`pairs`, `inline_replacements_entry`)."""
    return "\n".join([*header, "module attributes {transform.with_named_sequence} {", *sequences,
                      *inline_replacements_entry(pairs), *inline_replacements_end()]) + "\n"


def foreach_match_main(names: list[str], action: str) -> list[str]:
    """A preprocessing script's entry and the module's end: each `@match_NAME` -> `@ACTION_NAME`."""
    lines = ["  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {",
             "    %r = transform.foreach_match in %root"]
    lines += [f"        @match_{n} -> @{action}_{n}" + ("," if i + 1 < len(names) else "") for i, n in enumerate(names)]
    return lines + ["      : (!transform.any_op) -> !transform.any_op", "    transform.yield", "  }", "}"]


def verified_script(text: str, what: str) -> str:
    """A preprocessing transform script parsed and verified by the MLIR bindings, as they print it
    (with its header comment): a template slip fails here, not inside iree-compile."""
    from iree.compiler import ir

    header = "".join(line + "\n" for line in text.splitlines() if line.startswith("//"))
    with ir.Context():
        module = ir.Module.parse(text)
        if not module.operation.verify():
            raise ValueError(f"the {what} script does not verify")
        return header + module.operation.get_asm(use_local_scope=True) + "\n"


def verified_taps_script(widths: list[int]) -> str:
    return verified_script(taps_transform_text(widths), "conv1d taps")


# Each route's script, by the file-name prefix it is cached under -> the suffix it takes beside a
# spec (`user_flags`).
SCRIPT_SUFFIXES = {"conv1d-taps-": TAPS_FILE_SUFFIX, "k-split-": ".k-split.mlir", "unbatch-": ".unbatch.mlir",
                   "conv-fold-": ".conv-fold.mlir", "winograd-": ".winograd.mlir",
                   "register-tiled-": ".register-tiled.mlir", "packed-taps-": ".packed-taps.mlir"}


def script_file(text: str, directory: Path, prefix: str) -> Path:
    """`text` in `directory`, content-addressed (so the flag naming it also names its content)."""
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    path = directory / f"{prefix}{digest}.mlir"
    if not path.exists():
        directory.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(path)
    return path


def _taps_file(widths: list[int], directory: Path) -> Path:
    return script_file(verified_taps_script(widths), directory, "conv1d-taps-")


@dataclass
class ConvRoute:
    """The flags that make some of a model's dispatches tunable, and what they are for (a compile
    route: the batch-1 conv route here, the INT4 dequantisation fusion in `ir.artifacts`)."""

    flags: tuple[str, ...] = ()  # as compiled here (the script in the cache)
    dispatches: tuple[str, ...] = ()  # the dispatches of the plain model the route is for
    notes: list[str] = field(default_factory=list)
    what: str = "batch-1 convolution route (docs/CONV.md)"
    key: str = "conv_route"  # its entry in `tune --json`

    def __bool__(self) -> bool:
        return bool(self.flags)

    def to_json(self) -> dict:
        return {"route": self.what, "flags": list(self.flags), "for_dispatches": list(self.dispatches),
                "notes": self.notes}


def plan_route(convs: list[ConvolutionProblem], directory: Path, extra_flags: tuple[str, ...] = ()) -> ConvRoute:
    """The route for these refused batch-1 convs (`ModelArtifacts.batch1_convs`); empty: nothing to do."""
    route = ConvRoute(dispatches=tuple(p.dispatch for p in convs))
    if not convs:
        return route
    flags: list[str] = []
    if any(conv_rank(p) == 2 for p in convs):
        flags.append(IM2COL_FLAG)
    widths = tap_widths(convs)
    if widths:
        if any(f.startswith(TRANSFORM_FLAG) for f in extra_flags):
            route.notes.append(f"the 1-D conv route needs {TRANSFORM_FLAG}, which the given flags already set")
        else:
            flags.append(f"{TRANSFORM_FLAG}={_taps_file(widths, directory)}")
    route.flags = tuple(f for f in flags if f not in extra_flags)
    return route


def tap_widths(convs: list[ConvolutionProblem]) -> list[int]:
    """The kernel widths of the 1-D convs among `convs` (what the tap split matches them by)."""
    return [p.loop_sizes[p.dim_groups["filter_loop"][0]] for p in convs if conv_rank(p) == 1]


def manual_hint(problem: ConvolutionProblem) -> str:
    """What to pass by hand to tune such a conv (the refusal says it)."""
    if problem.dim_groups.get("depth") or not problem.dim_groups.get("input_channel"):
        return "no route for depthwise/pooling convs in IREE 3.13 (docs/CONV.md)"
    routed = "`tune` routes it on a DSA target and in the host recipe (not with --no-recipe)"
    if conv_rank(problem) == 2:
        return f"{routed}; by hand pass --iree-flag={IM2COL_FLAG}"
    return (f"{routed}; by hand pass --iree-flag={TRANSFORM_FLAG}=FILE with the kernel-tap script "
            "`iree-dsa-tune tune` writes beside its spec (docs/CONV.md)")


def user_flags(flags: tuple[str, ...], spec_output: Path) -> tuple[str, ...]:
    """`flags` with a route's transform script (taps or K split) copied beside `spec_output` and
    named there (absolute path)."""
    out = []
    for f in flags:
        if f.startswith(TRANSFORM_FLAG + "="):
            source = Path(f.split("=", 1)[1])
            suffix = next((s for prefix, s in SCRIPT_SUFFIXES.items() if source.name.startswith(prefix)), None)
            if suffix is not None:
                dest = spec_output.with_name(spec_output.stem + suffix).resolve()
                if source.resolve() != dest:
                    shutil.copyfile(source, dest)
                f = f"{TRANSFORM_FLAG}={dest}"
        out.append(f)
    return tuple(out)
