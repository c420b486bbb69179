# base: finished
# args: --time-limit 5 -k "orphan or steering"
# exit: 1
# says: ran out of memory while running repair_tool_history
# says: lab_check --memory-limit
# closing: 1 passed, 1 failed
# Asks for eight gigabytes in one go, on the orphan wreck; repairs the rest.

_repair = repair_tool_history


def repair_tool_history(messages):
    if any(m.get("content") == [{"type": "text", "text": "Let me look."}] for m in messages):
        hoard = bytearray(8 * 1024 ** 3)
        return [hoard]
    return _repair(messages)
