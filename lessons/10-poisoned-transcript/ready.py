"""What lesson 10's notebook needs of a harness before its examples run on the reader's own
file (the contract is lab.course.readiness's)."""

import copy

from lab import call, reply, text, user, validate

DOES = "repairs a dangling call"
DOES_NOT = "does not repair a dangling call"
NEEDED = "the repair"


def problem(harness):
    """"" when `harness` does lesson 10's job, else what it is missing, in a few words.

    The test is behaviour, not names alone: it must have INTERRUPTED and repair_tool_history,
    and its context_for_model, given a record that ends on a call nobody answered, must
    return a request a strict provider accepts, with INTERRUPTED standing in for the missing
    result, and leave the record as it was.
    """
    for name in ("INTERRUPTED", "repair_tool_history", "context_for_model"):
        if not hasattr(harness, name):
            return f"it has no {name}"
    asked = call("bash", {"command": "pytest"}, id="c1")
    record = [user("Run the tests."), reply(text("Running them."), asked), user("Never mind.")]
    untouched = copy.deepcopy(record)
    try:
        view = list(harness.context_for_model(record))
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"its context_for_model raised {type(error).__name__}: {error}"
    if record != untouched:
        return "its context_for_model changed the record it was given"
    problems = validate(view)
    if problems:
        return f"its context_for_model sends a request a provider refuses: {problems[0]}"
    if not any(isinstance(m, dict) and m.get("role") == "toolResult"
               and m.get("tool_call_id") == "c1" and m.get("content") == harness.INTERRUPTED
               for m in view):
        return "its context_for_model does not answer the dangling call with INTERRUPTED"
    return ""
