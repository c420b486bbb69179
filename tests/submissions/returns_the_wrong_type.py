# base: finished
# args: --time-limit 2 -k "missing or orphan or late"
# exit: 1
# says: repair_tool_history returned a tuple, not a list of messages
# says: returned a list holding things that are not messages
# closing: 0 passed, 3 failed
# Returns a tuple for one wreck, a list of strings for another, and a list of lists (a
# message as its items) for a third.

_repair = repair_tool_history


def repair_tool_history(messages):
    repaired = _repair(messages)
    if messages[-1].get("content") == "Never mind. What is in config.py?":
        return tuple(repaired)  # missing_result
    if any(m.get("content") == [{"type": "text", "text": "Let me look."}] for m in messages):
        return [m["role"] for m in repaired]  # orphan_result
    return [list(m.items()) for m in repaired]
