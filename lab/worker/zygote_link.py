"""The grader's side of the sandbox: one zygote a grading, one clean process a test.

`Zygote` starts the sandbox (launch.py) for one submission and keeps it for the whole
grading. `Zygote.open()` asks it to fork the process for one test and returns a
`StudentProcess`, which sends requests and reads answers, never waiting longer than the time
limit for one answer, and reading the process's output all the while (its first and last few
kilobytes are kept). Whatever goes wrong on the student's side (a timeout, a death, an
exception, a missing name, something that is not an answer) becomes a StudentProblem raised in
the test; after one, the process is dead and every later request raises the same problem at
once. Ending a test (`StudentProcess.close`) has the zygote kill every process the test left.

While it waits for an answer, the grader serves the student's process: a call of the harness
on an object of the grader's (the scripted model's `complete`, a tool's `execute`) arrives as a
callback and is run here, on the grader's side, where the test sees it. A callback that raises
PowerCut kills the student's process on the spot, as a power cut would.
"""

from __future__ import annotations

import json
import os
import select
import selectors
import socket
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lab.worker import isolation
from lab.testkit import problems
from lab.worker import launch
from lab.testkit.problems import PowerCut
from lab.sandbox import protocol
from lab.sandbox.protocol import Codec, NotPlain, Limits

if TYPE_CHECKING:
    from lab.worker.bundle import Bundle

KEEP = 4096            # bytes of output kept from the start, and again from the end
POLL = 0.25            # seconds between looks at whether the process is still there
DUMP_WAIT = 0.6        # seconds past the deadline the grader waits for that dump, at most
START = 30.0           # seconds a zygote may take to start, on a slow machine
CONTROL = 10.0         # seconds the zygote may take to answer the grader
FACTS = {"type", "message", "exit_code", "line", "function", "source"}
CPU_FACTOR = 6         # a test's process may use this many times its time limit in CPU time
TEST_FACTOR = 6        # one test's process may answer for this many time limits in all
RECEIVED = 32 << 20    # bytes of answers one test's process may send the grader in all


class Output:
    """What the process printed: the first and last KEEP bytes of it, and how much in all."""

    def __init__(self) -> None:
        self.head, self.tail, self.size = bytearray(), bytearray(), 0

    def feed(self, chunk: bytes) -> None:
        self.size += len(chunk)
        room = KEEP - len(self.head)
        self.head += chunk[:room]
        self.tail = (self.tail + chunk[room:])[-KEEP:] if room < len(chunk) else self.tail

    def text(self) -> str:
        middle = self.size - len(self.head) - len(self.tail)
        gap = f"\n[... {middle} bytes left out ...]\n" if middle > 0 else ""
        return (bytes(self.head).decode(errors="replace") + gap
                + bytes(self.tail).decode(errors="replace"))


class Ends:
    """The grader's ends of one test process's channel, output and stack dumps, and the other
    ends, handed to the zygote for the process it forks."""

    def __init__(self) -> None:
        self.channel, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.printed, printed_w = os.pipe()
        self.stacks, stacks_w = os.pipe()
        self._theirs: list[Any] = [theirs, printed_w, stacks_w]

    def theirs(self) -> tuple[int, int, int]:
        theirs, printed_w, stacks_w = self._theirs
        return theirs.fileno(), printed_w, stacks_w

    def handed(self) -> None:
        """Close the other ends: the zygote holds them now (or will never need them)."""
        if self._theirs:
            theirs, printed_w, stacks_w = self._theirs
            theirs.close()
            os.close(printed_w)
            os.close(stacks_w)
            self._theirs = []

    def close(self) -> None:
        self.handed()
        self.channel.close()
        os.close(self.printed)
        os.close(self.stacks)


class Zygote:
    """The sandbox of one grading: `kind` of isolation, the grader's private `snapshot` of the
    student's file, a `bundle` (bundle.Bundle) and the grading's `private` folder.

    `ahead`: when a test ends clean, have the zygote fork the next test's process in the same
    request that kills and clears the last one's (it starts on empty folders, with nothing of
    the last test left alive), and read its answer only when the next test opens it; so that
    the process imports the file while the grader reports the last test and sets up the next.
    The plugin says, at each test's end, whether another test will want one."""

    def __init__(self, kind: str, snapshot: str, bundle: Bundle, private: str | None,
                 limits: Limits = Limits()) -> None:
        self.kind, self.snapshot, self.bundle = kind, snapshot, bundle
        self.private, self.limits = private, limits
        self._launched: launch.Launched | None = None
        self._launching: launch.Launched | None = None
        # the walls in force (isolation.layers), once the sandbox has started
        self.layers: list[str] | None = None
        self.ahead = False
        # the Ends of a process asked for ahead, its answer not yet read
        self._pending: Ends | None = None
        # (pid, Ends): a process forked ahead, for the next test to take
        self._spare: tuple[int, Ends] | None = None

    def warm(self) -> None:
        """Start the sandbox now, without waiting for it: the worker does its own starting
        meanwhile, and the first test finds it ready."""
        if self._launched is None and self._launching is None:
            self._launching = launch.launch(self.kind, self.bundle, self.snapshot,
                                            self.private, self.limits.memory_mb)

    def _start(self):
        self.warm()
        launched, self._launching = self._launching, None
        assert launched is not None  # (warm started it)
        launched.control.settimeout(START)
        try:
            hello = json.loads(launched.control.recv(4096) or b"{}")
        except (OSError, ValueError):
            hello = {}
        if "zygote" not in hello:
            said = b""
            if launched.process.poll() is not None:
                said = launched.process.stderr.read()  # type: ignore[union-attr]
            launched.close()
            raise RuntimeError(f"the sandbox ({self.kind}) did not start: "
                               f"{said.decode(errors='replace').strip()[-400:] or 'no word'}")
        launched.control.settimeout(CONTROL)
        self._launched = launched
        if self.layers is None:  # said by the first zygote, before any of the student's code ran
            version = hello.get("landlock")
            self.layers = isolation.layers(self.kind, version if type(version) is int else 0,
                                           bool(launched.cgroups), hello.get("pids") == 1)

    def _send(self, message, fds=()):
        if self._launched is None:
            raise OSError("the zygote is gone")
        control = self._launched.control
        if fds:
            socket.send_fds(control, [json.dumps(message).encode()], list(fds))
        else:
            control.send(json.dumps(message).encode())

    def _answer(self):
        answer = self._launched.control.recv(4096)  # type: ignore[union-attr]
        if not answer:
            raise OSError("the zygote hung up")
        return json.loads(answer)

    def _ask(self, message, fds=()):
        self._settle()
        self._send(message, fds)
        return self._answer()

    def _settle(self):
        """Read the answer to a reset that forked the next test's process ahead: that process
        becomes the spare, or, when the folders could not be cleared or the zygote does not
        answer, the sandbox is closed (the next test starts a new one rather than trust it)."""
        ends, self._pending = self._pending, None
        if ends is None:
            return
        try:
            answer = self._answer()
        except (OSError, ValueError):
            answer = {}
        if answer.get("clean") == 1 and type(answer.get("pid")) is int:
            self._spare = (answer["pid"], ends)
            return
        ends.close()
        if answer.get("clean") != 1:
            self.close()

    def _forget_spare(self):
        """Let go of the spare (the reset that follows kills it)."""
        spare, self._spare = self._spare, None
        if spare is not None:
            spare[1].close()

    def open(self) -> StudentProcess:  # type: ignore[return]  # (it returns or raises)
        """The process for one test (the spare forked ahead, or one forked now), once
        harness.py is imported. Its folder is the sandbox's one scratch folder, as the last
        test's process left it (emptied at the end of a test; kept for a restart after a power
        cut)."""
        for attempt in (1, 2):
            self._settle()
            if self._launched is None or self._launched.process.poll() is not None:
                self.close()
                self._start()
            spare, self._spare = self._spare, None
            try:
                return StudentProcess(self, spare)
            except (OSError, ValueError):
                self.close()  # the zygote died (the last test's code killed it): start anew
                if attempt == 2:
                    raise

    def _fork_request(self):
        return {"op": "fork", "memory_mb": self.limits.memory_mb,
                "cpu_seconds": max(10, CPU_FACTOR * self.limits.seconds),
                "processes": launch.processes_allowed(self.kind)}

    def _handing(self, message):
        """Send `message` with the other ends of a new test process's Ends; those Ends, their
        other ends closed once sent (the zygote holds them)."""
        ends = Ends()
        try:
            self._send(message, ends.theirs())
        except BaseException:
            ends.close()
            raise
        ends.handed()
        return ends

    def fork(self) -> tuple[int, Ends]:
        """A test's process forked now: its pid and the grader's Ends of it."""
        self._settle()
        ends = self._handing(self._fork_request())
        try:
            return self._answer()["pid"], ends
        except BaseException:
            ends.close()
            raise

    def drop_spare(self) -> None:
        """Kill a process forked ahead that no test will take (at the end of a grading), and
        clear the folders after it."""
        self._settle()
        if self._spare is not None:
            self.reset(clean=True)

    def reload(self) -> None:
        """Have a running zygote read and compile the student's file again (rewritten in place
        for the next grading, lab-check --watch); one that is not running reads it as it starts."""
        self.drop_spare()  # it imported the file as it was
        if self._launched is None:
            return
        try:
            self._ask({"op": "reload"})
        except (OSError, ValueError):
            self.close()  # it will be started anew, and read the file then

    def dump(self, pid: int) -> None:
        """Have the test's process `pid` write every thread's stack to its stacks pipe."""
        try:
            self._ask({"op": "dump", "pid": pid})
        except (OSError, ValueError):
            pass  # a zygote that does not answer: the timeout is reported without a line

    def status(self, pid: int) -> dict[str, Any]:
        try:
            return self._ask({"op": "status", "pid": pid})
        except (OSError, ValueError):
            return {}

    def reset(self, clean: bool = False, ahead: bool = False) -> None:
        """Kill every process a test left (`clean`: and empty the sandbox's folders, at the end
        of a test); a zygote that does not answer is killed itself. `ahead` (with `clean`):
        the zygote forks the next test's process once it has done so, and this returns
        without waiting for its answer (`open` reads it)."""
        if self._launched is None:
            return
        try:
            self._settle()
            self._forget_spare()
            if clean and ahead and self._launched is not None:
                self._pending = self._handing({"op": "reset", "clean": True,
                                               "fork": self._fork_request()})
                return
            if self._ask({"op": "reset", "clean": clean}).get("clean"):
                return
        except (OSError, ValueError):
            pass
        self.close()

    def awaited(self) -> socket.socket | None:
        """The control socket when the answer to a reset is yet to be read (it comes once the
        last test's processes are all gone), else None."""
        if self._pending is None or self._launched is None:
            return None
        return self._launched.control

    def close(self) -> None:
        if self._pending is not None or self._spare is not None:
            try:
                self.drop_spare()
            except (OSError, ValueError):
                pass
        self._forget_spare()
        if self._pending is not None:
            self._pending.close()
            self._pending = None
        for launched in (self._launched, self._launching):
            if launched is not None:
                launched.close()
        self._launched = self._launching = None


class StudentProcess:
    """One test's process: requests, answers and callbacks over its channel."""

    def __init__(self, zygote: Zygote, spare: tuple[int, Ends] | None = None) -> None:
        """The process `spare` (pid, Ends) forked ahead, or one forked now."""
        self.zygote, self.limits = zygote, zygote.limits
        self.output = Output()
        self._dead: problems.StudentProblem | None = None
        self.pid, ends = zygote.fork() if spare is None else spare
        self._channel, self._printed, self._stacks = ends.channel, ends.printed, ends.stacks
        os.set_blocking(self._stacks, False)
        self._channel.setblocking(False)
        self._frames, self._unsent = protocol.FrameBuffer(), bytearray()
        self._deadline: float | None
        self._printing, self._next_id, self._deadline = True, 0, None
        self._received = 0
        self._ends = time.monotonic() + TEST_FACTOR * self.limits.seconds
        self.codec = Codec("grader", lambda side, n: Remote(self, n))
        self._encode = protocol.encoder(self.codec.marker_for)
        # one watch over the channel and the output for the process's life, not one a request
        self._watch = selectors.DefaultSelector()
        self._watch.register(self._channel, selectors.EVENT_READ, "channel")
        self._watch.register(self._printed, selectors.EVENT_READ, "printed")
        self.harness_file = ("/scratch/work/harness.py" if zygote.kind == "bubblewrap"
                             else os.path.join(
                                 zygote._launched.scratch,  # type: ignore[union-attr, arg-type]
                                 "work", "harness.py"))
        self.main_thread = None
        # whether the last answer was plain data through and through (its frame held no
        # marker): then it holds no Remote, and a check for one can be left out
        self.plain = False
        try:
            ready = self._wait(None, "importing harness.py", self.limits.seconds)
            self.names, self.main_thread = self._ready(ready)
        except BaseException:
            self.close()
            raise

    def _ready(self, ready):
        if "import_failed" in ready and _is_facts(ready["import_failed"]):
            raise self._fail(problems.StudentImportFailed(
                "harness.py could not be imported: " + str(problems.raised(
                    ready["import_failed"], "being imported", self.limits))))
        names = ready.get("ready")
        if type(names) is not list or not all(type(n) is str for n in names):
            raise self._fail(problems.garbled("no list of names when ready", "importing harness.py"))
        thread = ready.get("thread")
        return set(names), thread if type(thread) is int else None

    # -- asking ----------------------------------------------------------------------------

    def request(self, payload: Mapping[str, Any], doing: str) -> dict[str, Any]:
        """Send one request from the test and return the answer: {"ok": value} (decoded) or
        {"done": True} for an iterator at its end."""
        if self._dead is not None:
            raise self._dead
        top = self._deadline is None
        if top:
            self._deadline = min(time.monotonic() + self.limits.seconds, self._ends)
        try:
            self._next_id += 1
            number = self._next_id
            self._send(dict(payload, id=number), doing)
            answer = self._wait(number, doing, None)
        finally:
            if top:
                self._deadline = None
        return self._judge(answer, doing)

    def _judge(self, answer, doing):
        kinds = [kind for kind in ("ok", "done", "missing", "raised", "not_plain") if kind in answer]
        if len(kinds) != 1:
            raise self._fail(problems.garbled(f"an answer with {sorted(answer)[:6]}", doing))
        if "raised" in answer:
            if not _is_facts(answer["raised"]):
                raise self._fail(problems.garbled("an exception without its facts", doing))
            raise problems.raised(answer["raised"], doing, self.limits)
        if "not_plain" in answer:
            raise problems.StudentNotPlain(f"{str(answer['not_plain'])[:500]}. The grader only "
                                           "judges plain lists, dicts, strings and numbers.")
        if "missing" in answer:
            return answer
        if "ok" in answer:
            self.plain = not self._frames.marked
            if self.plain:  # JSON data through and through: nothing to turn, no Remote in it
                return answer
            try:
                return {"ok": self.codec.decode(answer["ok"])}
            except NotPlain as error:
                raise self._fail(problems.garbled(str(error), doing)) from None
        return answer

    def _send(self, message, doing):
        try:
            self._unsent += self._encode(message)
        except (TypeError, ValueError) as error:  # the grader handed over something odd
            raise RuntimeError(f"the grader could not send {message.get('op')}: {error}")
        self._flush(doing)

    def _flush(self, doing):
        while self._unsent:
            try:
                sent = self._channel.send(self._unsent)
            except BlockingIOError:
                return
            except OSError:  # the process is gone: reading says how it ended
                self._unsent.clear()
                return
            del self._unsent[:sent]

    def _wait(self, number, doing, seconds):
        """The answer to request `number` (None: the ready message), serving callbacks and
        reading output until it comes; a StudentProblem when the deadline passes."""
        deadline = self._deadline if seconds is None else time.monotonic() + seconds
        assert deadline is not None  # (a request's own, set by `request`)
        watch = self._watch
        while True:
            frame = self._next_frame(doing)
            if frame is not None:
                if "cb" in frame:
                    self._serve(frame, doing)
                    continue
                if number is None or frame.get("id") == number:
                    return frame
                raise self._fail(problems.garbled("an answer to a question not asked", doing))
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fail(self._time_out(doing))
            if self._unsent:
                self._flush(doing)
            for key, _ in watch.select(timeout=min(left, POLL)):
                if key.data == "printed":
                    chunk = os.read(self._printed, 1 << 16)
                    if chunk:
                        self.output.feed(chunk)
                    else:
                        watch.unregister(self._printed)
                        self._printing = False
                    continue
                try:
                    chunk = self._channel.recv(1 << 16)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    raise self._fail(self._gone(doing))
                self._received += len(chunk)
                if self._received > RECEIVED:
                    self.kill()
                    raise self._fail(problems.StudentDied(
                        f"the harness's process sent the grader more than {RECEIVED >> 20} "
                        f"MiB of answers in one test, while {doing}: a run whose events "
                        "never end, or answers that grow without end?"))
                self._frames.feed(chunk)

    def _next_frame(self, doing):
        try:
            return self._frames.next_frame()
        except protocol.Garbled as error:
            raise self._fail(problems.garbled(str(error), doing)) from None

    def _serve(self, frame, doing):
        """Run a callback of the student's process on the grader's side and answer it."""
        number = frame.get("cb")
        try:
            target = self.codec.kept(frame.get("target"))
            method = frame.get("method")
            if method is not None:
                if type(method) is not str or method.startswith("_"):
                    raise NotPlain(f"no method {str(method)[:40]!r} may be called")
                target = getattr(target, method)
            args, kwargs = self.codec.decode(frame.get("args")), self.codec.decode(frame.get("kwargs"))
            if type(args) is not list or type(kwargs) is not dict:
                raise NotPlain("arguments that are not a list and a dict")
        except (NotPlain, AttributeError) as error:
            raise self._fail(problems.garbled(f"a callback the lab does not take ({error})",
                                              doing)) from None
        try:
            value = target(*args, **kwargs)
            reply = {"cb": number, "ok": value}
        except PowerCut:
            self.kill()
            raise
        except problems.StudentProblem:
            raise
        except Exception as error:  # a tool that fails, a model out of script: news for them
            reply = {"cb": number, "raised": f"{type(error).__name__}: {error}"}
        self._send(reply, doing)

    # -- endings ---------------------------------------------------------------------------

    def _fail(self, problem):
        self._dead = problem
        return problem

    def _gone(self, doing):
        status = self.zygote.status(self.pid)
        if "status" in status and type(status["status"]) is int:
            return problems.died(status["status"], doing)
        return problems.stopped_answering(doing)

    def _time_out(self, doing):
        self.zygote.dump(self.pid)
        until, stacks = time.monotonic() + DUMP_WAIT, b""
        while time.monotonic() < until:
            try:
                chunk = os.read(self._stacks, 1 << 16)
            except BlockingIOError:
                chunk = None
            if chunk:
                stacks += chunk
                until = min(until, time.monotonic() + 0.1)  # a dump under way: let it finish
            elif chunk == b"":
                break
            else:
                time.sleep(0.02)
        self.kill()
        whole = time.monotonic() >= self._ends  # the test's time in all, not one answer's
        seconds = TEST_FACTOR * self.limits.seconds if whole else self.limits.seconds
        return problems.timed_out(seconds, doing, stacks.decode(errors="replace"),
                                  self.harness_file, source_file=self.zygote.snapshot,
                                  main_thread=self.main_thread)

    def kill(self) -> None:
        """Kill this test's processes (every process in the sandbox but the zygote)."""
        self.zygote.reset()
        if self._dead is None:
            self._dead = problems.StudentDied("the harness's process was stopped by the test")

    def printed(self) -> str:
        """What the student's code printed in this test (the start and end of it)."""
        if self._channel is not None:
            self._drain()
        return self.output.text() if self.output.size else ""

    def _drain(self, killing=None):
        """Read what is left of the output; `killing`: the zygote's control socket, readable
        once every process of the test is dead, until when the output may still grow."""
        if not self._printing:
            return
        os.set_blocking(self._printed, False)
        while True:
            try:
                chunk = os.read(self._printed, 1 << 16)
            except BlockingIOError:
                if killing is None:
                    return
                ready, _, _ = select.select([self._printed, killing], [], [], CONTROL)
                if killing in ready or not ready:
                    killing = None  # all dead (or the zygote silent): what is there is all
                continue
            if not chunk:
                self._printing = False
                return
            self.output.feed(chunk)

    def close(self, clean: bool = True) -> None:
        """End the test's process and every process it started; `clean`: empty the sandbox's
        folders too (not when the test goes on in a new process on the same scratch), and,
        when the zygote is told another test follows, fork that test's process."""
        if self._channel is None:
            return
        self._watch.close()
        self._channel.close()
        self.zygote.reset(clean=clean, ahead=clean and self.zygote.ahead)
        self._drain(self.zygote.awaited())
        for fd in (self._printed, self._stacks):
            os.close(fd)
        self._channel = None  # type: ignore[assignment]


class Remote:
    """A stand-in, in the grader, for an object that lives in the student's process (the
    harness module, a Harness, a run's generator). Reading an attribute, calling, and taking
    the next item are requests; what comes back is plain data or another Remote."""

    def __init__(self, process: StudentProcess, number: int, name: str = "harness") -> None:
        object.__setattr__(self, "_lab_process", process)
        object.__setattr__(self, "_lab_number", number)
        object.__setattr__(self, "_lab_name", name)

    @property
    def _lab_marker(self):
        return {"$lab": "remote", "n": self._lab_number}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        answer = self._lab_process.request(
            {"op": "get", "target": self._lab_number, "name": name},
            f"reading {self._lab_name}.{name}")
        if "missing" in answer:
            raise problems.StudentMissingName(name, f"harness.py has no `{name}`.")
        value = answer["ok"]
        if isinstance(value, Remote):
            object.__setattr__(value, "_lab_name", f"{self._lab_name}.{name}")
        return value

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        answer = self._lab_process.request(
            {"op": "call", "target": self._lab_number, "args": list(args), "kwargs": kwargs},
            f"running {self._lab_name}")
        return answer["ok"]

    def _lab_handed_out(self, name: str) -> Any:
        """What lab_inside's handout.handed_out says of this object's `name`, run where the
        object lives (a change made here, to a copy the grader got, would prove nothing)."""
        return self._lab_process.request(
            {"op": "handed_out", "target": self._lab_number, "name": name},
            f"appending to what {self._lab_name}.{name} hands out")["ok"]

    def _lab_forget(self) -> None:
        """Let the student's process stop keeping this object alive for the grader (a run a
        frontend lets go of without closing it): only the student's own references hold it."""
        self._lab_process.request({"op": "forget", "target": self._lab_number},
                                  f"letting go of {self._lab_name}")

    def _lab_kit(self, name: str) -> Any:
        """The kit's `name` (sandbox/serve.py's KIT), as it is in the student's process."""
        value = self._lab_process.request({"op": "kit", "name": name},
                                          f"reading the lab's {name}")["ok"]
        if isinstance(value, Remote):
            object.__setattr__(value, "_lab_name", f"lab.{name}")
        return value

    def __iter__(self) -> Remote:
        return self

    def __next__(self) -> Any:
        answer = self._lab_process.request({"op": "next", "target": self._lab_number},
                                           f"taking the next item of {self._lab_name}")
        if answer.get("done"):
            raise StopIteration
        return answer["ok"]

    def __repr__(self) -> str:
        return f"<{self._lab_name} in the student's process>"


def _is_facts(facts):
    return type(facts) is dict and set(facts) == FACTS
