# base: finished
# args: --time-limit 5 -k "missing or orphan or steering or any_wreck_gives"
# exit: 0
# closing: 4 passed, 0 failed
# A correct harness that prints four megabytes while being imported and a hundred kilobytes
# every time it repairs, to stdout and stderr: captured, capped, and no reason to fail.

import sys

for _ in range(4096):
    print("x" * 1023)

_repair = repair_tool_history


def repair_tool_history(messages):
    sys.stdout.write("chatter " * 6400 + "\n")
    sys.stderr.write("warning " * 6400 + "\n")
    return _repair(messages)
