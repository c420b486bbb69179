"""What can go wrong on the student's side of a test, each as an exception that explains itself.

These are raised in the grader's process, inside a graded test, so the test fails and the
report shows the sentence. None of them is ever a pass: a harness that times out, dies, exits
or raises has not answered, whatever it printed.
"""

from __future__ import annotations

import linecache
import os
import re
import signal
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lab.sandbox.protocol import Limits

STACK_LINE = re.compile(r'^\s*File "(?P<file>.+)", line (?P<line>\d+) in (?P<function>.+)$')
THREAD_LINE = re.compile(r"^(Current thread|Thread) 0x(?P<ident>[0-9a-f]+)")
# Characters kept of each fact the student's process reports (an exception's type, message and
# line, a function's name in a stack dump): the sandbox's own code clips them too, but the
# student's code shares its process and can send them at any length.
FACT = 500


class PowerCut(Exception):
    """Raised by a grader-side callback (a tool, the model) to kill the student's process at
    that moment, as if the power went; the test goes on and may restart it (lesson 11)."""


class StudentProblem(Exception):
    """The student's code did not give an answer the grader can judge."""

    def __init__(self, explanation: str) -> None:
        super().__init__(explanation)
        self.explanation = explanation


class StudentTimeout(StudentProblem):
    pass


class StudentDied(StudentProblem):
    pass


class StudentRaised(StudentProblem):
    def __init__(self, explanation: str, kind: str = "") -> None:
        super().__init__(explanation)
        self.kind = kind  # the exception's type, by name: NotImplementedError is an empty gap


class StudentImportFailed(StudentProblem):
    pass


class StudentMissingName(StudentProblem):
    def __init__(self, name: str, explanation: str) -> None:
        super().__init__(explanation)
        self.name = name


class StudentNotPlain(StudentProblem):
    pass


class StudentGarbled(StudentProblem):
    """The child sent something that is not an answer: its code wrote to the grader's pipe, or
    forked a copy of itself that answered too."""


class GraderOverBudget(StudentProblem):
    """What the student's code handed the grader cost it more of its own time to run and
    judge than a test allows (plugin.GRADER_FACTOR): the student's failure, never a hang."""


def over_budget(seconds: float) -> GraderOverBudget:
    return GraderOverBudget(
        f"judging what your harness handed over took the grader more than {seconds:g} s of "
        "its own time in this test, the most a test may cost it (six times lab_check "
        "--time-limit). Hand it smaller data: a case or an answer of a few kilobytes is "
        "plenty to show an idea.")


def where(line: int | None, function: str | None, source: str | None,
          name: str = "harness.py") -> str:
    """`(harness.py, line 12 in repair_tool_history: x = 1)`, or "" when nothing is known."""
    if line is None:
        return ""
    code = f": {source}" if source else ""
    return f" ({name}, line {line} in {function}{code})"


def raised(facts: Mapping[str, Any], doing: str, limits: Limits) -> StudentRaised:
    """The exception the child reported, as a sentence about the student's code."""
    facts = {key: _clip(value) for key, value in facts.items()}
    at = where(facts["line"], facts["function"], facts["source"])
    kind = facts["type"]
    if kind == "SystemExit":
        return StudentRaised(
            f"the harness exited early: it called sys.exit({facts['exit_code']!r}) while "
            f"{doing}{at}. A harness returns its answer; it never ends the process, and "
            "nothing it printed counts as a result.")
    if kind == "MemoryError":
        return StudentRaised(
            f"ran out of memory while {doing}{at}: the lab allows {limits.memory_mb} MiB "
            "(lab_check --memory-limit). Is something growing without end?")
    if kind == "RecursionError":
        return StudentRaised(f"{facts['message']} while {doing}{at}: a function that calls "
                             "itself with no way to stop?")
    return StudentRaised(f"{facts['message']}, raised while {doing}{at}", kind)


def died(status: int, doing: str) -> StudentDied:
    """The child ended without answering; `status` is from os.waitpid."""
    if os.WIFSIGNALED(status):
        sig = signal.Signals(os.WTERMSIG(status)).name
        hint = (" The memory limit, or a crash in C code?" if sig in ("SIGSEGV", "SIGKILL", "SIGABRT")
                else "")
        return StudentDied(f"the harness's process was ended by {sig} while {doing}, before it "
                           f"answered.{hint}")
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else status
    return StudentDied(
        f"the harness exited early: its process ended (exit code {code}) while {doing}, before "
        "it answered. os._exit() or something like it? Nothing it printed counts as a result.")


def stopped_answering(doing: str) -> StudentDied:
    return StudentDied(
        f"the harness's process stopped answering while {doing}: it closed its end of the "
        "grader's pipe and carried on. A harness returns its answer; it leaves the process's "
        "files alone.")


def garbled(detail: str, doing: str) -> StudentGarbled:
    return StudentGarbled(
        f"the harness's process sent the grader something that is not an answer while {doing} "
        f"({detail}). Did it write to a file descriptor it did not open, or fork a copy of "
        "itself that answered too?")


def grader_killed(signal_name: str) -> str:
    """The sentence for a grading whose own process was killed before it finished."""
    return (f"the grading process was killed by {signal_name} before it finished, so no test "
            "counts as passed. If your harness sends signals (os.kill, os.killpg, signal."
            "pthread_kill), it killed its grader: a harness never signals other processes. "
            "Otherwise the machine ran short of memory, or someone stopped lab_check: run it "
            "again.")


def timed_out(seconds: float, doing: str, stacks: str, student_file: str,
              source_file: str | None = None, main_thread: int | None = None) -> StudentTimeout:
    """A timeout, naming the innermost frame of the student's file in the watchdog's dump.

    `student_file` is the path the child imported, as it appears in the dump; `source_file`
    the grader's own copy of it, read for the line (never the child's copy, which the student
    may have replaced by anything, a pipe that blocks a reader for ever included). The main
    thread's stack, when `main_thread` (its ident) is given, is searched before the others:
    the harness's function runs there, a thread it started may be idle somewhere else."""
    for text in _main_thread_first(stacks, main_thread):
        frame = STACK_LINE.match(text)
        if frame and frame["file"] == student_file:
            line = int(frame["line"])
            source = linecache.getline(source_file, line).strip() if source_file else ""
            return StudentTimeout(
                f"timed out after {seconds:g} s in `{_clip(frame['function'])}` (harness.py, "
                f"line {line}"
                f"{': ' + source if source else ''}). A loop that never ends? Each test may "
                "take that long at most (lab_check --time-limit).")
    return StudentTimeout(f"timed out after {seconds:g} s while {doing}. A loop that never "
                          "ends? Each test may take that long at most (lab_check --time-limit).")


def _clip(value: Any) -> Any:
    """A fact of the student's process, text of it cut to FACT characters (a number kept)."""
    if value is None or type(value) in (int, bool):
        return value
    text = str(value)
    return text if len(text) <= FACT else text[:FACT] + " [...]"


def _main_thread_first(stacks, main_thread):
    """The dump's lines, the main thread's section first (the others keep their order)."""
    sections: list[list[str]] = [[]]
    for text in stacks.splitlines():
        if THREAD_LINE.match(text):
            sections.append([])
        sections[-1].append(text)

    def is_main(lines):
        head = THREAD_LINE.match(lines[0]) if lines else None
        return head is not None and int(head["ident"], 16) == main_thread

    sections.sort(key=lambda lines: not is_main(lines))
    return [text for lines in sections for text in lines]
