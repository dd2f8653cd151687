"""What every host compile route plans from (`RoutePlanning`), handed to each route's `plan` and
`presets` (the one signature of a route module: `host/routes/__init__.py`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable


@dataclass
class RoutePlanning:
    """The model built plainly for the target, the CPU's description, where the routes' scripts go,
    and the routes planned so far (by module name: a route may depend on another's plan)."""

    plain: object  # ir.ModelArtifacts: the model under the target's flags only
    cpu: object | None  # description.CpuModel (None: the description has no CPU model)
    directory: Path  # the routes' scripts (`cache_root() / "routes"`)
    progress: Callable[[str], None] | None = None
    planned: dict = field(default_factory=dict)  # route module name -> its ir.conv_route.ConvRoute

    def say(self, text: str) -> None:
        if self.progress is not None:
            self.progress(text)

    @cached_property
    def gemms(self) -> list:
        """The GEMMs of the input form, with their real batch: what a route's script meets
        (`k_split.input_gemms`)."""
        from .k_split import input_gemms

        return input_gemms(self.plain.input_text())

    @cached_property
    def linears(self) -> list:
        """The linear layers of the input form written as one-row products against a broadcast
        weight (`register_tiled.broadcast_linears`)."""
        from .register_tiled import broadcast_linears

        return broadcast_linears(self.plain.input_text())

    @cached_property
    def convs(self) -> list:
        """The NCHW convolutions of the input form (`conv_fold.input_convs`)."""
        from .conv_fold import input_convs

        return input_convs(self.plain.input_text())


__all__ = ["RoutePlanning"]
