"""Progress as the command line shows it: a live bar on a terminal, a few summary lines elsewhere.

`search.progress.ProgressPrinter` draws the bar on a terminal. Off a terminal (a pipe, a CI
log, a file) one line per measurement is noise: `ProgressDisplay` keeps each dispatch's
latest measurement and writes it once, when that dispatch's search ends (the next
dispatch starts, another line is said, or the display closes), plus a heartbeat line while
a search runs longer than `heartbeat_s`, so a log still shows that a long search is alive.
"""

from __future__ import annotations

import time
from typing import TextIO

from ..search.progress import Measured, ProgressPrinter

HEARTBEAT_S = 60.0


class ProgressDisplay(ProgressPrinter):
    """`ProgressPrinter` whose plain-text form is one summary line per dispatch's search."""

    def __init__(self, stream: TextIO | None = None, heartbeat_s: float = HEARTBEAT_S, clock=time.monotonic):
        super().__init__(stream)
        self.heartbeat_s = heartbeat_s
        self._clock = clock
        self._pending: Measured | None = None  # the latest measurement not yet written
        self._last_line = clock()

    def __call__(self, text: str) -> None:
        self._flush()
        super().__call__(text)
        self._last_line = self._clock()

    def measured(self, event: Measured) -> None:
        if self.interactive:
            super().measured(event)
            return
        if self._pending is not None and self._pending.dispatch != event.dispatch:
            self._flush()
        self._pending = event
        if event.done >= event.budget or self._clock() - self._last_line >= self.heartbeat_s:
            self._flush()

    def _flush(self) -> None:
        event, self._pending = self._pending, None
        if event is not None:
            print(event.line(), file=self.stream, flush=True)
            self._last_line = self._clock()

    def close(self) -> None:
        self._flush()
        super().close()


__all__ = ["HEARTBEAT_S", "ProgressDisplay"]
