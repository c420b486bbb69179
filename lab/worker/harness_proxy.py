"""The student's harness as a graded test sees it: every answer is plain data, judged here.

A test takes the `student` fixture (see plugin.py) and asks it things:

    view = student.repair(record)     # repair_tool_history(record), run in the sandbox
    view.messages, view.origins       # what came back; which of them are the given objects
    student.view(record)              # the same for context_for_model
    student.value("safe_trim", record, 3)    # any function: its value, its arguments after
    student.constant("INTERRUPTED")
    student.scenario("session", job="tests", stop_after=5, then=[...])

A scenario is a function of the lesson's scenarios.py, run here, on the grader's side, with
the student's module as a proxy (sandbox.Remote): the scripted model and the tools it hands the
harness stay here too, so every request the harness sends and every tool it runs is seen by
the grader, not reported by the student's process. Facts only the student's process can see
(whether a message returned is the very object handed over, whether the input was left alone)
are reported by it, and a submission that tampers with the code reporting them could forge
them: tests built on them say so, and are worth little.

Every request sends a fresh copy of its data, so nothing a student's function does to its
input can reach another test, or the grader's own copy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

import lab

from lab.testkit.problems import StudentMissingName, StudentNotPlain, StudentRaised, StudentTimeout
from lab.testkit.verdict import explain
from lab.testkit.problems import PowerCut
from lab.worker.zygote_link import Remote

if TYPE_CHECKING:
    from lab.worker.zygote_link import StudentProcess, Zygote

__all__ = ["PowerCut", "Returned", "Student", "Value"]


@dataclass(frozen=True)
class Returned:
    """What one call of a student's function on a list of messages did, as facts.

    given          the transcript that was sent (the grader's plain copy)
    messages       what the function returned: a list of plain messages
    origins        for each message returned, the index in `given` of the very object that
                   was handed over, or None for a message the function made (or copied);
                   reported by the student's process
    returned_input True when the function returned the very list it was handed
    input_after    that list as it was after the call
    input_kept_objects  True when that list still held the very objects it was handed
    """
    given: list[Any]
    messages: list[Any]
    origins: list[int | None]
    returned_input: bool
    input_after: list[Any] | None
    input_kept_objects: bool

    @property
    def shape(self) -> str:
        return lab.shape(self.messages)

    @property
    def made_up(self) -> list[Any]:
        """The messages that came back and were not handed over."""
        return [m for m, origin in zip(self.messages, self.origins) if origin is None]


@dataclass(frozen=True)
class Value:
    """What one call name(*args) did: its plain `value`, each argument as it was afterwards,
    and whether the value is the very first argument."""
    args: tuple[Any, ...]
    value: object
    args_after: list[Any]
    returned_input: bool


class Student:
    def __init__(self, zygote: Zygote, *, scenarios: ModuleType | None = None,
                 gaps: Mapping[str, Any] | None = None) -> None:
        self._zygote, self._scenarios, self._gaps = zygote, scenarios, gaps or {}
        self._process: StudentProcess | None = None
        self._printed: list[str] = []

    @property
    def answered(self) -> bool:
        """True once the student's process has been started for this test."""
        return self._process is not None

    @property
    def process(self) -> StudentProcess:
        if self._process is None:
            self._process = self._zygote.open()
        return self._process

    @property
    def printed(self) -> str:
        """What the student's code printed during this test (the start and end of it, from
        each process the test had)."""
        now: list[str] = [self._process.printed()] if self._process is not None else []
        return "\n".join(p for p in self._printed + now if p)

    def repair(self, record: list[Any]) -> Returned:
        return self.call("repair_tool_history", record)

    def view(self, record: list[Any]) -> Returned:
        return self.call("context_for_model", record)

    def call(self, name: str, record: list[Any]) -> Returned:
        """name(record) in the sandbox, checked to have returned a list of messages."""
        facts = self._ask({"op": "facts", "name": name, "messages": record},
                          f"running {name}", name, given=record)
        if type(facts) is not dict or facts.get("type") is None:
            raise StudentNotPlain(f"{name} answered with something that is not its facts.")
        if facts["type"] != "list":
            raise StudentNotPlain(f"{name} returned a {facts['type']}, not a list of messages. "
                                  "It should build a new list and return it.")
        returned, origins = facts.get("returned"), facts.get("origins")
        if (type(returned) is not list or type(origins) is not list
                or len(origins) != len(returned)
                or not all(o is None or (type(o) is int and 0 <= o < len(record)) for o in origins)):
            raise StudentNotPlain(f"{name} answered with facts that do not fit together.")
        holds = _holds_nothing if self.process.plain else _holds_remote
        bad = [f"item {i} ({lab.show([m], clip=40)})" if isinstance(m, dict) else f"item {i}"
               for i, m in enumerate(returned) if not _well_formed(m, holds)]
        if bad:
            raise StudentNotPlain(f"{name} returned a list holding things that are not "
                                  f"messages: {'; '.join(bad[:3])}")
        return Returned(given=record, messages=returned, origins=origins,
                        returned_input=facts.get("returned_input") is True,
                        input_after=facts.get("input_after"),
                        input_kept_objects=facts.get("input_kept_objects") is True)

    def value(self, name: str, *args: Any) -> Value:
        """name(*args) in the sandbox: what it returned, and its arguments afterwards."""
        facts = self._ask({"op": "value", "name": name, "args": list(args)},
                          f"running {name}", name, given=_called(name, args))
        if type(facts) is not dict or type(facts.get("args_after")) is not list:
            raise StudentNotPlain(f"{name} answered with something that is not its facts.")
        if _holds_remote(facts.get("value")):
            raise StudentNotPlain(f"{name} returned something that is not plain data (a "
                                  "dict, list, str, number, bool or None).")
        return Value(args=args, value=facts["value"], args_after=facts["args_after"],
                     returned_input=facts.get("returned_input") is True)

    def constant(self, name: str) -> Any:
        value = self._ask({"op": "constant", "name": name}, f"reading {name}", name)
        if _holds_remote(value):
            raise StudentNotPlain(f"{name} is not plain data (a str, number, list or dict).")
        return value

    def scenario(self, name: str, **params: Any) -> Any:
        """The lesson's scenario `name`, run here on the student's module (a proxy)."""
        if self._scenarios is None or not hasattr(self._scenarios, name):
            raise RuntimeError(f"the lesson has no scenario {name!r}")
        return getattr(self._scenarios, name)(Remote(self.process, 0), **params)

    def restart(self) -> None:
        """A fresh process for this test on the same scratch folder (after a PowerCut)."""
        self._printed.append(self.process.printed())
        self._process.close(clean=False)  # type: ignore[union-attr]  # (made above)
        self._process = self._zygote.open()

    def close(self) -> None:
        if self._process is not None:
            self._process.close()

    def _ask(self, request, doing, name, given=None):
        """The answer to `request`; a problem on the way is raised, an exception or a timeout
        of the student's code with the input that raised it (`given`), as the report writes
        an input. An empty gap (NotImplementedError) raises the same for every input: it is
        left alone, so that the report says it once."""
        try:
            answer = self.process.request(request, doing)
        except (StudentRaised, StudentTimeout) as problem:
            if given is None or getattr(problem, "kind", "") == "NotImplementedError":
                raise
            raise type(problem)(explain(problem.explanation, given=given)) from None
        if "missing" in answer:
            raise StudentMissingName(answer["missing"], self.missing(answer["missing"]))
        return answer["ok"]

    def missing(self, name: str) -> str:
        for gap in self._gaps.values():
            if name in gap.get("names", ()):
                return (f"harness.py has no `{name}` yet. It is yours to write, in "
                        f"{gap['where']}.")
        return (f"harness.py has no `{name}`, which the lesson gives you. Copy it back from "
                "the starter file (lab_check --where prints where that is).")


def _holds_remote(value, depth=0):
    if isinstance(value, Remote):
        return True
    if depth > 50:
        return False
    if type(value) is list:
        return any(_holds_remote(v, depth + 1) for v in value)
    if type(value) is dict:
        return any(_holds_remote(v, depth + 1) for v in value.values())
    return False


def _called(name, args):
    """`name(U A[c1] R(c1), 3)`: a call as the report shows it, lists of messages as shapes."""
    shown = [(lab.shape(a) or "[]") if isinstance(a, list) and all(isinstance(m, dict) for m in a)
             else repr(a) for a in args]
    return f"{name}({', '.join(shown)})"


ID_TYPES = (str, int, type(None))  # what a call id may be, for the grader to compare it


def _holds_nothing(value):
    """`_holds_remote` for an answer that was plain JSON data (StudentProcess.plain)."""
    return False


def _well_formed(message, holds_remote=_holds_remote):
    if type(message) is not dict:
        return False
    role = message.get("role")
    if role == "user":
        return "content" in message and not holds_remote(message)
    if role == "toolResult":
        return (all(key in message for key in ("tool_call_id", "tool_name", "content", "is_error"))
                and type(message["tool_call_id"]) in ID_TYPES and not holds_remote(message))
    if role == "assistant":
        content = message.get("content")
        return type(content) is list and not holds_remote(message) and all(
            type(block) is dict and block.get("type") in ("text", "toolCall")
            and (block["type"] == "text" or type(block.get("id")) in ID_TYPES)
            for block in content)
    return False
