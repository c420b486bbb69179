"""What lesson 04's notebook needs of a harness before its examples run on the reader's own
file (the contract is lab.course.readiness's)."""

from lab import call, reply, ScriptedModel, text, Workspace

DOES = "answers a failed tool call with an is_error result"
DOES_NOT = "does not answer a failed tool call with an is_error result"
NEEDED = "a tool's failure answered"


def problem(harness):
    """"" when `harness` does lesson 04's job, else what it is missing, in a few words: its
    run_tool answers a call to a tool that raises, and a call to a tool nobody has, each with
    an is_error result under the call's id instead of raising, its str_arg refuses a number
    where a string goes, and its run_agent returns the list of messages a run added (as
    lessons 01 to 06 have it; from lesson 07 on it is a generator of events)."""
    for name in ("run_tool", "str_arg", "run_agent", "make_read_tool", "SYSTEM"):
        if not hasattr(harness, name):
            return f"it has no {name}"
    read = harness.make_read_tool(Workspace({"config.py": "PORT = 9090\n"}))
    for asked in (call("read", {"path": "confg.py"}, id="c1"), call("search", {}, id="c2")):
        try:
            result = harness.run_tool([read], asked)
        except Exception as error:  # half-written student code: how it fails is the answer
            return f"its run_tool raised {type(error).__name__}: {error}"
        if not (isinstance(result, dict) and result.get("tool_call_id") == asked["id"]
                and result.get("is_error") is True):
            return f"its run_tool does not answer {asked['name']}'s failure with is_error"
    try:
        harness.str_arg({"path": 5}, "path")
    except Exception:  # the refusal is what we want to see
        pass
    else:
        return "its str_arg lets a number through where a string goes"
    model = ScriptedModel([reply(call("search", {})), reply(text("No such tool, then."))])
    try:
        added = harness.run_agent(model, harness.SYSTEM, [], [read], "Find it.")
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"its run_agent raised {type(error).__name__}: {error}"
    if type(added) is not list:  # lesson 07 on: a generator of events
        return f"its run_agent returns a {type(added).__name__}, not the list of messages added"
    return ""
