"""What lesson 05's notebook needs of a harness before its examples run on the reader's own
file (the contract is lab.course.readiness's)."""

import copy

from lab import call, fail, reply, ScriptedModel, shape, text, user, validate

DOES = "stops a runaway and survives a provider failure"
DOES_NOT = "does not stop a runaway and survive a provider failure"
NEEDED = "a limit, a failed reply left alone, and a view without the empty failure"


def problem(harness):
    """"" when `harness` does lesson 05's job, else what it is missing, in a few words: its
    run_agent stops a model that never stops asking after max_turns requests, recording the
    stop as a failed reply; it runs no call of a failed reply; and its context_for_model
    leaves an empty failure out of the request and the record as it was."""
    for name in ("tool_specs", "run_tool", "run_agent", "context_for_model", "SYSTEM"):
        if not hasattr(harness, name):
            return f"it has no {name}"
    ran = []
    step = {"name": "step", "description": "Do one step.",
            "parameters": {"type": "object", "properties": {}},
            "execute": lambda arguments: ran.append(arguments) or "done"}
    asking = ScriptedModel([reply(call("step", {"n": n})) for n in range(1, 6)]
                           + [reply(text("(asked too often)"))])
    cut = ScriptedModel([fail("stream ended", text("Stepping."), call("step", {"n": 9})),
                         reply(text("(asked again after a failure)"))])
    record, cut_record = [], []
    try:
        harness.run_agent(asking, harness.SYSTEM, record, [step], "Go.", max_turns=2)
        harness.run_agent(cut, harness.SYSTEM, cut_record, [step], "Go.")
        failed = [user("Go."), fail("503 overloaded"), user("Again.")]
        untouched = copy.deepcopy(failed)
        view = list(harness.context_for_model(failed))
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    last = record[-1] if record and isinstance(record[-1], dict) else {}
    if len(asking.calls) != 2 or last.get("stop_reason") != "error":
        return (f"its run_agent sent {len(asking.calls)} requests with max_turns=2 and ended the "
                f"record {shape(record[-1:]) or 'empty'}, not 2 requests and a stop")
    if len(cut.calls) != 1 or {"n": 9} in ran:
        return "its run_agent acts on a failed reply"
    if failed != untouched:
        return "its context_for_model changed the record it was given"
    if validate(view):
        return f"its context_for_model sends a request a provider refuses: {validate(view)[0]}"
    return ""
