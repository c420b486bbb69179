# base: finished
# needs: root
# args: --time-limit 2 -k "orphan or steering"
# exit: 1
# says: PermissionError: [Errno 1] Operation not permitted
# closing: 1 passed, 1 failed
# Sends SIGKILL to its parent, the process that grades it. Run by root, the grader makes the
# child another user, who may not; run as an ordinary user, the grader is killed, and
# lab_check says so (tests/test_untrusted.py runs it that way too).

import os
import signal

_repair = repair_tool_history


def repair_tool_history(messages):
    if any(m.get("tool_call_id") == "c7" for m in messages):
        os.kill(os.getppid(), signal.SIGKILL)
    return _repair(messages)
