"""Lesson 15's sessions, each a function of the student's harness module.

Every function here takes the harness module first and returns plain data: the facts a test
judges, never a verdict. The tools are the grader's, and they keep a log of what really
happened to them (started, met the other tool, finished, cancelled, cleaned up), so a harness is
judged by what its tools lived through, not by what it says about them.

No session here waits for a clock. A tool that waits for another one waits a number of turns
of the event loop (PATIENCE), never seconds: two tools run at the same time meet within a few
turns on any machine, and two tools run one after the other never meet, however fast the
machine is. A tool that "hangs" waits the same way, so a harness that never stops it still
finishes, and is caught by the log.
"""

import asyncio

import lab

SYSTEM_PROMPT = "You are a helpful assistant."
PATIENCE = 2000  # turns of the event loop a tool waits for something before it gives up
JOB = "Do the job."


class Desk:
    """What the grader's tools lived through, in order, and what is going on right now."""

    def __init__(self):
        self.log, self.started, self.finished, self.going = [], set(), set(), set()

    def note(self, what, call_id):
        self.log.append(f"{what} {call_id}")


def step_tool(desk, trigger):
    """The `step` tool. Its arguments say what it does: {"id": the call's own name in the log,
    "meet": another id (wait until that one has started too), "after": another id (wait until
    that one has finished), "hang": true (wait until stopped), "fail": a reason (raise)}."""

    async def execute(arguments):
        me = arguments["id"]
        desk.started.add(me)
        desk.going.add(me)
        desk.note("start", me)
        trigger(me)
        try:
            for key, done in (("meet", desk.started), ("after", desk.finished)):
                if key in arguments:
                    met = await waited(lambda: arguments[key] in done)
                    desk.note(f"{key} {arguments[key]}: {'yes' if met else 'gave up'}", me)
            if arguments.get("hang"):
                await waited(lambda: False)
                desk.note("was never stopped", me)
            if "fail" in arguments:
                raise ValueError(arguments["fail"])
            desk.finished.add(me)
            desk.note("finish", me)
            return f"step {me} done"
        except asyncio.CancelledError:
            desk.note("cancelled", me)
            raise
        finally:
            desk.going.discard(me)
            desk.note("cleaned up", me)

    return {"name": "step", "description": "Do one step of the job.",
            "parameters": {"type": "object", "properties": {"id": {"type": "string"}},
                           "required": ["id"]},
            "execute": execute}


def note_tool(desk):
    """The `note` tool: a plain function, not async. It finishes the moment it is called."""

    def execute(arguments):
        desk.started.add(arguments["id"])
        desk.finished.add(arguments["id"])
        desk.note("note", arguments["id"])
        return f"noted {arguments['id']}"

    return {"name": "note", "description": "Take a note.",
            "parameters": {"type": "object", "properties": {"id": {"type": "string"}},
                           "required": ["id"]},
            "execute": execute}


async def waited(condition):
    """Whether `condition()` came true within PATIENCE turns of the event loop."""
    for _ in range(PATIENCE):
        if condition():
            return True
        await asyncio.sleep(0)
    return condition()


def job(harness, calls, stop=None, then=(), steer_at=None):
    """One reply asking for `calls` (each {"name": "step" or "note", "arguments": {...}}, the
    id is arguments["id"]), then "Done." for the job and "Answered." for every later prompt.

    `stop` ends the job early: ("close", k) closes the run after k events (aclose, as
    lab.drive does); ("cancel", id) cancels the task reading the run when tool `id` starts;
    ("abort", id) calls the harness's abort() when tool `id` starts. `steer_at` is a tool id:
    when it starts, the user steers ("Use spaces."). `then` are prompts sent afterwards.
    """
    return asyncio.run(_job(harness, calls, stop, then, steer_at))


async def _job(harness, calls, stop, then, steer_at):
    desk, reading = Desk(), {}
    h = None

    def trigger(me):
        if stop and stop[0] == "cancel" and stop[1] == me:
            reading["task"].cancel()
        if stop and stop[0] == "abort" and stop[1] == me:
            h.abort()
        if steer_at == me:
            h.steer("Use spaces.")

    blocks = [lab.call(c["name"], c["arguments"], id=c["arguments"]["id"]) for c in calls]
    model = lab.ScriptedModel([lab.reply(lab.text("On it."), *blocks), lab.say("Done."),
                               lab.forever(lambda request: lab.say("Answered."))])
    h = harness.Harness(model, harness.SYSTEM, [step_tool(desk, trigger), note_tool(desk)])
    events, ended = [], {"raised": None}
    run = h.prompt(JOB)
    close_after = stop[1] if stop and stop[0] == "close" else None
    reading["task"] = asyncio.ensure_future(_read(run, events, close_after))
    try:
        await reading["task"]
    except asyncio.CancelledError:
        ended["raised"] = "CancelledError"
    except Exception as error:  # the student's code: what it raised is the answer
        ended["raised"] = f"{type(error).__name__}: {error}"
    ended["going"] = sorted(desk.going)
    ended["is_running"] = h.is_running
    ended["record"] = plain(h.messages)
    answers = []
    for words in then:
        try:
            await lab.drive(h.prompt(words))
            last = h.messages[-1]
            answers.append(last.get("error_message") or harness.text_of(last))
        except Exception as error:
            answers.append(f"raised {type(error).__name__}: {error}")
    return {"events": events, "log": desk.log, "ended": ended, "answers": answers,
            "record": plain(h.messages), "going_at_the_end": sorted(desk.going),
            "requests": [plain(request.messages) for request in model.calls]}


async def _read(run, events, close_after):
    """Read the run's events, as a frontend does, into `events` (each as plain data)."""
    for event in await lab.drive(run, stop_after=close_after):
        events.append(described(event))


def described(event):
    """An event as plain data: its type, and the call or message it is about."""
    said = {"type": event["type"]}
    if "call" in event:
        said["call"] = event["call"]["id"]
    if "message" in event:
        said["message"] = plain(event["message"])
    if event["type"] == "agent_end":
        said["messages"] = plain(event["messages"])
    return said


def left_open(harness):
    """A consumer that breaks out of `async for` after the first tool starts and never closes
    the run: whether the harness is still running just after, and after the event loop has had
    PATIENCE turns to finish the run on its own."""
    return asyncio.run(_left_open(harness))


async def _left_open(harness):
    desk = Desk()
    model = lab.ScriptedModel([lab.reply(lab.call("step", {"id": "c1", "hang": True}, id="c1")),
                               lab.forever(lambda request: lab.say("Answered."))])
    h = harness.Harness(model, harness.SYSTEM, [step_tool(desk, lambda me: None)])

    async def frontend():
        async for event in h.prompt(JOB):
            if event["type"] == "tool_execution_start":
                break

    await frontend()
    just_after = h.is_running
    await waited(lambda: not h.is_running)
    return {"just_after": just_after, "later": h.is_running, "log": desk.log,
            "record": plain(h.messages)}


def unstarted(harness, how):
    """A run handed out by prompt() and then closed ("close") or dropped ("drop") before its
    first step: whether the harness is running afterwards, and whether a new prompt works."""
    return asyncio.run(_unstarted(harness, how))


async def _unstarted(harness, how):
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Answered."))])
    h = harness.Harness(model, harness.SYSTEM, [])
    run = h.prompt("Hello?")
    before = h.is_running
    if how == "close":
        await run.aclose()
    del run
    after = h.is_running
    try:
        await lab.drive(h.prompt("Are you there?"))
        next_prompt = harness.text_of(h.messages[-1])
    except Exception as error:
        next_prompt = f"raised {type(error).__name__}: {error}"
    return {"before": before, "after": after, "next_prompt": next_prompt}


def twice(harness):
    """prompt() while a run is going: what it raises, and whether the first run is unharmed."""
    return asyncio.run(_twice(harness))


async def _twice(harness):
    model = lab.ScriptedModel([lab.say("First."), lab.say("Second.")])
    h = harness.Harness(model, harness.SYSTEM, [])
    run = h.prompt("One.")
    first = await run.__anext__()
    try:
        h.prompt("Two.")
        refused = None
    except RuntimeError as error:
        refused = str(error)
    rest = await lab.drive(run)
    return {"refused": refused, "first": first["type"], "rest": [e["type"] for e in rest],
            "record": plain(h.messages)}


def plain(value):
    """`value` as plain data (tuples as lists), so that it crosses to the grader as it is."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
