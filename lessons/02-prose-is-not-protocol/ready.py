"""What lesson 02's notebook needs of a harness before its examples run on the reader's own
file (the contract is lab.course.readiness's)."""

from lab import call, reply, ScriptedModel, text, Workspace, validate

DOES = "answers a tool call with a toolResult"
DOES_NOT = "does not answer a tool call with a toolResult"
NEEDED = "a tool call answered"


def problem(harness):
    """"" when `harness` does lesson 02's job, else what it is missing, in a few words: its
    tool_specs tells the model of a tool without its function, and its run_agent answers a
    read with a toolResult under the call's id, which the strict provider accepts."""
    for name in ("tool_specs", "run_tool", "run_agent", "make_read_tool", "SYSTEM"):
        if not hasattr(harness, name):
            return f"it has no {name}"
    files = {"config.py": "PORT = 9090\n"}
    try:
        read = harness.make_read_tool(Workspace(files))
        specs = harness.tool_specs([read])
        model = ScriptedModel([reply(call("read", {"path": "config.py"})), reply(text("9090"))])
        record = []
        harness.run_agent(model, harness.SYSTEM, record, [read], "What port?")
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    problems = validate(record)
    if problems:
        return f"its run_agent sends a request a provider refuses: {problems[0]}"
    if not any(isinstance(m, dict) and m.get("role") == "toolResult"
               and m.get("tool_call_id") == "c1" and m.get("content") == files["config.py"]
               for m in record):
        return "its run_agent does not answer a call with a toolResult under the call's id"
    if any(not isinstance(spec, dict) or "execute" in spec for spec in specs):
        return "its tool_specs sends the model a tool's function"
    return ""
