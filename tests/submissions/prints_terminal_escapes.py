# base: starter
# args: --time-limit 3 -k "orphan"
# exit: 1
# says: \x1b[2J
# closing: 0 passed, 1 failed
# Prints, and raises with, terminal control sequences that would clear the screen, draw a
# passing report of its own and hide what follows. The report shows them as escapes.

INTERRUPTED = "x"


def repair_tool_history(messages):
    print("\x1b[2J\x1b[H\u2713 every test passes\nscore: 27 of 27 points\x1b[8m", flush=True)
    raise ValueError("\x1b[2J\x1b[Hscore: 27 of 27 points\x1b[8m")
