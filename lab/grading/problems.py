"""What can go wrong on the student's side of a test, each as an exception that explains itself.

These are raised in the grader's process, inside a graded test, so the test fails and the
report shows the sentence. None of them is ever a pass: a harness that times out, dies, exits
or raises has not answered, whatever it printed.
"""

import linecache
import os
import re
import signal

STACK_LINE = re.compile(r'^\s*File "(?P<file>.+)", line (?P<line>\d+) in (?P<function>.+)$')


class StudentProblem(Exception):
    """The student's code did not give an answer the grader can judge."""

    def __init__(self, explanation):
        super().__init__(explanation)
        self.explanation = explanation


class StudentTimeout(StudentProblem):
    pass


class StudentDied(StudentProblem):
    pass


class StudentRaised(StudentProblem):
    pass


class StudentImportFailed(StudentProblem):
    pass


class StudentMissingName(StudentProblem):
    def __init__(self, name, explanation):
        super().__init__(explanation)
        self.name = name


class StudentNotPlain(StudentProblem):
    pass


def where(line, function, source, name="harness.py"):
    """`(harness.py, line 12 in repair_tool_history: x = 1)`, or "" when nothing is known."""
    if line is None:
        return ""
    code = f": {source}" if source else ""
    return f" ({name}, line {line} in {function}{code})"


def raised(facts, doing, limits):
    """The exception the child reported, as a sentence about the student's code."""
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
    return StudentRaised(f"{facts['message']}, raised while {doing}{at}")


def died(status, doing):
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


def timed_out(seconds, doing, stacks, student_file):
    """A timeout, naming the innermost frame of the student's file in the watchdog's dump."""
    for text in stacks.splitlines():
        frame = STACK_LINE.match(text)
        if frame and frame["file"] == student_file:
            line = int(frame["line"])
            source = linecache.getline(student_file, line).strip()
            return StudentTimeout(
                f"timed out after {seconds:g} s in `{frame['function']}` (harness.py, line {line}"
                f"{': ' + source if source else ''}). A loop that never ends? Each test may "
                "take that long at most (lab_check --time-limit).")
    return StudentTimeout(f"timed out after {seconds:g} s while {doing}. A loop that never "
                          "ends? Each test may take that long at most (lab_check --time-limit).")
