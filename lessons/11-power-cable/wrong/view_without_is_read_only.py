"""Sends the repair without the harness's is_read_only: every call cut short goes to the model
with the careful words, a read as well as a write. The request is valid; the model is told to
check before repeating a read, which changed nothing, and the notice and the request disagree.

Fails: test_the_view_words_a_read_cut_short_as_only_reading
"""


def context_for_model(messages):
    return repair_history([m for m in messages if not is_empty_failure(m)]).messages
