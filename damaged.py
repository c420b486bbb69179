"""Five wrecked records: transcripts a crash, a careless harness or a provider can leave behind.

Each is a list of messages that a strict provider refuses, and each is one card of lesson 10:

    missing_result             U A[c1,c2] R(c1) U         c2 was asked for and never answered
    orphan_result              U A R(c7) U                a result for a call nobody made
    late_result                U A[c1] U R(c1) A          the right result, one message too late
    duplicate_result           U A[c2] R(c2) R(c2) A      two results for one call
    failed_reply_with_a_call   U A[c1](error) U           a reply cut off mid-call

Read-only by construction: every time you ask for one (damaged.missing_result) you get a fresh
list of fresh dicts, so nothing you do to one copy can reach the next. Loop over them with
`for name in damaged.NAMES: getattr(damaged, name)`.
"""

import lab

MAIN_PY = "def main():\n\treturn 1\n"


def _missing_result():
    read = lab.call("read", {"path": "main.py"}, id="c1")
    tests = lab.call("bash", {"command": "pytest"}, id="c2")
    return [lab.user("Reformat main.py and run the tests."),
            lab.reply(lab.text("Reading it, and running the tests."), read, tests),
            lab.tool_result(read, MAIN_PY),
            lab.user("Never mind. What is in config.py?")]


def _orphan_result():
    lost = lab.call("read", {"path": "main.py"}, id="c7")  # the message that asked was lost
    return [lab.user("What does main.py return?"),
            lab.say("Let me look."),
            lab.tool_result(lost, MAIN_PY),
            lab.user("Well?")]


def _late_result():
    read = lab.call("read", {"path": "main.py"}, id="c1")
    return [lab.user("What does main.py return?"),
            lab.reply(read),
            lab.user("Use spaces, not tabs."),
            lab.tool_result(read, MAIN_PY),
            lab.say("It returns 1. It is indented with a tab; I will use spaces.")]


def _duplicate_result():
    tests = lab.call("bash", {"command": "pytest"}, id="c2")
    return [lab.user("Run the tests."),
            lab.reply(tests),
            lab.tool_result(tests, "3 passed"),
            lab.tool_result(tests, "3 passed (second run)"),
            lab.say("All three tests pass.")]


def _failed_reply_with_a_call():
    half = lab.call("write", {"path": "main.py"}, id="c1")  # the content never arrived
    return [lab.user("Reformat main.py."),
            lab.fail("stream ended before the message was complete",
                     lab.text("Writing the file."), half),
            lab.user("What happened?")]


_WRECKS = {"missing_result": _missing_result, "orphan_result": _orphan_result,
           "late_result": _late_result, "duplicate_result": _duplicate_result,
           "failed_reply_with_a_call": _failed_reply_with_a_call}

NAMES = tuple(_WRECKS)


def __getattr__(name):
    if name in _WRECKS:
        return _WRECKS[name]()
    raise AttributeError(f"module 'damaged' has no attribute {name!r}; its wrecks are "
                         f"{', '.join(NAMES)}")


def __dir__():
    return sorted([*globals(), *NAMES])
