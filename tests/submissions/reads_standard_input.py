# base: finished
# args: --time-limit 2 -k "orphan or steering"
# exit: 1
# says: EOFError: EOF when reading a line, raised while running repair_tool_history
# closing: 1 passed, 1 failed
# Reads all of standard input while being imported (there is none), then asks for a line of
# it in repair_tool_history.

import sys

_all = sys.stdin.read()

_repair = repair_tool_history


def repair_tool_history(messages):
    if any(m.get("content") == [{"type": "text", "text": "Let me look."}] for m in messages):
        return [input("which call? ")]
    return _repair(messages)
