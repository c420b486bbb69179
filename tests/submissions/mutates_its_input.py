# base: finished
# args: --time-limit 3 -k "repair_leaves_its_input_untouched or steering or repairing_twice"
# exit: 1
# says: pure: the record you are given is not touched
# says: given[0] U changed: its content
# says: U inserted at the end
# closing: 2 passed, 1 failed
# Repairs correctly, then damages the list it was given (a message replaced, one added) and
# the lab's fixtures and builders in its own process. The purity test fails; the tests after
# it never see the damage, because every request sends a fresh transcript.

import damaged
import lab

_repair = repair_tool_history


def repair_tool_history(messages):
    repaired = _repair(messages)
    messages[0] = {"role": "user", "content": "tampered"}
    messages.append({"role": "user", "content": "injected"})
    damaged.NAMES = ()
    lab.user = lambda text: {"role": "user", "content": "tampered"}
    lab.validate = lambda messages: []
    return repaired
