"""Wrong: the view tidies the record itself: empty failures are deleted from the list it was
handed, and that list is sent. The next request is accepted, and the record no longer says that
the provider ever failed.
Fails: test_the_view_leaves_the_record_as_it_was
"""


def context_for_model(messages):
    messages[:] = [m for m in messages if not is_empty_failure(m)]
    return messages
