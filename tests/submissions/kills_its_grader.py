# base: finished
# args: --time-limit 2 -k "orphan or steering"
# exit: 0
# closing: 2 passed, 0 failed
# Sends SIGKILL to its parent, and to every process it may signal, while it repairs. Inside the
# sandbox its parent is the sandbox's first process, which its own namespace cannot kill, and
# nothing of the grader's is in reach: its correct repair still scores, as root and as a
# plain user.

import os
import signal

_repair = repair_tool_history


def repair_tool_history(messages):
    if any(m.get("content") == [{"type": "text", "text": "Let me look."}] for m in messages):
        for target in (os.getppid(), -1):
            try:
                os.kill(target, signal.SIGKILL)
            except OSError:
                pass
    return _repair(messages)
