"""How far a batch has got: a bar redrawn in place on a terminal, one plain line a submission
anywhere else (a log file, a CI job, a pipe), so that neither shows escape codes or stalls.
Each says how many are done of how many, how long the batch has run, and about how long it has
left (from this run's pace so far: submissions already graded by an earlier run, which a
resumed batch skips, count as done but not in the pace)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from lab.kit.counting import counted

if TYPE_CHECKING:
    from lab.grader.results import Grade

WIDTH = 30  # characters of the bar


def clock(seconds: float) -> str:
    """Seconds as a person reads a duration: 0:07, 3:05, 1:02:03."""
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


class Progress:
    """Counts finished submissions out of `total` and shows each as it finishes on `stream`
    (stderr by default); `already` of them were done before this run began. Call `done` once a
    submission, from one thread, and `close` at the end."""

    def __init__(self, total: int, stream: TextIO | None = None, already: int = 0,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.total, self.finished, self.already = total, already, already
        self.stream = sys.stderr if stream is None else stream
        self.live = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.now, self.started = now, now()

    def timing(self) -> str:
        """ "0:12 elapsed, about 1:05 left" (no estimate before the first one is done)."""
        elapsed = self.now() - self.started
        graded, left = self.finished - self.already, self.total - self.finished
        said = f"{clock(elapsed)} elapsed"
        if left and graded:
            said += f", about {clock(elapsed / graded * left)} left"
        return said

    def done(self, name: str, grade: Grade) -> None:
        self.finished += 1
        said = ("not graded" if grade.problem else f"{grade.score:g} of "
                f"{counted(grade.max_score, 'point')}"
                f"{', the grader broke' if grade.exit_code == 3 else ''}")
        if self.live:
            filled = WIDTH * self.finished // max(self.total, 1)
            bar = "█" * filled + "░" * (WIDTH - filled)
            self.stream.write(f"\r\x1b[2K{bar} {self.finished}/{self.total}  {name}: {said}"
                              f"  ({self.timing()})")
        else:
            width = len(str(self.total))
            self.stream.write(f"[{self.finished:>{width}}/{self.total}] {name}: {said} "
                              f"({self.timing()})\n")
        self.stream.flush()

    def close(self) -> None:
        if self.live and self.finished > self.already:
            self.stream.write("\n")
            self.stream.flush()
