"""What lesson 15's notebook needs of a harness before its examples run on the reader's file
(see lab/course/readiness.py): two tools of one reply that wait for each other both meet, a
run cancelled while a tool hangs leaves no tool going and every call answered, and a run
closed mid-tools frees the harness at once."""

import lab

DOES = "runs the tools of one reply together and stops them cleanly"
DOES_NOT = "does not run the tools of one reply together and stop them cleanly"
NEEDED = "tools run together, a run that stops its tools, and the async door"


def problem(module):
    for name in ("Harness", "SYSTEM", "run_tools", "text_of"):
        if not hasattr(module, name):
            return f"it has no {name}"

    def model(*calls):
        return lab.ScriptedModel([lab.reply(*[lab.call("step", c, id=c["id"]) for c in calls]),
                                  lab.forever(lambda request: lab.say("Done."))])

    try:
        met = lab.run_job(module, model({"id": "c1", "meet": "c2"}, {"id": "c2", "meet": "c1"}),
                          "Go.")
        cancelled = lab.run_job(module, model({"id": "c1", "hang": True}, {"id": "c2"}), "Go.",
                                stop=["cancel", "c1"])
        closed = lab.run_job(module, model({"id": "c1"}, {"id": "c2", "hang": True}), "Go.",
                             stop=["close", 7])
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    if any(line.startswith("meet") and "gave up" in line for line in met["lines"]):
        return "two tools that wait for each other ran one after the other"
    if cancelled["ended"]["going"] or lab.validate(cancelled["ended"]["record"]):
        return (f"a cancelled run left {cancelled['ended']['going'] or 'no tool'} going and "
                f"the record {lab.shape(cancelled['ended']['record'])}")
    if closed["ended"]["is_running"] or closed["ended"]["going"]:
        return "a run closed mid-tools left the harness running or a tool going"
    return ""
