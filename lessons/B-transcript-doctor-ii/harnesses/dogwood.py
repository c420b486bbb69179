"""dogwood: lesson 10's harness, but the repair heals the record itself before each request.

Every request it sends is exactly the finished harness's, so the provider and the model see
nothing wrong. The record is what changes: after a walk-away it gains an INTERRUPTED result that
no tool produced, and a record handed over with a late or orphan result is reordered or cut.
A session with nothing to repair leaves no trace.
"""

MISSING = "record_is_not_the_view"


def context_for_model(messages):
    messages[:] = repair_tool_history(messages)  # fixed once, in place, for good
    return [m for m in messages if not is_empty_failure(m)]
