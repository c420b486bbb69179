# base: finished
# args: --time-limit 2 -k "missing or view_drops"
# exit: 1
# says: repair_tool_history returned a NoneType, not a list of messages
# says: context_for_model returned a NoneType, not a list of messages
# closing: 0 passed, 2 failed
# Forgets to return: repair_tool_history and context_for_model give back None.


def repair_tool_history(messages):
    messages = list(messages)


def context_for_model(messages):
    repair_tool_history(messages)
