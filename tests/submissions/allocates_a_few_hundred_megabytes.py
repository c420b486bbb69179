# base: finished
# args: --time-limit 5 -k "missing or orphan or steering"
# exit: 0
# closing: 3 passed, 0 failed
# A correct harness that holds three hundred megabytes from its import on, and touches them
# on every repair: within the default memory limit of 1024 MiB.

_BALLAST = bytearray(300 * 1024 * 1024)
_repair = repair_tool_history


def repair_tool_history(messages):
    _BALLAST[len(messages) * 4096] = 1
    return _repair(messages)
