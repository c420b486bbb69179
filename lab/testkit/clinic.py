"""The clinic: a case, written as plain data, run on a harness, and everything seen on the way.

A case describes one session, not code that runs it: what the record holds when the harness
is made, the session's tools and what each does, the model's replies in order, and the
prompts typed one after another. A checkpoint's student writes cases; the grader runs them.

    case = {
        "record": [...],     # the transcript the harness starts from (default: empty)
        "tools": [           # the session's tools (default: none)
            {"name": "bash", "result": "3 passed"},                     # returns this text
            {"name": "write", "error": "disk full"},                    # raises, saying this
            {"name": "step", "result": "ok", "steer": "Use spaces."},   # the first time it
        ],                                                              # runs, the user steers
        "replies": [lab.reply(lab.call("bash", {"command": "pytest"})), lab.say("Done.")],
        "prompts": [{"text": "Run the tests.", "walk_away_after": 5},  # stop after 5 events
                    {"text": "Did they pass?"}],                        # run to its end
        "max_turns": 3,      # the harness's limit on requests a prompt (default: none)
    }

Two kinds of harness can be visited. One with a `Harness` class (lesson 08 on: checkpoint B's)
is driven through Harness(...).prompt(text), whose events are counted and may be walked away
from. One with only `run_agent` (lessons 03 to 05: checkpoint A's) is driven by calling
run_agent(model, SYSTEM, record, tools, text, max_turns=...) once a prompt, on one list that is
the record; such a loop hands out no events and takes no steering, so a case for it may not
walk away or steer (`problem(case, harness)` says so).

The model is a lab.ScriptedModel: it refuses a malformed request as a provider does, hands out
call ids c1, c2, ... to calls written without one, and, once the replies run out, answers
every later request with the words "Done.". `problem(case)` says what is wrong with a case
(None when nothing is); `visit(harness, case)` runs it on a harness module and returns a
Visit, the facts lab.testkit.rules judges: every request with the record as it stood when it was sent,
the events of each prompt (none, for a run_agent harness), the record after each, and every
tool run with the call it was for.
"""

from __future__ import annotations

import copy
import json
import types
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from lab.kit.counting import counted
from lab.kit.display import shape, show
from lab.kit.messages import forever, say
from lab.kit.model import ScriptedModel
from lab.kit.validate import validate

KEYS = {"record", "tools", "replies", "prompts", "max_turns"}
LISTS = ("record", "tools", "replies", "prompts")  # the keys whose values are lists
# A case is a few lines. These bound what one can make a grader do: every call in the replies
# may run a tool and lengthen every later request.
MOST = {"record": 100, "tools": 10, "replies": 50, "prompts": 20}
MOST_CALLS = 50            # toolCall blocks in all the replies together
MOST_BYTES = 100_000       # the whole case, as JSON
DONE = "Done."  # what the model says once the case's replies have run out


class CaseError(ValueError):
    """A case the clinic cannot run; the message says what to change."""


@dataclass
class Run:
    """One tool run: the call it was for (its id, and whether that call sits in a failed
    reply), and whether the tool got to its end, with what it said."""
    call_id: object
    name: str
    in_failed_reply: bool
    prompt: int  # which of the case's prompts was running
    finished: bool = False
    content: str = ""
    is_error: bool = False


@dataclass
class Sent:
    """One request: the messages the model received, the record as it stood at that moment,
    the provider's refusal ("" when it answered), the ids of the calls whose tools had run to
    their end by then, and the prompt it was made for."""
    messages: list[Any]  # what the harness sent: messages, if it built them right
    record: list[Any]
    refusal: str
    ran: frozenset[object]
    prompt: int  # which of the case's prompts was running


@dataclass
class Visit:
    """What happened when a case ran on a harness. `records[k]` and `events[k]` belong to
    prompt k; `start` is the record the harness held before the first prompt."""
    case: dict[str, Any]
    interrupted: str
    start: list[Any] = field(default_factory=list)
    records: list[list[Any]] = field(default_factory=list)
    events: list[list[Any]] = field(default_factory=list)  # each event's "type", a prompt's
    requests: list[Sent] = field(default_factory=list)
    replies: list[dict[str, Any]] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)
    typed: list[str] = field(default_factory=list)
    raised: str = ""
    loop: str = "Harness"  # how the harness was driven: "Harness", or "run_agent" (no events)

    @property
    def record(self) -> list[Any]:
        """The record as the session left it."""
        return self.records[-1] if self.records else self.start

    def describe(self) -> str:
        """What happened, prompt by prompt, for a report: its events (and where the user
        walked away), each request it made and whether it was refused, each tool run, and
        the record after it."""
        lines = [f"record at the start: {_shape_or_empty(self.start)}"]
        for k, (prompt, events) in enumerate(zip(self.case["prompts"], self.events)):
            cut, walked = prompt.get("walk_away_after"), ""
            if cut is not None and len(events) == cut:
                walked = f", walked away after event {cut}" + (f" ({events[-1]})" if events else "")
            taken = f": {counted(len(events), 'event')}{walked}" if self.loop == "Harness" else ""
            lines.append(f"prompt {k + 1} {prompt['text']!r}{taken}")
            for n, sent in enumerate(self.requests, 1):
                if sent.prompt == k:
                    lines.append(f"  request {n}: {_shape_or_empty(sent.messages)}"
                                 + (f"  REFUSED: {sent.refusal}" if sent.refusal else ""))
            for run in self.runs:
                if run.prompt == k:
                    ended = (("raised " if run.is_error else "returned ") + repr(run.content)
                             if run.finished else "did not finish")
                    lines.append(f"  tool {run.name} ran for call {run.call_id}"
                                 f"{' (in a failed reply)' if run.in_failed_reply else ''}: {ended}")
            if k < len(self.records):
                lines.append(f"  record after it: {_shape_or_empty(self.records[k])}")
        if self.raised:
            lines.append(f"the harness raised: {self.raised}")
        return "\n".join(lines)

    def to_data(self) -> dict[str, Any]:
        """The visit as plain data (JSON's kinds only), for lab.notebook.casebook to save."""
        data = asdict(self)
        for sent in data["requests"]:
            sent["ran"] = sorted(sent["ran"], key=repr)
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Visit:
        """The visit `to_data` wrote, whole again: judging it gives what judging it then gave."""
        fields = dict(data)
        fields["requests"] = [Sent(**dict(sent, ran=frozenset(sent["ran"])))
                              for sent in data["requests"]]
        fields["runs"] = [Run(**run) for run in data["runs"]]
        return cls(**fields)


def visit(harness: types.ModuleType, case: dict[str, Any]) -> Visit:
    """Run `case` on `harness` (a harness module with SYSTEM, and Harness or run_agent) and
    return what happened as a Visit. CaseError when the case cannot be run; an exception the
    harness raises ends the session and is kept in `raised`, as a fact to judge."""
    why = problem(case, harness)
    if why:
        raise CaseError(why)
    limit, case = case.get("max_turns"), _with_defaults(case)
    seen = Visit(case=case, interrupted=getattr(harness, "INTERRUPTED", ""),
                 loop="Harness" if hasattr(harness, "Harness") else "run_agent")
    model = _Model(case["replies"], seen)
    tools = [_tool(spec, model, seen) for spec in case["tools"]]
    try:
        if seen.loop == "Harness":
            model.harness = harness.Harness(model, harness.SYSTEM, tools, max_turns=limit,
                                            messages=copy.deepcopy(case["record"]))
            model.record = lambda: model.harness.messages
        else:
            record = copy.deepcopy(case["record"])
            model.record = lambda: record
        seen.start = _snapshot(model.record())
        for prompt in case["prompts"]:
            seen.typed.append(prompt["text"])
            seen.events.append([])
            if seen.loop == "Harness":
                _drive(model.harness.prompt(prompt["text"]), prompt.get("walk_away_after"),
                       seen.events[-1])
            else:
                harness.run_agent(model, harness.SYSTEM, record, tools, prompt["text"],
                                  max_turns=limit)
            seen.records.append(_snapshot(model.record()))
    except Exception as error:  # a fact about the harness, judged like any other
        seen.raised = f"{type(error).__name__}: {error}"
    return seen


def _drive(run, stop_after, events):
    """Take the run's events into `events`, and close it after `stop_after` of them, as a
    consumer that walks away does (lab.drive, without an event loop, so that it also runs
    inside a notebook's)."""
    try:
        for event in run:
            events.append(event["type"])
            if stop_after is not None and len(events) >= stop_after:
                break
    finally:
        run.close()


def _list(value: object) -> list[Any]:
    """`value` when it is a list, else an empty one."""
    return value if type(value) is list else []


def _snapshot(messages):
    return copy.deepcopy(list(messages))


class _Model:
    """The case's ScriptedModel, watched: each request is kept with the record as it stood,
    and each reply handed out is kept, so that a tool run can be tied to its call."""

    def __init__(self, replies, seen):
        self._model = ScriptedModel(list(replies) + [forever(lambda request: say(DONE))])
        self._seen = seen
        self.harness: Any = None  # the harness's Harness, when it has one
        self.record: Callable[[], list[Any]] | None = None

    def complete(self, system, messages, tools):
        record = _snapshot(self.record()) if self.record is not None else []
        reply = self._model.complete(system, messages, tools)
        sent = self._model.calls[-1].messages
        refused = bool(validate(sent))  # what made the scripted model refuse it
        ran = frozenset(run.call_id for run in self._seen.runs if run.finished)
        self._seen.requests.append(Sent(sent, record, reply["error_message"] if refused else "",
                                        ran, len(self._seen.events) - 1))
        self._seen.replies.append(reply)
        return reply

    def call_for(self, name, arguments):
        """(call id, in a failed reply) of the call a tool run was for: the call whose very
        arguments the tool was handed, or else the first one asked of that tool with equal
        arguments that has not run yet."""
        ran = {run.call_id for run in self._seen.runs}
        candidates = [(block, reply) for reply in self._seen.replies
                      for block in reply["content"] if block.get("type") == "toolCall"]
        found = next(((b, r) for b, r in candidates if b["arguments"] is arguments), None) or \
            next(((b, r) for b, r in candidates if b["name"] == name
                  and b["arguments"] == arguments and b["id"] not in ran), None)
        if found is None:
            return None, False
        return found[0]["id"], found[1]["stop_reason"] == "error"


def _tool(spec, model, seen):
    """A tool dict that does what `spec` says, and notes every run in `seen.runs`."""
    steer = [spec.get("steer")] if spec.get("steer") else []

    def execute(arguments):
        call_id, in_failed = model.call_for(spec["name"], arguments)
        run = Run(call_id, spec["name"], in_failed, len(seen.events) - 1)
        seen.runs.append(run)
        if steer:  # the user types while the tool runs: once, the first time it runs
            words = steer.pop()
            seen.typed.append(words)
            model.harness.steer(words)
        run.finished, run.is_error = True, "error" in spec
        run.content = spec["error"] if run.is_error else spec["result"]
        if run.is_error:
            raise RuntimeError(spec["error"])
        return spec["result"]

    return {"name": spec["name"], "description": f"The case's {spec['name']} tool.",
            "parameters": {"type": "object", "properties": {}}, "execute": execute}


# -- what a case may hold -------------------------------------------------------------------

def problem(case: object, harness: types.ModuleType | None = None) -> str | None:
    """What is wrong with `case`, in a sentence that says what to change; None when it can
    be run (on `harness`, when one is given: a run_agent harness takes no walk-away and no
    steer)."""
    if type(case) is not dict:
        return f"a case is a dict with {', '.join(sorted(KEYS))}; this is a {type(case).__name__}"
    extra = sorted(set(case) - KEYS)
    if extra:
        return f"a case has no {', '.join(map(repr, extra))}; its keys are {', '.join(sorted(KEYS))}"
    limit = case.get("max_turns")
    if limit is not None and (type(limit) is not int or not 1 <= limit <= MOST["replies"]):
        return (f"case['max_turns'] is a whole number of requests from 1 to {MOST['replies']}, "
                f"not {limit!r}")
    for key, most in MOST.items():
        value = case.get(key, [])
        if type(value) is not list:
            return f"case[{key!r}] must be a list, not a {type(value).__name__}"
        if len(value) > most:
            return f"case[{key!r}] holds {counted(len(value), 'item')}; a case needs at most {most}"
    calls = sum(type(b) is dict and b.get("type") == "toolCall"
                for m in case.get("replies", []) if type(m) is dict
                for b in _list(m.get("content")))
    if calls > MOST_CALLS:
        return f"case['replies'] ask for {calls} tool calls; a case needs at most {MOST_CALLS}"
    try:
        size = len(json.dumps(case))
    except (TypeError, ValueError, RecursionError) as error:
        return f"a case is plain data (dicts, lists, strings, numbers): {error}"
    if size > MOST_BYTES:
        return f"the case is {counted(size, 'byte')} of JSON; a case needs at most {MOST_BYTES}"
    if not case.get("prompts"):
        return "a case types at least one prompt: without a request there is nothing to judge"
    for k, message in enumerate(case.get("record", [])):
        if not _is_message(message):
            return f"case['record'][{k}] is not a lab message: {show([message], clip=60)}"
    for k, message in enumerate(case.get("replies", [])):
        if not _is_message(message) or message["role"] != "assistant":
            return f"case['replies'][{k}] is not an assistant message (lab.reply, lab.say, lab.fail)"
    names = [spec.get("name") if type(spec) is dict else None for spec in case.get("tools", [])]
    for k, spec in enumerate(case.get("tools", [])):
        if not _is_tool(spec):
            return (f"case['tools'][{k}] is not a tool: a dict with a \"name\", and a "
                    "\"result\" or an \"error\" (text), and maybe a \"steer\" (text)")
        if names.count(spec["name"]) > 1:
            return f"case['tools'] has two tools named {spec['name']!r}"
    for k, prompt in enumerate(case["prompts"]):
        if not _is_prompt(prompt):
            return (f"case['prompts'][{k}] is not a prompt: a dict with a \"text\", and maybe "
                    "\"walk_away_after\" (a whole number of events, 1 or more)")
    if harness is not None and not hasattr(harness, "Harness"):
        if any("walk_away_after" in prompt for prompt in case["prompts"]):
            return ("this harness's loop is run_agent, which hands out no events, so there is "
                    "nothing to walk away after: leave out \"walk_away_after\"")
        if any("steer" in spec for spec in case.get("tools", [])):
            return ("this harness's loop is run_agent, which takes no steering: leave out "
                    "the tool's \"steer\"")
    return None


def _with_defaults(case):
    """The case's lists, each one there (empty when the case left it out), and its max_turns
    only when it gives one, so that a case without a limit reads as it always did."""
    full = {key: copy.deepcopy(case.get(key, [])) for key in sorted(LISTS)}
    return full | ({"max_turns": case["max_turns"]} if "max_turns" in case else {})


def _is_message(m):
    if type(m) is not dict:
        return False
    if m.get("role") == "user":
        return type(m.get("content")) is str
    if m.get("role") == "toolResult":
        return (type(m.get("tool_call_id")) is str and type(m.get("tool_name")) is str
                and type(m.get("content")) is str and type(m.get("is_error")) is bool)
    if m.get("role") == "assistant":
        return (type(m.get("content")) is list and all(map(_is_block, m["content"]))
                and m.get("stop_reason") in ("stop", "toolUse", "error")
                and (m["stop_reason"] != "error" or type(m.get("error_message")) is str))
    return False


def _is_block(b):
    if type(b) is not dict:
        return False
    if b.get("type") == "text":
        return type(b.get("text")) is str
    return (b.get("type") == "toolCall" and type(b.get("id")) in (str, type(None))
            and type(b.get("name")) is str and type(b.get("arguments")) is dict)


def _is_tool(spec):
    return (type(spec) is dict and type(spec.get("name")) is str
            and set(spec) <= {"name", "result", "error", "steer"}
            and (("result" in spec) != ("error" in spec))
            and all(type(spec[k]) is str for k in spec))


def _is_prompt(prompt):
    """A walk-away comes after at least one event: a run closed before its first event never
    starts, so its finally never runs and lesson 10's Harness is left running. That is a fact
    about generators for lesson 10 to deal with, not something a case can be judged on."""
    if type(prompt) is not dict or type(prompt.get("text")) is not str:
        return False
    if not set(prompt) <= {"text", "walk_away_after"}:
        return False
    cut = prompt.get("walk_away_after")
    return cut is None or (type(cut) is int and cut >= 1)


def _shape_or_empty(messages):
    return shape(messages) or "(empty)"
