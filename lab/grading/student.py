"""The student's harness as a graded test sees it: every answer is plain data, judged here.

A test takes the `student` fixture (see plugin.py) and asks it things:

    view = student.repair(record)     # repair_tool_history(record), run in the child
    view.messages, view.origins       # what came back; which of them are the given objects
    student.view(record)              # the same for context_for_model
    student.constant("INTERRUPTED")
    student.scenario("session", job="tests", stop_after=5, then=[...])

Every request sends a fresh copy of its transcript, so nothing a student's function does to
its input can reach another test, or the grader's own copy.
"""

from dataclasses import dataclass

import lab

from .problems import StudentMissingName, StudentNotPlain
from .sandbox import Limits, Sandbox


@dataclass(frozen=True)
class Returned:
    """What one call of a student's function did, as facts.

    given          the transcript that was sent (the grader's plain copy)
    messages       what the function returned: a list of plain messages
    origins        for each message returned, the index in `given` of the very object that
                   was handed over, or None for a message the function made (or copied)
    returned_input True when the function returned the very list it was handed
    input_after    that list as it was after the call
    input_kept_objects  True when that list still held the very objects it was handed
    """
    given: list
    messages: list
    origins: list
    returned_input: bool
    input_after: list
    input_kept_objects: bool

    @property
    def shape(self):
        return lab.shape(self.messages)

    @property
    def made_up(self):
        """The messages that came back and were not handed over."""
        return [m for m, origin in zip(self.messages, self.origins) if origin is None]


@dataclass(frozen=True)
class Value:
    """What name(*args) did: `value`, its plain return value; `args_after`, each argument as
    it was after the call; `returned_input`, True when it returned its first argument itself."""
    value: object
    args_after: list
    returned_input: bool


class Student:
    def __init__(self, harness_file, *, limits=Limits(), scenarios_file=None, gaps=None):
        self._sandbox = Sandbox(harness_file, limits=limits, scenarios_file=scenarios_file)
        self._gaps = gaps or {}
        self._started = False

    @property
    def printed(self):
        """What the student's code printed during this test (the start and end of it)."""
        return self._sandbox.output.text() if self._sandbox.output.size else ""

    def repair(self, record):
        return self.call("repair_tool_history", record)

    def view(self, record):
        return self.call("context_for_model", record)

    def call(self, name, record):
        """name(record) in the child, checked to have returned a list of messages."""
        answer = self._ask({"op": "call", "name": name, "messages": record},
                           f"running {name}", name)
        facts = answer["data"]
        if facts["type"] != "list":
            raise StudentNotPlain(f"{name} returned a {facts['type']}, not a list of messages. "
                                  "It should build a new list and return it.")
        bad = [f"item {i} ({lab.show([m], clip=40)})" for i, m in enumerate(facts["returned"])
               if not _well_formed(m)]
        if bad:
            raise StudentNotPlain(f"{name} returned a list holding things that are not "
                                  f"messages: {'; '.join(bad[:3])}")
        return Returned(given=record, messages=facts["returned"], origins=facts["origins"],
                        returned_input=facts["returned_input"], input_after=facts["input_after"],
                        input_kept_objects=facts["input_kept_objects"])

    def value(self, name, *args):
        """name(*args) in the child, for any plain arguments and any plain return value."""
        answer = self._ask({"op": "value", "name": name, "args": list(args)},
                           f"running {name}", name)
        facts = answer["data"]
        return Value(facts["value"], facts["args_after"], facts["returned_input"])

    def constant(self, name):
        return self._ask({"op": "constant", "name": name}, f"reading {name}", name)["data"]

    def scenario(self, name, **params):
        return self._ask({"op": "scenario", "name": name, "params": params},
                         "running a session on your Harness (your run_agent and "
                         "context_for_model inside it)", None)["data"]

    def close(self):
        self._sandbox.close()

    def _ask(self, request, doing, name):
        if not self._started:
            self._started = True
            self._sandbox.start()
        answer = self._sandbox.ask(request, doing)
        if "missing" in answer:
            raise StudentMissingName(answer["missing"], self._missing(answer["missing"]))
        return answer

    def _missing(self, name):
        for gap in self._gaps.values():
            if name in gap.get("names", ()):
                return (f"harness.py has no `{name}` yet. It is yours to write, in "
                        f"{gap['where']}.")
        return (f"harness.py has no `{name}`, which the lesson gives you. Copy it back from "
                "the starter file (lab_check --where prints where that is).")


ID_TYPES = (str, int, type(None))  # what a call id may be, for the grader to compare it


def _well_formed(message):
    if not isinstance(message, dict):
        return False
    role = message.get("role")
    if role == "user":
        return "content" in message
    if role == "toolResult":
        return (all(key in message for key in ("tool_call_id", "tool_name", "content", "is_error"))
                and type(message["tool_call_id"]) in ID_TYPES)
    if role == "assistant":
        content = message.get("content")
        return isinstance(content, list) and all(
            isinstance(block, dict) and block.get("type") in ("text", "toolCall")
            and (block["type"] == "text" or type(block.get("id")) in ID_TYPES)
            for block in content)
    return False
