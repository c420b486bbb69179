"""Summarises the whole conversation, the newest prompt included: the cut is the end of the
record, so nothing is kept word for word. The model is shown a summary of a question instead of
the question, and the newest turns are not sent at all.

Fails: test_the_newest_turns_are_sent_word_for_word_after_the_marked_summary
"""


def choose_cut(messages, keep):
    return len(messages) if messages else None
