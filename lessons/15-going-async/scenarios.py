"""Lesson 15's sessions, each a function of the student's harness module.

Every function here takes the harness module first and returns plain data: the facts a test
judges, never a verdict. An async harness must run its event loop, and its tools, in the
student's process; the grader holds the loop's reins from here (lab.testkit.StudentLoop): it
builds the Harness, asks for each event of the run, closes or cancels it, and reads the record
and is_running, one request each, exactly as lessons 01 to 14 drive a harness. The tools are
the kit's step tools, whose work does nothing but ask this side's Desk what to do: the
tools' log is the desk's, written here, and so is every request the model received (see
lab/kit/desk.py). Every result the desk hands out carries a mark of its own, checked and taken
off here (lab.testkit.unsealed): a result in the record that no tool handed over is refused.
Nothing here waits for a clock.
"""

import lab
from lab.testkit import StudentLoop, refuse_forged, unsealed

JOB = "Do the job."
RUN_ENDED = "the run ended"


def job(harness, calls, stop=None, then=(), steer_at=None):
    """One reply asking for `calls` (each {"name": "step" or "note", "arguments": {"id": ...,
    ...}}), then "Done." for the job and "Answered." for every later prompt; see lab.run_job
    for `stop`, `then` and `steer_at`."""
    blocks = [lab.call(c["name"], c["arguments"], id=c["arguments"]["id"]) for c in calls]
    model = lab.ScriptedModel([lab.reply(lab.text("On it."), *blocks), lab.say("Done."),
                               lab.forever(lambda request: lab.say("Answered."))])
    facts = lab.run_job(harness, model, JOB, stop=stop, then=list(then), steer_at=steer_at,
                        loop=StudentLoop(harness), sealed=True)
    refuse_forged(facts["faults"])
    facts["log"] = [line for line in facts.pop("lines") if line != RUN_ENDED]
    facts["requests"] = [plain(request.messages) for request in model.calls]
    return unsealed(facts, facts.pop("given"), calls)


def left_open(harness):
    """A frontend that stops reading at tool_execution_start and never closes the run, on a
    tool that hangs: the harness's state just after, and once the event loop has had its
    turns."""
    model = lab.ScriptedModel([lab.reply(lab.call("step", {"id": "c1", "hang": True}, id="c1")),
                               lab.forever(lambda request: lab.say("Answered."))])
    facts = lab.run_job(harness, model, JOB, stop=["break", "tool_execution_start"],
                        loop=StudentLoop(harness), sealed=True)
    refuse_forged(facts["faults"])
    facts = unsealed(facts, facts.pop("given"), [{"arguments": {"id": "c1", "hang": True}}])
    return {"just_after": facts["ended"]["is_running"], "later": facts["ended"]["running_later"],
            "record": facts["record"], "log": facts["lines"]}


def unstarted(harness, how):
    """A run closed ("close") or dropped ("drop") before its first step."""
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Answered."))])
    return lab.run_unstarted(harness, model, how, loop=StudentLoop(harness))


def twice(harness):
    """prompt() while a run is going."""
    model = lab.ScriptedModel([lab.say("First."), lab.say("Second.")])
    return lab.run_twice(harness, model, loop=StudentLoop(harness))


def plain(value):
    """`value` as plain data (tuples as lists)."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
