"""The grader's side of a graded test: fork a child for the student's code, ask it, judge.

One Sandbox serves one test. It copies harness.py into a scratch folder of its own, forks a
child that imports it there (see child.py), and then sends requests and waits for answers, never
longer than what is left of the test's time limit: writing a request and reading an answer
both give up at the deadline, whatever the child does with its pipes. The child's output is
read as it comes and only its first and last few kilobytes are kept. Whatever goes wrong (a
timeout, a death, an exception, a missing name, something that is not an answer) becomes a
StudentProblem raised in the test; after one, the sandbox is dead and every later request
raises the same problem at once, so a test never waits twice. Closing the sandbox kills every
process the child started, wherever it went (see reaper.py), and deletes the scratch folder.

Nothing the grader reads comes from the scratch folder, which the student's code may fill
with anything: the watchdog's stack dump goes to a private folder of the grader's, and source
lines for a message are read from the grader's own copy of harness.py.
"""

import os
import selectors
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass

from . import account, channel, child, problems, reaper

KEEP = 4096   # bytes of output kept from the start, and again from the end
POLL = 0.25   # seconds between looks at whether the child is still alive, while waiting
WATCHDOG_EARLY = 0.15  # seconds before the deadline that the child dumps its stacks
DUMP_WAIT = 0.6        # seconds past the deadline the grader waits for that dump, at most
FACTS = {"type", "message", "exit_code", "line", "function", "source"}
CALL = {"type", "returned", "origins", "returned_input", "input_after", "input_kept_objects"}
VALUE = {"value", "args_after", "returned_input"}
_live = set()  # this process's children that are sandboxes now: a sweep spares the others


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
        self.harness_file = os.path.abspath(harness_file)
        self.scenarios_file = os.path.abspath(scenarios_file) if scenarios_file else None
        self.limits = limits
        self.output = Output()
        self.names = None
        self._pid = None
        self._status = None
        self._dead = None

    # -- life ------------------------------------------------------------------------------

    def start(self):
        """Fork the child and wait until harness.py is imported; returns the names it has."""
        self._scratch = tempfile.mkdtemp(prefix="lab-check-")
        self._private = tempfile.mkdtemp(prefix="lab-check-watch-")
        self._copy = os.path.join(self._scratch, "harness.py")
        shutil.copyfile(self.harness_file, self._copy)
        self._stacks = os.path.join(self._private, "stacks")
        open(self._stacks, "w").close()
        requests_r, self._requests = os.pipe()
        self._answers, answers_w = os.pipe()
        self._printed, output_w = os.pipe()
        self._printing, self._frames = True, channel.FrameBuffer()
        self._main_thread = threading.get_ident()  # the child's main thread, after the fork
        copies = child.clean_copies(self.scenarios_file)
        self._deadline = time.monotonic() + self.limits.seconds
        pid = os.fork()
        if pid == 0:  # the child: serve never returns
            try:
                child.serve(copies=copies, harness_file=self._copy,
                            requests_fd=requests_r, answers_fd=answers_w, output_fd=output_w,
                            scratch=self._scratch, memory_limit_mb=self.limits.memory_mb,
                            watchdog_file=self._stacks,
                            watchdog_seconds=self.limits.seconds - WATCHDOG_EARLY,
                            keep_fds={requests_r, answers_w, output_w})
            finally:
                os._exit(70)
        self._pid = pid
        _live.add(pid)
        self._uid = account.uid_for(pid) if account.switching() else None
        for fd in (requests_r, answers_w, output_w):
            os.close(fd)
        os.set_blocking(self._requests, False)
        ready = self._exchange(None, "importing harness.py")
        if "grader_broke" in ready:
            raise RuntimeError(f"the child process could not be set up: {ready['grader_broke']}")
        if "import_failed" in ready and _is_facts(ready["import_failed"]):
            self._dead = problems.StudentImportFailed(
                "harness.py could not be imported: " + str(problems.raised(
                    ready["import_failed"], "being imported", self.limits)))
            raise self._dead
        names = ready.get("ready")
        if type(names) is not list or not all(type(n) is str for n in names):
            raise self._fail(problems.garbled("no list of names when ready", "importing harness.py"))
        self.names = set(names)
        return self.names

    def close(self):
        if self._pid is not None:
            self._kill()
            self._reap()
            _live.discard(self._pid)
            for fd in (self._requests, self._answers, self._printed):
                os.close(fd)
            for folder in (self._scratch, self._private):
                shutil.rmtree(folder, ignore_errors=True)  # the student's files, whatever they are
            self._pid = None

    def __enter__(self):
        try:
            self.start()
        except BaseException:  # a child that failed to start is still killed, its folder gone
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()

    # -- asking ----------------------------------------------------------------------------

    def ask(self, request, doing):
        """Send one request and return the child's answer. `doing` says, for a sentence, what
        the student's code was doing: "running repair_tool_history"."""
        if self._dead is not None:
            raise self._dead
        request = dict(request, watchdog=self._deadline - time.monotonic() - WATCHDOG_EARLY)
        answer = self._exchange(request, doing)
        wrong = _not_an_answer(request, answer)
        if wrong:
            raise self._fail(problems.garbled(wrong, doing))
        if "raised" in answer:
            raise problems.raised(answer["raised"], doing, self.limits)
        if "not_plain" in answer:
            raise problems.StudentNotPlain(f"{answer['not_plain']}. The grader only judges "
                                           "plain lists, dicts, strings and numbers.")
        return answer

    def _exchange(self, request, doing):
        """Send `request` (None: nothing), then return the next answer, reading the child's
        output all the while; a StudentProblem when the deadline passes or the child ends."""
        unsent = memoryview(channel.encode(request) if request is not None else b"")
        with selectors.DefaultSelector() as watch:
            watch.register(self._answers, selectors.EVENT_READ, "answers")
            if self._printing:
                watch.register(self._printed, selectors.EVENT_READ, "printed")
            if unsent:
                watch.register(self._requests, selectors.EVENT_WRITE, "requests")
            while True:
                answer = self._next_frame(doing)
                if answer is not None:
                    return answer
                left = self._deadline - time.monotonic()
                if left <= 0:
                    raise self._fail(self._time_out(doing))
                ready = watch.select(timeout=min(left, POLL))
                for key, _ in ready:
                    if key.data == "requests":
                        unsent = self._write(unsent)
                        if not unsent:
                            watch.unregister(key.fd)
                        continue
                    chunk = os.read(key.fd, 1 << 16)
                    if key.data == "printed" and chunk:
                        self.output.feed(chunk)
                    elif key.data == "printed":
                        watch.unregister(key.fd)
                        self._printing = False
                    elif chunk:
                        self._frames.feed(chunk)
                    else:
                        raise self._fail(self._gone(doing))
                if not ready and self._exited():  # ended, but a process it forked holds the pipe
                    raise self._fail(problems.died(self._status, doing))

    def _next_frame(self, doing):
        try:
            return next(iter(self._frames.frames()), None)
        except channel.Garbled as error:
            raise self._fail(problems.garbled(str(error), doing)) from None

    def _write(self, unsent):
        """Write what the pipe takes of `unsent`; what is left. Nothing is left when the child
        is gone: reading its answers then says how it ended."""
        try:
            return unsent[os.write(self._requests, unsent):]
        except BlockingIOError:
            return unsent
        except BrokenPipeError:
            return memoryview(b"")

    def _fail(self, problem):
        self._dead = problem
        return problem

    def _gone(self, doing):
        """The child closed its answers: it has ended (how?) or shut the pipe and lives on."""
        until = min(self._deadline, time.monotonic() + 1.0)
        while not self._exited():
            if time.monotonic() >= until:
                self._kill()
                self._reap()
                return problems.stopped_answering(doing)
            time.sleep(0.01)
        return problems.died(self._status, doing)

    def _time_out(self, doing):
        # The watchdog fires just before the deadline, later on a busy machine: give it a moment
        # to start (a stopped child never will), and a dump that has begun a moment to finish.
        until = time.monotonic() + DUMP_WAIT
        while os.path.getsize(self._stacks) == 0 and time.monotonic() < until:
            time.sleep(0.02)
        time.sleep(0.05)
        with open(self._stacks, errors="replace") as dump:
            stacks = dump.read()
        self._kill()
        self._reap()
        return problems.timed_out(self.limits.seconds, doing, stacks, self._copy,
                                  source_file=self.harness_file, main_thread=self._main_thread)

    # -- ending ----------------------------------------------------------------------------

    def _kill(self):
        reaper.sweep(self._pid, self._uid, spare=_live - {self._pid})

    def _exited(self):
        """True once the child has ended (its status is then kept); never waits."""
        if self._status is None:
            try:
                pid, status = os.waitpid(self._pid, os.WNOHANG)
            except ChildProcessError:
                pid, status = self._pid, 0  # reaped by someone else: nothing more to know
            if pid:
                self._status = status
        return self._status is not None

    def _reap(self):
        """Wait for the child (killed by now) and return its status."""
        if self._status is None:
            try:
                self._status = os.waitpid(self._pid, 0)[1]
            except ChildProcessError:
                self._status = 0
        return self._status


def _is_facts(facts):
    return type(facts) is dict and set(facts) == FACTS


def _not_an_answer(request, answer):
    """Why `answer` is not one the child sends to `request`, or None. A forged answer (the
    student's code writing to the grader's pipe) must fail its test, not break the grader."""
    kinds = [kind for kind in ("data", "missing", "raised", "not_plain") if kind in answer]
    if len(kinds) != 1:
        return f"an answer with {sorted(answer)[:6]}"
    if "raised" in answer and not _is_facts(answer["raised"]):
        return "an exception without its facts"
    if "data" in answer and request["op"] == "call":
        data = answer["data"]
        if type(data) is not dict or set(data) != CALL or type(data["type"]) is not str:
            return "the facts of a call, but not all of them"
        if data["type"] == "list" and not (
                type(data["returned"]) is list and type(data["origins"]) is list
                and len(data["origins"]) == len(data["returned"])
                and all(o is None or type(o) is int for o in data["origins"])):
            return "a list returned, without its origins"
    if "data" in answer and request["op"] == "value":
        data = answer["data"]
        if type(data) is not dict or set(data) != VALUE or type(data["args_after"]) is not list:
            return "the facts of a value, but not all of them"
    return None
