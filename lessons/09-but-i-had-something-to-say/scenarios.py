"""Lesson 09's sessions, run on the student's harness inside the grader's child process.

A job is a plan: one entry per request the model answers, in order. An entry is a number, that
many calls to the `step` tool in one reply (0 is a reply in words), or "fail", a reply that
fails. After the plan the model answers in words. While the job runs, the user types: `typed`
maps a moment to what they type then, a list of ["steer" or "follow_up", words]. A moment is
"before:N" (before prompt N is sent, counting from 0) or "exec:N" (while the N-th tool
execution of the whole session runs, counting from 1).

`loop` drives run_agent itself (keeping its own copy of the record from the events), with queues of its own behind get_steering and get_follow_ups
(one message per ask, as the lesson's Harness gives them) and notes every ask; `session`
drives the student's Harness. Both return plain facts; nothing here decides a verdict.
"""

import asyncio

import lab
from lab.testkit import handed_out

STEP = {"type": "object", "properties": {"n": {"type": "integer", "description": "Which step."}},
        "required": ["n"]}


def loop(harness, plan, typed=None, seed=None):
    """One prompt through run_agent, with the grader's own queues and a log of every ask."""
    queues, asks, record = {"steer": [], "follow_up": []}, [], []
    model, tools = _model(plan, seed), _tools(typed or {}, lambda kind, words:
                                              queues[kind].append(harness.user_message(words)))

    def asker(kind, name):
        def ask():
            asks.append({"asked": name, "at": len(record), "unanswered": _unanswered(record),
                         "last": _last_reply(record)})
            return [queues[kind].pop(0)] if queues[kind] else []
        return ask

    for kind, words in (typed or {}).get("before:0", []):
        queues[kind].append(harness.user_message(words))
    # The record is the grader's own copy, kept from the run's message_end events as they come:
    # the list run_agent appends to lives with the student's module.
    events = []
    for event in harness.run_agent(model, harness.SYSTEM, [], tools, "Do the job.",
                                   get_steering=asker("steer", "steering"),
                                   get_follow_ups=asker("follow_up", "follow_ups")):
        events.append(event)
        if event["type"] == "message_end":
            record.append(event["message"])
    return {"record": record, "asks": asks, "events": [e["type"] for e in events],
            "requests": [r.messages for r in model.calls], "left": queues}


def session(harness, plan, typed=None, prompts=("Do the job.",), seed=None, prompt_mid_run=False):
    """Each prompt through the student's Harness, the user typing at the moments of `typed`.
    With `prompt_mid_run`, the first run is started and, after its first event, prompted
    again; what that raised is kept."""
    typed, slot, refusals = typed or {}, [], []
    model = _model(plan, seed)
    h = harness.Harness(model, harness.SYSTEM,
                        _tools(typed, lambda kind, words: getattr(slot[0], kind)(words)))
    slot.append(h)
    ended = []
    for n, words in enumerate(prompts):
        for kind, said in typed.get(f"before:{n}", []):
            getattr(h, kind)(said)
        run = h.prompt(words)
        if prompt_mid_run and n == 0:
            next(run)
            try:
                h.prompt("And another thing.")
                refusals.append("")
            except Exception as error:  # across the sandbox: a StudentRaised, its kind the type
                kind = getattr(error, "kind", "") or type(error).__name__
                words = str(error)
                refusals.append(f"{kind}: {words.split(': ', 1)[1] if kind in words else words}")
        asyncio.run(lab.drive(run))
        ended.append(len(h.messages))
    return {"record": list(h.messages), "requests": [r.messages for r in model.calls],
            "ended": ended, "refusals": refusals, "running": h.is_running}


def handing_out(harness, seed=None):
    """A job of two steps, run to its end through the student's Harness; then a caller appends
    a message to what h.messages handed it (lab.testkit.handed_out): the facts."""
    h = harness.Harness(_model([2], seed), harness.SYSTEM, _tools({}, None))
    asyncio.run(lab.drive(h.prompt("Do the job.")))
    return handed_out(h, "messages")


def _model(plan, seed):
    plan, answered = list(plan), [0]

    def answer(request):
        n, answered[0] = answered[0], answered[0] + 1
        entry = plan[n] if n < len(plan) else 0
        if entry == "fail":
            return lab.fail("503 overloaded")
        if entry == 0:
            return lab.say(f"Reply {n + 1}, in words.")
        return lab.reply(lab.text(f"Reply {n + 1}."),
                         *[lab.call("step", {"n": k}) for k in range(1, entry + 1)])

    ids = lab.random_ids(seed) if seed is not None else lab.numbered
    return lab.ScriptedModel([lab.forever(answer)], ids=ids)


def _tools(typed, type_in):
    executions = [0]

    def step(arguments):
        executions[0] += 1
        for kind, words in typed.get(f"exec:{executions[0]}", []):
            type_in(kind, words)
        return f"step {arguments['n']} done"

    return [{"name": "step", "description": "Do one step of the job.", "parameters": STEP,
             "execute": step}]


def _unanswered(record):
    answered = {m["tool_call_id"] for m in record if m["role"] == "toolResult"}
    return sum(1 for m in record if m["role"] == "assistant"
               for block in m["content"] if block["type"] == "toolCall"
               and block["id"] not in answered)


def _last_reply(record):
    """What the newest assistant message was: "none", "failed", "calls" or "words"."""
    replies = [m for m in record if m["role"] == "assistant"]
    if not replies:
        return "none"
    last = replies[-1]
    if last.get("stop_reason") == "error":
        return "failed"
    return "calls" if any(b["type"] == "toolCall" for b in last["content"]) else "words"
