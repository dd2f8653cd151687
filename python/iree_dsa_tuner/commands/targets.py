"""`iree-dsa-tune targets`: list the installed targets and where each comes from."""

from __future__ import annotations

import argparse
import sys

from ..errors import InputError
from ..report import plural
from ..targets import load_catalog
from .common import JSON_TO_STDOUT, add_json_argument, check_json_destination, emit_json, target_search_paths


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "targets",
        help="list installed targets (DSA generations, the host CPU, user description files)",
        description="List every target the tuner can use: those registered through the "
        "`iree_dsa_tuner.targets` entry points (the DSA plugin's built-in descriptions, the host "
        "CPU described from this machine) and description files found in --target-path "
        "directories or $IREE_DSA_TARGET_PATH. Each is shown in its own words: a DSA's MAC array "
        "and scratchpad, a CPU's FMA ports, vector lanes and caches. The host's full-width FMA "
        "ports and vector clock are timed once per CPU by a short FMA loop built with the C "
        "compiler (cached in $IREE_DSA_CACHE_DIR; $IREE_DSA_HOST_FMA_PORTS overrides the ports; "
        "$IREE_DSA_HOST_ISA=avx2 reads and builds for this machine as an AVX2 one); "
        "the source column says where they came from. A description file that fails "
        "the schema is reported with its file and field (one line each on stderr), the others are still "
        "listed, and the exit status is 2, as for every input error (a --target-path that is not a "
        "directory too).",
    )
    p.add_argument("--target-path", action="append", default=[], metavar="DIR",
                   help="extra directory of target description files (also $IREE_DSA_TARGET_PATH)")
    add_json_argument(p, "the full descriptions")
    p.set_defaults(func=run)


def _size(nbytes: int) -> str:
    """48 KiB, 2 MiB, 300 MiB: whole MiB when they are, KiB otherwise."""
    mib = 1 << 20
    return f"{nbytes // mib} MiB" if nbytes >= mib and nbytes % mib == 0 else f"{nbytes // 1024} KiB"


def compute_text(desc) -> str:
    """The compute unit in the target's words: FMA ports and vector lanes, or a MAC array."""
    if desc.is_cpu:
        return f"{plural(desc.cpu.fma_ports, 'FMA port')} x {plural(desc.mac_n, 'f32 lane')}"
    return f"{desc.mac_m}x{desc.mac_n}x{desc.mac_k} MAC array"


def memory_text(desc) -> str:
    """On-chip memory in the target's words: a CPU's caches, a DSA's scratchpad and shared SRAM."""
    if desc.is_cpu:
        cpu = desc.cpu
        text = f"L1d {_size(cpu.l1d_bytes)}, L2 {_size(cpu.l2_bytes)}/core"
        return text + (f", L3 {_size(cpu.l3_bytes)}" if cpu.l3_bytes else "")
    text = f"scratchpad {_size(desc.scratchpad_bytes)}/core"
    return text + (f", {_size(desc.shared_bytes)} shared" if desc.shared_bytes else "")


def run(args: argparse.Namespace) -> int:
    check_json_destination(args)
    catalog = load_catalog(target_search_paths(args))
    targets = sorted(catalog.targets.values(), key=lambda t: (t.kind, t.name))
    if args.json:
        emit_json(args, {
            "targets": [dict(t.describe().to_json(), runners=list(t.runner_names)) for t in targets],
            "errors": [str(e) for e in catalog.errors],
        })
    if args.json != JSON_TO_STDOUT:
        descs = [t.describe() for t in targets]
        compute = [compute_text(d) for d in descs]
        memory = [memory_text(d) for d in descs]
        cw = max([len("compute")] + [len(c) for c in compute])
        mw = max([len("on-chip memory")] + [len(m) for m in memory])
        print(f"{'name':<10} {'kind':<5} {'peak INT8':>11} {'bandwidth':>11} {'cores':>5}  "
              f"{'compute':<{cw}}  {'on-chip memory':<{mw}}  source")
        for d, c, m in zip(descs, compute, memory):
            print(f"{d.name:<10} {d.kind:<5} {d.peak_ops('i8') / 1e12:>7.2f} TOPS {d.dram_bytes_per_s / 1e9:>7.1f} GB/s "
                  f"{d.cores:>5}  {c:<{cw}}  {m:<{mw}}  {d.source}")
        for e in catalog.errors:
            print(f"iree-dsa-tune: error: {e}", file=sys.stderr)
    return InputError.exit_code if catalog.errors else 0
