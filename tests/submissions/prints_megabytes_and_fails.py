# base: finished
# args: --time-limit 5 -k "missing"
# exit: 1
# says: bytes left out
# says: the last of it
# closing: 0 passed, 1 failed
# Prints eight megabytes, then a last line, and fails: the report shows the start and the end
# of what it printed, and says how much was left out, never all of it.

import sys


def repair_tool_history(messages):
    for _ in range(8192):
        sys.stdout.write("y" * 1023 + "\n")
    print("the last of it")
    return []
