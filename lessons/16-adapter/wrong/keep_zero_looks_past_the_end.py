"""Wrong: the trim starts the cut at len(messages) - keep and looks at the message there before
checking that there is one, so safe_trim(view, 0) raises IndexError instead of returning [].
Fails: test_safe_trim_at_keep_0_keeps_nothing
"""


def safe_trim(messages, keep):
    start = max(len(messages) - keep, 0)
    while messages[start]["role"] == "toolResult" and start > 0:
        start -= 1
    return list(messages[start:])
