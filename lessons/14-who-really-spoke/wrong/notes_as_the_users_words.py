"""Sends a note of the harness as a plain user message, its words unmarked: the view says the
user typed what the harness wrote.

Fails: test_each_entry_is_sent_as_what_it_is
"""


def sent_as(entry):
    source = source_of(entry)
    if source == "user":
        return entry if isinstance(entry.get("content"), str) else None
    if source in ("model", "tool"):
        return entry
    if source == "harness" and entry["role"] == "note":
        return {"role": "user", "content": entry["content"]}
    return None
