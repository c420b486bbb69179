"""Lesson 08's sessions, run on the student's Harness inside the grader's child process.

One function, `session`, plays a list of operations against one Harness of the student's, as
the callers of a real program would: a screen and a background job, each holding the run it
started (or none), each free to prompt, take events, or walk away. The model and the tools
are the grader's own, so every request the harness sends and every tool it runs is seen here.
What comes back is plain facts, one entry an operation, for the test to judge: whether the
operation raised (and what), which events it took, whether the run came to its end, and what
is_running said straight after. Nothing here decides a verdict.

Operations, each a list:
    ["prompt", caller, text]   h.prompt(text); the run it returns is `caller`'s from now on
    ["take", caller, k]        up to k events of caller's run (None: every one left)
    ["close", caller]          caller walks away: run.close()
The model answers a prompt that starts with "job" with a job of three steps (steps 1 and 2
in one reply, step 3 in the next, then "Done.": 21 events, left alone); a prompt that starts
with "crash" by raising, as a dropped connection does; anything else in words.
"""

import lab
from lab.testkit import StudentRaised, handed_out

JOB = "job: do the three steps"
STEP = {"type": "object", "properties": {"n": {"type": "integer", "description": "Which step."}},
        "required": ["n"]}


def session(harness, operations, seed=None):
    ids = lab.random_ids(seed) if seed is not None else lab.numbered
    ran = []
    model = lab.ScriptedModel([lab.forever(_answer)], ids=ids)
    h = harness.Harness(model, harness.SYSTEM, [_step_tool(ran)])
    runs, outcomes = {}, []
    for operation in operations:
        outcomes.append(_play(h, runs, operation))
    return {"outcomes": outcomes, "record": list(h.messages), "ran": ran,
            "requests": [request.messages for request in model.calls]}


def handing_out(harness, seed=None):
    """The job, run to its end; then a caller appends a message to what h.messages handed it
    (lab.testkit.handed_out), and the facts: h.messages before and after, and what the append
    was made on."""
    ids = lab.random_ids(seed) if seed is not None else lab.numbered
    model = lab.ScriptedModel([lab.forever(_answer)], ids=ids)
    h = harness.Harness(model, harness.SYSTEM, [_step_tool([])])
    for _ in h.prompt(JOB):
        pass
    return handed_out(h, "messages")


def _play(h, runs, operation):
    kind, caller = operation[0], operation[1]
    outcome = {"op": kind, "caller": caller, "raised": None, "events": [], "done": False}
    try:
        if kind == "prompt":
            runs[caller] = h.prompt(operation[2])
        elif kind == "take":
            run, wanted = runs.get(caller), operation[2]
            while run is not None and (wanted is None or len(outcome["events"]) < wanted):
                try:
                    outcome["events"].append(next(run)["type"])
                except StopIteration:
                    outcome["done"] = True
                    runs.pop(caller, None)
                    break
        elif kind == "close":
            run = runs.pop(caller, None)
            if run is not None:
                run.close()
    except StudentRaised as error:
        outcome["raised"] = [error.kind, str(error)]
        if kind == "take":
            runs.pop(caller, None)  # a run that raised is over: nothing more comes out of it
    outcome["running"] = h.is_running
    return outcome


def _answer(request):
    said = [m["content"] for m in request.messages if m["role"] == "user"][-1]
    if said.startswith("crash"):
        raise ConnectionError("connection reset by peer")
    if not said.startswith("job"):
        return lab.say(f"Noted: {said}")
    last = max(i for i, m in enumerate(request.messages) if m["role"] == "user")
    results = sum(m["role"] == "toolResult" for m in request.messages[last:])
    if results == 0:
        return lab.reply(lab.text("Two steps first."),
                         lab.call("step", {"n": 1}), lab.call("step", {"n": 2}))
    if results == 2:
        return lab.reply(lab.text("One more."), lab.call("step", {"n": 3}))
    return lab.say("Done.")


def _step_tool(ran):
    def step(arguments):
        ran.append(arguments["n"])
        return f"step {arguments['n']}: ok"

    return {"name": "step", "description": "Do one step of the job.", "parameters": STEP,
            "execute": step}
