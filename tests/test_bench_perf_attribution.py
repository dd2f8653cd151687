"""bench/perf_attribution.py: perf's samples in IREE's memory-loaded library go to the dispatch
function whose code holds them (perf has no symbols for it; the dumped library's `nm` does)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _bench():
    sys.path.insert(0, str(REPO / "bench"))
    spec = importlib.util.spec_from_file_location("perf_attribution", REPO / "bench" / "perf_attribution.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REPORT = """\
# Overhead  Samples  Shared Object              Symbol
# ........  .......  .........................  ......
#
    15.36%     3634  iree_dylib_mRhWGM_mem_.so  [.] 0x000000000000adc7
    14.94%     3562  iree_dylib_mRhWGM_mem_.so  [.] 0x00000000000099f7
     3.35%      800  iree_dylib_mRhWGM_mem_.so  [.] 0x000000000000adce
     2.40%      573  [kernel.kallsyms]          [k] exc_page_fault
     1.00%      240  iree_dylib_mRhWGM_mem_.so  [.] 0x0000000000000100
     0.50%      120  libc.so.6                  [.] memcpy
"""
SYMBOLS = [(0x200, "_initializer_1_dispatch_0_transpose_16x16_f32"),
           (0x9000, "main$async_dispatch_22_matmul_f32"),
           (0xa000, "main$async_dispatch_24_matmul_f32")]


def test_samples_go_to_the_dispatch_whose_code_holds_them():
    counts = _bench().attribute(REPORT, SYMBOLS)
    assert counts["main$async_dispatch_24_matmul_f32"] == 3634 + 800
    assert counts["main$async_dispatch_22_matmul_f32"] == 3562
    assert counts["[kernel]"] == 573 and counts["[libc.so.6]"] == 120
    # Below the first dispatch function: code of the library that is no dispatch.
    assert counts["<dispatch code>"] == 240
    assert sum(counts.values()) == 3634 + 3562 + 800 + 573 + 240 + 120
