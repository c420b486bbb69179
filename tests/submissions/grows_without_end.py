# base: finished
# args: --time-limit 5 -k "missing"
# exit: 1
# says: ran out of memory
# closing: 0 passed, 1 failed
# Keeps appending a megabyte at a time until something gives.


def repair_tool_history(messages):
    hoard = []
    while True:
        hoard.append(bytearray(1024 * 1024))
