# base: starter
# args: --time-limit 3 -k "repairing_twice or leaves_its_input or any_wreck or view_drops"
# exit: 1
# says: every message that is not a result is kept
# closing: 0 passed, 7 failed
# Both gaps return an empty list. An empty list is idempotent, leaves its input alone and is a
# request a strict provider accepts; every rule first asks that the messages that are not
# results are all still there, so none of them holds of it.

INTERRUPTED = ("Tool call interrupted: no result was recorded. It may not have run, or may have "
               "run partly; check before repeating it.")


def repair_tool_history(messages):
    return []


def context_for_model(messages):
    return []
