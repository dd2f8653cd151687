"""The batch-1 convolution route on the host: a batch-1 conv IREE's discovery refuses is tunable
only under the route's flags (ir/conv_route.py, docs/CONV.md; IREE 3.13's route is im2col), so
they compete as presets, alone and with either data-tiling path. On a DSA the same route is
always taken (`ir.artifacts.take_routes`); here the whole model's timing decides."""

from __future__ import annotations

from ... import flags
from ...ir.artifacts import route_batch1_convs


# Where this route stands among the host's routes (host/routes/__init__.py): planned,
# then its presets timed, each in rank order.
PLAN_RANK = 10
PRESET_RANK = 10


def plan(planning):
    """The route for the model's refused batch-1 convolutions (falsy when there is none)."""
    _, route = route_batch1_convs(planning.plain, say=planning.progress)
    return route


def presets(route, planning) -> dict[str, tuple[str, ...]]:
    return route_presets(route.flags)


def route_presets(route_flags: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The presets a batch-1 conv route adds (docs/CONV.md): its flags alone and with either
    data-tiling path (the UNet's 1-D conv taps build only with the global one)."""
    return {"conv-route": tuple(route_flags),
            "conv-route+dt": tuple(route_flags) + (flags.DATA_TILING_FLAG,),
            "conv-route+gdt": tuple(route_flags) + (flags.GLOBAL_DATA_TILING_FLAG,)}


__all__ = ["plan", "presets", "route_presets"]
