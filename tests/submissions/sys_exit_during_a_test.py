# base: finished
# args: --time-limit 2 -k "missing"
# exit: 1
# says: the harness exited early: it called sys.exit(3) while running repair_tool_history
# says: line
# closing: 0 passed, 1 failed
# Calls sys.exit(3) from inside repair_tool_history.

import sys


def repair_tool_history(messages):
    sys.exit(3)
