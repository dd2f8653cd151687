"""This machine run as a narrower x86-64 ISA level: `IREE_DSA_HOST_ISA=avx2`.

An AVX-512 machine is not an AVX2 one, but the difference that broke the suite and the recipes
before was the ISA the tuner reads and compiles for: vector bytes and registers in the host's
description, the vector sizes a spec carries, the ISA a recipe says it was tuned on. With the
variable set, every host reading this process makes is capped at that level:

- the CPU flags (`capped_flags`): the wider extensions (AVX-512, AMX, AVX-VNNI, ...) are dropped,
  so the host's description has 32-byte vectors and 16 registers, and `host_vector_isa()` says
  avx2;
- the CPU IREE compiles for (`host_target_cpu`): not `host` (IREE takes no feature list beside
  it), but the psABI level LLVM names as a CPU, `x86-64-v3` (AVX, AVX2, FMA, F16C, BMI1/2), whose
  code runs on any CPU at that level or above.

What it is not: an AVX2 machine's caches, ports and clock. Timings under the cap are this
machine's running AVX2 code, and every figure made so says so.
"""

from __future__ import annotations

import os

from ..errors import InputError

HOST_ISA_ENV = "IREE_DSA_HOST_ISA"
# Each level: the LLVM CPU naming it, and the flags (as /proc/cpuinfo spells them) a CPU must
# have to run its code.
LEVELS = {"avx2": ("x86-64-v3", frozenset({"avx", "avx2", "fma", "f16c", "bmi1", "bmi2", "movbe"}))}
# Flag prefixes of the extensions above AVX2, dropped under the cap.
_ABOVE_AVX2 = ("avx512", "avx10", "amx", "avx_vnni", "avx_ifma", "avx_ne_convert", "avx_vnni_int")


def host_isa_cap() -> str | None:
    """The level `IREE_DSA_HOST_ISA` caps this process's host readings at, or None (not set).
    Any other value is a one-line InputError."""
    value = os.environ.get(HOST_ISA_ENV, "").strip().lower()
    if not value:
        return None
    if value not in LEVELS:
        raise InputError(f"${HOST_ISA_ENV}={value!r}: expected one of {', '.join(sorted(LEVELS))} "
                         "(or unset it to use this CPU's widest ISA)")
    return value


def capped_flags(flags: set[str]) -> set[str]:
    """`flags` (a CPU's, as /proc/cpuinfo spells them) without the extensions above the cap; all
    of them when there is no cap. A CPU that cannot run the capped level's code is an InputError."""
    cap = host_isa_cap()
    if cap is None:
        return set(flags)
    missing = LEVELS[cap][1] - set(flags)
    if missing:
        raise InputError(f"${HOST_ISA_ENV}={cap}: this CPU cannot run {LEVELS[cap][0]} code "
                         f"(it lacks {', '.join(sorted(missing))})")
    return {f for f in flags if not f.startswith(_ABOVE_AVX2)}


def host_target_cpu() -> str:
    """--iree-llvmcpu-target-cpu for code that runs on this machine: `host`, or the capped level's
    LLVM CPU."""
    cap = host_isa_cap()
    return "host" if cap is None else LEVELS[cap][0]


def is_this_cpu(target_cpu: str) -> bool:
    """Whether code for `target_cpu` is what this machine's host readings compile (its timings are
    this machine's, not portable): `host`, or the level this process is capped at."""
    return target_cpu in ("host", host_target_cpu())


def may_be_a_host(target_cpu: str) -> bool:
    """Whether a recipe compiled for `target_cpu` may have been timed as some machine's host: `host`,
    or a level a cap names (a recipe tuned under $IREE_DSA_HOST_ISA)."""
    return target_cpu == "host" or target_cpu in {cpu for cpu, _ in LEVELS.values()}


def cap_note() -> str:
    """' (capped at avx2 by $IREE_DSA_HOST_ISA)' under a cap, else ''."""
    cap = host_isa_cap()
    return f" (capped at {cap} by ${HOST_ISA_ENV})" if cap else ""


__all__ = ["HOST_ISA_ENV", "LEVELS", "cap_note", "capped_flags", "host_isa_cap", "host_target_cpu", "is_this_cpu",
           "may_be_a_host"]
