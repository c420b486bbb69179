"""What lesson 11's notebook needs of a harness before its examples run on the reader's own
file (the contract is lab.course.readiness's)."""

import copy

from lab import call, reply, tool_result as result_for, user, validate

DOES = "picks a record up after a crash"
DOES_NOT = "does not pick a record up after a crash"
NEEDED = "the record on disk and the repair"


def problem(harness):
    """"" when `harness` does lesson 11's job, else what it is missing, in a few words: it has
    repair_history, save_message, load_record and Harness.resume; load_record sets a torn last
    line aside; and its context_for_model makes a history whose provider restarted its ids
    (call_0 twice) into a request a strict provider accepts, leaving the record as it was."""
    for name in ("repair_history", "save_message", "load_record", "context_for_model", "Harness"):
        if not hasattr(harness, name):
            return f"it has no {name}"
    if not hasattr(harness.Harness, "resume"):
        return "its Harness has no resume"
    first, again = call("read", {"path": "a"}, id="call_0"), call("read", {"path": "b"}, id="call_0")
    record = [user("Read a, then b."), reply(first), result_for(first, "A"), reply(again),
              result_for(again, "B"), user("Thanks.")]
    untouched = copy.deepcopy(record)
    try:
        view = list(harness.context_for_model(record))
        loaded = harness.load_record('{"role": "user", "content": "hi"}\n{"role": "us')
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    if record != untouched:
        return "its context_for_model changed the record it was given"
    problems = validate(view)
    if problems:
        return f"its context_for_model sends a request a provider refuses: {problems[0]}"
    if list(loaded.set_aside) != ['{"role": "us']:
        return "its load_record does not set a torn last line aside"
    return ""
