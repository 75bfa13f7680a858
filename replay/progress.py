"""Progress of a long command on a terminal: how many done, how fast, how long still.

Drawn on one line of standard error, rewritten in place at most a few times a second, and
only when that stream is a terminal: a log file or a pipe gets nothing, so the output of a
script stays what it was.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

#: Seconds between two redraws; drawing on every record would cost more than verifying it.
INTERVAL = 0.2


class Progress:
    """``step`` after each unit of work; ``close`` at the end clears the line.

    ``fraction`` (0 … 1) tells how much of the whole is done, when the whole is known (the
    bytes of the files read so far, the games simulated of those asked): it gives the time
    left. Without it only the count and the rate are shown.
    """

    def __init__(
        self,
        stream: TextIO,
        unit: str,
        clock: Callable[[], float] = time.monotonic,
        shared: bool = False,
    ) -> None:
        self.stream = stream
        self.unit = unit
        self.clock = clock
        self.shared = shared  #: the command's output goes to the same screen
        self.done = 0
        self.started = clock()
        self._drawn = self.started - INTERVAL
        self._width = 0

    def step(self, fraction: float | None = None) -> None:
        self.done += 1
        now = self.clock()
        if now - self._drawn >= INTERVAL:
            self._drawn = now
            self._draw(self.line(now, fraction))

    def line(self, now: float, fraction: float | None) -> str:
        elapsed = max(now - self.started, 1e-9)
        text = f"{self.done} {self.unit}, {self.done / elapsed:,.0f}/s"
        if fraction is not None and 0 < fraction <= 1:
            text += f", {_duration(elapsed * (1 - fraction) / fraction)} left"
        return text

    def _draw(self, text: str) -> None:
        self.stream.write("\r" + text.ljust(self._width))
        self.stream.flush()
        self._width = len(text)

    def before_output(self) -> None:
        """Called before the command writes its output: output bound for the same screen
        would run into the line, so it is wiped, and drawn again by a later ``step``."""
        if self.shared:
            self.close()

    def close(self) -> None:
        """Wipe the line; the next ``step`` due to draw draws it again."""
        if self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def terminal_progress(stream: TextIO, unit: str, output: object = None) -> Progress | None:
    """A ``Progress`` on ``stream`` when it is a terminal, else None; ``output`` is where
    the command writes (a terminal too: ``Progress.shared``)."""
    if not stream.isatty():
        return None
    isatty = getattr(output, "isatty", None)
    return Progress(stream, unit, shared=bool(isatty()) if callable(isatty) else False)
