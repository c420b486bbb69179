"""Sends no note at all, on the grounds that only the user and the model speak in a
conversation: the model never learns that a file was attached or that a write may have run
partly before a crash.

Fails: test_each_entry_is_sent_as_what_it_is
"""


def sent_as(entry):
    source = source_of(entry)
    if source == "user":
        return entry if isinstance(entry.get("content"), str) else None
    if source in ("model", "tool"):
        return entry
    return None
