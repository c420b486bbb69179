"""Sends every entry but a summary as it is stored, whoever wrote it: a system message found in
a loaded record goes out with orders in it, and a role nobody knows reaches the provider.

Fails: test_an_entry_nobody_here_wrote_is_never_sent
"""


def sent_as(entry):
    if entry.get("role") == "note":
        return note_message(entry["content"])
    return None if entry.get("role") == "summary" else entry
