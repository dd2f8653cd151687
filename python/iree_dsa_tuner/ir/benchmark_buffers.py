"""Dispatch benchmarks whose buffers are written before they are timed.

IREE's dumped dispatch benchmarks (`--iree-hal-dump-executable-benchmarks-to`) allocate one
buffer per dispatch in an initializer and never write it. Untouched pages of that allocation
are the kernel's shared zero page, which stays in cache: a dispatch that reads a large operand
many times then looks far faster alone than in the model. Measured: pi0's prefix FFN GEMM
(134 MB weight, read once per 16-row tile) 0.68-0.70 s alone, 1.86-2.10 s with its buffer
written, about 1.1 s per call in the model on a quieter machine (docs/DATA_TILING.md 7).

`write_buffers_first` adds, after each `hal.allocator.allocate` of an initializer, a call that
fills the new buffer with zeros on the device queue and waits for it. The filler is a template
parsed by the bindings; nothing in the benchmark's own ops changes.
"""

from __future__ import annotations

from iree.compiler import ir

FILL_FUNCTION = "__iree_dsa_write_buffer"

_FILL_TEMPLATE = f"""
util.func private @{FILL_FUNCTION}(%device: !hal.device, %affinity: i64, %buffer: !hal.buffer, %length: index) {{
  %offset = arith.constant 0 : index
  %pattern = arith.constant 0 : i32
  %wait = util.null : !hal.fence
  %done = hal.fence.create device(%device : !hal.device) flags("None") : !hal.fence
  hal.device.queue.fill<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%done)
      target(%buffer : !hal.buffer)[%offset] length(%length) pattern(%pattern : i32) flags("None")
  %forever = arith.constant -1 : i32
  %status = hal.fence.await until([%done]) timeout_millis(%forever) flags("None") : i32
  util.status.check_ok %status, "failed to write a dispatch benchmark's buffer"
  util.return
}}
"""


def _ops(block: ir.Block) -> list:
    return list(block.operations)


def write_buffers_first(module: ir.Module) -> int:
    """Make every initializer of `module` write each buffer it allocates; return how many.

    The device and queue affinity come from the initializer's own `hal.device.resolve`; an
    allocation with no resolve before it in its block is left as it is.
    """
    from iree.compiler.dialects import util

    sites = []
    for op in _ops(module.body):
        if op.operation.name != "util.initializer":
            continue
        for block in op.operation.regions[0].blocks:
            resolved = None
            ops = _ops(block)
            for i, inner in enumerate(ops):
                name = inner.operation.name
                if name == "hal.device.resolve":
                    resolved = inner.operation
                elif name == "hal.allocator.allocate" and resolved is not None and i + 1 < len(ops):
                    sites.append((resolved, inner.operation, ops[i + 1]))
    if not sites:
        return 0
    if FILL_FUNCTION not in {ir.StringAttr(o.operation.attributes["sym_name"]).value
                             for o in _ops(module.body) if "sym_name" in o.operation.attributes}:
        template = ir.Module.parse(_FILL_TEMPLATE)
        fill = _ops(template.body)[0].operation
        fill.detach_from_parent()
        module.body.append(fill)
    for resolved, allocate, after in sites:
        device, affinity = resolved.results[0], resolved.results[1]
        buffer, length = allocate.results[0], allocate.operands[len(allocate.operands) - 1]
        with ir.InsertionPoint(after), allocate.location:
            util.CallOp([], FILL_FUNCTION, [device, affinity, buffer, length])
    return len(sites)


__all__ = ["FILL_FUNCTION", "write_buffers_first"]
