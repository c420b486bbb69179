# base: finished
# args: --time-limit 1 -k "orphan or steering"
# exit: 1
# says: timed out after 1 s while running repair_tool_history
# closing: 1 passed, 1 failed
# Sends itself SIGSTOP: no watchdog can run in a stopped process, so the timeout cannot name a
# line; the process is still killed, and the next test still runs.

import os
import signal

_repair = repair_tool_history


def repair_tool_history(messages):
    if any(m.get("content") == [{"type": "text", "text": "Let me look."}] for m in messages):
        os.kill(os.getpid(), signal.SIGSTOP)
    return _repair(messages)
