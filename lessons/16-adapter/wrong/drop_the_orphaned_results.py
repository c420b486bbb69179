"""Wrong: when the cut leaves results at the front whose call was cut away, this trim drops
those results and leaves their call out, instead of backing up to include the call. What it
returns is accepted, but shorter than `keep`, and the model loses results it asked for.
Fails: test_safe_trim_backs_up_to_the_call_when_the_cut_falls_among_results
"""


def safe_trim(messages, keep):
    start = max(len(messages) - keep, 0)
    while start < len(messages) and messages[start]["role"] == "toolResult":
        start += 1
    return list(messages[start:])
