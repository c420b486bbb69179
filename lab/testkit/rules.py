"""The course's rules, judged on what a session did (a lab.testkit.clinic.Visit), never on its code.

    breaches = rules.judge(clinic.visit(harness, case))   # [] when the harness kept them all

Each rule is checked from facts the clinic saw for itself: the requests the model received,
the record as it stood at each request and after each prompt, the replies handed out, and the
tool runs with the call each was for. A Breach names its rule, says what happened in a
sentence, and points at the request it shows in (None when it shows in the record alone);
`explain` prints it with the record, the request and the refusal, and `picture` draws them.
"""

from collections.abc import Iterator
from dataclasses import dataclass

from lab.kit.counting import counted
from lab.kit.display import shape, show
from lab.kit.figures import Figure, Panel, draw
from lab.kit.validate import validate
from lab.testkit.clinic import Visit

RULES = {
    "provider": "the provider never refuses a request.",
    "record": "the record keeps what happened and is never rewritten: it only grows, and holds "
              "nothing but prompts and steers typed, replies the model gave, results tools "
              "produced, and the harness's own note that a run reached max_turns.",
    "told": "the model is never told something nothing supports: every message of a request is "
            "one the record holds, or INTERRUPTED for a call whose tool never finished.",
    "real_wins": "a real result beats a made-up one: a call whose result is on the record is "
                 "never shown INTERRUPTED.",
    "steering": "steering lands only between batches: no user message is recorded between a "
                "call and its result.",
    "failed": "a failed reply is never acted on: no tool runs for a call in a failed reply.",
    "raised": "a session never crashes the harness: what a model or a tool does wrong is data "
              "in the record, not an exception.",
    "ended": "a run ends only when the model stops asking: a prompt left to run leaves the "
             "record ending on a reply that asks for no tool, or on a failed one.",
    "limit": "a run makes at most max_turns requests: the limit counts every request of a "
             "prompt, the first one too.",
}


@dataclass(frozen=True)
class Breach:
    rule: str      # a key of RULES
    what: str      # what happened, in a sentence
    request: int | None = None  # the index in visit.requests where it shows, if it does

    def __str__(self) -> str:
        return f"{self.rule}: {RULES[self.rule]} {self.what}"


def judge(visit: Visit) -> list[Breach]:
    """Every breach of every rule in `visit`, rule by rule, in the order of RULES; within a
    rule, the first time each distinct thing went wrong."""
    found: list[Breach] = []
    for rule in (provider, record, told, real_wins, steering, failed, raised, ended, limit):
        for breach in rule(visit):
            if breach.what not in {b.what for b in found}:
                found.append(breach)
    return found


def provider(visit: Visit) -> Iterator[Breach]:
    for n, sent in enumerate(visit.requests):
        problems = validate(sent.messages)
        if problems:
            yield Breach("provider", f"Request {n + 1} was refused: {problems[0]}", n)


def record(visit: Visit) -> Iterator[Breach]:
    before = visit.start
    if before != visit.case["record"]:
        yield Breach("record", "The harness was handed one record and started from another: "
                               f"{_shape(visit.case['record'])} became {_shape(before)}.")
    for k, after in enumerate(visit.records):
        if after[:len(before)] != before:
            changed = next((i for i, (a, b) in enumerate(zip(before, after)) if a != b),
                           min(len(before), len(after)))
            yield Breach("record", f"During prompt {k + 1} the record was rewritten: message "
                                   f"{changed} was {_one(before, changed)} and is now "
                                   f"{_one(after, changed)}.")
        before = after
    for snapshot in visit.records:
        for message in snapshot:
            if message not in visit.start and not _happened(visit, message):
                yield Breach("record", f"The record holds {show([message], clip=60)}, which "
                                       "nobody typed, no model replied and no tool produced.")


def told(visit: Visit) -> Iterator[Breach]:
    for n, sent in enumerate(visit.requests):
        for message in sent.messages:
            if message in sent.record:
                continue
            if not _is_interrupted(visit, message):
                yield Breach("told", f"Request {n + 1} holds {show([message], clip=60)}, which "
                                     "the record does not.", n)
            elif message["tool_call_id"] in sent.ran:
                yield Breach("told", f"Request {n + 1} tells the model call "
                                     f"{message['tool_call_id']} was interrupted, but its tool "
                                     "ran to the end.", n)


def real_wins(visit: Visit) -> Iterator[Breach]:
    for n, sent in enumerate(visit.requests):
        real = {m["tool_call_id"] for m in sent.record
                if m["role"] == "toolResult" and not _is_interrupted(visit, m)}
        for message in sent.messages:  # made up for the request, not recorded
            if (_is_interrupted(visit, message) and message not in sent.record
                    and message["tool_call_id"] in real):
                yield Breach("real_wins", f"Request {n + 1} shows INTERRUPTED for call "
                                          f"{message['tool_call_id']}, whose real result is on "
                                          "the record.", n)


def steering(visit: Visit) -> Iterator[Breach]:
    for snapshot in visit.records:
        for i, message in enumerate(snapshot):
            if message["role"] != "assistant" or message in visit.start:
                continue  # only the session's own calls: a handed-over record is the case's
            for call in (b for b in message["content"] if b["type"] == "toolCall"):
                answer = next((j for j in range(i + 1, len(snapshot))
                               if snapshot[j]["role"] == "toolResult"
                               and snapshot[j]["tool_call_id"] == call["id"]), None)
                waited = snapshot[i + 1:answer] if answer is not None else []
                if any(m["role"] == "assistant" for m in waited):
                    continue  # a later reply reused the id: that result answers another call
                between = [m for m in waited if m["role"] == "user" and m not in visit.start]
                if between:
                    yield Breach("steering", f"{show(between[:1], clip=50)} was recorded "
                                             f"between call {call['id']} and its result.")


def failed(visit: Visit) -> Iterator[Breach]:
    for run in visit.runs:
        if run.in_failed_reply:
            yield Breach("failed", f"The tool {run.name} ran for call {run.call_id}, which "
                                   "is in a failed reply.")


def raised(visit: Visit) -> Iterator[Breach]:
    if visit.raised:
        yield Breach("raised", f"The harness raised {visit.raised}.")


def ended(visit: Visit) -> Iterator[Breach]:
    for k, (prompt, after) in enumerate(zip(visit.case["prompts"], visit.records)):
        cut = prompt.get("walk_away_after")
        if cut is not None and len(visit.events[k]) >= cut:
            continue  # the user walked away: the run was stopped, not left to end
        last = after[-1] if after else None
        if last is None or last.get("role") != "assistant":
            yield Breach("ended", f"Prompt {k + 1}'s run stopped on "
                                  f"{show(after[-1:], clip=50) or 'nothing'}, with no reply "
                                  "after it.")
        elif last.get("stop_reason") != "error" and any(
                b.get("type") == "toolCall" for b in last.get("content", [])):
            yield Breach("ended", f"Prompt {k + 1}'s run stopped on a reply whose calls were "
                                  f"never answered: {show([last], clip=50)}.")


def limit(visit: Visit) -> Iterator[Breach]:
    most = visit.case.get("max_turns")
    if most is None:
        return
    for k in range(len(visit.case["prompts"])):
        made = [n for n, sent in enumerate(visit.requests) if sent.prompt == k]
        if len(made) > most:
            yield Breach("limit", f"Prompt {k + 1} made {counted(len(made), 'request')}; "
                                  f"max_turns is {most}.", made[most])


# -- showing a breach -----------------------------------------------------------------------

def explain(visit: Visit, breach: Breach) -> str:
    """A breach as a report shows it: the rule, what happened, and the record, the request
    and the refusal it shows in (or the record as the session left it)."""
    lines = [str(breach)]
    if breach.request is not None:
        sent = visit.requests[breach.request]
        lines.append(f"  {'the record then:':17} {_shape(sent.record)}")
        lines.append(f"  {f'request {breach.request + 1}:':17} {_shape(sent.messages)}")
        lines.append(f"  {'the provider:':17} {sent.refusal or 'accepted it'}")
    else:
        lines.append(f"  {'the record:':17} {_shape(visit.record)}")
    return "\n".join(lines)


def picture(visit: Visit, breach: Breach, title: str = "") -> Figure:
    """A figure of where `breach` shows, the rule in its title and what broke it under it.
    A breach in a request: the record and the request lined up message by message, so that
    whatever the request holds and the record does not is marked, and a refusal is flagged
    where the provider found it. A breach in the record alone: the record as the session
    left it."""
    note = f"Broken: {breach.what}"
    title = title or f"Rule broken: {RULES[breach.rule]}"
    if breach.request is None:
        return draw(Panel("the record, as the session left it", visit.record, check=False,
                          note=note), title=title)
    sent = visit.requests[breach.request]
    return draw(Panel("the record, when the request was sent", sent.record, check=False),
                Panel(f"request {breach.request + 1}, as the model received it", sent.messages,
                      note=note), compare=True, title=title)


def _happened(visit, message):
    role = message.get("role")
    if role == "user":
        return message.get("content") in visit.typed
    if role == "assistant":
        return message in visit.replies or (visit.case.get("max_turns") is not None
                                            and message.get("stop_reason") == "error"
                                            and not message.get("content"))
    tools = {spec["name"] for spec in visit.case["tools"]}
    asked = {c["id"]: c["name"] for reply in visit.replies for c in reply["content"]
             if c["type"] == "toolCall"}
    call_id = message.get("tool_call_id")
    if call_id in asked and asked[call_id] not in tools:
        return message.get("is_error") is True  # a call to a tool the session lacks: its error
    return any(run.finished and run.call_id == message.get("tool_call_id")
               and run.content == message.get("content") and run.is_error == message.get("is_error")
               for run in visit.runs)


def _is_interrupted(visit, message):
    """A made-up INTERRUPTED result; a harness that has no INTERRUPTED (lesson 05's) makes
    none up."""
    return (bool(visit.interrupted) and message.get("role") == "toolResult"
            and message.get("content") == visit.interrupted and message.get("is_error") is True)


def _one(messages, index):
    return show(messages[index:index + 1], clip=50) if index < len(messages) else "(gone)"


def _shape(messages):
    return shape(messages) or "(empty)"
