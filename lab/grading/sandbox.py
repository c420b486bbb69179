"""The grader's side of a graded test: fork a child for the student's code, ask it, judge.

One Sandbox serves one test. It copies harness.py into a scratch folder of its own, forks a
child that imports it there (see child.py), and then sends requests and waits for answers, never
longer than what is left of the test's time limit. The child's output is read as it comes and
only its first and last few kilobytes are kept. Whatever goes wrong (a timeout, a death, an
exception, a missing name) becomes a StudentProblem raised in the test; after one, the sandbox
is dead and every later request raises the same problem at once, so a test never waits twice.
Closing the sandbox kills the child's whole process group and deletes the scratch folder.
"""

import os
import selectors
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass

from . import channel, child, problems

KEEP = 4096  # bytes of output kept from the start, and again from the end


@dataclass(frozen=True)
class Limits:
    seconds: float = 5.0      # for the whole of one test, the import included
    memory_mb: int = 1024     # what the student's code may allocate on top of the child's own


class Output:
    """What the child printed: the first and last KEEP bytes of it, and how much in all."""

    def __init__(self):
        self.head, self.tail, self.size = bytearray(), bytearray(), 0

    def feed(self, chunk):
        self.size += len(chunk)
        room = KEEP - len(self.head)
        self.head += chunk[:room]
        self.tail = (self.tail + chunk[room:])[-KEEP:] if room < len(chunk) else self.tail

    def text(self):
        middle = self.size - len(self.head) - len(self.tail)
        gap = f"\n[... {middle} bytes left out ...]\n" if middle > 0 else ""
        return (bytes(self.head).decode(errors="replace") + gap
                + bytes(self.tail).decode(errors="replace"))


class Sandbox:
    def __init__(self, harness_file, *, limits=Limits(), scenarios_file=None):
        self.harness_file = os.fspath(harness_file)
        self.scenarios_file = os.fspath(scenarios_file) if scenarios_file else None
        self.limits = limits
        self.output = Output()
        self.names = None
        self._pid = None
        self._dead = None

    # -- life ------------------------------------------------------------------------------

    def start(self):
        """Fork the child and wait until harness.py is imported; returns the names it has."""
        self._scratch = tempfile.mkdtemp(prefix="lab-check-")
        self._copy = os.path.join(self._scratch, "harness.py")
        shutil.copyfile(self.harness_file, self._copy)
        self._stacks = os.path.join(self._scratch, ".stacks")
        requests_r, self._requests = os.pipe()
        self._answers, answers_w = os.pipe()
        self._printed, output_w = os.pipe()
        self._deadline = time.monotonic() + self.limits.seconds
        pid = os.fork()
        if pid == 0:  # the child: serve never returns
            try:
                child.serve(harness_file=self._copy, scenarios_file=self.scenarios_file,
                            requests_fd=requests_r, answers_fd=answers_w, output_fd=output_w,
                            scratch=self._scratch, memory_limit_mb=self.limits.memory_mb,
                            watchdog_file=self._stacks,
                            keep_fds={requests_r, answers_w, output_w})
            finally:
                os._exit(70)
        self._pid = pid
        for fd in (requests_r, answers_w, output_w):
            os.close(fd)
        ready = self._receive("importing harness.py")
        if "import_failed" in ready:
            facts = ready["import_failed"]
            self._dead = problems.StudentImportFailed(
                "harness.py could not be imported: " + str(problems.raised(
                    facts, "being imported", self.limits)))
            raise self._dead
        self.names = set(ready["ready"])
        return self.names

    def close(self):
        if self._pid is not None:
            try:
                os.killpg(self._pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._reap()
            for fd in (self._requests, self._answers, self._printed):
                os.close(fd)
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._pid = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.close()

    # -- asking ----------------------------------------------------------------------------

    def ask(self, request, doing):
        """Send one request and return the child's answer. `doing` says, for a sentence, what
        the student's code was doing: "running repair_tool_history"."""
        if self._dead is not None:
            raise self._dead
        request = dict(request, watchdog=self._deadline - time.monotonic() - 0.15)
        try:
            channel.write_frame(self._requests, request)
        except BrokenPipeError:
            return self._receive(doing)  # the child is gone; _receive says how
        answer = self._receive(doing)
        if "raised" in answer:
            raise problems.raised(answer["raised"], doing, self.limits)
        if "not_plain" in answer:
            raise problems.StudentNotPlain(f"{answer['not_plain']}. The grader only judges "
                                           "plain lists, dicts, strings and numbers.")
        return answer

    def _receive(self, doing):
        frames = channel.FrameBuffer()
        with selectors.DefaultSelector() as watch:
            watch.register(self._answers, selectors.EVENT_READ, "answers")
            watch.register(self._printed, selectors.EVENT_READ, "printed")
            while True:
                for answer in frames.frames():
                    return answer
                left = self._deadline - time.monotonic()
                if left <= 0:
                    self._dead = self._time_out(doing)
                    raise self._dead
                for key, _ in watch.select(timeout=left):
                    chunk = os.read(key.fd, 1 << 16)
                    if key.data == "printed":
                        if chunk:
                            self.output.feed(chunk)
                        else:
                            watch.unregister(key.fd)
                    elif chunk:
                        frames.feed(chunk)
                    else:
                        self._dead = problems.died(self._reap(), doing)
                        raise self._dead

    def _time_out(self, doing):
        if os.path.getsize(self._stacks) == 0:
            time.sleep(0.2)  # the watchdog fires just before the deadline; let it finish
        with open(self._stacks, errors="replace") as dump:
            stacks = dump.read()
        os.killpg(self._pid, signal.SIGKILL)
        self._reap()
        return problems.timed_out(self.limits.seconds, doing, stacks, self._copy)

    def _reap(self):
        """Wait for the child and return its status (0 if it was reaped already)."""
        try:
            return os.waitpid(self._pid, 0)[1]
        except ChildProcessError:
            return 0
