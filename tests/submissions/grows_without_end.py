# base: finished
# args: --time-limit 5 --memory-limit 300 -k "missing"
# exit: 1
# says: ran out of memory
# closing: 0 passed, 1 failed
# Keeps appending a megabyte at a time until something gives (at 300 MiB, so that a slow
# machine, whose every new page costs, reaches the limit well within the time limit).


def repair_tool_history(messages):
    hoard = []
    while True:
        hoard.append(bytearray(1024 * 1024))
