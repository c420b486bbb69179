"""What lesson 16's notebook needs of a harness before its examples run on the reader's own
file (the contract is lab.course.readiness's)."""

from lab import call, reply, text, user, validate

DOES = "translates the view for both wires"
DOES_NOT = "does not translate the view for both wires"
NEEDED = "the adapter"


def problem(harness):
    """"" when `harness` does lesson 16's job, else what it is missing, in a few words: it
    must translate a view with a call, its result and a steer into a request each provider's
    validator accepts, and trim it without parting the call from its result."""
    for name in ("to_anthropic", "to_openai", "safe_trim"):
        if not hasattr(harness, name):
            return f"it has no {name}"
    asked = call("bash", {"command": "pytest"}, id="c1")
    answered = {"role": "toolResult", "tool_call_id": "c1", "tool_name": "bash",
                "content": "3 passed", "is_error": False}
    view = [user("Run the tests."), reply(text("Running them."), asked), answered,
            user("Use spaces.")]
    try:
        for wire in ("anthropic", "openai"):
            problems = validate(getattr(harness, f"to_{wire}")(view), wire=wire)
            if problems:
                return f"its to_{wire} sends a request that provider refuses: {problems[0]}"
        trimmed = harness.safe_trim(view, 2)
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    if trimmed != view[1:]:
        return "its safe_trim(view, 2) does not back up to the call its result answers"
    return ""
