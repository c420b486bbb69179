"""Wrong: the view leaves out the failure only while it is the last message, as if the trouble
aged out. The record only grows: one prompt later the empty failure is in the middle, it is
sent, and every request from then on is refused.
Fails: test_after_a_503_the_next_prompt_is_answered
"""


def context_for_model(messages):
    if messages and is_empty_failure(messages[-1]):
        return list(messages[:-1])
    return list(messages)
