"""What lesson 03's notebook needs of a harness before its examples run on the reader's own
file (the contract is lab.course.readiness's)."""

from lab import call, reply, ScriptedModel, shape, text, validate

DOES = "keeps going until the model stops asking"
DOES_NOT = "does not keep going until the model stops asking"
NEEDED = "a loop that goes on until a reply asks for nothing"


def problem(harness):
    """"" when `harness` does lesson 03's job, else what it is missing, in a few words: its
    run_agent sees a job of two turns of calls through (one call, then two in one reply),
    answering every call in call order before the next request, and ends the run at the
    first reply that asks for nothing."""
    for name in ("tool_specs", "run_tool", "run_agent", "SYSTEM"):
        if not hasattr(harness, name):
            return f"it has no {name}"
    step = {"name": "step", "description": "Do one step.",
            "parameters": {"type": "object", "properties": {}},
            "execute": lambda arguments: f"step {arguments.get('n')} done"}
    model = ScriptedModel([reply(text("First."), call("step", {"n": 1})),
                           reply(call("step", {"n": 2}), call("step", {"n": 3})),
                           reply(text("Done.")), reply(text("(asked once too often)"))])
    record = []
    try:
        harness.run_agent(model, harness.SYSTEM, record, [step], "Do three steps.")
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    problems = [p for r in model.calls for p in validate(r.messages)]
    if problems:
        return f"its run_agent sends a request a provider refuses: {problems[0]}"
    wanted = "U A[c1] R(c1) A[c2,c3] R(c2) R(c3) A"
    if shape(record) != wanted:
        return (f"its run_agent leaves the record {shape(record) or 'empty'} for a job of two "
                f"turns of calls, not {wanted}")
    return ""
