# base: finished
# args: --time-limit 3 -k "orphan or steering"
# exit: 1
# says: stopped answering
# closing: 1 passed, 1 failed
# Closes every file descriptor above 2 (the grader's pipes among them) and carries on
# sleeping, as if its answer had been sent.

import os
import time

_repair = repair_tool_history


def repair_tool_history(messages):
    if any(m.get("content") == [{"type": "text", "text": "Let me look."}] for m in messages):
        os.closerange(3, 1024)
        time.sleep(60)
    return _repair(messages)
