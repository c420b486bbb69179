"""How far a batch has got: a bar redrawn in place on a terminal, one plain line a submission
anywhere else (a log file, a CI job, a pipe), so that neither shows escape codes or stalls."""

import sys

WIDTH = 30  # characters of the bar


class Progress:
    """Counts finished submissions out of `total` and shows each as it finishes on `stream`
    (stderr by default). Call `done` once a submission, from one thread, and `close` at the end."""

    def __init__(self, total, stream=None):
        self.total, self.finished = total, 0
        self.stream = sys.stderr if stream is None else stream
        self.live = hasattr(self.stream, "isatty") and self.stream.isatty()

    def done(self, name, grade):
        self.finished += 1
        said = ("not graded" if grade.problem else f"{grade.score:g} of {grade.max_score:g} "
                f"points{', the grader broke' if grade.exit_code == 3 else ''}")
        if self.live:
            filled = WIDTH * self.finished // max(self.total, 1)
            bar = "█" * filled + "░" * (WIDTH - filled)
            self.stream.write(f"\r\x1b[2K{bar} {self.finished}/{self.total}  {name}: {said}")
        else:
            width = len(str(self.total))
            self.stream.write(f"[{self.finished:>{width}}/{self.total}] {name}: {said}\n")
        self.stream.flush()

    def close(self):
        if self.live and self.finished:
            self.stream.write("\n")
            self.stream.flush()
