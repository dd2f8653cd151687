"""A simulated timeline as a Chrome trace (JSON Object Format), which Perfetto and
chrome://tracing open: one process per core, one thread per resource.

Every interval is a complete event (`"ph": "X"`) with `ts`/`dur` in microseconds
(the format's unit); metadata events name the processes and threads so the viewer
shows "core 3" / "mac" instead of bare ids.
"""

from __future__ import annotations

import json

from .eventsim import SimResult

# Thread ids of a core's resources, in the order the viewer lists them.
RESOURCE_TIDS = {"launch": 0, "dma": 1, "mac": 2, "drain": 3}


def chrome_trace(result: SimResult, clock_hz: float, label: str = "") -> dict:
    """The trace document of `result` (simulated with `record=True`)."""
    if result.timeline is None:
        raise ValueError("the simulation kept no timeline (simulate with record=True)")
    us_per_cycle = 1e6 / clock_hz
    events: list[dict] = []
    for core in result.timeline:
        pid = core.core
        events.append({"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": f"core {pid}"}})
        events.append({"name": "process_sort_index", "ph": "M", "pid": pid, "tid": 0, "args": {"sort_index": pid}})
        for resource, tid in RESOURCE_TIDS.items():
            events.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": resource}})
        for iv in core.intervals:
            events.append({
                "name": iv.name, "cat": iv.resource, "ph": "X", "pid": pid, "tid": RESOURCE_TIDS[iv.resource],
                "ts": round(iv.start * us_per_cycle, 6), "dur": round((iv.end - iv.start) * us_per_cycle, 6),
                "args": {"start_cycle": round(iv.start, 3), "cycles": round(iv.end - iv.start, 3), **iv.args},
            })
    return {
        "traceEvents": events,
        "displayTimeUnit": "ns",
        "otherData": {"simulator": "iree_dsa_plugin.eventsim", "problem": label,
                      "total_us": round(result.seconds * 1e6, 6), "cycles": round(result.cycles, 3)},
    }


def write_chrome_trace(path, result: SimResult, clock_hz: float, label: str = "") -> int:
    """Write the trace to `path`; returns the number of complete ("X") events."""
    document = chrome_trace(result, clock_hz, label)
    with open(path, "w") as f:
        json.dump(document, f, indent=1, sort_keys=True)
        f.write("\n")
    return sum(1 for e in document["traceEvents"] if e["ph"] == "X")
