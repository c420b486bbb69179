"""What lesson 07's notebook needs of a harness before its examples run on the reader's own
file (the contract is lab.course.readiness's)."""

from lab import call, reply, ScriptedModel, shape, text

DOES = "reports each step as it happens"
DOES_NOT = "does not report each step as it happens"
NEEDED = "a loop that hands out its events as they happen"


def problem(harness):
    """"" when `harness` does lesson 07's job, else what it is missing, in a few words: its
    run_agent is a generator that hands out a job's events as they happen (walked away from at
    the first tool_execution_start, no tool has run and the record holds exactly what was
    announced) and pairs them to agent_end; and its FinalTextRenderer calls a run walked away
    from no success."""
    for name in ("run_agent", "SYSTEM", "FinalTextRenderer"):
        if not hasattr(harness, name):
            return f"it has no {name}"
    ran = []
    step = {"name": "step", "description": "Do one step.",
            "parameters": {"type": "object", "properties": {}},
            "execute": lambda arguments: ran.append(arguments.get("n")) or "done"}
    model = ScriptedModel([reply(text("Two steps."), call("step", {"n": 1}), call("step", {"n": 2})),
                           reply(text("Done."))])
    record = []
    try:
        run = harness.run_agent(model, harness.SYSTEM, record, [step], "Do two steps.")
        taken = []
        for event in run:
            taken.append(event)
            if event.get("type") == "tool_execution_start":
                break
        told = [e["message"] for e in taken if e.get("type") == "message_end"]
        if ran or record != told:
            return (f"its run_agent, at the first tool_execution_start, has run {len(ran)} "
                    f"tools and recorded {shape(record) or 'nothing'} after announcing "
                    f"{shape(told) or 'nothing'}: events come after what they describe")
        rest = list(run)
        frontend = harness.FinalTextRenderer(_Discard())
        for event in taken[:4]:
            frontend.render(event)
        walked_away = frontend.finish()
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    if not rest or rest[-1].get("type") != "agent_end":
        return "its run_agent does not end a run with agent_end"
    if walked_away is not False:
        return "its FinalTextRenderer calls a run walked away from a success"
    return ""


class _Discard:
    """A stream that keeps nothing: what a frontend writes while a check feeds it."""

    def write(self, text):
        return len(text)

    def flush(self):
        pass
