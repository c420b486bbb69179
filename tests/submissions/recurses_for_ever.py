# base: finished
# args: --time-limit 2 -k "missing"
# exit: 1
# says: RecursionError: maximum recursion depth exceeded
# says: a function that calls itself with no way to stop?
# closing: 0 passed, 1 failed
# repair_tool_history calls itself with no way to stop.


def repair_tool_history(messages):
    return repair_tool_history(messages)
