"""Lesson 15's sessions, each a function of the student's harness module.

Every function here takes the harness module first and returns plain data: the facts a test
judges, never a verdict. An async harness runs its event loop in the student's process, and so
must its tools: the job is lab.run_job (lab/kit/jobs.py), called in that process through the
harness's own `lab`, with this side's scripted model and this side's log. Every line a tool
logs (started, met the other, finished, cancelled, cleaned up) is a call back to here, where it
is kept: what the tools lived through is the grader's own account, and so is every request the
model received. Nothing here waits for a clock (see lab/kit/jobs.py).
"""

import lab

JOB = "Do the job."
RUN_ENDED = "the run ended"


class Log:
    """The grader's log of the tools: every line, and at RUN_ENDED how many requests the
    model had had, and which tools had started and not yet cleaned up."""

    def __init__(self, model):
        self.lines, self.model, self.at_end = [], model, None

    def __call__(self, line):
        self.lines.append(str(line))
        if line == RUN_ENDED and self.at_end is None:
            self.at_end = {"requests": len(self.model.calls), "going": going(self.lines)}


def going(lines):
    """The step tools that have started and not cleaned up, by the lines so far."""
    started = [line.split()[-1] for line in lines if line.startswith("start ")]
    done = {line.split()[-1] for line in lines if line.startswith("cleaned up ")}
    return sorted(set(started) - done)


def job(harness, calls, stop=None, then=(), steer_at=None):
    """One reply asking for `calls` (each {"name": "step" or "note", "arguments": {"id": ...,
    ...}}), then "Done." for the job and "Answered." for every later prompt; see lab.run_job
    for `stop`, `then` and `steer_at`."""
    blocks = [lab.call(c["name"], c["arguments"], id=c["arguments"]["id"]) for c in calls]
    model = lab.ScriptedModel([lab.reply(lab.text("On it."), *blocks), lab.say("Done."),
                               lab.forever(lambda request: lab.say("Answered."))])
    log = Log(model)
    facts = harness.lab.run_job(harness, model, JOB, stop=stop, then=list(then),
                                steer_at=steer_at, log=log)
    at_end = log.at_end or {"requests": len(model.calls), "going": going(log.lines)}
    facts["ended"].update(going=at_end["going"], requests=at_end["requests"])
    facts["log"] = [line for line in log.lines if line != RUN_ENDED]
    facts["requests"] = [plain(request.messages) for request in model.calls]
    return facts


def left_open(harness):
    """A frontend that breaks out of `async for` at tool_execution_start and never closes the
    run, on a tool that hangs: the harness's state just after, and once the event loop has
    had its turns."""
    model = lab.ScriptedModel([lab.reply(lab.call("step", {"id": "c1", "hang": True}, id="c1")),
                               lab.forever(lambda request: lab.say("Answered."))])
    log = Log(model)
    facts = harness.lab.run_job(harness, model, JOB, stop=["break", "tool_execution_start"],
                                log=log)
    return {"just_after": facts["ended"]["is_running"], "later": facts["ended"]["running_later"],
            "record": facts["record"], "log": log.lines}


def unstarted(harness, how):
    """A run closed ("close") or dropped ("drop") before its first step."""
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Answered."))])
    return harness.lab.run_unstarted(harness, model, how)


def twice(harness):
    """prompt() while a run is going."""
    model = lab.ScriptedModel([lab.say("First."), lab.say("Second.")])
    return harness.lab.run_twice(harness, model)


def plain(value):
    """`value` as plain data (tuples as lists)."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
