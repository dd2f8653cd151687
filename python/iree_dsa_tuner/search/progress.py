"""Search progress for a person: a tqdm bar on a terminal, plain lines anywhere else.

The search reports each measurement as a `Measured` event; everything else is a
line of text. A `progress` callable (what `tune`, `task` and the pipeline take)
that also has a `measured(event)` method gets the events (`ProgressPrinter`
does); a plain callable (`print`, `list.append`) gets `event.line()`, the same
line a log file or CI shows.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import TextIO

# tqdm's own fields: measured/budget, elapsed<left (the ETA), then ", best so far ..., default ...".
BAR_FORMAT = "{desc}: {bar} {n_fmt}/{total_fmt} measured [{elapsed}<{remaining}{postfix}]"


@dataclass(frozen=True)
class Measured:
    """One measurement of a dispatch's search is done."""

    dispatch: str
    done: int  # measurements of this dispatch so far, this one included
    budget: int
    best_us: float | None  # the best so far, IREE's default included (never goes up)
    default_us: float | None
    seconds_left: float  # at the rate so far, for the rest of the budget

    def line(self) -> str:
        eta = f", about {self.seconds_left:.0f} s left" if self.seconds_left >= 1 else ""
        best = f", best so far {self.best_us:.1f} us" if self.best_us is not None else ""
        default = f" (default {self.default_us:.1f} us)" if self.default_us else ""
        return f"    measured {self.done}/{self.budget}{best}{default}{eta}"

    def postfix(self) -> str:
        best = f"best so far {self.best_us:.1f} us" if self.best_us is not None else "nothing measured yet"
        default = f", default {self.default_us:.1f} us" if self.default_us else ""
        return best + default


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


class ProgressPrinter:
    """Prints search progress to `stream` (stderr): a bar per dispatch on a TTY, else lines.

    Use as the `progress` callable; `close()` (or `with`) ends the last bar.
    """

    def __init__(self, stream: TextIO | None = None):
        self.stream = stream if stream is not None else sys.stderr
        self.interactive = _is_terminal(self.stream)
        self._bar = None
        self._dispatch: str | None = None

    def __call__(self, text: str) -> None:
        # A line ends the bar above it (left on screen, finished), so lines and bars keep their order.
        self._end_bar()
        print(text, file=self.stream, flush=True)

    def measured(self, event: Measured) -> None:
        if not self.interactive:
            self(event.line())
            return
        if self._bar is None or self._dispatch != event.dispatch:
            self._end_bar()
            from tqdm import tqdm  # only a terminal needs it

            self._bar = tqdm(total=event.budget, initial=event.done - 1, desc=_short(event.dispatch),
                             file=self.stream, bar_format=BAR_FORMAT, leave=True, dynamic_ncols=True,
                             mininterval=0)
            self._dispatch = event.dispatch
        self._bar.set_postfix_str(event.postfix(), refresh=False)
        self._bar.update(event.done - self._bar.n)

    def _end_bar(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar, self._dispatch = None, None

    def close(self) -> None:
        self._end_bar()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _short(dispatch: str, width: int = 40) -> str:
    """A dispatch symbol short enough to leave the bar room (its tail names the op and shape)."""
    return dispatch if len(dispatch) <= width else "..." + dispatch[-(width - 3):]


def report_measured(progress, event: Measured) -> None:
    """Hand `event` to `progress`: as an event when it takes them, else as its line."""
    if progress is None:
        return
    measured = getattr(progress, "measured", None)
    if callable(measured):
        measured(event)
    else:
        progress(event.line())


# Off a terminal (a pipe, a CI log, a file) one line per measurement is noise: ProgressDisplay keeps
# each dispatch's latest measurement and writes it once, when that dispatch's search ends (the next
# dispatch starts, another line is said, or the display closes), plus a heartbeat line while a
# search runs longer than `heartbeat_s`, so a log still shows that a long search is alive.
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


__all__ = ["BAR_FORMAT", "HEARTBEAT_S", "Measured", "ProgressDisplay", "ProgressPrinter", "report_measured"]
