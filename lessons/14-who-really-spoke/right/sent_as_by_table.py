"""Another correct view of an entry: a table from each source to how it is sent, looked up
once; a source the table lacks, and a user entry that is not text, send nothing.
"""


def _as_is(entry):
    return entry


def _users(entry):
    return entry if type(entry.get("content")) is str else None


def _harness(entry):
    return note_message(entry["content"]) if entry["role"] == "note" else None


_SEND = {"user": _users, "model": _as_is, "tool": _as_is, "harness": _harness}


def sent_as(entry):
    send = _SEND.get(source_of(entry))
    return None if send is None else send(entry)
