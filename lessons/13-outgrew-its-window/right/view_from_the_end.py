"""Another correct view: it looks for the newest summary from the end with reversed() and
builds the request in one expression; and lesson 12's view of the kept part is made from a
copy of each message, which the lesson allows (the record is never touched either way).
"""

import copy as _copy


def context_for_model(messages):
    newest = next((m for m in reversed(messages) if m["role"] == "summary"), None)
    if newest is None:
        return [_copy.deepcopy(m) for m in view_of(messages)]
    return [summary_message(newest)] + [_copy.deepcopy(m)
                                        for m in view_of(messages, newest["first_kept"])]
